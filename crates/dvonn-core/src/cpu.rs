//! The bit instructions of the processor the program runs on, chosen at run
//! time: [`with_fast_bits`].
//!
//! Bitboard code counts bits (`count_ones`) and finds the lowest set bit
//! (`trailing_zeros`) in its inner loops. Built for the default x86-64
//! target, as `cargo install` and dependent crates build it, those compile
//! to a dozen instructions each instead of one `popcnt` or `tzcnt`. The hot
//! kernels (perft's counts of the last plies, the evaluation) run through
//! [`with_fast_bits`], which compiles them a second time for the instructions
//! of current x86-64 processors and picks that copy when the processor has
//! them, so such a build runs nearly as fast as one for `target-cpu=native`.

/// Runs `kernel` and returns its result. On x86-64 processors with the bit
/// instructions of the last decade (`popcnt`, BMI1, BMI2, `lzcnt`), `kernel`
/// runs compiled for them, even in a build for the default x86-64 target;
/// elsewhere it runs as the build compiled it. The check is one load of a
/// cached flag; a build that enables those instructions already (`-C
/// target-cpu=native`) has no check at all.
///
/// The two copies are the same code, so the results are the same; only the
/// speed differs. `kernel` should be marked `#[inline(always)]` and call
/// `#[inline(always)]` functions: only code inlined into it gets the
/// instructions. Run a batch of work (a whole evaluation, the leaves below
/// a node), not a single count: the kernel is not inlined into its caller.
///
/// ```
/// use dvonn_core::{Position, cpu::with_fast_bits};
/// let position: Position = "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m".parse().unwrap();
/// let moves = with_fast_bits(#[inline(always)] || position.count_legal_moves());
/// assert_eq!(moves, 49);
/// ```
#[inline(always)]
pub fn with_fast_bits<R>(kernel: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if x86::has_fast_bits() {
        return x86::run_with_fast_bits(kernel);
    }
    kernel()
}

/// Whether [`with_fast_bits`] runs its kernels compiled for the processor's
/// bit instructions (always false off x86-64).
pub fn has_fast_bits() -> bool {
    #[cfg(target_arch = "x86_64")]
    return x86::has_fast_bits();
    #[cfg(not(target_arch = "x86_64"))]
    false
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86 {
    use std::sync::atomic::{AtomicU8, Ordering};

    /// [`has_fast_bits`]'s answer: 0 not asked yet, 1 no, 2 yes.
    static FAST_BITS: AtomicU8 = AtomicU8::new(0);

    // The instructions the kernels are compiled for: `popcnt` for
    // `count_ones`, BMI1 (`tzcnt`, `blsr`) for `trailing_zeros` and clearing
    // the lowest bit, BMI2 (`shlx`, `shrx`) for variable shifts, `lzcnt`.
    // Every x86-64 processor since 2013 (Intel Haswell, AMD Excavator) has
    // them. The list is written three times: in `has_fast_bits`, `detect`
    // and `with_features`.

    /// Whether this processor has the features.
    #[inline(always)]
    pub(super) fn has_fast_bits() -> bool {
        if cfg!(all(
            target_feature = "popcnt",
            target_feature = "bmi1",
            target_feature = "bmi2",
            target_feature = "lzcnt"
        )) {
            return true;
        }
        match FAST_BITS.load(Ordering::Relaxed) {
            0 => detect(),
            known => known == 2,
        }
    }

    #[cold]
    fn detect() -> bool {
        let fast = std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt");
        FAST_BITS.store(if fast { 2 } else { 1 }, Ordering::Relaxed);
        fast
    }

    /// Runs `kernel` with the bit instructions, once [`has_fast_bits`] has
    /// said the processor has them.
    #[inline(always)]
    pub(super) fn run_with_fast_bits<R>(kernel: impl FnOnce() -> R) -> R {
        debug_assert!(has_fast_bits());
        // SAFETY: the only condition for calling a `#[target_feature]`
        // function is that the processor has the features it enables, and
        // the caller checked that with `has_fast_bits` (which asked the
        // processor, through `is_x86_feature_detected!`, for each of them).
        unsafe { with_features(kernel) }
    }

    /// `kernel`, compiled (with what is inlined into it) for the features.
    ///
    /// # Safety
    ///
    /// The processor must have the features (see [`has_fast_bits`]).
    // An `unsafe fn` rather than a safe `#[target_feature]` one: those need
    // Rust 1.86, and the crates support 1.85.
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    unsafe fn with_features<R>(kernel: impl FnOnce() -> R) -> R {
        kernel()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kernel_gives_the_same_result_either_way() {
        let bits = 0x0123_4567_89AB_CDEF_u64;
        let count =
            || (0..64).map(|shift| (bits >> shift).count_ones() + (bits << shift).trailing_zeros()).sum::<u32>();
        assert_eq!(with_fast_bits(count), count());
        // Asked twice: once detected, once from the cache.
        assert_eq!(has_fast_bits(), has_fast_bits());
    }
}
