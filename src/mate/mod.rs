//! Tsume (mate problem) solver: df-pn with its own transposition table.
//!
//! * OR nodes are attacker-to-move positions (every legal check is a child, promoted
//!   and unpromoted), AND nodes are defender-to-move positions (every legal evasion,
//!   interposing drops included). Rules (uchifuzume, nifu, dead drops) come from the
//!   legal move generator.
//! * The table is keyed by the board key plus the attacker's hand (the defender's hand
//!   follows from them for a given set of pieces in play; the key is salted with that
//!   set and the attacker, so one table can serve a whole session), and shares results between hands through superiority: a
//!   proof with proof hand `ph` holds for every hand containing `ph`, a disproof with
//!   disproof hand `dh` for every hand contained in `dh`. Proof and disproof hands are
//!   computed minimally/maximally as in the df-pn literature (Nagai; KomoringHeights).
//! * Every result also carries a depth: a proof knows its length (plies to mate) and a
//!   disproof knows up to which depth it holds (`DEPTH_INF` = no mate at all). The same
//!   search therefore answers "is there a mate within `d` plies", which the shortest-mate
//!   and solution extraction use.
//! * Repetitions count as a loss for the attacker (perpetual check). A disproof that
//!   depends on a repetition with a node above the current one is path dependent (the
//!   graph-history interaction): it is used locally by the parent but never stored.
//! * Thresholds use the 1+epsilon trick to avoid thrashing between siblings; each frame
//!   keeps its children's values locally so a child's fresh result is never lost to a
//!   table replacement (no infinite loop from inconsistent table reads).
//!
//! Files: `keys` (hand arithmetic, salted keys), `table` (the transposition table),
//! `dfpn` (the proof-number search), `line` (shortest mate and solution line), `futile`
//! (futile interpositions, for the composers' conventions: `Conventions`), `pv` (the
//! line a running solve is working on, for its progress reports), `quick` (mate in 1
//! and 3 by a direct search, before df-pn), `defender` (a root where the defender is
//! to move, in check), `spare` (the composers' pieces-to-spare rule), `leaves` (the
//! nodes next to a bounded search's horizon, answered at once); this file holds
//! the `Solver` front end and the `Progress` it reports on long solves.
//! Uses `core`, `position` and `movegen`.

use crate::core::attacks::between;
use crate::movegen::{self, GenType, MoveList};
use crate::position::Position;
use crate::core::types::{Color, Hand, Move, Piece, PieceType, Square};
use crate::core::zobrist;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub mod alt; // alternative mates (余詰): `hisha mate --alt`
pub mod alt_text; // the report in words (the CLI, `YozumePrintLevel`)
mod defender;
mod delay;
mod dfpn;
mod futile;
mod keys;
mod leaves;
mod line;
mod pv;
mod quick;
mod spare;
mod table;
#[cfg(test)]
mod tests;

use delay::*;
use dfpn::*;
use futile::Futility;
use keys::*;
use line::Polish;
use pv::LineRoot;
use table::*;

pub use defender::is_defended_mating_line;
pub use line::is_mating_line;
pub use pv::{legal_prefix, MAX_PV_PLIES};

/// Proof/disproof number standing for "infinite" (the node is resolved).
const INF: u32 = 1 << 30;
/// Largest finite proof/disproof number.
const INF_M1: u32 = INF - 1;
/// "No proof" marker for a length.
const NO_LEN: u16 = u16::MAX;
/// Disproof depth meaning "no mate at any depth".
const DEPTH_INF: u16 = u16::MAX;
/// Marker for "this disproof does not depend on a repetition".
const NO_REP: u16 = u16::MAX;
/// Depth budget of an unlimited solve (plies); deeper lines are cut. (Not the
/// playing search's `search::MAX_PLY`.)
const MAX_DEPTH: u16 = 4000;
/// The longest mate a solve looks for by bounded searches before its unbounded one.
const SHORT_PLIES: u16 = 9;
/// Nodes the bounded searches of a solve's start may spend in all.
const SHORT_NODES: u64 = 30_000;

