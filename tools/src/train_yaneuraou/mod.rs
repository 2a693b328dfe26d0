//! Trains a network in YaneuraOu's NNUE format (`halfkp_256x2-32-32` or
//! `k_p_256x2-32-32`) on `gensfen` data, so that the project's own networks can be
//! played by YaneuraOu and by Hisha (`setoption name EvalFile` or `EvalDir`), and the
//! two searches compared on one evaluation.
//!
//! Data and target as `train-nnue`: PackedSfenValue or text files, the target
//! `lambda * sigmoid(score / K) + (1 - lambda) * result` from the side to move's view,
//! the squared error of `sigmoid(eval / K)`; whole games held out for validation.
//! Adam with a cosine learning-rate schedule; the HalfKP transformer rows are
//! factorised (`model`). Every epoch writes `OUT.last`; the network whose rounded
//! weights (the file, evaluated by the engine's own reader) have the lowest validation
//! loss goes to `--out`.
//!
//! Usage: hisha-tools train-yaneuraou --features halfkp --out nn.bin [--epochs N] DATA...

mod model;

use crate::train_data::{self, Input};
use crate::train_data::parse_input;
use crate::train_nnue::{blended_target, sigmoid, write_atomically};
use crate::train_samples::duplicate_key;
use hisha::eval::nnue::yaneuraou::{FeatureSet, MAX_ACTIVE};
use hisha::eval::nnue::{Accumulator, Network};
use hisha::position::Position;
use model::{Adam, Grad, Model, Trace, OUTPUT_CP};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;
use std::collections::HashSet;
use std::time::Instant;

/// Arguments of `train-yaneuraou`.
#[derive(clap::Args)]
pub struct Args {
    /// Output network file (YaneuraOu's `nn.bin` format).
    #[arg(long)]
    out: String,
    /// Feature set: `halfkp` (halfkp_256x2-32-32) or `kp` (k_p_256x2-32-32).
    #[arg(long, default_value = "halfkp")]
    features: String,
    /// Data files: PackedSfenValue (`hisha gensfen`) or text lines.
    #[arg(required = true)]
    data: Vec<String>,
    /// Passes over the data.
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Adam step size at the start (a cosine schedule takes it to 5% at the end).
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Weight of the search score against the game result in the target.
    #[arg(long, default_value_t = 0.75)]
    lambda: f32,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 8192)]
    batch: usize,
    /// Sigmoid scale in centipawns.
    #[arg(long, default_value_t = 600.0)]
    k: f32,
    /// Positions with a search score beyond this are skipped.
    #[arg(long, default_value_t = 3000)]
    max_score: i32,
    /// Fraction of games held out for validation.
    #[arg(long, default_value_t = 0.02)]
    holdout: f64,
    /// Neurons of the two hidden layers.
    #[arg(long, default_value_t = 32)]
    hidden1: usize,
    #[arg(long, default_value_t = 32)]
    hidden2: usize,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The loaded positions: each one's inputs (side to move's, then the other side's).
struct Data {
    feats: Vec<u32>,
    /// (start, inputs of the side to move, of the other side, score, result, held out)
    samples: Vec<Sample>,
}

struct Sample {
    start: u32,
    n_us: u8,
    n_them: u8,
    score: f32,
    result: f32,
    val: bool,
    pos: Option<Box<Position>>,
}

impl Data {
    fn inputs(&self, s: &Sample) -> (&[u32], &[u32]) {
        let st = s.start as usize;
        let mid = st + s.n_us as usize;
        (&self.feats[st..mid], &self.feats[mid..mid + s.n_them as usize])
    }
}

fn load(args: &Args, features: FeatureSet) -> Result<Data, String> {
    let mut seen = HashSet::new();
    let inputs: Vec<Input> = train_data::read_inputs(&args.data)?.into_iter().filter(|i| seen.insert(duplicate_key(i))).collect();
    eprintln!("{} distinct positions", inputs.len());
    let cut = (args.holdout * 1e6) as u64;
    let parsed: Vec<Option<(Vec<u32>, Sample)>> = inputs
        .par_iter()
        .map(|input| {
            let Some((pos, score, result)) = parse_input(input, &args.data, args.max_score)? else { return Ok(None) };
            let stm = pos.side_to_move();
            let (mut a, mut b) = ([0usize; MAX_ACTIVE], [0usize; MAX_ACTIVE]);
            let na = features.active(&pos, stm, &mut a);
            let nb = features.active(&pos, stm.flip(), &mut b);
            let v: Vec<u32> = a[..na].iter().chain(&b[..nb]).map(|&x| x as u32).collect();
            let val = input.group % 1_000_000 < cut && result >= 0.0;
            let pos = val.then(|| Box::new(pos));
            Ok(Some((v, Sample { start: 0, n_us: na as u8, n_them: nb as u8, score: score as f32, result, val, pos })))
        })
        .collect::<Result<_, String>>()?;
    let (feats, samples) = crate::train_samples::pack(parsed.into_iter().flatten(), |s, start| s.start = start);
    Ok(Data { feats, samples })
}

