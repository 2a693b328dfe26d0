//! Trains the NNUE evaluation (`src/eval/nnue/`) on `gensfen` data and writes a network
//! file the engine embeds (`src/eval/nnue/hisha.nnue`) or loads with `setoption name EvalFile`.
//!
//! Data: PackedSfenValue files (`hisha gensfen`; score and result from the side to
//! move's view) or text files of lines `SFEN<TAB>score<TAB>result`, score and result
//! (1, 0.5, 0) from Black's point of view (`train_data` reads both). The target is `lambda * sigmoid(score / K) + (1 - lambda) * result`
//! from the side to move's view; the loss is the squared error of `sigmoid(eval / K)`.
//! A result of -1 marks a distillation position (`hisha-tools perturb`): its target is
//! `sigmoid(score / K)` alone, weighted by `--distill-weight`; such positions are never
//! used for validation.
//! Training is full-precision with Adam; each input row is factorised into a
//! bucket-specific row and a row shared by all king buckets (summed when exported), so
//! that rare (bucket, piece, square) inputs learn from the common case.
//!
//! `--hidden-layers` adds the hidden layers (`train_mlp`) after the accumulator; their
//! output is added to the linear one, and their last layer starts at zero, so that a
//! network trained without them is the starting point of one trained with them.
//!
//! Validation holds out whole games (PSV) or blocks of lines (text). Every epoch writes
//! a checkpoint (`OUT.last`, and `--checkpoints DIR/epoch-NNN.nnue`); the best network
//! by validation loss goes to `--out`, judged on the file's rounded weights (what the
//! engine plays; a fine-tune's small steps partly round away, see docs/nnue.md), and each
//! epoch's line shows both losses. A progress line shows each epoch's advance.
//!
//! Usage: hisha-tools train-nnue --out net.nnue [--epochs N] ... DATA...

use hisha::eval::nnue::{self, FEATURES, HIDDEN, INPUTS, MAX_ACTIVE, OUTPUT_BUCKETS, OUTPUT_SCALE, QA, QB};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use std::io::Write;

use crate::npy;
use crate::train_mlp::{self, Trace};
use crate::train_data;
use crate::train_samples::{load, Data, Sample};
use std::time::Instant;

/// Arguments of `train-nnue`.
#[derive(clap::Args)]
pub struct Args {
    /// Output network file (rewritten after every epoch that improves the validation loss).
    #[arg(long)]
    out: String,
    /// Data files: PackedSfenValue (`hisha gensfen`) or text lines (older gensfen).
    #[arg(required = true)]
    data: Vec<String>,
    /// Passes over the data.
    #[arg(long, default_value_t = 30)]
    epochs: usize,
    /// Adam step size.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Weight of the search score against the game result in the target.
    #[arg(long, default_value_t = 0.75)]
    lambda: f32,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Sigmoid scale in centipawns (0: fitted to the data).
    #[arg(long, default_value_t = 0.0)]
    k: f32,
    /// Positions with a search score beyond this are skipped.
    #[arg(long, default_value_t = 3000)]
    max_score: i32,
    /// Fraction of positions held out for validation, in whole games (PSV files) or
    /// blocks of consecutive lines (text), so that no game is split between training
    /// and validation.
    #[arg(long, default_value_t = 0.02)]
    holdout: f64,
    /// Validate on this file (game positions never trained on) instead of held-out blocks.
    #[arg(long)]
    val: Option<String>,
    /// Start from this network (its exported weights become the shared-free rows).
    #[arg(long)]
    init: Option<String>,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Train only the rows shared by all king buckets (a network without buckets).
    #[arg(long)]
    shared_only: bool,
    /// Loss weight of distillation positions (result -1) against game positions.
    #[arg(long, default_value_t = 0.5)]
    distill_weight: f32,
    /// Learn the hand-made evaluation instead of the recorded scores and results.
    #[arg(long)]
    distill: bool,
    /// Decoupled weight decay of the first layer (AdamW), per step and unit step size.
    #[arg(long, default_value_t = 0.0)]
    wd: f32,
    /// Output buckets: 1 (one output layer) or the engine's number (one output layer for
    /// each count of pieces in hand, see `nnue::output_bucket`). A one-layer `--init`
    /// network starts with its layer copied to every bucket. Round 7 with 8 buckets
    /// played even with 1 bucket (docs/nnue.md), so 1 is the default.
    #[arg(long, default_value_t = 1)]
    output_buckets: usize,
    /// Add hidden layers after the accumulator (kept if `--init` has them already).
    #[arg(long)]
    hidden_layers: bool,
    /// Adam step size of the hidden layers (scheduled like `--lr`).
    #[arg(long, default_value_t = 0.001)]
    hidden_lr: f32,
    /// Add the left-right reflection of every training position whose king stands on
    /// file 5 (the inputs mirror the other files already; see `mirror`).
    #[arg(long)]
    mirror: bool,
    /// Train each position at the end of its quiescence search's line, with the stored
    /// score (see `leaf`).
    #[arg(long)]
    qsearch_leaf: bool,
    /// Also keep every epoch's network in this folder (`epoch-NNN.nnue`).
    #[arg(long)]
    checkpoints: Option<String>,
    /// Seconds between progress lines within an epoch.
    #[arg(long, default_value_t = 10)]
    progress: u64,
    /// Write the loaded positions (features, scores, results, output buckets, which are
    /// held out) as NumPy arrays in this folder for `scripts/train_gpu.py`, and stop.
    #[arg(long)]
    export: Option<String>,
}

