//! The hidden layer of the output networks: the dot products of the two
//! clipped accumulators with each of a bucket's [`LAYER2`] rows of weights,
//! the costliest step of an evaluation.
//!
//! Written as plain Rust the compiler vectorises each dot product on its
//! own, ending each with a horizontal sum. On x86-64 processors with AVX2
//! (Intel since 2013, AMD since 2015) [`sums`] runs a kernel instead that
//! multiplies and adds sixteen pairs at a time, four rows side by side, and
//! sums horizontally once per four rows; it is chosen at run time, and a
//! build for AVX2 (`-C target-cpu=native` on such a processor) calls it
//! without asking. Both give the same sums: integer sums are exact (and
//! wrap alike).

use super::{HIDDEN, LAYER2};

/// Both sides' clipped accumulator values, the side to move's first.
pub(super) type Inputs = [i16; 2 * HIDDEN];
/// One output network's hidden-layer weights, a row per hidden value.
pub(super) type Rows = [[i16; 2 * HIDDEN]; LAYER2];

/// The dot product of `inputs` with each row of `rows`, in 32 bits.
#[inline]
pub(super) fn sums(inputs: &Inputs, rows: &Rows) -> [i32; LAYER2] {
    #[cfg(target_arch = "x86_64")]
    if avx2::available() {
        return avx2::sums(inputs, rows);
    }
    portable_sums(inputs, rows)
}

/// [`sums`] as plain Rust, for any processor.
fn portable_sums(inputs: &Inputs, rows: &Rows) -> [i32; LAYER2] {
    std::array::from_fn(|row| {
        inputs.iter().zip(&rows[row]).fold(0i32, |sum, (x, w)| sum.wrapping_add(i32::from(*x) * i32::from(*w)))
    })
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm_add_epi32, _mm_extract_epi32, _mm256_add_epi32, _mm256_castsi256_si128, _mm256_extracti128_si256,
        _mm256_hadd_epi32, _mm256_loadu_si256, _mm256_madd_epi16, _mm256_setzero_si256,
    };

    use super::{Inputs, LAYER2, Rows};

    /// Values of a 256-bit vector of `i16`.
    const LANES: usize = 16;
    /// Vectors in a row.
    const CHUNKS: usize = 2 * super::HIDDEN / LANES;
    /// Rows summed side by side.
    const GROUP: usize = 4;
    const _: () = assert!((2 * super::HIDDEN).is_multiple_of(LANES) && LAYER2.is_multiple_of(GROUP));

    /// Whether this processor has AVX2 (the standard library asks it once
    /// and keeps the answer; a build for AVX2 does not ask).
    #[inline(always)]
    pub(super) fn available() -> bool {
        cfg!(target_feature = "avx2") || std::arch::is_x86_feature_detected!("avx2")
    }

    /// [`super::sums`] with AVX2, once [`available`] has said yes.
    #[inline(always)]
    pub(super) fn sums(inputs: &Inputs, rows: &Rows) -> [i32; LAYER2] {
        debug_assert!(available());
        // SAFETY: the only condition for calling a `#[target_feature]`
        // function is that the processor has the feature, which the caller
        // checked with `available` (a build for AVX2, or the processor's
        // own answer through `is_x86_feature_detected!`).
        unsafe { sums_avx2(inputs, rows) }
    }

    /// The 16 values of `values` from `chunk * LANES` on, as a vector.
    #[inline(always)]
    fn load(values: &[i16; 2 * super::HIDDEN], chunk: usize) -> __m256i {
        let lanes = &values[chunk * LANES..(chunk + 1) * LANES];
        // SAFETY: `lanes` is 16 `i16`, the 32 bytes an unaligned load reads.
        unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) }
    }

    #[target_feature(enable = "avx2")]
    fn sums_avx2(inputs: &Inputs, rows: &Rows) -> [i32; LAYER2] {
        let mut sums = [0i32; LAYER2];
        for (group, out) in rows.chunks_exact(GROUP).zip(sums.chunks_exact_mut(GROUP)) {
            // Eight partial sums per row, each of pairs of products.
            let mut partial = [_mm256_setzero_si256(); GROUP];
            for chunk in 0..CHUNKS {
                let x = load(inputs, chunk);
                for (partial, row) in partial.iter_mut().zip(group) {
                    *partial = _mm256_add_epi32(*partial, _mm256_madd_epi16(x, load(row, chunk)));
                }
            }
            // Rows 0 and 1, then 2 and 3, summed pairwise, then once more:
            // each 128-bit half holds the four rows' sums of its half.
            let pairs =
                _mm256_hadd_epi32(_mm256_hadd_epi32(partial[0], partial[1]), _mm256_hadd_epi32(partial[2], partial[3]));
            let total = _mm_add_epi32(_mm256_castsi256_si128(pairs), _mm256_extracti128_si256::<1>(pairs));
            out.copy_from_slice(&[
                _mm_extract_epi32::<0>(total),
                _mm_extract_epi32::<1>(total),
                _mm_extract_epi32::<2>(total),
                _mm_extract_epi32::<3>(total),
            ]);
        }
        sums
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A xorshift sequence of `i16`s.
    fn numbers(seed: u64) -> impl Iterator<Item = i16> {
        std::iter::successors(Some(seed), |&x| {
            let x = x ^ (x << 13);
            let x = x ^ (x >> 7);
            Some(x ^ (x << 17))
        })
        .map(|x| (x >> 20) as i16)
    }

    fn cases() -> Vec<(Box<Inputs>, Box<Rows>)> {
        let mut cases = Vec::new();
        for seed in 1..=20u64 {
            let mut values = numbers(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            // Clipped inputs as the evaluation makes them: 0 to 512, many 0.
            let inputs: Inputs = std::array::from_fn(|_| values.next().expect("endless").clamp(-300, 512).max(0));
            let rows: Rows = std::array::from_fn(|_| std::array::from_fn(|_| values.next().expect("endless")));
            cases.push((Box::new(inputs), Box::new(rows)));
        }
        // The extremes: every product as large as it gets, of either sign.
        cases.push((Box::new([512; 2 * HIDDEN]), Box::new([[i16::MAX; 2 * HIDDEN]; LAYER2])));
        cases.push((Box::new([512; 2 * HIDDEN]), Box::new([[i16::MIN; 2 * HIDDEN]; LAYER2])));
        cases.push((Box::new([0; 2 * HIDDEN]), Box::new([[i16::MIN; 2 * HIDDEN]; LAYER2])));
        cases
    }

    #[test]
    fn the_sums_are_the_dot_products() {
        for (inputs, rows) in cases() {
            let sums = sums(&inputs, &rows);
            for (row, sum) in rows.iter().zip(sums) {
                let exact: i64 = inputs.iter().zip(row).map(|(x, w)| i64::from(*x) * i64::from(*w)).sum();
                assert_eq!(sum, exact as i32, "the 32-bit dot product, wrapped");
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_vector_kernel_gives_the_portable_sums() {
        if !avx2::available() {
            return;
        }
        for (inputs, rows) in cases() {
            assert_eq!(avx2::sums(&inputs, &rows), portable_sums(&inputs, &rows));
        }
    }
}
