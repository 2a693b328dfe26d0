//! The `Engine` facade: one player's state across a game (settings, hash table size,
//! the transposition table, each search thread's histories and mate table) and the
//! ways to search with it: in the background (`start`, for the USI loop, with
//! `ponderhit` and `stop`), to completion (`search`, for `bench`, data generation and
//! tests) and the tsume solver (`start_mate`, whose solver and table are kept warm
//! between `go mate` commands and given back when a game or a normal search starts). Callers get results and reports
//! through a `Sink`; the engine prints nothing. Uses `search`, `mate` and `position`.

use crate::mate::alt::{AltLimits, AltReport};
use crate::mate::alt_text::DEFAULT_NODES_PER_CHECK;
use crate::mate::{self, MateResult, Stats};
use crate::position::Position;
use crate::core::types::Move;
use crate::movegen;
use crate::search::time::{clock_after_ponderhit, Clock};
use crate::search::tt::TranspositionTable;
use crate::search::{think, Config, Limits, SearchResult, Shared, Sink, ThreadTables};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Stack of each search thread (deep recursion with per-ply move lists).
const SEARCH_STACK: usize = 64 << 20;
/// How often `go mate` reports its progress.
pub const MATE_PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// One engine: settings, hash and per-thread tables kept between searches.
pub struct Engine {
    /// Settings of the next search.
    pub config: Config,
    /// Where the network comes from (the `EvalFile` and `EvalDir` options).
    pub network: NetworkSource,
    hash_mb: usize,
    tt: Option<Arc<TranspositionTable>>,
    tt_mb: usize,
    /// Whether a search may have written to the table since it was made or cleared.
    tt_dirty: bool,
    tables: Arc<Mutex<Vec<ThreadTables>>>,
    /// The tsume solver kept between `go mate` commands, with its table's size in MiB.
    mate_solver: Arc<Mutex<Option<(usize, mate::Solver)>>>,
}

/// The network options and the file they chose: `EvalFile` (a file) wins over
/// `EvalDir` (a folder holding YaneuraOu's `nn.bin`); with neither, the embedded
/// network. Empty strings stand for "not set".
#[derive(Clone, Debug, Default)]
pub struct NetworkSource {
    pub file: String,
    pub dir: String,
    /// The file loaded now ("" for the embedded network).
    pub loaded: String,
}

impl NetworkSource {
    /// The file the options choose ("" for the embedded network).
    pub fn chosen(&self) -> String {
        if !self.file.is_empty() {
            self.file.clone()
        } else if !self.dir.is_empty() {
            std::path::Path::new(&self.dir).join("nn.bin").to_string_lossy().into_owned()
        } else {
            String::new()
        }
    }
}

/// A search running on its own thread.
pub struct Running {
    handle: JoinHandle<()>,
    shared: Arc<Shared>,
    pos: Position,
    limits: Limits,
}

impl Running {
    /// Whether the search has reached its answer (its thread is printing it or has
    /// ended): a command that needs an idle engine may then `stop` it without waiting.
    pub fn has_answered(&self) -> bool {
        self.shared.answered.load(Ordering::Acquire) || self.handle.is_finished()
    }

    /// Asks the search to stop and waits for it (its best move has been reported).
    pub fn stop(self) {
        self.shared.release();
        let _ = self.handle.join();
    }

    /// The opponent played the ponder move: restart the clock now with `clock` (the
    /// fields `ponderhit` gave, over those of `go`) and search on with a time limit;
    /// with no clock at all, `UNBOUNDED_CLOCK_MS`.
    pub fn ponderhit(&mut self, config: &Config, clock: Clock) {
        self.limits.clock = clock_after_ponderhit(clock, self.limits.infinite);
        self.limits.ponder = false;
        self.shared.time.start_for(&self.limits.clock, self.limits.infinite, self.pos.side_to_move(), self.pos.game_ply(), &config.time);
        self.shared.pondering.store(false, Ordering::Relaxed);
    }

    /// The clock fields the search was started with.
    pub fn clock(&self) -> &Clock {
        &self.limits.clock
    }
}

/// The stop and answered flags of a command that does not search with the table
/// (`go perft`, `go mate`): they get a table of the least size, so that a game's table
/// of `USI_Hash` MiB is not made for them.
fn flags_only() -> Arc<Shared> {
    Arc::new(Shared::new(Arc::new(TranspositionTable::new(1).0), 1))
}

impl Default for Engine {
    fn default() -> Self {
        Self::new(Config::default(), 64)
    }
}

