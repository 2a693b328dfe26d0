//! Texel-style tuning of the evaluation weights on `gensfen` data.
//!
//! Every linear weight of the evaluation (material, hand, piece-square, king-relative
//! tables, exposure, danger scale and cap, mobility, tempo) is fitted by full-batch Adam
//! so that `sigmoid(eval / K)` predicts a blend of the game result and the search score;
//! an L2 pull towards the starting weights keeps rarely seen entries in place. The fitted
//! table is written as Rust source, ready to replace `src/eval/weights.rs`.
//!
//! Usage: hisha-tools tune EPOCHS LAMBDA OUT.rs DATA... [--lr X] [--reg X] [--min-count N]

use hisha::eval::{self, all_terms, Trace, NUM_PARAMS};
use hisha::position::Position;
use hisha::core::types::PieceType;
use rayon::prelude::*;
use std::io::Write;

/// A position as a sparse feature vector with its target.
struct Sample {
    start: usize,
    end: usize,
    target: f32,
    result: f32,
}

use crate::data;

/// Arguments of `tune`.
#[derive(clap::Args)]
pub struct Args {
    /// Full-batch Adam epochs.
    epochs: usize,
    /// Weight of the game result against the search score in the target.
    lambda: f32,
    /// Output Rust file (the weight table).
    out: String,
    /// Data files (gensfen format).
    #[arg(required = true)]
    data: Vec<String>,
    /// Adam step size.
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// L2 pull towards the starting weights.
    #[arg(long, default_value_t = 1e-9)]
    reg: f64,
    /// Weights seen in fewer training positions than this stay fixed (0: none).
    #[arg(long, default_value_t = 0)]
    min_count: usize,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The data as sparse feature vectors: position `i` has the terms
/// `idx[raw[i].0..raw[i].1]` with coefficients `coef[..]`, its score and its result.
struct Traced {
    idx: Vec<u32>,
    coef: Vec<f32>,
    raw: Vec<(usize, usize, i32, f32)>,
}

impl Traced {
    fn eval_of(&self, p: &[f32], s: usize, e: usize) -> f32 {
        (s..e).map(|j| self.coef[j] * p[self.idx[j] as usize]).sum()
    }
}

/// Reads and traces the data (each position once).
fn load(files: &[String], w0: &[i32]) -> Result<Traced, String> {
    let mut t = Traced { idx: Vec::new(), coef: Vec::new(), raw: Vec::new() };
    let mut seen = std::collections::HashSet::new();
    for (_, line) in data::data_lines(files)? {
        let mut it = line.split('\t');
        let (Some(sfen), Some(score), Some(result)) = (it.next(), it.next(), it.next()) else { continue };
        let (Ok(score), Ok(result)) = (score.parse::<i32>(), result.parse::<f32>()) else { continue };
        // The same position from different games would be counted twice.
        if !seen.insert(data::position_key(&line).to_string()) {
            continue;
        }
        let Ok(pos) = Position::from_sfen(sfen) else { continue };
        let mut tr = Trace { w: w0, terms: Vec::with_capacity(128) };
        all_terms(&pos, &mut tr);
        tr.terms.sort_unstable_by_key(|t| t.0);
        let start = t.idx.len();
        for (i, c) in tr.terms {
            match (t.idx.len() > start).then(|| t.idx.len() - 1) {
                Some(last) if t.idx[last] == i as u32 => t.coef[last] += c,
                _ => {
                    t.idx.push(i as u32);
                    t.coef.push(c);
                }
            }
        }
        t.raw.push((start, t.idx.len(), score, result));
    }
    eprintln!("{} positions, {} terms", t.raw.len(), t.idx.len());
    Ok(t)
}

/// The scale K that best fits `sigmoid(eval / K)` to the results.
fn fit_k(raw: &[(usize, usize, i32, f32)], evals: &[f32]) -> f32 {
    let mse = |k: f32| -> f64 { raw.iter().zip(evals).map(|(r, &ev)| ((sigmoid(ev / k) - r.3) as f64).powi(2)).sum::<f64>() / raw.len() as f64 };
    let mut k = 600.0f32;
    for step in [200.0, 50.0, 10.0] {
        loop {
            let (a, b, c) = (mse(k - step), mse(k), mse(k + step));
            if a < b && k - step > 50.0 {
                k -= step;
            } else if c < b {
                k += step;
            } else {
                break;
            }
        }
    }
    eprintln!("  K {k}: result MSE {:.6}", mse(k));
    k
}

/// Which weights move: not the king's value, the attack and mobility bases, nor
/// (with `min_count`) those whose feature shows up in too few training positions.
fn tunable_mask(t: &Traced, train: &[&Sample], min_count: usize) -> Vec<bool> {
    let mut tunable = vec![true; NUM_PARAMS];
    tunable[eval::OFF_BOARD + PieceType::King.index()] = false;
    for r in [eval::OFF_ATT..eval::OFF_DANGER + 1, eval::OFF_MOB_BASE..eval::OFF_MOB_BASE + 15] {
        for i in r {
            tunable[i] = false;
        }
    }
    if min_count > 0 {
        let mut count = vec![0usize; NUM_PARAMS];
        for s in train {
            for j in s.start..s.end {
                count[t.idx[j] as usize] += 1;
            }
        }
        let mut frozen = 0;
        for i in 0..NUM_PARAMS {
            if tunable[i] && count[i] < min_count {
                tunable[i] = false;
                frozen += 1;
            }
        }
        eprintln!("{frozen} weights seen in fewer than {min_count} positions stay as they are");
    }
    tunable
}

/// Mean squared errors against the targets and against the results.
fn losses(t: &Traced, p: &[f32], set: &[&Sample], k: f32) -> (f64, f64) {
    let (a, b) = set
        .par_iter()
        .map(|s| {
            let q = sigmoid(t.eval_of(p, s.start, s.end) / k);
            (((q - s.target) as f64).powi(2), ((q - s.result) as f64).powi(2))
        })
        .reduce(|| (0.0, 0.0), |x, y| (x.0 + y.0, x.1 + y.1));
    (a / set.len() as f64, b / set.len() as f64)
}

/// The loss gradient over `train` at weights `p`.
fn gradient(t: &Traced, p: &[f32], train: &[&Sample], k: f32) -> Vec<f64> {
    train
        .par_chunks(4096)
        .map(|chunk| {
            let mut g = vec![0f64; NUM_PARAMS];
            for s in chunk {
                let q = sigmoid(t.eval_of(p, s.start, s.end) / k);
                let d = 2.0 * (q - s.target) * q * (1.0 - q) / k;
                for j in s.start..s.end {
                    g[t.idx[j] as usize] += (d * t.coef[j]) as f64;
                }
            }
            g
        })
        .reduce(
            || vec![0f64; NUM_PARAMS],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        )
}

/// Full-batch Adam from `p0`, reporting losses every 25 epochs.
fn fit(args: &Args, t: &Traced, p0: &[f32], train: &[&Sample], valid: &[&Sample], k: f32, tunable: &[bool]) -> Vec<f32> {
    let mut p = p0.to_vec();
    let (mut m, mut v) = (vec![0f64; NUM_PARAMS], vec![0f64; NUM_PARAMS]);
    let (b1, b2) = (0.9f64, 0.999f64);
    let n = train.len() as f64;
    for epoch in 1..=args.epochs {
        let grad = gradient(t, &p, train, k);
        let step = epoch as i32;
        // Full rate for the first half, then down linearly to a tenth.
        let frac = epoch as f64 / args.epochs as f64;
        let lr = if frac < 0.5 { args.lr } else { args.lr * (1.0 - 1.8 * (frac - 0.5)) };
        for i in 0..NUM_PARAMS {
            if !tunable[i] {
                continue;
            }
            let gi = grad[i] / n + 2.0 * args.reg * (p[i] - p0[i]) as f64;
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - b1.powi(step));
            let vh = v[i] / (1.0 - b2.powi(step));
            p[i] -= (lr * mh / (vh.sqrt() + 1e-12)) as f32;
        }
        if epoch % 25 == 0 || epoch == args.epochs {
            let (vl, vr) = losses(t, &p, valid, k);
            let (tl, _) = losses(t, &p, train, k);
            eprintln!("epoch {epoch}: train {tl:.6} validation target {vl:.6} result {vr:.6}");
        }
    }
    p
}

