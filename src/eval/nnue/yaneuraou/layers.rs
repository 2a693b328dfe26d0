//! The layers after YaneuraOu's feature transformer: the accumulator clipped to 0..127
//! as bytes (side to move first), then affine layers of 8-bit weights and 32-bit
//! biases, each but the last followed by a clipped ReLU that shifts the sum right by
//! `WEIGHT_SCALE_BITS` and clips it to 0..127. The output divided by `FV_SCALE`
//! (truncated, as C++ divides) is the evaluation. The arithmetic is exact integer
//! arithmetic, so the AVX2 build and the portable one give the same numbers.

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
}

impl Layers {
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

    /// `propagate` compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn propagate_avx2(&self, us: &[i16; 256], them: &[i16; 256]) -> i32 {
        self.propagate_any(us, them)
    }

    /// `propagate` compiled for the baseline CPU (the tests compare the two).
    pub fn propagate_scalar(&self, us: &[i16; 256], them: &[i16; 256]) -> i32 {
        self.propagate_any(us, them)
    }

    #[inline(always)]
    fn propagate_any(&self, us: &[i16; 256], them: &[i16; 256]) -> i32 {
        let mut x = [0u8; 512];
        transform(us, them, &mut x);
        let mut sums = [0i32; MAX_HIDDEN];
        let mut h1 = [0u8; padded(MAX_HIDDEN)];
        self.hidden1.forward(&x, &mut sums);
        clipped_relu(&sums[..self.hidden1.outputs], &mut h1);
        let mut h2 = [0u8; padded(MAX_HIDDEN)];
        self.hidden2.forward(&h1, &mut sums);
        clipped_relu(&sums[..self.hidden2.outputs], &mut h2);
        let mut out = [0i32; 1];
        self.output.forward(&h2, &mut out);
        out[0]
    }
}