impl Engine {
    /// An engine with `config` and a hash table of `hash_mb` MiB (allocated on first use).
    pub fn new(config: Config, hash_mb: usize) -> Engine {
        Engine { config, network: NetworkSource::default(), hash_mb, tt: None, tt_mb: 0, tt_dirty: false, tables: Arc::new(Mutex::new(Vec::new())), mate_solver: Arc::new(Mutex::new(None)) }
    }

    /// Hash size in MiB for the next table.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Sets the hash size; the table is reallocated on next use.
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.hash_mb = mb;
    }

    /// The transposition table, (re)allocated at the set size when needed; with it the
    /// size in MiB actually allocated when less than asked (`None` when in full).
    pub fn table(&mut self) -> (Arc<TranspositionTable>, Option<usize>) {
        if let Some(tt) = &self.tt {
            if self.tt_mb == self.hash_mb {
                return (tt.clone(), None);
            }
        }
        self.tt = None; // free the old table first
        let (tt, mb) = TranspositionTable::new(self.hash_mb);
        let tt = Arc::new(tt);
        self.tt = Some(tt.clone());
        self.tt_mb = self.hash_mb;
        self.tt_dirty = false;
        (tt, if mb != self.hash_mb { Some(mb) } else { None })
    }

    /// The table's move for `pos`, when it has one that is legal there.
    pub fn hash_move(&mut self, pos: &Position) -> Option<Move> {
        let m = self.table().0.probe(pos.key())?.mv;
        movegen::legal_moves(pos).contains(m).then_some(m)
    }

    /// Forgets the table's contents. A table no search has written to since it was made
    /// or last cleared is left alone: clearing writes every byte (about 0.3 s at 2 GiB),
    /// and a GUI solving tsume sends `usinewgame` before each `go mate`, which does not
    /// use this table.
    pub fn clear_hash(&mut self) {
        if self.tt_dirty {
            if let Some(tt) = &self.tt {
                tt.clear();
            }
            self.tt_dirty = false;
        }
    }

    /// A new game: clears the table and forgets the threads' move-ordering statistics.
    /// The tsume solver's table is kept: a GUI solving problem after problem sends
    /// `usinewgame` before each, and a fresh table of `USI_Hash` MiB costs the next
    /// `go mate` a page fault per (huge) page it touches, 1-2 s at 2 GiB against a few
    /// milliseconds for the problem. Its results stay true, and each solve starts a new
    /// generation anyway; a game's first `go` frees it (`start`).
    pub fn new_game(&mut self) {
        self.clear_hash();
        if let Ok(mut t) = self.tables.lock() {
            t.clear();
        }
    }

    /// Frees the tsume solver's table kept since the last `go mate` (a game's searches
    /// need the memory more); skipped while a solve holds it.
    pub fn release_mate_solver(&mut self) {
        if let Ok(mut s) = self.mate_solver.try_lock() {
            *s = None;
        }
    }

    fn shared_for(&mut self, pos: &Position, limits: &Limits) -> Arc<Shared> {
        let shared = Arc::new(Shared::new(self.table().0, self.config.threads));
        self.tt_dirty = true;
        shared.pondering.store(limits.ponder, Ordering::Relaxed);
        shared.infinite.store(limits.infinite, Ordering::Relaxed);
        shared.time.start_for(&limits.clock, limits.infinite, pos.side_to_move(), pos.game_ply(), &self.config.time);
        shared
    }

    /// Searches `pos` to completion on this thread; reports go to `sink`.
    pub fn search(&mut self, pos: &Position, limits: &Limits, sink: Sink) -> SearchResult {
        let shared = self.shared_for(pos, limits);
        let tables = self.tables.clone();
        let mut guard = match tables.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        think(shared, pos, limits, &self.config, &mut guard, sink)
    }

    /// Starts searching `pos` on its own thread; the best move goes to `sink`.
    pub fn start(&mut self, pos: &Position, limits: &Limits, sink: Sink) -> std::io::Result<Running> {
        self.release_mate_solver();
        let shared = self.shared_for(pos, limits);
        let (sh, p, lim, cfg, tables) = (shared.clone(), pos.clone(), limits.clone(), self.config.clone(), self.tables.clone());
        let handle = std::thread::Builder::new().name("search".into()).stack_size(SEARCH_STACK).spawn(move || {
            let mut guard = match tables.lock() {
                Ok(g) => g,
                Err(poisoned) => poisoned.into_inner(),
            };
            think(sh, &p, &lim, &cfg, &mut guard, sink);
        })?;
        Ok(Running { handle, shared, pos: pos.clone(), limits: limits.clone() })
    }

    /// Starts `go perft`-style counting on its own thread so that the protocol stays
    /// free; `done` gets the divide (`None` when stopped) and the seconds it took.
    pub fn start_perft(
        &mut self,
        pos: &Position,
        depth: u32,
        done: impl FnOnce(Option<Vec<(Move, u64)>>, f64) + Send + 'static,
    ) -> std::io::Result<Running> {
        let shared = flags_only();
        let (flag, p, threads) = (shared.clone(), pos.clone(), self.config.threads);
        let handle = std::thread::Builder::new().name("perft".into()).spawn(move || {
            let start = std::time::Instant::now();
            let divide = movegen::perft_divide_until(&p, depth, threads, &flag.stop);
            flag.answered.store(true, Ordering::Release);
            done(divide, start.elapsed().as_secs_f64());
        })?;
        Ok(Running { handle, shared, pos: pos.clone(), limits: Limits::default() })
    }

    /// Starts the tsume solver on `pos` on its own thread (hash of the engine's size,
    /// `limit` of time); `progress` hears how it stands every `MATE_PROGRESS_EVERY`,
    /// `done` gets the answer when it ends or is stopped. The solver is made on the
    /// first call (or when the hash size changed) and kept for the next: its table is
    /// then cleared by a new generation, not zeroed (see `mate::solve_warm`).
    pub fn start_mate(
        &mut self,
        pos: &Position,
        limit: mate::MateLimits,
        progress: mate::ProgressSink,
        done: impl FnOnce(MateResult, Stats, Option<AltReport>) + Send + 'static,
    ) -> std::io::Result<Running> {
        let shared = flags_only();
        let (flag, p, hash_mb, conventions) = (shared.clone(), pos.clone(), self.hash_mb, self.config.tsume_conventions);
        let yozume = self.config.yozume_print_level;
        let start = Instant::now();
        let solvers = self.mate_solver.clone();
        let handle = std::thread::Builder::new().name("mate".into()).stack_size(mate::DEEP_STACK).spawn(move || {
            let progress = Some((progress, MATE_PROGRESS_EVERY));
            let mut guard = match solvers.lock() {
                Ok(g) => g,
                Err(poisoned) => poisoned.into_inner(),
            };
            if guard.as_ref().is_none_or(|(mb, _)| *mb != hash_mb) {
                *guard = None; // free the old table first
                *guard = Some((hash_mb, mate::Solver::new(hash_mb)));
            }
            let (r, st, alt) = match guard.as_mut() {
                Some((_, solver)) => {
                    let (r, st) = mate::solve_warm(solver, &p, limit, &flag.stop, conventions, progress);
                    let alt = alternatives(solver, &p, &r, yozume, limit, start, &flag.stop);
                    (r, st, alt)
                }
                None => (MateResult::Timeout, Stats::default(), None),
            };
            drop(guard);
            flag.answered.store(true, Ordering::Release);
            done(r, st, alt);
        })?;
        Ok(Running { handle, shared, pos: pos.clone(), limits: Limits::default() })
    }
}

