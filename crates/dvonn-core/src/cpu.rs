//! The bit instructions of the processor the program runs on, chosen at run
//! time: [`with_fast_bits`].
//!
//! Bitboard code counts bits (`count_ones`) and finds the lowest set bit
//! (`trailing_zeros`) in its inner loops. Built for the default x86-64
//! target, as `cargo install` and dependent crates build it, those compile
//! to a dozen instructions each instead of one `popcnt` or `tzcnt`. The hot
//! kernels (perft's counts of the last plies, the evaluation of `dvonn-ai`)
//! run through [`with_fast_bits`], which compiles them a second time for the
//! instructions of current x86-64 processors and picks that copy when the
//! processor has them, so such a build runs nearly as fast as one for
//! `target-cpu=native`.
//!
//! This module is part of the crate's supported API, for any program that
//! runs its own kernels over [`Bitboard`](crate::Bitboard)s (an evaluation,
//! a move counter): `dvonn-ai` uses it as any such program would. The
//! bitboard and position methods such kernels call are `#[inline(always)]`
//! so that they compile into the kernel's copy.

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
    pub(super) static FAST_BITS: AtomicU8 = AtomicU8::new(0);

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
    /// Safe to call only where the processor has them: callers without
    /// the features enabled need `unsafe` and [`has_fast_bits`]'s word.
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    fn with_features<R>(kernel: impl FnOnce() -> R) -> R {
        kernel()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbers with every kind of bit pattern: a xorshift sequence, with
    /// the edge cases first.
    fn numbers() -> impl Iterator<Item = u64> {
        let edges = [0, 1, u64::MAX, 1 << 63, 0x8000_0000, 0x0123_4567_89AB_CDEF];
        let random = std::iter::successors(Some(0x9E37_79B9_7F4A_7C15_u64), |&x| {
            let x = x ^ (x << 13);
            let x = x ^ (x >> 7);
            Some(x ^ (x << 17))
        });
        edges.into_iter().chain(random.take(4096))
    }

    /// The bit operations the kernels use, summed over [`numbers`]: the
    /// instructions `with_fast_bits` compiles them to are `popcnt`,
    /// `tzcnt`, `lzcnt`, `blsr`, `shlx` and `shrx`.
    #[inline(always)]
    fn bit_operations() -> u64 {
        numbers()
            .map(|x| {
                let shift = x.count_ones() % 64;
                let lowest_cleared = x & x.wrapping_sub(1);
                u64::from(x.count_ones() + x.trailing_zeros() + x.leading_zeros())
                    ^ (x << shift)
                    ^ (x >> (63 - shift))
                    ^ lowest_cleared
            })
            .fold(0, u64::wrapping_add)
    }

    #[test]
    fn a_kernel_gives_the_same_result_either_way() {
        assert_eq!(with_fast_bits(bit_operations), bit_operations());
        let full_board: crate::Position =
            "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m".parse().expect("a position");
        let moves = with_fast_bits(
            #[inline(always)]
            || full_board.count_legal_moves(),
        );
        assert_eq!(moves, full_board.count_legal_moves());
        assert_eq!(moves, 49);
    }

    /// `has_fast_bits` says what the processor has, and a build for those
    /// instructions does not ask; a portable build asks once and keeps the
    /// answer.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_processor_is_asked_once_or_not_at_all() {
        let detected = std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt");
        let built_for_them = cfg!(all(
            target_feature = "popcnt",
            target_feature = "bmi1",
            target_feature = "bmi2",
            target_feature = "lzcnt"
        ));
        assert_eq!(has_fast_bits(), detected);
        let cached = x86::FAST_BITS.load(std::sync::atomic::Ordering::Relaxed);
        if built_for_them {
            assert_eq!(cached, 0, "a build for the instructions never asks the processor");
        } else {
            assert_eq!(cached, if detected { 2 } else { 1 }, "the answer is kept");
        }
        assert_eq!(has_fast_bits(), detected, "the kept answer");
    }

    #[cfg(not(target_arch = "x86_64"))]
    #[test]
    fn off_x86_64_kernels_run_as_built() {
        assert!(!has_fast_bits());
    }
}
