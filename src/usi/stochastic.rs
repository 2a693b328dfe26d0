//! `Stochastic_Ponder`, as YaneuraOu has it: on `go ponder` the engine searches the
//! position *before* the move the GUI predicted (the opponent to move), so that its
//! time fills the table for every reply the opponent may choose, not only the
//! predicted one. On `ponderhit` that search is dropped without a word and the real
//! position is searched afresh with the clock, from the warm table; on `stop` (the
//! opponent played something else) the answer the GUI discards is still a legal move
//! of the position it sent. The protocol's part only: the `Engine` does the searching.

use super::{emit, info, Usi};
use crate::search::{Limits, Report, Sink};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A `go ponder` running on the position before the predicted move.
pub(super) struct StochasticPonder {
    /// The limits of the `go ponder`, for the search that `ponderhit` starts.
    limits: Limits,
    /// Silences the running search, whose answer is for the other side.
    muted: Arc<AtomicBool>,
}

impl Usi {
    /// Starts `go ponder` under `Stochastic_Ponder`; false when the position has no
    /// last move to take back (the caller then ponders as usual).
    pub(super) fn start_stochastic_ponder(&mut self, limits: &Limits) -> bool {
        let Some(predicted) = self.last_move else { return false };
        let mut before = self.pos.clone();
        before.undo_move(predicted);
        if before.key() == self.pos.key() {
            return false;
        }
        let muted = Arc::new(AtomicBool::new(false));
        let quiet = muted.clone();
        let sink: Sink = Arc::new(move |r: &Report| {
            if !quiet.load(Ordering::Relaxed) {
                emit(&info::report_line(r));
            }
        });
        match self.engine.start(&before, limits, sink) {
            Ok(r) => {
                self.running = Some(r);
                self.stochastic = Some(StochasticPonder { limits: limits.clone(), muted });
                true
            }
            Err(_) => false,
        }
    }

    /// Ends a stochastic ponder search without its answer; returns the limits of its
    /// `go ponder`, or `None` when no such search runs.
    fn drop_stochastic_ponder(&mut self) -> Option<Limits> {
        let sp = self.stochastic.take()?;
        sp.muted.store(true, Ordering::Relaxed);
        if let Some(r) = self.running.take() {
            r.stop();
        }
        Some(sp.limits)
    }

    /// `ponderhit` after a stochastic `go ponder`: the real position is searched now,
    /// with the clock of `go ponder` updated by the fields `ponderhit` gives. Returns
    /// false when no stochastic ponder was running.
    pub(super) fn stochastic_ponderhit(&mut self, args: &[&str]) -> bool {
        let Some(mut limits) = self.drop_stochastic_ponder() else { return false };
        limits.ponder = false;
        super::clock::apply_clock_fields(&mut limits.clock, args);
        limits.clock = crate::search::time::clock_after_ponderhit(limits.clock, limits.infinite);
        self.start_search(&limits);
        true
    }

    /// `stop` (or any command that ends the search) during a stochastic ponder: the
    /// GUI waits for a `bestmove` it will discard; it gets the table's move for the
    /// position it sent (or any legal one) rather than a move of the other side.
    pub(super) fn stop_stochastic_ponder(&mut self) -> bool {
        if self.drop_stochastic_ponder().is_none() {
            return false;
        }
        let answer = self.engine.hash_move(&self.pos).or_else(|| crate::movegen::legal_moves(&self.pos).iter().next().copied());
        emit(&match answer {
            Some(m) => format!("bestmove {m}"),
            None => "bestmove resign".to_string(),
        });
        true
    }
}
