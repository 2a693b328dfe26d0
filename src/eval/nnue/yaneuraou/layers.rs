//! The layers after YaneuraOu's feature transformer: the accumulator clipped to 0..127
//! as bytes (side to move first), then affine layers of 8-bit weights and 32-bit
//! biases, each but the last followed by a clipped ReLU that shifts the sum right by
//! `WEIGHT_SCALE_BITS` and clips it to 0..127. The output divided by `FV_SCALE`
//! (truncated, as C++ divides) is the evaluation. The arithmetic is exact integer
//! arithmetic, so the AVX2 build and the portable one give the same numbers.

use super::columns::Columns;

/// The right shift after each hidden affine layer.
pub const WEIGHT_SCALE_BITS: u32 = 6;
/// Inputs of an affine layer are stored padded to a multiple of this.
pub const SIMD_WIDTH: usize = 32;
/// The largest hidden layer this reader takes.
pub const MAX_HIDDEN: usize = 64;

/// `n` rounded up to a multiple of `SIMD_WIDTH`.
pub const fn padded(n: usize) -> usize {
    n.div_ceil(SIMD_WIDTH) * SIMD_WIDTH
}

/// An affine layer: `outputs` rows of `padded(inputs)` weights each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Affine {
    pub inputs: usize,
    pub outputs: usize,
    pub bias: Vec<i32>,
    pub weights: Vec<i8>,
}

impl Affine {
    /// A layer of zeros.
    pub fn zeros(inputs: usize, outputs: usize) -> Affine {
        Affine { inputs, outputs, bias: vec![0; outputs], weights: vec![0; outputs * padded(inputs)] }
    }

    /// The row of output `o`, over the padded inputs.
    #[inline(always)]
    fn row(&self, o: usize) -> &[i8] {
        let p = padded(self.inputs);
        &self.weights[o * p..(o + 1) * p]
    }

    /// `out[o] = bias[o] + row(o) . x` for every output; `x` holds the padded inputs.
    #[inline(always)]
    fn forward(&self, x: &[u8], out: &mut [i32]) {
        let p = padded(self.inputs);
        let x = &x[..p];
        for (o, slot) in out[..self.outputs].iter_mut().enumerate() {
            let row = self.row(o);
            let mut sum = 0i32;
            for j in 0..p {
                sum += row[j] as i32 * x[j] as i32;
            }
            *slot = self.bias[o] + sum;
        }
    }

    /// `forward` in AVX2: 32 byte products a step (`maddubs`: unsigned inputs of at
    /// most 127 times signed weights, summed in pairs; a pair stays within 16 bits,
    /// |2 * 127 * -128| < 32768, so nothing saturates and the sums equal the scalar ones).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn forward_avx2(&self, x: &[u8], out: &mut [i32]) {
        use std::arch::x86_64::*;
        let p = padded(self.inputs);
        let x = &x[..p];
        let ones = _mm256_set1_epi16(1);
        for (o, slot) in out[..self.outputs].iter_mut().enumerate() {
            let row = self.row(o);
            let mut acc = _mm256_setzero_si256();
            for c in 0..p / SIMD_WIDTH {
                // SAFETY: `x` and `row` hold `p` bytes, a multiple of 32, so each
                // 32-byte load at `32 * c < p` stays inside them (unaligned loads).
                let xv = _mm256_loadu_si256(x.as_ptr().add(c * SIMD_WIDTH) as *const __m256i);
                let wv = _mm256_loadu_si256(row.as_ptr().add(c * SIMD_WIDTH) as *const __m256i);
                acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(xv, wv), ones));
            }
            let half = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
            let quarter = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0b01_00_11_10));
            let one = _mm_add_epi32(quarter, _mm_shuffle_epi32(quarter, 0b10_11_00_01));
            *slot = self.bias[o] + _mm_cvtsi128_si32(one);
        }
    }
}

/// The clipped ReLU between layers.
#[inline(always)]
fn clipped_relu(sums: &[i32], out: &mut [u8]) {
    for (o, &s) in out.iter_mut().zip(sums) {
        *o = (s >> WEIGHT_SCALE_BITS).clamp(0, 127) as u8;
    }
}

/// The transformer's output: each half of `us` and `them` clipped to 0..127.
#[inline(always)]
fn transform(us: &[i16; 256], them: &[i16; 256], out: &mut [u8; 512]) {
    for j in 0..256 {
        out[j] = us[j].clamp(0, 127) as u8;
        out[256 + j] = them[j].clamp(0, 127) as u8;
    }
}

/// The hidden layers and the output layer of a network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layers {
    pub hidden1: Affine,
    pub hidden2: Affine,
    pub output: Affine,
    /// The hidden layers' column copies, for the sparse AVX2 pass where their shape
    /// fits it.
    columns: [Option<Columns>; 2],
}

impl Layers {
    /// The layers, with the hidden ones' column copies made.
    pub fn new(hidden1: Affine, hidden2: Affine, output: Affine) -> Layers {
        let columns = [Columns::of(&hidden1), Columns::of(&hidden2)];
        Layers { hidden1, hidden2, output, columns }
    }

    /// The raw output (before `FV_SCALE`) for accumulator halves `us` (side to move)
    /// and `them`, on the best code path this CPU has.
    #[inline]
    pub fn propagate(&self, us: &[i16; 256], them: &[i16; 256]) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if super::super::accumulator::has_avx2() {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { self.propagate_avx2(us, them) };
        }
        self.propagate_scalar(us, them)
    }

    /// `propagate` in AVX2; the hidden layers skip the inputs that are zero.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn propagate_avx2(&self, us: &[i16; 256], them: &[i16; 256]) -> i32 {
        // SAFETY: this function runs only where the CPU has AVX2.
        self.propagate_with(us, them, |a, columns, x, out| unsafe {
            match columns {
                Some(c) => c.forward_avx2(a, x, out),
                None => a.forward_avx2(x, out),
            }
        })
    }

    /// `propagate` on the baseline CPU (the tests compare the two).
    pub fn propagate_scalar(&self, us: &[i16; 256], them: &[i16; 256]) -> i32 {
        self.propagate_with(us, them, |a, _, x, out| a.forward(x, out))
    }

    /// The layers in turn, each computed by `affine` from the layer, its column copy
    /// (hidden layers whose shape has one) and its input.
    #[inline(always)]
    fn propagate_with(&self, us: &[i16; 256], them: &[i16; 256], affine: impl Fn(&Affine, Option<&Columns>, &[u8], &mut [i32])) -> i32 {
        let mut x = [0u8; 512];
        transform(us, them, &mut x);
        let mut sums = [0i32; MAX_HIDDEN];
        let mut h1 = [0u8; padded(MAX_HIDDEN)];
        affine(&self.hidden1, self.columns[0].as_ref(), &x, &mut sums);
        clipped_relu(&sums[..self.hidden1.outputs], &mut h1);
        let mut h2 = [0u8; padded(MAX_HIDDEN)];
        affine(&self.hidden2, self.columns[1].as_ref(), &h1, &mut sums);
        clipped_relu(&sums[..self.hidden2.outputs], &mut h2);
        let mut out = [0i32; 1];
        affine(&self.output, None, &h2, &mut out);
        out[0]
    }
}
