//! The hidden layers of the network (`nnue::Mlp`) in floating point, for `train-nnue
//! --hidden-layers`: parameters in one flat vector (so that one Adam state and one
//! gradient buffer serve them all), forward and backward passes of one position, and
//! conversion from and to the engine's quantised layers.
//!
//! Layout of the vector, as the engine stores them: first layer weights (`L1` rows of
//! `2 * HIDDEN`), second layer (`L2` rows of `L1`), last layer (`L2`), then the biases
//! (`L1`, `L2`, 1).

use hisha::eval::nnue::{Mlp, HIDDEN, L1, L2, MAX_BIAS, MAX_WEIGHT, MLP_BIASES, MLP_WEIGHTS, QA, QH};
use rand::{Rng, SeedableRng};

/// Number of float parameters.
pub const PARAMS: usize = MLP_WEIGHTS + MLP_BIASES;
const W1: usize = 0;
const W2: usize = W1 + L1 * 2 * HIDDEN;
const W3: usize = W2 + L2 * L1;
const B1: usize = W3 + L2;
const B2: usize = B1 + L1;
const B3: usize = B2 + L2;

/// The activations of one forward pass, kept for the backward pass.
pub struct Trace {
    x: [f32; 2 * HIDDEN],
    z1: [f32; L1],
    h1: [f32; L1],
    z2: [f32; L2],
    h2: [f32; L2],
}

/// New hidden layers: random first and second layers in their linear range, and a last
/// layer at zero, so that the network starts out evaluating exactly as without them.
pub fn fresh(seed: u64) -> Vec<f32> {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed ^ 0x9e37_79b9);
    let mut p = vec![0f32; PARAMS];
    let a1 = (3.0 / (2 * HIDDEN) as f32).sqrt();
    let a2 = (3.0 / L1 as f32).sqrt();
    p[W1..W2].iter_mut().for_each(|w| *w = rng.gen_range(-a1..a1));
    p[W2..W3].iter_mut().for_each(|w| *w = rng.gen_range(-a2..a2));
    p[B1..B3].iter_mut().for_each(|b| *b = 0.5);
    p
}

/// The float parameters of the engine's hidden layers.
pub fn from_engine(mlp: &Mlp) -> Vec<f32> {
    let (w, b) = mlp.parts();
    let scale = (QA * QH) as f32;
    w.iter().map(|&x| x as f32 / QH as f32).chain(b.iter().map(|&x| x as f32 / scale)).collect()
}

/// The engine's quantised hidden layers.
pub fn to_engine(p: &[f32]) -> Result<Mlp, String> {
    let w: Vec<i16> = p[..MLP_WEIGHTS].iter().map(|&x| (x.clamp(-MAX_WEIGHT, MAX_WEIGHT) * QH as f32).round() as i16).collect();
    let bound = MAX_BIAS as f32;
    let b: Vec<i32> = p[MLP_WEIGHTS..].iter().map(|&x| (x * (QA * QH) as f32).round().clamp(-bound, bound) as i32).collect();
    Mlp::from_parts(&w, &b).map_err(|e| e.0)
}

/// Keeps the weights where the engine can hold them.
pub fn clip(p: &mut [f32]) {
    p[..MLP_WEIGHTS].iter_mut().for_each(|w| *w = w.clamp(-MAX_WEIGHT, MAX_WEIGHT));
}

fn layer(x: &[f32], w: &[f32], b: &[f32], z: &mut [f32], h: &mut [f32]) {
    for j in 0..z.len() {
        let row = &w[j * x.len()..(j + 1) * x.len()];
        z[j] = b[j] + x.iter().zip(row).map(|(a, b)| a * b).sum::<f32>();
        h[j] = z[j].clamp(0.0, 1.0);
    }
}