/// Writes the weight table as the Rust source of `src/eval/weights.rs`.
fn write_table(path: &str, tuned: &[i32]) -> std::io::Result<()> {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(f, "//! Evaluation weights in the `eval::OFF_*` layout, as written by `hisha-tools tune`.")?;
    writeln!(f, "//! Generated file: regenerate it with the tuner rather than editing it by hand.")?;
    writeln!(f)?;
    writeln!(f, "/// The weights the engine plays with, laid out by the `OFF_*` constants of `eval`.")?;
    writeln!(f, "#[rustfmt::skip]")?;
    writeln!(f, "pub const TUNED: &[i32] = &[")?;
    for row in tuned.chunks(20) {
        let items: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        writeln!(f, "    {},", items.join(", "))?;
    }
    writeln!(f, "];")?;
    f.flush()
}

/// Loads, fits and writes the weights.
pub fn run(args: Args) -> Result<(), String> {
    let w0: Vec<i32> = eval::weights().to_vec();
    let t = load(&args.data, &w0)?;
    if t.raw.is_empty() {
        return Err("no usable positions in the data".into());
    }
    let p0: Vec<f32> = w0.iter().map(|&v| v as f32).collect();
    eprintln!("scale of Hisha's evaluation:");
    let evals0: Vec<f32> = t.raw.iter().map(|&(s, e, _, _)| t.eval_of(&p0, s, e)).collect();
    let k = fit_k(&t.raw, &evals0);
    // The recorded scores may come from another engine (scripts/label_fairy.py), on
    // another scale: each gets its own K.
    eprintln!("scale of the recorded scores:");
    let scores: Vec<f32> = t.raw.iter().map(|r| r.2 as f32).collect();
    let k_score = fit_k(&t.raw, &scores);
    let lambda = args.lambda;
    let samples: Vec<Sample> = t
        .raw
        .iter()
        .map(|&(start, end, score, result)| Sample { start, end, target: lambda * result + (1.0 - lambda) * sigmoid(score as f32 / k_score), result })
        .collect();
    // Hold out every tenth block of 1000 positions (whole games, nearly all of them:
    // positions of one game are consecutive and would otherwise leak into training).
    // Below 10,000 positions there is no tenth block: hold out every tenth position.
    let block = if samples.len() >= 10_000 { 1000 } else { 1 };
    let held = |i: usize| (i / block) % 10 == 9;
    let train: Vec<&Sample> = samples.iter().enumerate().filter(|(i, _)| !held(*i)).map(|(_, s)| s).collect();
    let valid: Vec<&Sample> = samples.iter().enumerate().filter(|(i, _)| held(*i)).map(|(_, s)| s).collect();
    if train.is_empty() || valid.is_empty() {
        return Err("too few positions to hold some out for validation".into());
    }
    let tunable = tunable_mask(&t, &train, args.min_count);
    let (tl, tr) = losses(&t, &p0, &valid, k);
    eprintln!("start: validation target MSE {tl:.6}, result MSE {tr:.6}");
    let p = fit(&args, &t, &p0, &train, &valid, k, &tunable);
    let tuned: Vec<i32> = p.iter().map(|x| x.round() as i32).collect();
    write_table(&args.out, &tuned).map_err(|e| format!("cannot write {}: {e}", args.out))?;
    eprintln!("wrote {}", args.out);
    Ok(())
}
