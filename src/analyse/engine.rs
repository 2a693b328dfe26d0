//! One position searched for analysis through the library's `think`: the score, the
//! best move and its principal variation (and the other `--multipv` lines), read from
//! the `info` lines the search writes to its sink.

use super::score::Score;
use crate::position::Position;
use crate::search::{clear_history, start_clock, think, Config, Limits, Shared, Sink};
use crate::time::Clock;
use crate::tt::TranspositionTable;
use crate::types::Color;
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

/// A search engine set up for analysis (one transposition table, reused).
pub struct Analyser {
    tt: Arc<TranspositionTable>,
    cfg: Config,
    budget: Budget,
}

/// Longest PV kept per line.
const PV_MAX: usize = 12;

impl Analyser {
    /// A searcher with `hash_mb` MiB of table, `threads` threads and `multipv` lines.
    pub fn new(budget: Budget, threads: usize, multipv: usize, hash_mb: usize) -> Analyser {
        let (tt, _) = TranspositionTable::new(hash_mb);
        let cfg = Config { threads, multipv, verbose: true, ..Config::default() };
        Analyser { tt: Arc::new(tt), cfg, budget }
    }

    /// Forgets everything learnt (table, move-ordering statistics): each game is then
    /// analysed the same way whatever was analysed before it (needed for sharding).
    pub fn new_game(&self) {
        self.tt.clear();
        clear_history();
    }

    /// Searches `pos` (with its history, for repetitions).
    pub fn evaluate(&self, pos: &Position) -> PositionEval {
        let k = self.cfg.multipv.max(1);
        let seen: Arc<Mutex<Vec<Option<String>>>> = Arc::new(Mutex::new(vec![None; k]));
        let sink_seen = seen.clone();
        let sink: Sink = Arc::new(move |s: &str| {
            if !s.starts_with("info ") || !s.contains(" pv ") {
                return;
            }
            let idx = field(s, "multipv").and_then(|v| v.parse::<usize>().ok()).unwrap_or(1);
            if let Ok(mut v) = sink_seen.lock() {
                if let Some(slot) = v.get_mut(idx.wrapping_sub(1)) {
                    // An exact line beats a bound; a later line of the same kind beats an earlier one.
                    let bound = |t: &str| t.contains(" lowerbound") || t.contains(" upperbound");
                    if slot.as_deref().is_none_or(|old| !bound(s) || bound(old)) {
                        *slot = Some(s.to_string());
                    }
                }
            }
        });
        let shared = Arc::new(Shared::new(self.tt.clone(), self.cfg.threads));
        let mut limits = Limits::default();
        match self.budget {
            Budget::Time(ms) => limits.clock = Clock { movetime: Some(ms), ..Clock::default() },
            Budget::Nodes(n) => limits.nodes = Some(n),
            Budget::Depth(d) => limits.depth = Some(d),
        }
        start_clock(&shared, pos, &limits, &self.cfg);
        let r = think(shared, pos, &limits, &self.cfg, sink);
        let us = pos.side_to_move();
        let lines: Vec<Line> = seen.lock().map(|v| v.iter().flatten().filter_map(|s| parse_info(s, us)).collect()).unwrap_or_default();
        let score = Score::from_side(r.score, us);
        let best = if r.best == "resign" || r.best == "win" {
            None
        } else {
            let pv = lines.first().filter(|l| l.mv == r.best).map(|l| l.pv.clone()).unwrap_or_else(|| vec![r.best.clone()]);
            Some(Line { mv: r.best.clone(), score, pv })
        };
        let mut lines = lines;
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

/// The word after `key` in an `info` line.
fn field<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let mut it = s.split_whitespace();
    while let Some(w) = it.next() {
        if w == key {
            return it.next();
        }
    }
    None
}

/// A line from an `info ... score ... pv ...` line of side `us`.
fn parse_info(s: &str, us: Color) -> Option<Line> {
    let mut it = s.split_whitespace();
    let mut score = None;
    while let Some(w) = it.next() {
        if w == "score" {
            let kind = it.next()?;
            let v = it.next()?;
            score = Some(match kind {
                "cp" => Score::from_side(v.parse().ok()?, us),
                "mate" => Score::mate_from_text(v, us)?,
                _ => return None,
            });
        }
        if w == "pv" {
            let pv: Vec<String> = it.by_ref().take(PV_MAX).map(str::to_string).collect();
            return Some(Line { mv: pv.first()?.clone(), score: score?, pv });
        }
    }
    None
}
