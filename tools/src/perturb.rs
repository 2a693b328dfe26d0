//! Distillation data for the network: from each position of a `gensfen` file, a few
//! short random walks of legal moves, each end position labelled with the hand-made
//! evaluation. The walks reach far more (and more varied) positions than self-play can
//! label by search in the same time, so the network can first learn what the hand-made
//! evaluation knows and then, from the search data, what it does not.
//!
//! Output lines: `SFEN<TAB>evaluation (Black's view)<TAB>-1` (no game result).
//! Usage: hisha-tools perturb WALKS SEED OUT DATA...

use hisha::movegen::legal_moves;
use hisha::position::Position;
use hisha::core::types::Color;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use std::io::Write;

use crate::data;

/// Longest random walk, in plies.
const MAX_WALK: usize = 6;

/// Arguments of `perturb`.
#[derive(clap::Args)]
pub struct Args {
    /// Walks per data position.
    walks: usize,
    /// Random seed.
    seed: u64,
    /// Output file.
    out: String,
    /// Data files (gensfen format).
    #[arg(required = true)]
    data: Vec<String>,
}

/// Walks, labels and writes.
pub fn run(args: Args) -> Result<(), String> {
    let (walks, seed) = (args.walks, args.seed);
    let bases: Vec<String> = data::data_lines(&args.data)?.filter_map(|(_, line)| line.split('\t').next().map(str::to_string)).collect();
    let lines: Vec<String> = bases
        .par_iter()
        .enumerate()
        .flat_map_iter(|(i, sfen)| {
            let mut rng = SmallRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ i as u64);
            let mut out = Vec::with_capacity(walks);
            let Ok(base) = Position::from_sfen(sfen) else { return out.into_iter() };
            for _ in 0..walks {
                let mut pos = base.clone();
                let len = rng.gen_range(1..=MAX_WALK);
                for _ in 0..len {
                    let list = legal_moves(&pos);
                    if list.is_empty() {
                        break;
                    }
                    pos.do_move(list.as_slice()[rng.gen_range(0..list.len())]);
                }
                if pos.in_check() || legal_moves(&pos).is_empty() {
                    continue;
                }
                let v = hisha::eval::evaluate(&pos);
                let black = if pos.side_to_move() == Color::Black { v } else { -v };
                out.push(format!("{}\t{black}\t-1", pos.to_sfen()));
            }
            out.into_iter()
        })
        .collect();
    let mut w = data::create(&args.out)?;
    for l in &lines {
        writeln!(w, "{l}").map_err(|e| format!("write failed: {e}"))?;
    }
    w.flush().map_err(|e| format!("write failed: {e}"))?;
    eprintln!("{} positions from {} bases", lines.len(), bases.len());
    Ok(())
}
