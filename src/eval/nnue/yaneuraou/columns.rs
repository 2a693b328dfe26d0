//! The sparse AVX2 pass of YaneuraOu's hidden layers. After a clipped ReLU most inputs
//! are zero, so a layer is evaluated column by column over the non-zero 4-byte input
//! groups only: each group, broadcast, meets the column of its four weights for every
//! output. The sums are exact, equal to `Affine::forward`'s.

use super::layers::{padded, Affine, SIMD_WIDTH};

/// The largest padded input a column pass takes (the transformer's 512 outputs).
const MAX_INPUTS: usize = 512;
/// Input groups of 4 bytes in the largest input.
const MAX_GROUPS: usize = MAX_INPUTS / 4;

/// An affine layer's weights by 4-input column, with how far 16-bit sums may run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Columns {
    /// For each group of four inputs, the four weights of every output in turn.
    weights: Vec<i8>,
    /// How many groups may be summed in 16-bit lanes before widening them to 32 bits
    /// exactly: a group adds at most `2 * 127 * max|w|` to a lane (two byte products),
    /// so trained networks, whose weights are small, widen once every dozen groups.
    groups_per_widening: usize,
}

impl Columns {
    /// The column copy of `a`, or `None` when the pass does not fit its shape (outputs
    /// not 8, 16, 32 or 64, or inputs beyond 512).
    pub fn of(a: &Affine) -> Option<Columns> {
        let (p, outs) = (padded(a.inputs), a.outputs);
        if !matches!(outs, 8 | 16 | 32 | 64) || p > MAX_INPUTS {
            return None;
        }
        let mut weights = vec![0i8; outs * p];
        for c in 0..p / 4 {
            for o in 0..outs {
                for k in 0..4 {
                    weights[(c * outs + o) * 4 + k] = a.weights[o * p + 4 * c + k];
                }
            }
        }
        let max_weight = a.weights.iter().map(|w| w.unsigned_abs() as usize).max().unwrap_or(0);
        let groups_per_widening = (i16::MAX as usize / (2 * 127 * max_weight.max(1))).max(1);
        Some(Columns { weights, groups_per_widening })
    }

    /// `out[o] = bias[o] + row(o) . x` for every output of `a` (whose copy this is);
    /// `x` holds the padded inputs, each 0..127.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    pub unsafe fn forward_avx2(&self, a: &Affine, x: &[u8], out: &mut [i32]) {
        match a.outputs {
            8 => self.forward_rows::<1>(a, x, out),
            16 => self.forward_rows::<2>(a, x, out),
            32 => self.forward_rows::<4>(a, x, out),
            _ => self.forward_rows::<8>(a, x, out),
        }
    }

    /// `forward_avx2` for `8 * R` outputs.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn forward_rows<const R: usize>(&self, a: &Affine, x: &[u8], out: &mut [i32]) {
        use std::arch::x86_64::*;
        let p = padded(a.inputs);
        let x = &x[..p];
        let cols = &self.weights[..p * 8 * R];
        let mut active = [0u16; MAX_GROUPS];
        let n = non_zero_groups(x, &mut active);
        let (zero, ones) = (_mm256_setzero_si256(), _mm256_set1_epi16(1));
        let mut acc = [zero; R];
        for batch in active[..n].chunks(self.groups_per_widening) {
            let mut narrow = [zero; R];
            for &group in batch {
                let group = group as usize;
                // SAFETY: `group < p / 4`, so its 4 input bytes lie inside `x` and its
                // column of `32 * R` weights inside `cols` (`p * 8 * R` bytes).
                let xv = _mm256_set1_epi32((x.as_ptr().add(4 * group) as *const i32).read_unaligned());
                let col = cols.as_ptr().add(group * 32 * R) as *const __m256i;
                for (r, lanes) in narrow.iter_mut().enumerate() {
                    *lanes = _mm256_add_epi16(*lanes, _mm256_maddubs_epi16(xv, _mm256_loadu_si256(col.add(r))));
                }
            }
            for (wide, lanes) in acc.iter_mut().zip(narrow) {
                *wide = _mm256_add_epi32(*wide, _mm256_madd_epi16(lanes, ones));
            }
        }
        for (r, acc) in acc.iter().enumerate() {
            let mut lanes = [0i32; 8];
            // SAFETY: `lanes` is 32 bytes.
            _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, *acc);
            for (k, lane) in lanes.iter().enumerate() {
                out[8 * r + k] = a.bias[8 * r + k] + lane;
            }
        }
    }
}

/// For each 8-bit mask, the positions of its set bits, in order (Stockfish's look-up
/// for finding the non-zero inputs without a branch per input).
static SET_BITS: [[u16; 8]; 256] = {
    let mut table = [[0u16; 8]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut bit, mut n) = (0, 0);
        while bit < 8 {
            if mask & (1 << bit) != 0 {
                table[mask][n] = bit as u16;
                n += 1;
            }
            bit += 1;
        }
        mask += 1;
    }
    table
};

/// Writes the indices of the non-zero 4-byte groups of `x` (a multiple of 32 bytes of
/// values 0..127) to the front of `active` and returns how many there are. Each block
/// of 8 groups stores 8 indices, valid or not, from the count so far, which is at most
/// the 8 per block before it, so the stores stay inside `active`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn non_zero_groups(x: &[u8], active: &mut [u16; MAX_GROUPS]) -> usize {
    use std::arch::x86_64::*;
    let zero = _mm256_setzero_si256();
    let mut n = 0;
    for block in 0..x.len() / SIMD_WIDTH {
        // SAFETY: `32 * block + 32 <= x.len()`; unaligned load.
        let v = _mm256_loadu_si256(x.as_ptr().add(block * SIMD_WIDTH) as *const __m256i);
        // Values are 0..127, so a group read as i32 is positive unless all four are 0.
        let mask = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(v, zero))) as usize;
        let base = _mm_set1_epi16((block * 8) as i16);
        let indices = _mm_add_epi16(_mm_loadu_si128(SET_BITS[mask].as_ptr() as *const __m128i), base);
        // SAFETY: `x.len() <= MAX_INPUTS` (the callers' `p`), so `block < MAX_GROUPS / 8`
        // and `n <= 8 * block <= MAX_GROUPS - 8`: 8 slots from `n` fit in `active`;
        // unaligned store.
        _mm_storeu_si128(active.as_mut_ptr().add(n) as *mut __m128i, indices);
        n += mask.count_ones() as usize;
    }
    n
}
