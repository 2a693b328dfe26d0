//! Opening diversity from the engine's own choices (YaneuraOu's `random_multi_pv`):
//! after the uniformly random opening plies, the first few searched moves of a game are
//! drawn at random among the best lines of a multi-PV search, those scoring within a
//! margin of the best. Openings then spread over moves a strong player might make,
//! rather than over the random moves that leave one side far behind.

use crate::core::types::Move;
use crate::engine::Engine;
use crate::position::Position;
use crate::search::tt::Bound;
use crate::search::{Limits, Report, Sink};
use rand::Rng;
use std::sync::{Arc, Mutex};

/// How the first searched moves of a game are chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MultiPvRule {
    /// Searched moves drawn at random among the best lines (0: none, every move is the
    /// search's best).
    pub plies: u32,
    /// Lines searched for each such move.
    pub lines: usize,
    /// How far below the best line (centipawns) a line may score and still be drawn.
    pub margin: i32,
}

/// The first move of each line of a multi-PV search as its last report gave it, with
/// its score: one entry per rank.
#[derive(Default)]
struct Lines {
    by_rank: Vec<Option<(i32, Move)>>,
}

impl Lines {
    /// A report of line `rank`; line 1 starts a new iteration's batch, which replaces
    /// the last one whole (a line the new batch leaves out is not kept from the old).
    fn record(&mut self, rank: usize, score: i32, first: Move) {
        if rank == 0 || rank > 64 {
            return;
        }
        if rank == 1 {
            self.by_rank.clear();
        }
        if self.by_rank.len() < rank {
            self.by_rank.resize(rank, None);
        }
        self.by_rank[rank - 1] = Some((score, first));
    }

    /// The moves scoring within `margin` of the best line.
    fn candidates(&self, margin: i32) -> Vec<Move> {
        let lines: Vec<(i32, Move)> = self.by_rank.iter().flatten().copied().collect();
        let Some(best) = lines.iter().map(|l| l.0).max() else { return Vec::new() };
        lines.into_iter().filter(|l| l.0 >= best.saturating_sub(margin)).map(|l| l.1).collect()
    }
}

/// Searches `pos` with `rule.lines` principal variations and draws one of the moves
/// within `rule.margin` of the best with `rng`; `None` when no line came back (the
/// caller then plays the search's own move). The engine's settings are restored.
pub fn draw_move(engine: &mut Engine, pos: &Position, limits: &Limits, rule: MultiPvRule, rng: &mut impl Rng) -> Option<Move> {
    let lines = Arc::new(Mutex::new(Lines::default()));
    let seen = lines.clone();
    let sink: Sink = Arc::new(move |r: &Report| {
        if let Report::Pv(p) = r {
            if p.bound == Bound::Exact {
                if let (Some(&first), Ok(mut l)) = (p.pv.first(), seen.lock()) {
                    l.record(p.multipv.unwrap_or(1), p.score, first);
                }
            }
        }
    });
    // Every iteration reported, and no aspiration-failure reports (they depend on time).
    let c = &mut engine.config;
    let saved = (c.multipv, c.verbose, c.pv_interval_ms, c.fail_lh_pv);
    (c.multipv, c.verbose, c.pv_interval_ms, c.fail_lh_pv) = (rule.lines.clamp(1, 64), true, 0, false);
    engine.search(pos, limits, sink);
    let c = &mut engine.config;
    (c.multipv, c.verbose, c.pv_interval_ms, c.fail_lh_pv) = saved;
    let candidates = lines.lock().ok()?.candidates(rule.margin.max(0));
    if candidates.is_empty() {
        return None;
    }
    Some(candidates[rng.gen_range(0..candidates.len())])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use rand::SeedableRng;

    #[test]
    fn candidates_are_the_lines_within_the_margin_of_the_best() {
        crate::init();
        let pos = Position::startpos();
        let moves: Vec<Move> = ["7g7f", "2g2f", "5g5f", "1g1f"].iter().map(|m| pos.parse_usi_move(m).unwrap()).collect();
        let mut l = Lines::default();
        for (rank, (&m, score)) in moves.iter().zip([60, 45, -10, 30]).enumerate() {
            l.record(rank + 1, score, m);
        }
        l.record(2, 55, moves[1]); // a later report of the same rank replaces the earlier
        assert_eq!(l.candidates(30), vec![moves[0], moves[1], moves[3]]);
        assert_eq!(l.candidates(0), vec![moves[0]]);
        l.record(1, 20, moves[2]); // the next iteration's batch starts afresh
        assert_eq!(l.candidates(1000), vec![moves[2]]);
        assert_eq!(Lines::default().candidates(100), Vec::<Move>::new());
    }

    #[test]
    fn drawn_moves_are_legal_differ_and_leave_the_settings_alone() {
        crate::init();
        let pos = Position::startpos();
        let mut engine = Engine::new(crate::search::Config { verbose: false, ..Default::default() }, 2);
        let limits = Limits { depth: Some(4), ..Limits::default() };
        let rule = MultiPvRule { plies: 1, lines: 6, margin: 200 };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let drawn: std::collections::BTreeSet<String> =
            (0..12).filter_map(|_| draw_move(&mut engine, &pos, &limits, rule, &mut rng)).map(|m| m.to_string()).collect();
        assert!(drawn.len() >= 2, "twelve draws among six lines gave {drawn:?}");
        assert!(drawn.iter().all(|m| pos.parse_usi_move(m).is_some()));
        assert_eq!((engine.config.multipv, engine.config.verbose), (1, false));
    }
}
