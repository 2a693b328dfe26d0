//! The YaneuraOu network in floating point: the feature transformer (for HalfKP each
//! (king, piece) row is factorised into its own row plus a row of the piece shared by
//! every king square, summed at export), two clipped-ReLU hidden layers and the
//! output; forward and backward passes of one position, per-thread gradients that
//! remember which rows they touched, lazy Adam (rows untouched in a step stay as they
//! are), and quantisation into the engine's integers.
//!
//! Scales (those of YaneuraOu's and nnue-pytorch's files): an activation of 1.0 is 127,
//! a hidden weight of 1.0 is 64 (the layers shift right by 6), and the output, in units
//! of `OUTPUT_CP` centipawns, is divided by `FV_SCALE` = 16 in the engine.

use hisha::eval::nnue::yaneuraou::{self, padded, Affine, FeatureSet, Layers, FE_END, HALF};
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

/// Centipawns of one unit of the float output.
pub const OUTPUT_CP: f32 = 600.0;
/// Activation scale of the transformer and the hidden layers.
const QA: f32 = 127.0;
/// Weight scale of the hidden layers (`1 << WEIGHT_SCALE_BITS`).
const QW: f32 = 64.0;
/// Weight scale of the output layer: its integer output over `FV_SCALE` is centipawns.
const QO: f32 = OUTPUT_CP * yaneuraou::DEFAULT_FV_SCALE as f32 / QA;
const TRANSFORMED: usize = 2 * HALF;

/// Float parameters.
pub struct Model {
    pub features: FeatureSet,
    pub h1: usize,
    pub h2: usize,
    /// Transformer rows: the inputs, then (HalfKP) one shared row per BonaPiece.
    pub ft: Vec<f32>,
    /// The rest in one vector: transformer biases, W1, b1, W2, b2, W3, b3.
    pub dense: Vec<f32>,
}

/// Offsets into `Model::dense`.
#[derive(Clone, Copy)]
struct Layout {
    ftb: usize,
    w1: usize,
    b1: usize,
    w2: usize,
    b2: usize,
    w3: usize,
    b3: usize,
    len: usize,
}

impl Model {
    fn layout(&self) -> Layout {
        let ftb = 0;
        let w1 = ftb + HALF;
        let b1 = w1 + self.h1 * TRANSFORMED;
        let w2 = b1 + self.h1;
        let b2 = w2 + self.h2 * self.h1;
        let w3 = b2 + self.h2;
        let b3 = w3 + self.h2;
        Layout { ftb, w1, b1, w2, b2, w3, b3, len: b3 + 1 }
    }

    /// Rows of the transformer being trained.
    pub fn rows(features: FeatureSet) -> usize {
        features.inputs() + if features == FeatureSet::HalfKp { FE_END } else { 0 }
    }

    /// A fresh network.
    pub fn new(features: FeatureSet, h1: usize, h2: usize, seed: u64) -> Model {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let ft = (0..Model::rows(features) * HALF).map(|_| rng.gen_range(-0.05..0.05)).collect();
        let mut m = Model { features, h1, h2, ft, dense: Vec::new() };
        let l = m.layout();
        m.dense = vec![0.0; l.len];
        m.dense[l.ftb..l.w1].fill(0.3);
        let a1 = (3.0 / TRANSFORMED as f32).sqrt();
        let a2 = (3.0 / h1 as f32).sqrt();
        m.dense[l.w1..l.b1].iter_mut().for_each(|w| *w = rng.gen_range(-a1..a1));
        m.dense[l.b1..l.w2].fill(0.5);
        m.dense[l.w2..l.b2].iter_mut().for_each(|w| *w = rng.gen_range(-a2..a2));
        m.dense[l.b2..l.w3].fill(0.5);
        m
    }

    /// The rows input `f` trains.
    #[inline(always)]
    fn rows_of(&self, f: u32) -> ([usize; 2], usize) {
        let f = f as usize;
        match self.features {
            FeatureSet::HalfKp => ([f, self.features.inputs() + f % FE_END], 2),
            FeatureSet::KP => ([f, 0], 1),
        }
    }

    fn accumulate(&self, feats: &[u32], acc: &mut [f32; HALF]) {
        acc.copy_from_slice(&self.dense[..HALF]);
        for &f in feats {
            let (rows, n) = self.rows_of(f);
            for &r in &rows[..n] {
                for (a, w) in acc.iter_mut().zip(&self.ft[r * HALF..(r + 1) * HALF]) {
                    *a += w;
                }
            }
        }
    }

