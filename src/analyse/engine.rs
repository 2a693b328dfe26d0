//! One position searched for analysis through the `Engine` facade: the score, the best
//! move and its principal variation (and the other `--multipv` lines), taken from the
//! `Report`s the search sends to its sink.

use super::score::Score;
use crate::engine::Engine;
use crate::position::Position;
use crate::search::time::Clock;
use crate::search::tt::Bound;
use crate::search::{Config, Limits, PvReport, Report, Sink};
use std::sync::{Arc, Mutex};

/// How long each position is searched.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Milliseconds per position.
    Time(u64),
    /// Nodes per position.
    Nodes(u64),
    /// Depth per position.
    Depth(i32),
}

/// One line of the search: its first move, score (Black's view) and PV (USI).
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// First move (USI).
    pub mv: String,
    /// Score from Black's point of view.
    pub score: Score,
    /// Principal variation, starting with `mv`.
    pub pv: Vec<String>,
}

/// What the search found in one position.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionEval {
    /// Score of the position, Black's view.
    pub score: Score,
    /// Best line (`None` when the side to move has no move: mated, or declares a win).
    pub best: Option<Line>,
    /// The `--multipv` lines, best first (the best line alone when multipv is 1).
    pub lines: Vec<Line>,
    /// Depth reached.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
}

/// An engine set up for analysis (its table and per-thread tables reused).
pub struct Analyser {
    engine: Engine,
    budget: Budget,
}

/// Longest PV kept per line.
const PV_MAX: usize = 12;

impl Analyser {
    /// A searcher with `hash_mb` MiB of table, `threads` threads and `multipv` lines.
    pub fn new(budget: Budget, threads: usize, multipv: usize, hash_mb: usize) -> Analyser {
        let cfg = Config { threads, multipv, verbose: true, ..Config::default() };
        Analyser { engine: Engine::new(cfg, hash_mb), budget }
    }

    /// Forgets everything learnt (table, move-ordering statistics, mate tables): each
    /// game is then analysed the same way whatever was analysed before it (sharding).
    pub fn new_game(&mut self) {
        self.engine.new_game();
    }

    /// Searches `pos` (with its history, for repetitions).
    pub fn evaluate(&mut self, pos: &Position) -> PositionEval {
        let k = self.engine.config.multipv.max(1);
        let seen: Arc<Mutex<Vec<Option<PvReport>>>> = Arc::new(Mutex::new(vec![None; k]));
        let sink_seen = seen.clone();
        let sink: Sink = Arc::new(move |r: &Report| {
            let Report::Pv(p) = r else { return };
            if p.pv.is_empty() {
                return;
            }
            if let Ok(mut v) = sink_seen.lock() {
                if let Some(slot) = v.get_mut(p.multipv.unwrap_or(1).wrapping_sub(1)) {
                    // An exact line beats a bound; a later line of the same kind beats an earlier one.
                    if slot.as_ref().is_none_or(|old| p.bound == Bound::Exact || old.bound != Bound::Exact) {
                        *slot = Some(p.clone());
                    }
                }
            }
        });
        let mut limits = Limits::default();
        match self.budget {
            Budget::Time(ms) => limits.clock = Clock { movetime: Some(ms), ..Clock::default() },
            Budget::Nodes(n) => limits.nodes = Some(n),
            Budget::Depth(d) => limits.depth = Some(d),
        }
        let r = self.engine.search(pos, &limits, sink);
        let us = pos.side_to_move();
        let to_line = |p: &PvReport| Line {
            mv: p.pv[0].to_string(),
            score: Score::from_side(p.score, us),
            pv: p.pv.iter().take(PV_MAX).map(|m| m.to_string()).collect(),
        };
        let mut lines: Vec<Line> = seen.lock().map(|v| v.iter().flatten().map(to_line).collect()).unwrap_or_default();
        let score = Score::from_side(r.score, us);
        let best = if r.best == "resign" || r.best == "win" {
            None
        } else {
            let pv = lines.first().filter(|l| l.mv == r.best).map(|l| l.pv.clone()).unwrap_or_else(|| vec![r.best.clone()]);
            Some(Line { mv: r.best.clone(), score, pv })
        };
        if let Some(b) = &best {
            if lines.first().is_none_or(|l| l.mv != b.mv) {
                lines.insert(0, b.clone());
                lines.truncate(k);
            } else {
                lines[0].score = score;
            }
        }
        PositionEval { score, best, lines, depth: r.depth, nodes: r.nodes }
    }
}
