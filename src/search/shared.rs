//! State shared between the protocol thread and the search threads of one search:
//! the stop and ponder flags, per-thread node counters, the clock and the
//! transposition table. Uses the search's time manager and table.

use super::time::TimeManager;
use super::tt::TranspositionTable;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// State shared between the protocol thread and the search threads.
pub struct Shared {
    /// Set to end the search (by `stop`, or by the search's own time or node limit).
    pub stop: AtomicBool,
    /// Set by the protocol's `stop` (or `quit`, or a new `go`): the answer of a
    /// pondering or infinite search may be printed. A search that ends by its own
    /// limit while pondering or infinite waits for this (or for `ponderhit`).
    pub released: AtomicBool,
    /// True while pondering (time limits are ignored).
    pub pondering: AtomicBool,
    /// True for `go infinite`.
    pub infinite: AtomicBool,
    /// The clock and every timing decision.
    pub time: TimeManager,
    pub(super) nodes: Vec<AtomicU64>,
    /// The transposition table.
    pub tt: Arc<TranspositionTable>,
    /// Set by the search thread just before it prints its final answer: from then on
    /// the search no longer uses the engine, and its thread ends at once.
    pub answered: AtomicBool,
    /// When the main thread last reported its lines (ms on the search's clock).
    pub last_pv_ms: AtomicU64,
}

impl Shared {
    /// Fresh shared state for `threads` threads.
    pub fn new(tt: Arc<TranspositionTable>, threads: usize) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            released: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            infinite: AtomicBool::new(false),
            time: TimeManager::new(),
            nodes: (0..threads.max(1)).map(|_| AtomicU64::new(0)).collect(),
            tt,
            answered: AtomicBool::new(false),
            last_pv_ms: AtomicU64::new(0),
        }
    }

    /// Nodes searched by all threads so far.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// Whether the search must end.
    #[inline(always)]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether the answer must wait (pondering or `go infinite`).
    pub fn must_wait(&self) -> bool {
        self.pondering.load(Ordering::Relaxed) || self.infinite.load(Ordering::Relaxed)
    }

    /// Ends the search and lets it answer at once (the protocol's `stop`).
    pub fn release(&self) {
        self.released.store(true, Ordering::Relaxed);
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Sleeps until the protocol's `stop`, or until `ponderhit` ends pondering (a
    /// pondering or infinite search that reached its own limit must not answer first).
    pub fn wait_while_pondering(&self) {
        while !self.released.load(Ordering::Relaxed) && self.must_wait() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}