pub(crate) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The K for which `sigmoid(score / K)` best predicts the results.
fn fit_k(data: &Data) -> f32 {
    let err = |k: f32| -> f64 {
        data.samples
            .par_iter()
            .filter(|s| s.result >= 0.0)
            .map(|s| ((sigmoid(s.score / k) - s.result) as f64).powi(2))
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (100.0f32, 5000.0f32);
    for _ in 0..40 {
        let m1 = lo + (hi - lo) / 3.0;
        let m2 = hi - (hi - lo) / 3.0;
        if err(m1) < err(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    (lo + hi) / 2.0
}

/// Rows of the first layer: every (bucket, feature) input, then one shared row per feature.
const ROWS: usize = INPUTS + FEATURES;

struct Params {
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// Output weights, `2 * HIDDEN` per output bucket.
    w2: Vec<f32>,
    /// Output bias of each output bucket.
    b2: Vec<f32>,
    /// The hidden layers (`train_mlp`'s layout), if the network has them.
    mlp: Option<Vec<f32>>,
}

impl Params {
    fn zeros(buckets: usize) -> Params {
        Params { w1: vec![0.0; ROWS * HIDDEN], b1: vec![0.0; HIDDEN], w2: vec![0.0; buckets * 2 * HIDDEN], b2: vec![0.0; buckets], mlp: None }
    }

    fn random(seed: u64, buckets: usize) -> Params {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut p = Params::zeros(buckets);
        for x in p.w1[INPUTS * HIDDEN..].iter_mut() {
            *x = rng.gen_range(-0.06..0.06);
        }
        for x in p.b1.iter_mut() {
            *x = 0.25;
        }
        for x in p.w2.iter_mut() {
            *x = rng.gen_range(-0.05..0.05);
        }
        p
    }

    /// The weights of a network file, as bucket rows (the shared rows start at zero);
    /// a network with one output layer gets it copied to each of `buckets`.
    fn from_net(path: &str, buckets: usize) -> Result<Params, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        Params::from_bytes(&bytes, buckets).map_err(|e| format!("{path}: {e}"))
    }

    /// The weights of a network file's bytes, as `from_net`.
    fn from_bytes(bytes: &[u8], buckets: usize) -> Result<Params, String> {
        let net = nnue::Network::from_bytes(bytes).map_err(|e| e.to_string())?;
        let have = net.output_buckets();
        if have != 1 && have != buckets {
            return Err(format!("{have} output buckets, --output-buckets is {buckets}"));
        }
        let (b1, w1, w2, bias) = net.weights();
        let mut p = Params::zeros(buckets);
        let qa = QA as f32;
        for (dst, &x) in p.b1.iter_mut().zip(b1).chain(p.w1.iter_mut().zip(w1)) {
            *dst = x as f32 / qa;
        }
        let per = 2 * HIDDEN;
        for (i, dst) in p.w2.iter_mut().enumerate() {
            let b = (i / per).min(have - 1);
            *dst = w2[b * per + i % per] as f32 / QB as f32;
        }
        for (i, dst) in p.b2.iter_mut().enumerate() {
            *dst = bias[i.min(have - 1)] as f32 / (QA * QB) as f32;
        }
        p.mlp = net.mlp().map(train_mlp::from_engine);
        Ok(p)
    }

    fn export(&self) -> Result<Vec<u8>, String> {
        let qa = QA as f32;
        let q = |x: f32, s: f32| (x * s).round().clamp(-32767.0, 32767.0) as i16;
        let b1: Vec<i16> = self.b1.iter().map(|&x| q(x, qa)).collect();
        let mut w1 = vec![0i16; INPUTS * HIDDEN];
        for r in 0..INPUTS {
            let shared = INPUTS + r % FEATURES;
            for i in 0..HIDDEN {
                w1[r * HIDDEN + i] = q(self.w1[r * HIDDEN + i] + self.w1[shared * HIDDEN + i], qa);
            }
        }
        let w2: Vec<i16> = self.w2.iter().map(|&x| q(x, QB as f32)).collect();
        let b2: Vec<i32> = self.b2.iter().map(|&x| (x * (QA * QB) as f32).round() as i32).collect();
        let mlp = self.mlp.as_deref().map(train_mlp::to_engine).transpose()?;
        Ok(nnue::Network::to_bytes_with(&b1, &w1, &w2, &b2, mlp.as_ref()))
    }

    /// The output bucket a sample uses (0 with a single output layer).
    fn bucket(&self, s: &Sample) -> usize {
        if self.b2.len() == 1 {
            0
        } else {
            s.bucket as usize
        }
    }
}

/// Gradient buffers of one thread.
struct Grad {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    /// The hidden layers' gradient (empty without them).
    mlp: Vec<f32>,
    loss: f64,
}

impl Grad {
    fn new(buckets: usize, mlp_params: usize) -> Grad {
        Grad { w1: vec![0.0; ROWS * HIDDEN], b1: vec![0.0; HIDDEN], w2: vec![0.0; buckets * 2 * HIDDEN], b2: vec![0.0; buckets], mlp: vec![0.0; mlp_params], loss: 0.0 }
    }

    fn clear(&mut self) {
        self.w1.par_chunks_mut(1 << 16).for_each(|c| c.fill(0.0));
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.b2.fill(0.0);
        self.mlp.fill(0.0);
        self.loss = 0.0;
    }
}

/// Set by `--shared-only`: the bucket rows are left out (stay zero).
static SHARED_ONLY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The first-layer rows of input `f`: its bucket's row and the shared row.
#[inline(always)]
fn rows_of(f: usize) -> impl Iterator<Item = usize> {
    let shared_only = SHARED_ONLY.load(std::sync::atomic::Ordering::Relaxed);
    [f, INPUTS + f % FEATURES].into_iter().skip(shared_only as usize)
}

#[inline(always)]
fn accumulate(p: &Params, feats: &[u16], acc: &mut [f32; HIDDEN]) {
    acc.copy_from_slice(&p.b1);
    for &f in feats {
        for r in rows_of(f as usize) {
            let row = &p.w1[r * HIDDEN..(r + 1) * HIDDEN];
            for i in 0..HIDDEN {
                acc[i] += row[i];
            }
        }
    }
}

/// Forward pass: the network's output in centipawns, with both accumulators and the
/// hidden layers' activations.
fn forward(p: &Params, d: &Data, s: &Sample, a: &mut [f32; HIDDEN], b: &mut [f32; HIDDEN], trace: &mut Trace) -> f32 {
    let st = s.start as usize;
    let fa = &d.feats[st..st + s.n_us as usize];
    let fb = &d.feats[st + s.n_us as usize..st + s.n_us as usize + s.n_them as usize];
    accumulate(p, fa, a);
    accumulate(p, fb, b);
    let bucket = p.bucket(s);
    let w2 = &p.w2[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN];
    let mut y = p.b2[bucket];
    for i in 0..HIDDEN {
        y += a[i].clamp(0.0, 1.0) * w2[i] + b[i].clamp(0.0, 1.0) * w2[HIDDEN + i];
    }
    if let Some(mlp) = &p.mlp {
        y += train_mlp::forward(mlp, a, b, trace);
    }
    y * OUTPUT_SCALE as f32
}

fn target(s: &Sample, k: f32, lambda: f32) -> f32 {
    blended_target(s.score, s.result, k, lambda)
}

/// The training target of a search score and game result (side to move's view):
/// `lambda * sigmoid(score / k) + (1 - lambda) * result`, or the score alone for a
/// distillation position (result -1).
pub(crate) fn blended_target(score: f32, result: f32, k: f32, lambda: f32) -> f32 {
    if result < 0.0 {
        sigmoid(score / k)
    } else {
        lambda * sigmoid(score / k) + (1.0 - lambda) * result
    }
}

fn backward(p: &Params, d: &Data, s: &Sample, k: f32, lambda: f32, distill_weight: f32, g: &mut Grad) {
    let mut a = [0f32; HIDDEN];
    let mut b = [0f32; HIDDEN];
    let mut trace = Trace::new();
    let y = forward(p, d, s, &mut a, &mut b, &mut trace);
    let pr = sigmoid(y / k);
    let t = target(s, k, lambda);
    let w = if s.result < 0.0 { distill_weight } else { 1.0 };
    g.loss += w as f64 * ((pr - t) as f64).powi(2);
    // d loss / d (float output before scaling)
    let dy = w * 2.0 * (pr - t) * pr * (1.0 - pr) * OUTPUT_SCALE as f32 / k;
    let bucket = p.bucket(s);
    g.b2[bucket] += dy;
    // d loss / d clipped accumulator entry through the hidden layers.
    let mut dx = [0f32; 2 * HIDDEN];
    if let Some(mlp) = &p.mlp {
        train_mlp::backward(mlp, &trace, dy, &mut g.mlp, &mut dx);
    }
    let out = bucket * 2 * HIDDEN;
    let st = s.start as usize;
    let halves: [(&[f32; HIDDEN], &[u16], usize); 2] = [
        (&a, &d.feats[st..st + s.n_us as usize], 0),
        (&b, &d.feats[st + s.n_us as usize..st + s.n_us as usize + s.n_them as usize], HIDDEN),
    ];
    for (acc, feats, off) in halves {
        let mut da = [0f32; HIDDEN];
        for i in 0..HIDDEN {
            let h = acc[i];
            g.w2[out + off + i] += dy * h.clamp(0.0, 1.0);
            if h > 0.0 && h < 1.0 {
                da[i] = dy * p.w2[out + off + i] + dx[off + i];
            }
        }
        for (b, d) in g.b1.iter_mut().zip(&da) {
            *b += d;
        }
        for &f in feats {
            for r in rows_of(f as usize) {
                let row = &mut g.w1[r * HIDDEN..(r + 1) * HIDDEN];
                for i in 0..HIDDEN {
                    row[i] += da[i];
                }
            }
        }
    }
}

struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n], t: 0 }
    }
}