/// Result of a tsume search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A mate: the solution line, attacker first.
    Mate(Vec<Move>),
    /// Proved: the attacker has no forced mate by continuous checks.
    NoMate,
    /// Not decided within the limits (time, nodes or `stop`).
    Timeout,
}

/// When the solver follows the composers' conventions (futile interpositions are no
/// defence and are not counted): always, never, or for tsume proper, where the
/// attacker has no king. The playing search never does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Conventions {
    On,
    Off,
    Auto,
}

impl Conventions {
    /// Whether the problem `pos` is solved by them. The attacker is the side to move,
    /// or its opponent when the side to move is in check (the defender to move).
    pub fn applies_to(self, pos: &Position) -> bool {
        let attacker = if pos.in_check() { pos.side_to_move().flip() } else { pos.side_to_move() };
        match self {
            Conventions::On => true,
            Conventions::Off => false,
            Conventions::Auto => !pos.has_king(attacker),
        }
    }
}

/// Search statistics of the last solve.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Nodes visited (df-pn expansions) in all phases.
    pub nodes: u64,
    /// Wall time in seconds.
    pub seconds: f64,
    /// Nodes of the first proof (the rest went into the shortest line).
    pub proof_nodes: u64,
    /// Seconds to the first proof (0 without one).
    pub proof_seconds: f64,
    /// Whether a returned mate is proved shortest with the best defence (false when
    /// the polishing ran out of time or nodes and a line from the table was returned:
    /// the line's length is then no proved mate length, see `mate_within`).
    pub exact: bool,
    /// Proved upper bound on the mate length (plies): the attacker forces mate within
    /// it against every defence (0 when no mate was proved). Equals the line's length
    /// when `exact`.
    pub mate_within: u16,
    /// Why a returned mate is not proved shortest (`None` when it is): "out of time",
    /// "stopped" or "node limit".
    pub bound_reason: Option<&'static str>,
    /// Plies of the returned line that count: all of them, except under the composers'
    /// conventions, where futile interpositions and their captures do not.
    pub length: u16,
    /// Whether the solve followed the composers' conventions.
    pub conventions: bool,
    /// Whether the root had the defender to move (in check): the line then starts
    /// with the defender's reply and its length counts that reply.
    pub defender_first: bool,
}



/// How a long solve stands, given to the progress sink about once per interval.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Nodes so far in this solve, all phases.
    pub nodes: u64,
    /// Seconds since the solve started.
    pub seconds: f64,
    /// Table slots in use, per mille.
    pub hashfull: u32,
    /// Proof number of the current search's root (about 2^30 when proved impossible).
    pub root_pn: u32,
    /// Disproof number of the current search's root.
    pub root_dn: u32,
    /// The line the solve is working on, from its root, as the table has it now (see
    /// `pv`): legal moves, at most `MAX_PV_PLIES`, the attacker's first; empty when
    /// the table holds none. A guess while the root is unproved.
    pub line: Vec<Move>,
    /// Whether the solve's root is proved a mate by now (the line is then read from
    /// the proof, but its length is no proved mate length yet).
    pub mate_proved: bool,
}

impl Progress {
    /// Nodes per second so far.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.seconds.max(1e-9)
    }
}

/// Receives `Progress` reports (on the solver's thread).
pub type ProgressSink = Box<dyn FnMut(&Progress) + Send>;

