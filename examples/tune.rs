//! Texel-style tuning of the evaluation weights on `gensfen` data.
//!
//! Every linear weight of the evaluation (material, hand, piece-square, king-relative
//! tables, exposure, danger scale and cap, mobility, tempo) is fitted by full-batch Adam
//! so that `sigmoid(eval / K)` predicts a blend of the game result and the search score;
//! an L2 pull towards the starting weights keeps rarely seen entries in place. The fitted
//! table is written as Rust source, ready to replace `src/eval_weights.rs`.
//!
//! Usage: cargo run --release --example tune -- EPOCHS LAMBDA OUT.rs DATA...
//! Environment: TUNE_LR (Adam step), TUNE_REG (L2 pull), TUNE_MIN_COUNT (weights seen in
//! fewer training positions stay fixed).

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

mod common;

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn main() {
    hisha::init();
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        eprintln!("usage: tune EPOCHS LAMBDA OUT.rs DATA...");
        std::process::exit(2);
    }
    let epochs: usize = args[1].parse().expect("EPOCHS");
    let lambda: f32 = args[2].parse().expect("LAMBDA");
    let out_path = &args[3];
    let w0: Vec<i32> = eval::weights().to_vec();

    // Load and trace.
    let mut idx: Vec<u32> = Vec::new();
    let mut coef: Vec<f32> = Vec::new();
    let mut raw: Vec<(usize, usize, i32, f32)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (_, line) in common::data_lines(&args[4..]) {
        let mut it = line.split('\t');
        let (Some(sfen), Some(score), Some(result)) = (it.next(), it.next(), it.next()) else { continue };
        let (Ok(score), Ok(result)) = (score.parse::<i32>(), result.parse::<f32>()) else { continue };
        // The same position from different games would be counted twice.
        if !seen.insert(common::position_key(&line).to_string()) {
            continue;
        }
        let Ok(pos) = Position::from_sfen(sfen) else { continue };
        let mut tr = Trace { w: &w0, terms: Vec::with_capacity(128) };
        all_terms(&pos, &mut tr);
        tr.terms.sort_unstable_by_key(|t| t.0);
        let start = idx.len();
        for (i, c) in tr.terms {
            if idx.len() > start && *idx.last().unwrap() == i as u32 {
                *coef.last_mut().unwrap() += c;
            } else {
                idx.push(i as u32);
                coef.push(c);
            }
        }
        raw.push((start, idx.len(), score, result));
    }
    eprintln!("{} positions, {} terms", raw.len(), idx.len());

    let eval_of = |p: &[f32], s: usize, e: usize| -> f32 { (s..e).map(|j| coef[j] * p[idx[j] as usize]).sum() };
    let p0: Vec<f32> = w0.iter().map(|&v| v as f32).collect();

    // Scale K: fit sigmoid(eval / K) to the results with the starting weights.
    let evals0: Vec<f32> = raw.iter().map(|&(s, e, _, _)| eval_of(&p0, s, e)).collect();
    let fit_k = |evals: &[f32]| -> f32 {
        let mse = |k: f32| -> f64 {
            raw.iter().zip(evals).map(|(r, &ev)| ((sigmoid(ev / k) - r.3) as f64).powi(2)).sum::<f64>() / raw.len() as f64
        };
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
    };
    eprintln!("scale of Hisha's evaluation:");
    let k = fit_k(&evals0);
    // The recorded scores may come from another engine (scripts/label_fairy.py), on
    // another scale: each gets its own K.
    eprintln!("scale of the recorded scores:");
    let scores: Vec<f32> = raw.iter().map(|r| r.2 as f32).collect();
    let k_score = fit_k(&scores);

    let samples: Vec<Sample> = raw
        .iter()
        .map(|&(start, end, score, result)| Sample {
            start,
            end,
            target: lambda * result + (1.0 - lambda) * sigmoid(score as f32 / k_score),
            result,
        })
        .collect();
    // Hold out every tenth block of 1000 positions (whole games, nearly all of them:
    // positions of one game are consecutive and would otherwise leak into training).
    // Below 10,000 positions there is no tenth block: hold out every tenth position.
    let block = if samples.len() >= 10_000 { 1000 } else { 1 };
    let held = |i: usize| (i / block) % 10 == 9;
    let train: Vec<&Sample> = samples.iter().enumerate().filter(|(i, _)| !held(*i)).map(|(_, s)| s).collect();
    let valid: Vec<&Sample> = samples.iter().enumerate().filter(|(i, _)| held(*i)).map(|(_, s)| s).collect();

    // Which weights move.
    let mut tunable = vec![true; NUM_PARAMS];
    tunable[eval::OFF_BOARD + PieceType::King.index()] = false;
    for r in [eval::OFF_ATT..eval::OFF_DANGER + 1, eval::OFF_MOB_BASE..eval::OFF_MOB_BASE + 15] {
        for i in r {
            tunable[i] = false;
        }
    }
    // Weights whose feature shows up in too few training positions only fit noise.
    let min_count: usize = std::env::var("TUNE_MIN_COUNT").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    if min_count > 0 {
        let mut count = vec![0usize; NUM_PARAMS];
        for s in &train {
            for j in s.start..s.end {
                count[idx[j] as usize] += 1;
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
    let losses = |p: &[f32], set: &[&Sample]| -> (f64, f64) {
        let (a, b) = set
            .par_iter()
            .map(|s| {
                let q = sigmoid(eval_of(p, s.start, s.end) / k);
                (((q - s.target) as f64).powi(2), ((q - s.result) as f64).powi(2))
            })
            .reduce(|| (0.0, 0.0), |x, y| (x.0 + y.0, x.1 + y.1));
        (a / set.len() as f64, b / set.len() as f64)
    };
    let (tl, tr) = losses(&p0, &valid);
    eprintln!("start: validation target MSE {tl:.6}, result MSE {tr:.6}");

    let mut p = p0.clone();
    let (mut m, mut v) = (vec![0f64; NUM_PARAMS], vec![0f64; NUM_PARAMS]);
    let reg: f64 = std::env::var("TUNE_REG").ok().and_then(|v| v.parse().ok()).unwrap_or(1e-9);
    let lr0: f64 = std::env::var("TUNE_LR").ok().and_then(|v| v.parse().ok()).unwrap_or(1.0);
    let (b1, b2) = (0.9f64, 0.999f64);
    let n = train.len() as f64;
    for epoch in 1..=epochs {
        let grad = train
            .par_chunks(4096)
            .map(|chunk| {
                let mut g = vec![0f64; NUM_PARAMS];
                for s in chunk {
                    let q = sigmoid(eval_of(&p, s.start, s.end) / k);
                    let d = 2.0 * (q - s.target) * q * (1.0 - q) / k;
                    for j in s.start..s.end {
                        g[idx[j] as usize] += (d * coef[j]) as f64;
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
            );
        let t = epoch as i32;
        // Full rate for the first half, then down linearly to a tenth.
        let frac = epoch as f64 / epochs as f64;
        let lr = if frac < 0.5 { lr0 } else { lr0 * (1.0 - 1.8 * (frac - 0.5)) };
        for i in 0..NUM_PARAMS {
            if !tunable[i] {
                continue;
            }
            let gi = grad[i] / n + 2.0 * reg * (p[i] - p0[i]) as f64;
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - b1.powi(t));
            let vh = v[i] / (1.0 - b2.powi(t));
            p[i] -= (lr * mh / (vh.sqrt() + 1e-12)) as f32;
        }
        if epoch % 25 == 0 || epoch == epochs {
            let (vl, vr) = losses(&p, &valid);
            let (tl, _) = losses(&p, &train);
            eprintln!("epoch {epoch}: train {tl:.6} validation target {vl:.6} result {vr:.6}");
        }
    }

    let tuned: Vec<i32> = p.iter().map(|x| x.round() as i32).collect();
    let mut f = std::fs::File::create(out_path).expect("create output");
    writeln!(f, "//! Evaluation weights in the `eval::OFF_*` layout, as written by `examples/tune.rs`.").unwrap();
    writeln!(f, "//! Generated file: regenerate it with the tuner rather than editing it by hand.").unwrap();
    writeln!(f).unwrap();
    writeln!(f, "/// The weights the engine plays with, laid out by the `OFF_*` constants of `eval`.").unwrap();
    writeln!(f, "#[rustfmt::skip]").unwrap();
    writeln!(f, "pub const TUNED: &[i32] = &[").unwrap();
    for row in tuned.chunks(20) {
        let items: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        writeln!(f, "    {},", items.join(", ")).unwrap();
    }
    writeln!(f, "];").unwrap();
    eprintln!("wrote {out_path}");
}