const B1: f32 = 0.9;
const B2: f32 = 0.999;
const EPS: f32 = 1e-8;

#[allow(clippy::too_many_arguments)]
fn adam_step(w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], lr: f32, t: i32, scale: f32, wd: f32) {
    let c1 = 1.0 - B1.powi(t);
    let c2 = 1.0 - B2.powi(t);
    let step = lr * c2.sqrt() / c1;
    const CH: usize = 1 << 14;
    w.par_chunks_mut(CH)
        .zip(g.par_chunks(CH))
        .zip(m.par_chunks_mut(CH))
        .zip(v.par_chunks_mut(CH))
        .for_each(|(((w, g), m), v)| {
            for i in 0..w.len() {
                let gi = g[i] * scale;
                m[i] = B1 * m[i] + (1.0 - B1) * gi;
                v[i] = B2 * v[i] + (1.0 - B2) * gi * gi;
                w[i] -= step * m[i] / (v[i].sqrt() + EPS) + lr * wd * w[i];
            }
        });
}

fn validate(p: &Params, d: &Data, idx: &[usize], k: f32, lambda: f32) -> (f64, f64, f64) {
    let (l, le, lr) = idx
        .par_iter()
        .map(|&i| {
            let s = &d.samples[i];
            let mut a = [0f32; HIDDEN];
            let mut b = [0f32; HIDDEN];
            let pr = sigmoid(forward(p, d, s, &mut a, &mut b, &mut Trace::new()) / k);
            (
                ((pr - target(s, k, lambda)) as f64).powi(2),
                ((pr - sigmoid(s.score / k)) as f64).powi(2),
                ((pr - s.result) as f64).powi(2),
            )
        })
        .reduce(|| (0.0, 0.0, 0.0), |x, y| (x.0 + y.0, x.1 + y.1, x.2 + y.2));
    let n = idx.len().max(1) as f64;
    (l / n, le / n, lr / n)
}

