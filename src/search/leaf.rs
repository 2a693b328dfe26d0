//! The quiet leaf of a position: where the quiescence search's principal line ends.
//! Training labels are better fitted there than at a position with a capture hanging
//! (YaneuraOu's learner evaluates the leaf of its quiescence search the same way):
//! `hisha-tools train-nnue --qsearch-leaf` trains on the leaf with the stored score.

use super::history::ThreadTables;
use super::shared::Shared;
use super::tt::TranspositionTable;
use super::worker::Worker;
use super::{Config, Report, Sink};
use crate::core::types::Move;
use crate::position::Position;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// A reusable quiescence searcher (one per thread): its own small table and the
/// network in use (`nnue::network()`).
pub struct QuietLeaf {
    worker: Worker,
}

impl QuietLeaf {
    /// A searcher whose searches stop after `node_limit` nodes (a bound, not a budget:
    /// a quiescence search seldom needs a hundred).
    pub fn new(node_limit: u64) -> QuietLeaf {
        let (tt, _) = TranspositionTable::new(1);
        let shared = Arc::new(Shared::new(Arc::new(tt), 1));
        let sink: Sink = Arc::new(|_: &Report| {});
        let cfg = Config { threads: 1, verbose: false, ..Config::default() };
        let worker = Worker::new(0, Position::startpos(), shared, cfg, sink, Vec::new(), ThreadTables::new()).with_node_limit(node_limit);
        QuietLeaf { worker }
    }

    /// The moves from `pos` to its quiet leaf: empty when `pos` is quiet already (or in
    /// a position the search could not finish within its node limit).
    pub fn line(&mut self, pos: &Position) -> Vec<Move> {
        self.worker.shared.stop.store(false, Ordering::Relaxed);
        self.worker.pos = pos.clone();
        let line = self.worker.quiescence_line();
        if self.worker.stopped() {
            return Vec::new();
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hanging_capture_is_played_out_and_a_quiet_start_is_left() {
        crate::init();
        let mut leaf = QuietLeaf::new(10_000);
        assert!(leaf.line(&Position::startpos()).is_empty(), "the start position is quiet");
        // Black's gold on 5h takes the undefended rook on 5g; then nothing is left to take.
        let pos = Position::from_sfen("4k4/9/9/9/9/9/4r4/4G4/4K4 b - 1").expect("valid");
        let line = leaf.line(&pos);
        assert_eq!(line.first().map(|m| m.to_string()).as_deref(), Some("5h5g"), "line {line:?}");
        let mut p = pos.clone();
        for &m in &line {
            assert!(crate::movegen::is_legal(&p, m));
            p.do_move(m);
        }
        assert!(leaf.line(&p).is_empty(), "the leaf is quiet");
    }
}