    /// The output (in units of `OUTPUT_CP`) of a position whose active inputs are
    /// `us` (side to move) and `them`, keeping the activations in `t`.
    pub fn forward(&self, us: &[u32], them: &[u32], t: &mut Trace) -> f32 {
        let l = self.layout();
        let (mut a, mut b) = ([0f32; HALF], [0f32; HALF]);
        self.accumulate(us, &mut a);
        self.accumulate(them, &mut b);
        t.acc[..HALF].copy_from_slice(&a);
        t.acc[HALF..].copy_from_slice(&b);
        for i in 0..TRANSFORMED {
            t.x[i] = t.acc[i].clamp(0.0, 1.0);
        }
        let d = &self.dense;
        layer(&t.x, &d[l.w1..l.b1], &d[l.b1..l.w2], &mut t.z1[..self.h1], &mut t.y1[..self.h1]);
        layer(&t.y1[..self.h1], &d[l.w2..l.b2], &d[l.b2..l.w3], &mut t.z2[..self.h2], &mut t.y2[..self.h2]);
        d[l.b3] + t.y2[..self.h2].iter().zip(&d[l.w3..l.b3]).map(|(a, b)| a * b).sum::<f32>()
    }

    /// Adds the gradient of `dy` (d loss / d output) for the position of `t` to `g`.
    pub fn backward(&self, us: &[u32], them: &[u32], t: &Trace, dy: f32, g: &mut Grad) {
        let l = self.layout();
        let (d, gd) = (&self.dense, &mut g.dense);
        gd[l.b3] += dy;
        let mut dz2 = [0f32; yaneuraou::MAX_HIDDEN];
        for j in 0..self.h2 {
            gd[l.w3 + j] += dy * t.y2[j];
            if t.z2[j] > 0.0 && t.z2[j] < 1.0 {
                dz2[j] = dy * d[l.w3 + j];
            }
        }
        let mut dz1 = [0f32; yaneuraou::MAX_HIDDEN];
        for j in (0..self.h2).filter(|&j| dz2[j] != 0.0) {
            gd[l.b2 + j] += dz2[j];
            for k in 0..self.h1 {
                gd[l.w2 + j * self.h1 + k] += dz2[j] * t.y1[k];
                dz1[k] += dz2[j] * d[l.w2 + j * self.h1 + k];
            }
        }
        let mut dx = [0f32; TRANSFORMED];
        for k in (0..self.h1).filter(|&k| t.z1[k] > 0.0 && t.z1[k] < 1.0 && dz1[k] != 0.0) {
            gd[l.b1 + k] += dz1[k];
            let row = l.w1 + k * TRANSFORMED;
            for i in 0..TRANSFORMED {
                gd[row + i] += dz1[k] * t.x[i];
                dx[i] += dz1[k] * d[row + i];
            }
        }
        for (half, feats) in [(0, us), (HALF, them)] {
            let mut da = [0f32; HALF];
            for i in 0..HALF {
                if t.acc[half + i] > 0.0 && t.acc[half + i] < 1.0 {
                    da[i] = dx[half + i];
                }
            }
            for (b, x) in g.dense[l.ftb..l.w1].iter_mut().zip(&da) {
                *b += x;
            }
            for &f in feats {
                let (rows, n) = self.rows_of(f);
                for &r in &rows[..n] {
                    g.touched[r] = true;
                    for (w, x) in g.ft[r * HALF..(r + 1) * HALF].iter_mut().zip(&da) {
                        *w += x;
                    }
                }
            }
        }
    }

    /// Keeps the weights where the engine's integers can hold them.
    pub fn clip(&mut self) {
        let l = self.layout();
        let hidden = 127.0 / QW;
        self.dense[l.w1..l.b1].iter_mut().for_each(|w| *w = w.clamp(-hidden, hidden));
        self.dense[l.w2..l.b2].iter_mut().for_each(|w| *w = w.clamp(-hidden, hidden));
        let out = 127.0 / QO;
        self.dense[l.w3..l.b3].iter_mut().for_each(|w| *w = w.clamp(-out, out));
    }

    /// The network file, in YaneuraOu's format.
    pub fn quantise(&self) -> Result<Vec<u8>, String> {
        let l = self.layout();
        let inputs = self.features.inputs();
        let round16 = |x: f32| (x * QA).round().clamp(-32767.0, 32767.0) as i16;
        let ft_bias: Vec<i16> = self.dense[l.ftb..l.w1].iter().map(|&x| round16(x)).collect();
        let ft_weights: Vec<i16> = (0..inputs * HALF)
            .into_par_iter()
            .map(|i| {
                let shared = if self.features == FeatureSet::HalfKp { self.ft[(inputs + (i / HALF) % FE_END) * HALF + i % HALF] } else { 0.0 };
                round16(self.ft[i] + shared)
            })
            .collect();
        let affine = |inputs: usize, outputs: usize, w: &[f32], b: &[f32], ws: f32, bs: f32| {
            let mut a = Affine::zeros(inputs, outputs);
            for o in 0..outputs {
                a.bias[o] = (b[o] * bs).round() as i32;
                for j in 0..inputs {
                    a.weights[o * padded(inputs) + j] = (w[o * inputs + j] * ws).round().clamp(-128.0, 127.0) as i8;
                }
            }
            a
        };
        let d = &self.dense;
        let layers = Layers::new(
            affine(TRANSFORMED, self.h1, &d[l.w1..l.b1], &d[l.b1..l.w2], QW, QW * QA),
            affine(self.h1, self.h2, &d[l.w2..l.b2], &d[l.b2..l.w3], QW, QW * QA),
            affine(self.h2, 1, &d[l.w3..l.b3], &d[l.b3..], QO, QO * QA),
        );
        yaneuraou::write(self.features, &ft_bias, &ft_weights, &layers).map_err(|e| e.0)
    }
}