/// Loads the data (validation file first), fits K and splits training from validation.
fn prepare(args: &Args) -> Result<(Data, f32, Vec<usize>, Vec<usize>), String> {
    let t0 = Instant::now();
    let mut files = args.data.clone();
    if let Some(v) = &args.val {
        files.insert(0, v.clone());
    }
    let mut data = load(&files, args.max_score, args.mirror, args.qsearch_leaf)?;
    if args.distill {
        for s in &mut data.samples {
            s.score = s.classical;
            s.result = 0.5;
        }
    }
    let n = data.samples.len();
    if n < 100 {
        return Err(format!("only {n} usable positions"));
    }
    let k = if args.k > 0.0 { args.k } else { fit_k(&data) };
    eprintln!("{n} positions loaded in {:.1}s; K = {k:.0}", t0.elapsed().as_secs_f64());
    // Hold out whole games (PSV) or blocks of consecutive lines (text).
    let every = ((1.0 / args.holdout.clamp(1e-4, 0.5)).round() as u32).max(2);
    // With --val, its positions come first (and win the duplicate check).
    let held_out = |s: &Sample| {
        s.result >= 0.0 && if args.val.is_some() { s.from_first_file } else { s.group % every == every / 2 }
    };
    // The reflections of held-out positions are neither trained on nor validated.
    data.samples.retain(|s| !(s.mirrored && held_out(s)));
    let n = data.samples.len();
    let (val, train): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| held_out(&data.samples[i]));
    if val.is_empty() || train.is_empty() {
        return Err(format!("too few games (or blocks of {} lines) to hold out whole ones", train_data::TEXT_BLOCK));
    }
    eprintln!("{} training and {} validation positions", train.len(), val.len());
    Ok((data, k, val, train))
}