/// A reusable tsume solver (owns its transposition table).
pub struct Solver {
    tt: MateTable,
    /// Nodes the current phase may still spend over all its searches.
    budget: u64,
    bufs: Buffers,
    /// Statistics of the last call.
    pub stats: Stats,
    /// Solve by the composers' conventions (futile interpositions are no defence and
    /// are not counted); see `futile`.
    conventions: bool,
    /// How far the futility tests look (`Thorough` only while the pieces-to-spare rule
    /// asks; see `spare::spares_after`).
    futility: Futility,
    /// Capped futility tests that ran out of nodes since the table was last cleared
    /// (see `ask`).
    capped_give_ups: u64,
    /// Nodes a futility test may spend instead of its mode's cap (tests only; see
    /// `Dfpn::futility_cap`).
    futility_cap: Option<u64>,
    /// Futile interposition pairs at the end of the last table-read line (uncounted).
    tail_pairs: u16,
    /// Progress sink and its interval (`set_progress`).
    progress: Option<(ProgressSink, Duration)>,
    /// When the current `solve` started.
    started: Instant,
    /// When the next progress report is due.
    next_report: Instant,
    /// The root of the current `solve`, for the lines of its progress reports.
    line_root: Option<LineRoot>,
}

/// How a bounded question ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Answer {
    Yes(u16),
    No,
    Unknown,
}

