//! The optional hidden layers after the accumulator: both perspectives' clipped
//! accumulators (`2 * HIDDEN` inputs) -> `L1` -> `L2` -> 1, clipped ReLU between
//! layers, added to the linear output (a skip connection). A network trained without
//! them gains them with the last layer at zero and evaluates exactly as before, so the
//! trainer can start from it. The first hidden layer runs in AVX2 multiply-add
//! instructions where the CPU has them (a plain-Rust copy otherwise, and for the tests).
//! Uses `features` and `accumulator` (the CPU check).

use super::*;

/// Neurons of the first hidden layer.
pub const L1: usize = 16;
/// Neurons of the second hidden layer.
pub const L2: usize = 32;
/// Scale of the hidden layers' weights: a float weight of 1.0 is `QH`. Activations keep
/// the accumulator's scale `QA`, so each layer's sum is at `QA * QH`.
pub const QH: i32 = 1024;
/// The largest float weight the trainer may give a hidden layer, so that no sum can
/// leave `i32` (`2 * HIDDEN * QA * QH * MAX_WEIGHT + MAX_BIAS < 2^31`).
pub const MAX_WEIGHT: f32 = 7.9;
/// The largest quantised hidden weight a network file may hold.
const MAX_QWEIGHT: i16 = (MAX_WEIGHT * QH as f32) as i16;
/// The largest quantised hidden bias a network file may hold (about 1000.0 as a float).
pub const MAX_BIAS: i32 = 1 << 28;

/// Weights of the hidden layers, in the order they are stored: the first layer's
/// weights (`L1` rows of `2 * HIDDEN`, side to move's half first), the second's (`L2`
/// rows of `L1`), the last's (`L2`), then the biases (`L1`, `L2`, 1), at `QA * QH`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mlp {
    w1: Vec<i16>,
    w2: Vec<i16>,
    w3: Vec<i16>,
    b1: Vec<i32>,
    b2: Vec<i32>,
    b3: i32,
}

/// Number of i16 weights, then of i32 biases, of the hidden layers.
pub const MLP_WEIGHTS: usize = L1 * 2 * HIDDEN + L2 * L1 + L2;
pub const MLP_BIASES: usize = L1 + L2 + 1;

impl Mlp {
    /// The hidden layers from their weights and biases in storage order.
    pub fn from_parts(weights: &[i16], biases: &[i32]) -> Result<Mlp, NetError> {
        if weights.len() != MLP_WEIGHTS || biases.len() != MLP_BIASES {
            return Err(NetError(format!(
                "hidden layers have {} weights and {} biases, {MLP_WEIGHTS} and {MLP_BIASES} expected",
                weights.len(),
                biases.len()
            )));
        }
        if weights.iter().any(|w| w.unsigned_abs() > MAX_QWEIGHT as u16) || biases.iter().any(|b| b.unsigned_abs() > MAX_BIAS as u32) {
            return Err(NetError(format!("a hidden weight beyond {MAX_QWEIGHT} or bias beyond {MAX_BIAS}")));
        }
        let (w1, rest) = weights.split_at(L1 * 2 * HIDDEN);
        let (w2, w3) = rest.split_at(L2 * L1);
        let (b1, rest) = biases.split_at(L1);
        let (b2, b3) = rest.split_at(L2);
        Ok(Mlp { w1: w1.to_vec(), w2: w2.to_vec(), w3: w3.to_vec(), b1: b1.to_vec(), b2: b2.to_vec(), b3: b3[0] })
    }

    /// Weights and biases in storage order (for the file and the trainer).
    pub fn parts(&self) -> (Vec<i16>, Vec<i32>) {
        let w = self.w1.iter().chain(&self.w2).chain(&self.w3).copied().collect();
        let b = self.b1.iter().chain(&self.b2).copied().chain([self.b3]).collect();
        (w, b)
    }