/// Prints the validation loss of the hand-made evaluation, for comparison.
fn report_classical(data: &Data, val: &[usize], k: f32, lambda: f32) {
    let (mut l, mut le, mut lr) = (0f64, 0f64, 0f64);
    for &i in val {
        let s = &data.samples[i];
        let pr = sigmoid(s.classical / k);
        l += ((pr - target(s, k, lambda)) as f64).powi(2);
        le += ((pr - sigmoid(s.score / k)) as f64).powi(2);
        lr += ((pr - s.result) as f64).powi(2);
    }
    let nv = val.len() as f64;
    eprintln!("classical eval: validation loss {:.5} (vs score {:.5}, vs result {:.5})", l / nv, le / nv, lr / nv);
}

/// Gradient buffers per thread and the optimiser's state.
struct Trainer {
    grads: Vec<Grad>,
    adam_w1: Adam,
    adam_b1: Adam,
    adam_w2: Adam,
    adam_b2: Adam,
    adam_mlp: Adam,
}

impl Trainer {
    fn new(buckets: usize, mlp_params: usize) -> Trainer {
        let threads = rayon::current_num_threads().max(1);
        Trainer {
            grads: (0..threads).map(|_| Grad::new(buckets, mlp_params)).collect(),
            adam_w1: Adam::new(ROWS * HIDDEN),
            adam_b1: Adam::new(HIDDEN),
            adam_w2: Adam::new(buckets * 2 * HIDDEN),
            adam_b2: Adam::new(buckets),
            adam_mlp: Adam::new(mlp_params),
        }
    }