fn target(s: &Sample, k: f32, lambda: f32) -> f32 {
    blended_target(s.score, s.result, k, lambda)
}

/// One position's loss, and its gradient added to `g`.
fn train_one(m: &Model, d: &Data, s: &Sample, args: &Args, g: &mut Grad) {
    let (us, them) = d.inputs(s);
    let mut t = Trace::new();
    let y = m.forward(us, them, &mut t);
    let p = sigmoid(y * OUTPUT_CP / args.k);
    let err = p - target(s, args.k, args.lambda);
    g.loss += (err * err) as f64;
    let dy = 2.0 * err * p * (1.0 - p) * OUTPUT_CP / args.k;
    m.backward(us, them, &t, dy, g);
}

/// Validation loss of the float network and of the written file (evaluated by the
/// engine's reader, in integers).
fn validate(m: &Model, file: &[u8], d: &Data, val: &[usize], args: &Args) -> Result<(f64, f64), String> {
    let net = Network::from_bytes(file).map_err(|e| e.0)?;
    let (lf, lq) = val
        .par_iter()
        .map(|&i| {
            let s = &d.samples[i];
            let (us, them) = d.inputs(s);
            let t = target(s, args.k, args.lambda);
            let y = m.forward(us, them, &mut Trace::new()) * OUTPUT_CP;
            let Some(pos) = &s.pos else { return (0.0, 0.0) };
            let mut acc = Accumulator::default();
            acc.refresh(&net, pos);
            let q = net.evaluate(&acc, pos) as f32;
            let l = |e: f32| ((sigmoid(e / args.k) - t) as f64).powi(2);
            (l(y), l(q))
        })
        .reduce(|| (0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    let n = val.len().max(1) as f64;
    Ok((lf / n, lq / n))
}

pub fn run(args: Args) -> Result<(), String> {
    let features = match args.features.as_str() {
        "halfkp" => FeatureSet::HalfKp,
        "kp" => FeatureSet::KP,
        other => return Err(format!("--features {other}: halfkp or kp")),
    };
    let max = hisha::eval::nnue::yaneuraou::MAX_HIDDEN;
    if !(1..=max).contains(&args.hidden1) || !(1..=max).contains(&args.hidden2) || args.batch == 0 {
        return Err(format!("hidden layers of 1 to {max} neurons and a batch of at least 1"));
    }
    let d = load(&args, features)?;
    let (val, mut train): (Vec<usize>, Vec<usize>) = (0..d.samples.len()).partition(|&i| d.samples[i].val);
    eprintln!("{} training positions, {} validation positions", train.len(), val.len());
    if train.is_empty() {
        return Err("no training positions".into());
    }
    let mut model = Model::new(features, args.hidden1, args.hidden2, args.seed);
    let mut adam = Adam::new(&model);
    let threads = rayon::current_num_threads().max(1);
    let mut grads: Vec<Grad> = (0..threads).map(|_| Grad::new(&model)).collect();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(args.seed);
    let mut best = f64::INFINITY;
    let steps_total = (args.epochs * train.len().div_ceil(args.batch)) as f32;
    let mut step = 0f32;
    for epoch in 1..=args.epochs {
        let started = Instant::now();
        train.shuffle(&mut rng);
        let mut loss = 0.0;
        for batch in train.chunks(args.batch) {
            let lr = args.lr * (0.05 + 0.95 * 0.5 * (1.0 + (std::f32::consts::PI * step / steps_total).cos()));
            step += 1.0;
            let share = batch.len().div_ceil(threads);
            grads.par_iter_mut().zip(batch.par_chunks(share)).for_each(|(g, part)| {
                for &i in part {
                    train_one(&model, &d, &d.samples[i], &args, g);
                }
            });
            loss += grads.iter().map(|g| g.loss).sum::<f64>();
            adam.step(&mut model, &mut grads, lr, 1.0 / batch.len() as f32);
            grads.par_iter_mut().for_each(model::clear);
        }
        let file = model.quantise()?;
        write_atomically(&format!("{}.last", args.out), &file)?;
        let (vf, vq) = validate(&model, &file, &d, &val, &args)?;
        let improved = vq < best;
        if improved {
            best = vq;
            write_atomically(&args.out, &file)?;
        }
        eprintln!(
            "epoch {epoch}/{}: train {:.6}, validation {vf:.6} (file {vq:.6}){} [{:.0} s]",
            args.epochs,
            loss / train.len() as f64,
            if improved { ", written" } else { "" },
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