impl Solver {
    /// A solver with a table of `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Solver {
        Solver::with_table(MateTable::new(hash_mb))
    }

    /// A solver with a small table fit for `max_nodes`-node probes.
    pub fn for_nodes(max_nodes: u64) -> Solver {
        Solver::with_table(MateTable::with_entries((max_nodes as usize).saturating_mul(2)))
    }

    fn with_table(tt: MateTable) -> Solver {
        Solver {
            tt,
            budget: u64::MAX,
            bufs: Buffers::default(),
            stats: Stats::default(),
            conventions: false,
            futility: Futility::Capped,
            capped_give_ups: 0,
            futility_cap: None,
            tail_pairs: 0,
            progress: None,
            started: Instant::now(),
            next_report: Instant::now(),
            line_root: None,
        }
    }

    /// Reports how each later `solve` stands to `sink`, every `every` (the first report
    /// one interval after the start; a solve that ends sooner reports nothing).
    pub fn set_progress(&mut self, sink: ProgressSink, every: Duration) {
        self.progress = Some((sink, every));
    }

    /// Solves by the composers' conventions from now on (`true`) or by the plain game
    /// rules (`false`, the default and what the playing search uses).
    pub fn set_conventions(&mut self, on: bool) {
        self.conventions = on;
    }

    /// Key salt of this solver's searches with `attacker` attacking in `pos`.
    fn salt(&self, pos: &Position, attacker: Color) -> u64 {
        mode_salt(key_salt(pos, attacker), self.conventions, self.futility)
    }

    /// Is there a mate within `depth` plies (`or_node`: attacker to move)?
    ///
    /// Under the conventions a capped futility test that runs out counts its drop as a
    /// real defence, which only lengthens mates: a "yes" stands, but a "no" may miss a
    /// mate such a test did not see, in this search or in one whose disproofs the table
    /// kept. So once any capped test of the table's searches has run out, a "no" is
    /// asked again with thorough tests (`Futility::Thorough`, whose answers the table
    /// keeps apart), and their answer stands.
    fn ask(&mut self, pos: &mut Position, depth: u16, or_node: bool, stop: &AtomicBool, deadline: Option<Instant>, max_nodes: u64) -> Answer {
        let nodes_before = self.stats.nodes;
        let answer = self.search(pos, depth, or_node, stop, deadline, max_nodes);
        if answer != Answer::No || !self.conventions || self.futility != Futility::Capped || self.capped_give_ups == 0 {
            return answer;
        }
        let left = max_nodes.saturating_sub(self.stats.nodes - nodes_before);
        let capped = std::mem::replace(&mut self.futility, Futility::Thorough);
        let answer = self.search(pos, depth, or_node, stop, deadline, left);
        self.futility = capped;
        answer
    }

    /// `ask`'s one df-pn search, in the solver's current mode.
    fn search(&mut self, pos: &mut Position, depth: u16, or_node: bool, stop: &AtomicBool, deadline: Option<Instant>, max_nodes: u64) -> Answer {
        let bufs = std::mem::take(&mut self.bufs);
        let mut s = Dfpn::new(&mut self.tt, bufs, stop, deadline, max_nodes.min(self.budget), self.conventions);
        s.futility = self.futility;
        s.futility_cap = self.futility_cap;
        if let Some((sink, every)) = &mut self.progress {
            s.reporter = Some(Reporter {
                sink,
                started: self.started,
                every: *every,
                next: self.next_report,
                nodes_before: self.stats.nodes,
                line_root: self.line_root.as_ref(),
            });
        }
        let r = s.run(pos, depth, or_node);
        if let Some(rep) = &s.reporter {
            self.next_report = rep.next;
        }
        self.bufs = std::mem::take(&mut s.b);
        self.stats.nodes += s.nodes;
        if self.futility == Futility::Capped {
            self.capped_give_ups += s.give_ups;
        }
        self.budget = self.budget.saturating_sub(s.nodes);
        if r.pn == 0 {
            Answer::Yes(r.len)
        } else if r.dn == 0 && r.rep == NO_REP {
            Answer::No
        } else {
            // Undecided; a path-dependent disproof (`rep` set) cannot happen at a root,
            // whose own repetitions resolve there, and counts as undecided too.
            Answer::Unknown
        }
    }

    /// Records the first proof of the solve that began at `start`: its nodes and time.
    fn note_first_proof(&mut self, start: Instant) {
        self.stats.proof_nodes = self.stats.nodes;
        self.stats.proof_seconds = start.elapsed().as_secs_f64();
    }

    /// Forgets every result in the table at once (its memory is not touched; see
    /// `MateTable::clear`), so that the next solve depends on its problem alone.
    pub fn clear_table(&mut self) {
        self.tt.clear();
        self.capped_give_ups = 0;
    }

    /// Solves the problem `pos` as `go mate` and `hisha mate` pose it: the side to
    /// move attacks, or, when it is in check, defends (see `defender`; `stats.
    /// defender_first` says which). The playing search, whose side to move always
    /// attacks, calls `solve`.
    pub fn solve_problem(&mut self, pos: &Position, time_limit: Option<Duration>, stop: &AtomicBool, max_nodes: u64) -> MateResult {
        if pos.in_check() {
            self.solve_defender(pos, time_limit, stop, max_nodes)
        } else {
            self.solve_from(pos, time_limit, stop, max_nodes, true)
        }
    }

    /// Solves `pos` (attacker = side to move) within the limits. Mates in 1 and 3 are
    /// answered by a direct search first (see `quick`). The playing search's form: its
    /// first proof is unbounded from the start (a mate in a game is often long).
    pub fn solve(&mut self, pos: &Position, time_limit: Option<Duration>, stop: &AtomicBool, max_nodes: u64) -> MateResult {
        self.solve_from(pos, time_limit, stop, max_nodes, false)
    }

    /// `solve`; `bounded_start`: look for a short mate by bounded searches before the
    /// unbounded one (see `short_first_proof`), as a problem is solved.
    fn solve_from(&mut self, pos: &Position, time_limit: Option<Duration>, stop: &AtomicBool, max_nodes: u64, bounded_start: bool) -> MateResult {
        let start = Instant::now();
        self.stats = Stats { conventions: self.conventions, ..Stats::default() };
        if let Some(line) = self.quick_solve(&mut pos.clone(), max_nodes) {
            self.note_first_proof(start);
            self.stats.seconds = start.elapsed().as_secs_f64();
            return MateResult::Mate(line);
        }
        self.solve_attacker(pos, start, (time_limit, max_nodes), stop, bounded_start)
    }

    /// `solve` by df-pn, the attacker to move in `pos`; `start`: when the solve began
    /// (its `stats` already started, quick tries counted).
    fn solve_attacker(&mut self, pos: &Position, start: Instant, limits: (Option<Duration>, u64), stop: &AtomicBool, bounded_start: bool) -> MateResult {
        let (time_limit, max_nodes) = limits;
        self.started = start;
        self.next_report = start + self.progress.as_ref().map_or(Duration::ZERO, |p| p.1);
        self.budget = u64::MAX;
        let deadline = time_limit.map(|t| start + t);
        self.line_root = self.progress.is_some().then(|| LineRoot::new(pos));
        let mut p = pos.clone();
        // The first proof by the plain rules: a mate exists by the conventions exactly
        // when it does by the rules, and within the same length, and the plain search
        // has no futility tests to pay for. The conventions shorten it afterwards.
        let conventions = std::mem::replace(&mut self.conventions, false);
        let mut first = Answer::Unknown;
        if bounded_start {
            first = self.short_first_proof(&mut p, stop, deadline, max_nodes);
            if first == Answer::Unknown {
                // The bounded searches' open nodes keep numbers that hold only within
                // their bounds (children disproved at the horizon look hopeless): they
                // would mislead the unbounded search. Their disproofs stay: the
                // shortening asks the same questions again.
                self.tt.keep_disproofs();
            }
        }
        if first == Answer::Unknown && !self.interrupted(stop, deadline) {
            first = self.ask(&mut p, MAX_DEPTH, true, stop, deadline, max_nodes.saturating_sub(self.stats.nodes));
        }
        self.conventions = conventions;
        let res = match first {
            Answer::No => MateResult::NoMate,
            Answer::Unknown => MateResult::Timeout,
            Answer::Yes(len) => {
                self.note_first_proof(start);
                if let Some(root) = &mut self.line_root {
                    root.proved = true;
                }
                let plan = Polish::after_proof(start, time_limit, self.stats.nodes, max_nodes);
                let line = self.finish(&mut p, len, stop, &plan, max_nodes);
                if line.is_empty() {
                    MateResult::Timeout
                } else {
                    MateResult::Mate(line)
                }
            }
        };
        self.stats.seconds = start.elapsed().as_secs_f64();
        self.line_root = None;
        res
    }

    /// The first proof of a short problem: bounded searches for a mate within 5, 7,
    /// ... `SHORT_PLIES` plies, the first that succeeds then proved shortest (by the
    /// plain rules) by the one before it. Near their horizon these searches answer
    /// whole subtrees at once (`dfpn`'s leaves), so a short mate costs less this way
    /// than an unbounded proof that its shortening must then undercut. `Unknown` when
    /// none succeeded within `SHORT_NODES` nodes: the unbounded search takes over.
    fn short_first_proof(&mut self, p: &mut Position, stop: &AtomicBool, deadline: Option<Instant>, max_nodes: u64) -> Answer {
        let start_nodes = self.stats.nodes;
        let mut depth = 5;
        while depth <= SHORT_PLIES {
            let spent = self.stats.nodes - start_nodes;
            let left = SHORT_NODES.saturating_sub(spent).min(max_nodes.saturating_sub(self.stats.nodes));
            match self.ask(p, depth, true, stop, deadline, left) {
                Answer::No => depth += 2,
                found => return found,
            }
        }
        Answer::Unknown
    }

    /// Whether the solve must end now: stopped or past its deadline.
    fn interrupted(&self, stop: &AtomicBool, deadline: Option<Instant>) -> bool {
        stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// A mating first move if a mate is proved within `max_nodes` nodes.
    pub fn quick_mate(&mut self, pos: &Position, max_nodes: u64) -> Option<Move> {
        self.quick_mate_in(&mut pos.clone(), max_nodes).map(|(m, _)| m)
    }

    /// `quick_mate` on the caller's position (left as it was found), without copying
    /// it: the form the playing search uses at its nodes. Also gives the length in
    /// plies of the mate found (an upper bound on the shortest one).
    pub fn quick_mate_in(&mut self, p: &mut Position, max_nodes: u64) -> Option<(Move, u16)> {
        let never = AtomicBool::new(false);
        self.stats = Stats::default();
        self.budget = u64::MAX;
        let depth = 64u16.min(MAX_DEPTH);
        match self.ask(p, depth, true, &never, None, max_nodes) {
            Answer::Yes(_) => {}
            _ => return None,
        }
        let p = &*p;
        let mut list = MoveList::new();
        let mut kids = Vec::new();
        gen_node_moves(p, true, &mut list, &mut kids);
        let hand = p.hand(p.side_to_move());
        kids.iter()
            .filter_map(|c| {
                let r = self.tt.probe(board_key_after(p, c.m, self.salt(p, p.side_to_move())), hand_after_attack(p, hand, c.m), depth - 1);
                (r.pn == 0).then_some((r.len, c.m))
            })
            .min_by_key(|&(l, _)| l)
            .map(|(l, m)| (m, l.saturating_add(1)))
    }
}