    /// One Adam step on `batch`; returns the batch's summed loss.
    #[allow(clippy::too_many_arguments)]
    fn step(&mut self, p: &mut Params, data: &Data, batch: &[usize], k: f32, args: &Args, lr: f32, hidden_lr: f32) -> f64 {
        let per = batch.len().div_ceil(self.grads.len());
        self.grads.iter_mut().for_each(|g| g.clear());
        self.grads.par_iter_mut().zip(batch.par_chunks(per)).for_each(|(g, part)| {
            for &i in part {
                backward(p, data, &data.samples[i], k, args.lambda, args.distill_weight, g);
            }
        });
        let (first, rest) = self.grads.split_at_mut(1);
        let g0 = &mut first[0];
        for g in rest.iter() {
            g0.w1.par_chunks_mut(1 << 14).zip(g.w1.par_chunks(1 << 14)).for_each(|(a, b)| {
                for i in 0..a.len() {
                    a[i] += b[i];
                }
            });
            for i in 0..HIDDEN {
                g0.b1[i] += g.b1[i];
            }
            for (a, b) in g0.w2.iter_mut().zip(&g.w2).chain(g0.b2.iter_mut().zip(&g.b2)).chain(g0.mlp.iter_mut().zip(&g.mlp)) {
                *a += b;
            }
            g0.loss += g.loss;
        }
        let scale = 1.0 / batch.len() as f32;
        self.adam_w1.t += 1;
        self.adam_b1.t += 1;
        self.adam_w2.t += 1;
        let t = self.adam_w1.t;
        adam_step(&mut p.w1, &g0.w1, &mut self.adam_w1.m, &mut self.adam_w1.v, lr, t, scale, args.wd);
        adam_step(&mut p.b1, &g0.b1, &mut self.adam_b1.m, &mut self.adam_b1.v, lr, t, scale, 0.0);
        adam_step(&mut p.w2, &g0.w2, &mut self.adam_w2.m, &mut self.adam_w2.v, lr, t, scale, 0.0);
        adam_step(&mut p.b2, &g0.b2, &mut self.adam_b2.m, &mut self.adam_b2.v, lr, t, scale, 0.0);
        if let Some(mlp) = &mut p.mlp {
            adam_step(mlp, &g0.mlp, &mut self.adam_mlp.m, &mut self.adam_mlp.v, hidden_lr, t, scale, 0.0);
            train_mlp::clip(mlp);
        }
        g0.loss
    }
}

/// `epoch N/M  P% (done/total positions), rate, ETA of the epoch, running loss`.
fn progress_line(epoch: usize, epochs: usize, done: usize, total: usize, secs: f64, loss: f64) -> String {
    let rate = done as f64 / secs.max(1e-3);
    let left = (total - done.min(total)) as f64 / rate.max(1e-9);
    format!(
        "epoch {epoch}/{epochs} {:.0}% ({done}/{total} positions), {rate:.0} positions/s, epoch ETA {:.0}s, train loss so far {:.5}",
        100.0 * done as f64 / total.max(1) as f64,
        left,
        loss / done.max(1) as f64
    )
}

