//! State shared between the protocol thread and the search threads of one search:
//! the stop and ponder flags, per-thread node counters, the clock and the
//! transposition table. Uses the search's time manager and table.

use super::time::TimeManager;
use super::tt::TranspositionTable;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// State shared between the protocol thread and the search threads.
pub struct Shared {
    /// Set to end the search.
    pub stop: AtomicBool,
    /// True while pondering (time limits are ignored).
    pub pondering: AtomicBool,
    /// True for `go infinite`.
    pub infinite: AtomicBool,
    /// The clock and every timing decision.
    pub time: TimeManager,
    pub(super) nodes: Vec<AtomicU64>,
    /// The transposition table.
    pub tt: Arc<TranspositionTable>,
}

impl Shared {
    /// Fresh shared state for `threads` threads.
    pub fn new(tt: Arc<TranspositionTable>, threads: usize) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            infinite: AtomicBool::new(false),
            time: TimeManager::new(),
            nodes: (0..threads.max(1)).map(|_| AtomicU64::new(0)).collect(),
            tt,
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

    /// Sleeps until `stop`, unless pondering and infinite search are both off.
    pub fn wait_while_pondering(&self) {
        while !self.stopped() && self.must_wait() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}