fn layer(x: &[f32], w: &[f32], b: &[f32], z: &mut [f32], y: &mut [f32]) {
    for j in 0..z.len() {
        let row = &w[j * x.len()..(j + 1) * x.len()];
        z[j] = b[j] + x.iter().zip(row).map(|(a, b)| a * b).sum::<f32>();
        y[j] = z[j].clamp(0.0, 1.0);
    }
}

/// The activations of one forward pass.
pub struct Trace {
    acc: [f32; TRANSFORMED],
    x: [f32; TRANSFORMED],
    z1: [f32; yaneuraou::MAX_HIDDEN],
    y1: [f32; yaneuraou::MAX_HIDDEN],
    z2: [f32; yaneuraou::MAX_HIDDEN],
    y2: [f32; yaneuraou::MAX_HIDDEN],
}

impl Trace {
    pub fn new() -> Trace {
        let h = [0.0; yaneuraou::MAX_HIDDEN];
        Trace { acc: [0.0; TRANSFORMED], x: [0.0; TRANSFORMED], z1: h, y1: h, z2: h, y2: h }
    }
}

/// One thread's gradient: transformer rows (with which ones it touched) and the rest.
pub struct Grad {
    pub ft: Vec<f32>,
    pub touched: Vec<bool>,
    pub dense: Vec<f32>,
    pub loss: f64,
}

impl Grad {
    pub fn new(m: &Model) -> Grad {
        Grad { ft: vec![0.0; m.ft.len()], touched: vec![false; m.ft.len() / HALF], dense: vec![0.0; m.dense.len()], loss: 0.0 }
    }
}

/// Adam's moments of every parameter.
pub struct Adam {
    m_ft: Vec<f32>,
    v_ft: Vec<f32>,
    m_dense: Vec<f32>,
    v_dense: Vec<f32>,
    t: i32,
}

const B1: f32 = 0.9;
const B2: f32 = 0.999;
const EPS: f32 = 1e-8;

impl Adam {
    pub fn new(m: &Model) -> Adam {
        Adam { m_ft: vec![0.0; m.ft.len()], v_ft: vec![0.0; m.ft.len()], m_dense: vec![0.0; m.dense.len()], v_dense: vec![0.0; m.dense.len()], t: 0 }
    }

    /// One step with the sum of the threads' gradients, each scaled by `scale`; rows no
    /// thread touched keep their weights and moments. Clears the gradients.
    pub fn step(&mut self, model: &mut Model, grads: &mut [Grad], lr: f32, scale: f32) {
        self.t += 1;
        let step = lr * (1.0 - B2.powi(self.t)).sqrt() / (1.0 - B1.powi(self.t));
        let update = |w: &mut f32, g: f32, m: &mut f32, v: &mut f32| {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *w -= step * *m / (v.sqrt() + EPS);
        };
        for i in 0..model.dense.len() {
            let g: f32 = grads.iter().map(|gr| gr.dense[i]).sum::<f32>() * scale;
            update(&mut model.dense[i], g, &mut self.m_dense[i], &mut self.v_dense[i]);
        }
        grads.iter_mut().for_each(|gr| gr.dense.fill(0.0));
        let grads: &[Grad] = grads;
        model.ft.par_chunks_mut(HALF).zip(self.m_ft.par_chunks_mut(HALF)).zip(self.v_ft.par_chunks_mut(HALF)).enumerate().for_each(
            |(r, ((w, m), v))| {
                if !grads.iter().any(|gr| gr.touched[r]) {
                    return;
                }
                for i in 0..HALF {
                    let g: f32 = grads.iter().map(|gr| gr.ft[r * HALF + i]).sum::<f32>() * scale;
                    update(&mut w[i], g, &mut m[i], &mut v[i]);
                }
            },
        );
        model.clip();
    }
}

/// Clears the touched rows of a gradient (after a step).
pub fn clear(g: &mut Grad) {
    for (r, t) in g.touched.iter_mut().enumerate() {
        if *t {
            g.ft[r * HALF..(r + 1) * HALF].fill(0.0);
            *t = false;
        }
    }
    g.loss = 0.0;
}