/// Writes `bytes` to `path` through a temporary file and a rename, so that a stopped
/// run never leaves a half-written network.
pub(crate) fn write_atomically(path: &str, bytes: &[u8]) -> Result<(), String> {
    let tmp = format!("{path}.tmp");
    std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|_| f.sync_all()))
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {path}: {e}"))
}

/// The epoch's checkpoint: `OUT.last`, and `epoch-NNN.nnue` in `--checkpoints`.
fn checkpoint(args: &Args, epoch: usize, bytes: &[u8]) -> Result<(), String> {
    write_atomically(&format!("{}.last", args.out), bytes)?;
    if let Some(dir) = &args.checkpoints {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {dir}: {e}"))?;
        write_atomically(&format!("{dir}/epoch-{epoch:03}.nnue"), bytes)?;
    }
    Ok(())
}

/// Feature slot of a side with fewer than `MAX_ACTIVE` active inputs, in `--export`.
const PAD: u16 = u16::MAX;

/// Writes the loaded positions for an outside trainer: `us.npy` and `them.npy` (the
/// side to move's and the other side's active inputs, `MAX_ACTIVE` per position, padded
/// with `PAD`), `score.npy`, `result.npy` (-1: a distillation position), `bucket.npy`
/// (output bucket), `val.npy` (1: held out), and `meta.json` with K and the network's
/// sizes and scales, so that the trainer can check it builds what this engine reads.
fn export_tensors(data: &Data, k: f32, val: &[usize], dir: &std::path::Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let n = data.samples.len();
    let (mut us, mut them) = (vec![PAD; n * MAX_ACTIVE], vec![PAD; n * MAX_ACTIVE]);
    for (i, s) in data.samples.iter().enumerate() {
        let (st, a, b) = (s.start as usize, s.n_us as usize, s.n_them as usize);
        us[i * MAX_ACTIVE..i * MAX_ACTIVE + a].copy_from_slice(&data.feats[st..st + a]);
        them[i * MAX_ACTIVE..i * MAX_ACTIVE + b].copy_from_slice(&data.feats[st + a..st + a + b]);
    }
    let mut held_out = vec![0u8; n];
    val.iter().for_each(|&i| held_out[i] = 1);
    let column = |f: fn(&Sample) -> f32| -> Vec<f32> { data.samples.iter().map(f).collect() };
    npy::write(&dir.join("us.npy"), &[n, MAX_ACTIVE], &us)?;
    npy::write(&dir.join("them.npy"), &[n, MAX_ACTIVE], &them)?;
    npy::write(&dir.join("score.npy"), &[n], &column(|s| s.score))?;
    npy::write(&dir.join("result.npy"), &[n], &column(|s| s.result))?;
    npy::write(&dir.join("bucket.npy"), &[n], &data.samples.iter().map(|s| s.bucket).collect::<Vec<u8>>())?;
    npy::write(&dir.join("val.npy"), &[n], &held_out)?;
    let meta = format!(
        "{{\"k\": {k}, \"positions\": {n}, \"validation\": {}, \"inputs\": {INPUTS}, \"features\": {FEATURES}, \"hidden\": {HIDDEN}, \"max_active\": {MAX_ACTIVE}, \"pad\": {PAD}, \"output_buckets\": {OUTPUT_BUCKETS}, \"qa\": {QA}, \"qb\": {QB}, \"output_scale\": {OUTPUT_SCALE}, \"l1\": {}, \"l2\": {}, \"qh\": {}, \"max_weight\": {}, \"max_bias\": {}}}\n",
        val.len(),
        nnue::L1,
        nnue::L2,
        nnue::QH,
        nnue::MAX_WEIGHT,
        nnue::MAX_BIAS
    );
    std::fs::write(dir.join("meta.json"), meta).map_err(|e| format!("cannot write {}: {e}", dir.display()))?;
    eprintln!("{n} positions ({} held out) written to {} for scripts/train_gpu.py", val.len(), dir.display());
    Ok(())
}