    /// The hidden layers' output at `QA * QB`, the linear output's scale.
    #[inline(always)]
    pub fn forward(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { self.forward_avx2(us, them) };
        }
        self.forward_scalar(us, them)
    }

    /// `forward` in plain Rust, for CPUs without AVX2 and as the reference of the tests.
    #[inline(always)]
    pub(super) fn forward_scalar(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        let mut x = [0i16; 2 * HIDDEN];
        for i in 0..HIDDEN {
            x[i] = us[i].clamp(0, QA as i16);
            x[HIDDEN + i] = them[i].clamp(0, QA as i16);
        }
        let mut h1 = [0i16; L1];
        for (j, h) in h1.iter_mut().enumerate() {
            *h = activate(self.b1[j] + dot(&x, &self.w1[j * 2 * HIDDEN..(j + 1) * 2 * HIDDEN]));
        }
        self.tail(&h1)
    }

    /// `forward` with the first hidden layer (all but 2% of the work) in AVX2
    /// multiply-add instructions: 16 products of 16-bit numbers per instruction, summed
    /// in pairs into 32-bit lanes. The compiler's own vectorisation of `dot` multiplies
    /// in 32 bits, 8 products per instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn forward_avx2(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        use std::arch::x86_64::*;
        const LANES: usize = 16;
        const CHUNKS: usize = 2 * HIDDEN / LANES;
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
        let mut x = [zero; CHUNKS];
        for (c, half) in [us, them].into_iter().enumerate() {
            for i in 0..HIDDEN / LANES {
                // SAFETY: `i * LANES + LANES <= HIDDEN`, inside `half`; unaligned load.
                let a = _mm256_loadu_si256(half.as_ptr().add(i * LANES) as *const __m256i);
                x[c * HIDDEN / LANES + i] = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            }
        }
        // Eight neurons at a time, so that each input chunk is loaded once per group and
        // the eight sums stay in registers.
        const GROUP: usize = 8;
        let mut h1 = [0i16; L1];
        for g in 0..L1 / GROUP {
            let rows = &self.w1[g * GROUP * 2 * HIDDEN..(g + 1) * GROUP * 2 * HIDDEN];
            let mut sums = [zero; GROUP];
            for (i, xi) in x.iter().enumerate() {
                for (r, sum) in sums.iter_mut().enumerate() {
                    // SAFETY: `rows` holds GROUP rows of `2 * HIDDEN = CHUNKS * LANES`
                    // weights and `i < CHUNKS`; unaligned load.
                    let w = _mm256_loadu_si256(rows.as_ptr().add(r * 2 * HIDDEN + i * LANES) as *const __m256i);
                    *sum = _mm256_add_epi32(*sum, _mm256_madd_epi16(*xi, w));
                }
            }
            for (r, sum) in sums.into_iter().enumerate() {
                h1[g * GROUP + r] = activate(self.b1[g * GROUP + r] + horizontal_sum(sum));
            }
        }
        self.tail(&h1)
    }

    /// The second and last hidden layers, from the first one's activations.
    #[inline(always)]
    fn tail(&self, h1: &[i16; L1]) -> i32 {
        let mut h2 = [0i16; L2];
        for (j, h) in h2.iter_mut().enumerate() {
            *h = activate(self.b2[j] + dot(h1, &self.w2[j * L1..(j + 1) * L1]));
        }
        (self.b3 + dot(&h2, &self.w3)) / (QH / QB)
    }
}

/// Sum of the eight 32-bit lanes of an AVX2 register (wrapping, as the scalar sums would
/// if they could overflow, which the weight bound rules out).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn horizontal_sum(v: std::arch::x86_64::__m256i) -> i32 {
    use std::arch::x86_64::*;
    let s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
    _mm_cvtsi128_si32(s)
}

/// Clipped ReLU from a layer's sum (`QA * QH`) to an activation (`QA`), rounded to
/// the nearest step so that rounding errors do not all push the same way.
#[inline(always)]
fn activate(sum: i32) -> i16 {
    ((sum + QH / 2) / QH).clamp(0, QA) as i16
}

/// Dot product of activations and one row of weights, in eight lanes so that the
/// compiler turns it into multiply-add vector instructions.
#[inline(always)]
fn dot<const N: usize>(x: &[i16; N], w: &[i16]) -> i32 {
    let mut lanes = [0i32; 8];
    for (xc, wc) in x.chunks_exact(8).zip(w[..N].chunks_exact(8)) {
        for k in 0..8 {
            lanes[k] += xc[k] as i32 * wc[k] as i32;
        }
    }
    let tail: i32 = (N / 8 * 8..N).map(|i| x[i] as i32 * w[i] as i32).sum();
    lanes.iter().sum::<i32>() + tail
}