/// Solves `pos` (attacker = side to move) within `time_limit` (None = infinite), polling `stop`.
pub fn solve(pos: &Position, time_limit: Option<Duration>, stop: &AtomicBool, hash_mb: usize) -> MateResult {
    solve_with_stats(pos, time_limit, u64::MAX, stop, hash_mb, Conventions::Off, None).0
}

/// The limits of a `go mate`: a time (`None`: until stopped) and a node budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateLimits {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
}

/// Like `solve`, but of the problem as `Solver::solve_problem` poses it (a side to
/// move in check defends), also returning the search statistics, with `progress` (if any) as
/// the progress sink. The deep stack is reserved before the table, so that a table as
/// large as memory allows still leaves room for it.
pub fn solve_with_stats(
    pos: &Position,
    time_limit: Option<Duration>,
    max_nodes: u64,
    stop: &AtomicBool,
    hash_mb: usize,
    conventions: Conventions,
    progress: Option<(ProgressSink, Duration)>,
) -> (MateResult, Stats) {
    on_deep_stack(|| {
        let mut solver = Solver::new(hash_mb);
        solver.set_conventions(conventions.applies_to(pos));
        if let Some((sink, every)) = progress {
            solver.set_progress(sink, every);
        }
        let r = solver.solve_problem(pos, time_limit, stop, max_nodes);
        (r, solver.stats)
    })
    .unwrap_or((MateResult::Timeout, Stats::default()))
}