/// `YozumePrintLevel`'s pass after `go mate` (`level` >= 1 and a mate found): the
/// alternative mates along the answer with `hisha mate --alt`'s default budget a
/// question, ended by `go mate`'s own time (from `start`) and by `stop`; longer mates
/// too at level 3. `None` otherwise.
fn alternatives(
    solver: &mut mate::Solver,
    pos: &Position,
    r: &MateResult,
    level: u8,
    limit: mate::MateLimits,
    start: Instant,
    stop: &AtomicBool,
) -> Option<AltReport> {
    let MateResult::Mate(line) = r else { return None };
    if level == 0 || line.is_empty() || stop.load(Ordering::Acquire) {
        return None;
    }
    let nodes_per_check = limit.nodes.map_or(DEFAULT_NODES_PER_CHECK, |n| n.min(DEFAULT_NODES_PER_CHECK));
    let limits = AltLimits { nodes_per_check, deadline: limit.time.map(|t| start + t), longer: level >= 3 };
    Some(solver.alternatives(pos, line, limits, stop))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_game_forgets_a_search_and_leaves_an_unused_table_alone() {
        crate::init();
        let mut engine = Engine::new(Config { verbose: false, ..Config::default() }, 2);
        engine.new_game();
        assert!(engine.tt.is_none(), "usinewgame before any search makes no table");
        let pos = Position::startpos();
        let sink: Sink = Arc::new(|_| {});
        engine.search(&pos, &Limits { depth: Some(4), ..Limits::default() }, sink);
        assert!(engine.hash_move(&pos).is_some(), "the search left its move in the table");
        engine.new_game();
        assert!(engine.hash_move(&pos).is_none(), "a new game starts from an empty table");
        assert!(!engine.tt_dirty);
    }
}