/// Trains, checkpoints every epoch and writes the network after every epoch that
/// improves the validation loss.
pub fn run(args: Args) -> Result<(), String> {
    let t0 = Instant::now();
    let buckets = args.output_buckets;
    if buckets != 1 && buckets != OUTPUT_BUCKETS {
        return Err(format!("--output-buckets must be 1 or {OUTPUT_BUCKETS}, not {buckets}"));
    }
    let (data, k, val, mut train) = prepare(&args)?;
    if let Some(dir) = &args.export {
        return export_tensors(&data, k, &val, std::path::Path::new(dir));
    }
    let mut rng = rand::rngs::SmallRng::seed_from_u64(args.seed);
    let mut p = match &args.init {
        Some(path) => Params::from_net(path, buckets)?,
        None => Params::random(args.seed, buckets),
    };
    if args.hidden_layers && p.mlp.is_none() {
        p.mlp = Some(train_mlp::fresh(args.seed));
    }
    let mut trainer = Trainer::new(buckets, p.mlp.as_ref().map_or(0, Vec::len));
    SHARED_ONLY.store(args.shared_only, std::sync::atomic::Ordering::Relaxed);
    report_classical(&data, &val, k, args.lambda);
    let (v0, ve0, vr0) = validate(&p, &data, &val, k, args.lambda);
    eprintln!("start: validation loss {v0:.5} (vs score {ve0:.5}, vs result {vr0:.5})");
    let mut best = f64::INFINITY;
    for epoch in 0..args.epochs {
        let decay = if epoch >= args.epochs * 17 / 20 {
            0.09
        } else if epoch >= args.epochs * 3 / 5 {
            0.3
        } else {
            1.0
        };
        let (lr, hidden_lr) = (args.lr * decay, args.hidden_lr * decay);
        train.shuffle(&mut rng);
        let te = Instant::now();
        let mut train_loss = 0f64;
        let mut shown = Instant::now();
        let batch_size = args.batch.max(1);
        for (b, batch) in train.chunks(batch_size).enumerate() {
            train_loss += trainer.step(&mut p, &data, batch, k, &args, lr, hidden_lr);
            if shown.elapsed().as_secs() >= args.progress.max(1) {
                let done = ((b + 1) * batch_size).min(train.len());
                eprintln!("{}", progress_line(epoch + 1, args.epochs, done, train.len(), te.elapsed().as_secs_f64(), train_loss));
                shown = Instant::now();
            }
        }
        let (vl, ve, vr) = validate(&p, &data, &val, k, args.lambda);
        let bytes = p.export()?;
        // What the engine plays: the file's rounded weights (first layer in steps of 1/QA).
        let (vq, _, _) = validate(&Params::from_bytes(&bytes, buckets)?, &data, &val, k, args.lambda);
        eprintln!(
            "epoch {:3} lr {lr:.5} train {:.5} validation {vl:.5} (vs score {ve:.5}, vs result {vr:.5}; the file: {vq:.5}) {:.1}s",
            epoch + 1,
            train_loss / train.len() as f64,
            te.elapsed().as_secs_f64()
        );
        let vl = vq;
        checkpoint(&args, epoch + 1, &bytes)?;
        if vl >= best {
            continue;
        }
        best = vl;
        write_atomically(&args.out, &bytes)?;
    }
    eprintln!("best validation loss {best:.5}, written to {} ({:.0}s in all)", args.out, t0.elapsed().as_secs_f64());
    if args.init.is_some() && best >= v0 {
        eprintln!("warning: no epoch improved on the starting network's validation loss {v0:.5}: the data teach it nothing new at this step size");
    }
    Ok(())
}