/// `solve` with a solver kept between calls (`go mate` keeps one warm): its table is
/// cleared first without being zeroed, the conventions and the progress sink are set
/// for this problem. Runs on the caller's thread, whose stack must be `DEEP_STACK`.
pub fn solve_warm(
    solver: &mut Solver,
    pos: &Position,
    limits: MateLimits,
    stop: &AtomicBool,
    conventions: Conventions,
    progress: Option<(ProgressSink, Duration)>,
) -> (MateResult, Stats) {
    solver.clear_table();
    solver.set_conventions(conventions.applies_to(pos));
    solver.progress = progress;
    let r = solver.solve_problem(pos, limits.time, stop, limits.nodes.unwrap_or(u64::MAX));
    solver.progress = None;
    (r, solver.stats)
}

impl Solver {
    /// `solve_problem` on a helper thread with a large stack (deep problems recurse
    /// deeply).
    pub fn solve_deep(&mut self, pos: &Position, time_limit: Option<Duration>, stop: &AtomicBool) -> MateResult {
        on_deep_stack(|| self.solve_problem(pos, time_limit, stop, u64::MAX)).unwrap_or(MateResult::Timeout)
    }
}

/// Stack of the solver's thread: room for the deepest recursion `MAX_DEPTH` allows.
pub const DEEP_STACK: usize = 512 << 20;

/// Runs `f` on a helper thread with `DEEP_STACK`; `None` if that thread cannot be
/// started (or panicked).
fn on_deep_stack<T: Send>(f: impl FnOnce() -> T + Send) -> Option<T> {
    std::thread::scope(|s| {
        let h = std::thread::Builder::new().stack_size(DEEP_STACK).spawn_scoped(s, f).ok()?;
        h.join().ok()
    })
}

/// Quick bounded mate probe for the normal search: a mating first move if a mate is proved within `max_nodes`.
pub fn quick_mate(pos: &Position, max_nodes: u64) -> Option<Move> {
    Solver::for_nodes(max_nodes).quick_mate(pos, max_nodes)
}
