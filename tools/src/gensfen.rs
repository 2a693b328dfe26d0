//! Self-play data for tuning the evaluation: plays fast fixed-node games from randomised
//! openings and writes one line per quiet position, `SFEN<TAB>score<TAB>result`, with the
//! search score and the game result (1, 0.5, 0) both from Black's point of view.
//!
//! Usage: hisha-tools gensfen GAMES NODES SEED OUT [EVAL]

use hisha::movegen::legal_moves;
use hisha::position::Position;
use hisha::engine::Engine;
use hisha::position::rules::{repetition, Repetition};
use hisha::search::{Config, Limits, Report, Sink};
use hisha::core::types::Color;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::sync::Arc;

use crate::data;

const ADJUDICATE: i32 = 3000;
const MAX_PLIES: u32 = 320;

/// Arguments of `gensfen`.
#[derive(clap::Args)]
pub struct Args {
    /// Games to play.
    games: u64,
    /// Nodes per move.
    nodes: u64,
    /// Random seed of the openings.
    seed: u64,
    /// Output file.
    out: String,
    /// `classical` (the hand-made evaluation), a network file, or nothing for the
    /// network built into the binary.
    eval: Option<String>,
}

/// Plays the games and writes the data.
pub fn run(args: Args) -> Result<(), String> {
    let eval = args.eval.as_deref().unwrap_or("");
    if eval != "classical" {
        hisha::eval::nnue::load(eval).map_err(|e| e.to_string())?;
    }
    let (games, nodes, seed) = (args.games, args.nodes, args.seed);
    let mut out = data::create(&args.out)?;
    let mut rng = SmallRng::seed_from_u64(seed);
    let cfg = Config { verbose: false, use_nnue: eval != "classical", keep_history: true, ..Config::default() };
    let mut engine = Engine::new(cfg, 16);
    let sink: Sink = Arc::new(|_: &Report| {});
    let (mut wins, mut draws, mut positions) = (0u64, 0u64, 0u64);
    for g in 0..games {
        let mut pos = Position::startpos();
        let random_plies = rng.gen_range(2..=10);
        let mut ok = true;
        for _ in 0..random_plies {
            let list = legal_moves(&pos);
            if list.is_empty() {
                ok = false;
                break;
            }
            let m = list.as_slice()[rng.gen_range(0..list.len())];
            pos.do_move(m);
        }
        if !ok {
            continue;
        }
        engine.new_game();
        let mut records: Vec<(String, i32)> = Vec::new();
        // Result from Black's point of view.
        let result: f32 = loop {
            let us = pos.side_to_move();
            let stm_result = |win: bool| if (us == Color::Black) == win { 1.0 } else { 0.0 };
            if legal_moves(&pos).is_empty() {
                break stm_result(false);
            }
            match repetition(&pos) {
                Repetition::Draw => break 0.5,
                Repetition::Win => break stm_result(true),
                Repetition::Lose => break stm_result(false),
                _ => {}
            }
            if pos.plies_played() as u32 >= MAX_PLIES {
                break 0.5;
            }
            let limits = Limits { nodes: Some(nodes), ..Limits::default() };
            let r = engine.search(&pos, &limits, sink.clone());
            if r.best == "win" {
                break stm_result(true);
            }
            let Some(m) = pos.parse_usi_move(&r.best) else { break stm_result(false) };
            if r.score.abs() >= ADJUDICATE {
                break stm_result(r.score > 0);
            }
            let quiet = !pos.in_check() && !pos.is_capture(m) && !m.is_promotion();
            if quiet {
                let black_score = if us == Color::Black { r.score } else { -r.score };
                records.push((pos.to_sfen(), black_score));
            }
            pos.do_move(m);
        };
        if result == 0.5 {
            draws += 1;
        } else if result == 1.0 {
            wins += 1;
        }
        for (sfen, score) in &records {
            writeln!(out, "{sfen}\t{score}\t{result}").map_err(|e| format!("write failed: {e}"))?;
        }
        positions += records.len() as u64;
        if (g + 1) % 50 == 0 {
            let _ = out.flush();
            eprintln!("games {} black wins {wins} draws {draws} positions {positions}", g + 1);
        }
    }
    out.flush().map_err(|e| format!("write failed: {e}"))?;
    eprintln!("done: games {games} black wins {wins} draws {draws} positions {positions}");
    Ok(())
}
