//! One self-play game of data generation: a random opening drawn from the game's own
//! seed (random moves, then optionally moves drawn among the best lines of multi-PV
//! searches), then fixed-node or fixed-depth searches until the game ends, keeping the
//! positions the filters let through as PackedSfenValue records. A game depends only
//! on its seed and the settings, never on other games or threads.

use super::multipv::{draw_move, MultiPvRule};
use super::openings::{random_opening, OpeningRule};
use crate::movegen::legal_moves;
use crate::position::Position;
use crate::psv::PackedSfenValue;
use crate::engine::Engine;
use crate::position::rules::{repetition, Repetition};
use crate::search::{Config, Limits, Report, Sink, MAX_PLY, VALUE_MATE};
use crate::core::types::{Color, Move};
use rand::SeedableRng;
use std::sync::Arc;

/// What a game is played and filtered by.
#[derive(Clone, Debug)]
pub struct GameRule {
    /// Node limit per move (with `depth`, whichever comes first).
    pub nodes: Option<u64>,
    /// Depth limit per move.
    pub depth: Option<i32>,
    /// The opening.
    pub opening: OpeningRule,
    /// The first searched moves drawn among the best lines (not written).
    pub multipv: MultiPvRule,
    /// A score this far from 0 ends the game, won by the side it favours (handicap
    /// games: only a mate score).
    pub adjudicate: i32,
    /// Positions scored further from 0 than this are not written.
    pub max_score: i32,
    /// Write positions whose best move captures or promotes.
    pub keep_captures: bool,
    /// Write positions in check.
    pub keep_checks: bool,
    /// A game reaching this move number is a draw.
    pub max_ply: u32,
    /// Search with the network (else the hand-made evaluation).
    pub use_nnue: bool,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Game {
    /// The records kept, results filled in.
    pub records: Vec<PackedSfenValue>,
    /// Winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Moves played, random ones included.
    pub plies: u32,
}

/// The seed of game number `game` of a run seeded `seed` (SplitMix64 mixing, so that
/// neighbouring games and seeds get unrelated streams).
pub fn game_seed(seed: u64, game: u64) -> u64 {
    let mix = |mut z: u64| {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    mix(seed ^ mix(game))
}

/// An engine for one data-generation thread: one search thread, its own hash of
/// `hash_mb` MiB, statistics kept from move to move within a game.
pub fn engine(rule: &GameRule, hash_mb: usize) -> Engine {
    Engine::new(Config { verbose: false, use_nnue: rule.use_nnue, keep_history: true, ..Config::default() }, hash_mb)
}

/// Plays game number `game` of the run seeded `seed` with `engine` (from `engine`,
/// owned by the calling thread; its table and statistics are cleared first).
pub fn play(seed: u64, game: u64, rule: &GameRule, handicaps: &[Position], engine: &mut Engine) -> Game {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(game_seed(seed, game));
    let (mut pos, handicap) = random_opening(&mut rng, &rule.opening, handicaps);
    // A handicap start is worth more than any score limit to the side receiving it:
    // such games end only on a mate found.
    let adjudicate = if handicap.is_some() { VALUE_MATE - MAX_PLY as i32 } else { rule.adjudicate };
    engine.new_game();
    let limits = Limits { nodes: rule.nodes, depth: rule.depth, ..Limits::default() };
    let sink: Sink = Arc::new(|_: &Report| {});
    let mut kept: Vec<(PackedSfenValue, Color)> = Vec::new();
    let mut multipv_left = if handicap.is_some() { 0 } else { rule.multipv.plies };
    let winner = loop {
        let us = pos.side_to_move();
        if legal_moves(&pos).is_empty() {
            break Some(!us);
        }
        match repetition(&pos) {
            Repetition::Draw => break None,
            Repetition::Win => break Some(us),
            Repetition::Lose => break Some(!us),
            _ => {}
        }
        if pos.game_ply() >= rule.max_ply {
            break None;
        }
        if multipv_left > 0 {
            multipv_left -= 1;
            if let Some(m) = draw_move(engine, &pos, &limits, rule.multipv, &mut rng) {
                pos.do_move(m);
                continue;
            }
        }
        let r = engine.search(&pos, &limits, sink.clone());
        if r.best == "win" {
            break Some(us);
        }
        let Some(m) = pos.parse_usi_move(&r.best) else { break Some(!us) };
        if r.score.abs() >= adjudicate {
            break Some(if r.score > 0 { us } else { !us });
        }
        if keeps(&pos, m, r.score, rule) {
            if let Ok(rec) = PackedSfenValue::new(&pos, r.score, m, 0) {
                kept.push((rec, us));
            }
        }
        pos.do_move(m);
    };
    let records = kept
        .into_iter()
        .map(|(mut rec, stm)| {
            rec.game_result = match winner {
                None => 0,
                Some(w) if w == stm => 1,
                Some(_) => -1,
            };
            rec
        })
        .collect();
    Game { records, winner, plies: pos.plies_played() as u32 }
}

/// Whether the filters keep `pos` with best move `m` scored `score`.
fn keeps(pos: &Position, m: Move, score: i32, rule: &GameRule) -> bool {
    if score.abs() > rule.max_score {
        return false;
    }
    if !rule.keep_checks && pos.in_check() {
        return false;
    }
    rule.keep_captures || !(pos.is_capture(m) || m.is_promotion())
}
