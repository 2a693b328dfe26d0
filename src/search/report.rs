//! What a search tells its caller while it runs and when it ends. The search passes
//! `Report`s through a `Sink`; the caller decides what to do with them (the USI layer
//! formats them as `info` and `bestmove` lines in `usi::info`, `bench` counts or prints
//! them, tests collect them). Uses `core` and the table's `Bound`.

use super::tt::Bound;
use crate::core::types::Move;
use std::sync::Arc;

/// One principal variation.
#[derive(Clone, Debug)]
pub struct PvReport {
    /// Iteration depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// 1-based rank of this line when several are searched (`None` with one line).
    pub multipv: Option<usize>,
    /// Score for the side to move.
    pub score: i32,
    /// Whether the score is exact or a bound (aspiration failures).
    pub bound: Bound,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Transposition table use in permille (`None` where not measured).
    pub hashfull: Option<u32>,
    /// The line, every move legal where it stands.
    pub pv: Vec<Move>,
}

/// A message from the search.
#[derive(Clone, Debug)]
pub enum Report {
    /// A principal variation (after an iteration, an aspiration failure or a mate probe).
    Pv(PvReport),
    /// The final answer: a move, `resign` or `win`, with a move to ponder on.
    BestMove {
        /// Move text, `resign` or `win`.
        best: String,
        /// Expected reply.
        ponder: Option<Move>,
    },
}

/// Where reports go.
pub type Sink = Arc<dyn Fn(&Report) + Send + Sync>;