/// The hidden layers' output (float, before `OUTPUT_SCALE`) from the two accumulators.
pub fn forward(p: &[f32], us: &[f32; HIDDEN], them: &[f32; HIDDEN], t: &mut Trace) -> f32 {
    for i in 0..HIDDEN {
        t.x[i] = us[i].clamp(0.0, 1.0);
        t.x[HIDDEN + i] = them[i].clamp(0.0, 1.0);
    }
    layer(&t.x, &p[W1..W2], &p[B1..B2], &mut t.z1, &mut t.h1);
    layer(&t.h1, &p[W2..W3], &p[B2..B3], &mut t.z2, &mut t.h2);
    p[B3] + t.h2.iter().zip(&p[W3..B1]).map(|(a, b)| a * b).sum::<f32>()
}

impl Trace {
    pub fn new() -> Trace {
        Trace { x: [0.0; 2 * HIDDEN], z1: [0.0; L1], h1: [0.0; L1], z2: [0.0; L2], h2: [0.0; L2] }
    }
}

/// Adds the gradient of `dy` (d loss / d output) to `g`, and returns d loss / d input
/// for each clipped accumulator entry (side to move's half first) in `dx`.
pub fn backward(p: &[f32], t: &Trace, dy: f32, g: &mut [f32], dx: &mut [f32; 2 * HIDDEN]) {
    g[B3] += dy;
    let mut dz2 = [0f32; L2];
    for j in 0..L2 {
        g[W3 + j] += dy * t.h2[j];
        if t.z2[j] > 0.0 && t.z2[j] < 1.0 {
            dz2[j] = dy * p[W3 + j];
        }
    }
    let mut dz1 = [0f32; L1];
    for (j, &d) in dz2.iter().enumerate().filter(|(_, d)| **d != 0.0) {
        g[B2 + j] += d;
        for k in 0..L1 {
            g[W2 + j * L1 + k] += d * t.h1[k];
            dz1[k] += d * p[W2 + j * L1 + k];
        }
    }
    dx.fill(0.0);
    for k in 0..L1 {
        if !(t.z1[k] > 0.0 && t.z1[k] < 1.0) || dz1[k] == 0.0 {
            continue;
        }
        let d = dz1[k];
        g[B1 + k] += d;
        let row = W1 + k * 2 * HIDDEN;
        for i in 0..2 * HIDDEN {
            g[row + i] += d * t.x[i];
            dx[i] += d * p[row + i];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gradient_matches_finite_differences() {
        let mut p = fresh(3);
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        p[W3..B1].iter_mut().for_each(|w| *w = rng.gen_range(-1.0..1.0));
        let us: [f32; HIDDEN] = std::array::from_fn(|_| rng.gen_range(-0.2..1.2));
        let them: [f32; HIDDEN] = std::array::from_fn(|_| rng.gen_range(-0.2..1.2));
        let mut t = Trace::new();
        forward(&p, &us, &them, &mut t);
        let mut g = vec![0f32; PARAMS];
        let mut dx = [0f32; 2 * HIDDEN];
        backward(&p, &t, 1.0, &mut g, &mut dx);
        let eps = 1e-3;
        for i in [W1 + 7, W1 + 300, W2 + 5, W3 + 2, B1 + 1, B2 + 4, B3] {
            let (mut hi, mut lo) = (p.clone(), p.clone());
            hi[i] += eps;
            lo[i] -= eps;
            let num = (forward(&hi, &us, &them, &mut Trace::new()) - forward(&lo, &us, &them, &mut Trace::new())) / (2.0 * eps);
            assert!((num - g[i]).abs() < 2e-3, "parameter {i}: numeric {num}, analytic {}", g[i]);
        }
    }

    #[test]
    fn engine_round_trip_keeps_the_weights() {
        let p = fresh(9);
        let back = from_engine(&to_engine(&p).unwrap());
        for (a, b) in p.iter().zip(&back) {
            assert!((a - b).abs() <= 0.5 / QH as f32 + 1e-6);
        }
    }
}
