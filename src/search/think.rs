//! A whole search: `think` sets up the root (declaration, root moves, a df-pn probe for
//! a quick mate), runs the Lazy SMP workers, waits for `ponderhit`/`stop` and reports
//! the best move; `Worker::iterate` is the iterative deepening with aspiration windows
//! and MultiPV of each worker. Uses the rest of `search`, `position`, `movegen`, `mate`.

use super::history::ThreadTables;
use super::skill;
use super::params;
use super::report::{PvReport, Report, Sink};
use super::shared::Shared;
use super::tt::Bound;
use super::worker::Worker;
use super::{mate_in, Config, Limits, SearchResult, MATE_IN_MAX, MAX_PLY, VALUE_INF, VALUE_MATE};
use crate::core::types::Move;
use crate::eval;
use crate::mate::{MateResult, Solver};
use crate::movegen::{generate, is_legal, legal_moves, GenType, MoveList};
use crate::position::rules::{declaration, repetition, Declaration, Repetition};
use crate::position::Position;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// Lazy SMP: helper thread `i` skips some depths, by these sizes and phases.
const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// A root move with what the last search of it found.
#[derive(Clone)]
pub(super) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub bound: Bound,
    pub pv: Vec<Move>,
    pub seldepth: usize,
}

impl RootMove {
    pub fn new(mv: Move) -> RootMove {
        RootMove { mv, score: -VALUE_INF, prev_score: -VALUE_INF, bound: Bound::Exact, pv: vec![mv], seldepth: 0 }
    }
}

impl Worker {
    /// The PV reports of the current iteration: updated lines at `depth`, lines not yet
    /// searched again (or cut short by a stop) at the previous depth. Under
    /// `ConsiderationMode` each line goes on through the table's best moves.
    fn report_pvs(&self, depth: i32) {
        let sh = &self.shared;
        let elapsed = sh.time.elapsed().max(1);
        sh.last_pv_ms.store(elapsed, Ordering::Relaxed);
        let nodes = sh.total_nodes().max(self.nodes);
        let nps = nodes * 1000 / elapsed;
        let hashfull = sh.tt.hashfull();
        let multipv = self.cfg.multipv.min(self.root_moves.len());
        for (i, rm) in self.root_moves.iter().take(multipv).enumerate() {
            let fresh = (i <= self.pv_idx && rm.score != -VALUE_INF) || rm.prev_score == -VALUE_INF;
            let (score, bound) = if fresh { (rm.score, rm.bound) } else { (rm.prev_score, Bound::Exact) };
            if score == -VALUE_INF {
                continue;
            }
            let current = fresh && i <= self.pv_idx;
            let d = if current { depth } else { (depth - 1).max(1) };
            let line: &[Move] = if rm.pv.is_empty() { std::slice::from_ref(&rm.mv) } else { &rm.pv };
            (self.out)(&Report::Pv(PvReport {
                depth: d,
                seldepth: rm.seldepth.max(d as usize),
                multipv: if multipv > 1 { Some(i + 1) } else { None },
                score,
                bound: if current { bound } else { Bound::Exact },
                nodes,
                nps,
                time_ms: elapsed,
                hashfull: Some(hashfull),
                pv: self.legal_line(line),
            }));
        }
    }

    /// `line` up to its first move that is not legal where it stands (a safety net:
    /// no report shows an illegal move); under `ConsiderationMode` continued with the
    /// table's moves until a position repeats or the table has none.
    fn legal_line(&self, line: &[Move]) -> Vec<Move> {
        let mut pv = Vec::with_capacity(line.len());
        let mut p = self.pos.clone();
        for &m in line {
            if !is_legal(&p, m) {
                return pv;
            }
            p.do_move(m);
            pv.push(m);
        }
        if self.cfg.consideration_mode {
            while pv.len() < MAX_PLY && repetition(&p) == Repetition::None {
                let Some(m) = self.shared.tt.probe(p.key()).map(|e| e.mv).filter(|&m| m.is_ok() && is_legal(&p, m)) else { break };
                p.do_move(m);
                pv.push(m);
            }
        }
        pv
    }

    /// Whether an iteration's lines are printed now: `PvInterval` has passed since the
    /// last ones, or it is 0, or the search is `go infinite` or in `ConsiderationMode`.
    fn pv_due(&self) -> bool {
        let sh = &self.shared;
        let every = self.cfg.pv_interval_ms;
        every == 0
            || self.cfg.consideration_mode
            || sh.infinite.load(Ordering::Relaxed)
            || sh.time.elapsed() >= sh.last_pv_ms.load(Ordering::Relaxed).saturating_add(every)
    }

    /// Whether the main thread reports an aspiration failure now (`OutputFailLHPV`, in
    /// searches past three seconds, no closer together than `PvInterval`).
    fn reports_fail(&self) -> bool {
        self.id == 0 && self.cfg.verbose && self.cfg.fail_lh_pv && self.shared.time.elapsed() > 3000 && self.pv_due()
    }

    fn sort_root_moves(moves: &mut [RootMove]) {
        moves.sort_by(|a, b| b.score.cmp(&a.score).then(b.prev_score.cmp(&a.prev_score)));
    }

    /// Searches PV line `pv_idx` at `depth` with an aspiration window around its last score.
    fn aspiration(&mut self, depth: i32, pv_idx: usize) {
        let prev = self.root_moves[pv_idx].prev_score;
        let mut delta = params::aspiration_delta();
        let (mut alpha, mut beta) =
            if depth >= 4 && prev.abs() < 2000 { ((prev - delta).max(-VALUE_INF), (prev + delta).min(VALUE_INF)) } else { (-VALUE_INF, VALUE_INF) };
        // Fail highs in a row: each re-search is a ply shallower (as YaneuraOu and
        // Stockfish do), since a move that keeps failing high rarely needs the full depth
        // to be found best again.
        let mut failed_high = 0;
        loop {
            let v = self.search(alpha, beta, (depth - failed_high).max(1), 0, true, false);
            Self::sort_root_moves(&mut self.root_moves[pv_idx..]);
            if self.stopped() {
                break;
            }
            if v <= alpha {
                if self.reports_fail() {
                    self.report_pvs(depth);
                }
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-VALUE_INF);
                failed_high = 0;
            } else if v >= beta {
                if self.reports_fail() {
                    self.report_pvs(depth);
                }
                // The window moves up: its lower edge follows beta.
                alpha = (beta - delta).max(alpha);
                beta = (v + delta).min(VALUE_INF);
                failed_high += 1;
            } else {
                break;
            }
            delta += delta / 2 + 10;
            if delta > 1500 {
                alpha = -VALUE_INF;
                beta = VALUE_INF;
            }
        }
        Self::sort_root_moves(&mut self.root_moves[..=pv_idx]);
    }

    /// Iterative deepening up to `max_depth`, until stopped or (main thread) out of time.
    pub(super) fn iterate(&mut self, max_depth: i32) {
        let multipv = self.cfg.multipv.max(1);
        let mut last_best = Move::NONE;
        let mut stable = 0u32;
        let mut last_score = -VALUE_INF;
        let mut unreported = false;
        self.mat[0] = eval::material_psq(&self.pos);
        self.acc[0].refresh(&self.net, &self.pos);
        for depth in 1..=max_depth {
            if self.id > 0 {
                let i = (self.id - 1) % 20;
                if ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 != 0 && depth > 1 {
                    continue;
                }
            }
            for rm in self.root_moves.iter_mut() {
                rm.prev_score = rm.score;
            }
            self.best_changes = 0;
            for pv_idx in 0..multipv.min(self.root_moves.len()) {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(depth, pv_idx);
                if self.stopped() {
                    break;
                }
            }
            if self.stopped() {
                // A partly searched iteration still tells the best move when the first
                // root move was completed; the sort above keeps it first.
                if self.id == 0 && self.cfg.verbose && depth > 1 {
                    self.report_pvs(depth);
                    unreported = false;
                }
                break;
            }
            self.completed_depth = depth;
            if self.id != 0 {
                continue;
            }
            unreported = self.cfg.verbose && !self.pv_due();
            if self.cfg.verbose && !unreported {
                self.report_pvs(depth);
            }
            let (best, score) = (self.root_moves[0].mv, self.root_moves[0].score);
            stable = if best == last_best { stable + 1 } else { 0 };
            last_best = best;
            let pondering = self.shared.pondering.load(Ordering::Relaxed);
            // Proven mate: no need to go deeper.
            if score.abs() >= MATE_IN_MAX && VALUE_MATE - score.abs() <= depth && !pondering {
                break;
            }
            let dropped = last_score != -VALUE_INF && score < last_score - 60;
            if !pondering && self.shared.time.stop_after_iteration(stable, dropped, self.root_moves.len() == 1) {
                break;
            }
            last_score = score;
        }
        // The last iteration's lines, held back by `PvInterval`, before the answer.
        if unreported {
            self.report_pvs(self.completed_depth);
        }
    }
}

/// The root moves to search: every legal move (the promoting version only where
/// promotion is optional for pawn, bishop and rook; the unpromoted variants are
/// dominated), or the legal ones of `searchmoves`.
fn root_moves_of(pos: &Position, limits: &Limits, legal: &MoveList) -> Vec<RootMove> {
    let mut gen = MoveList::new();
    generate(pos, GenType::Legal, false, &mut gen);
    let mut cand: Vec<Move> = gen.iter().copied().collect();
    if !limits.searchmoves.is_empty() {
        let f: Vec<Move> = limits.searchmoves.iter().copied().filter(|m| legal.contains(*m)).collect();
        if !f.is_empty() {
            cand = f;
        }
    }
    cand.into_iter().map(RootMove::new).collect()
}

/// The settings of a search at `SkillLevel` below full strength: the best
/// `skill::CANDIDATES` root moves, on the level's share of the time or nodes and to its
/// depth at most.
fn skill_settings(shared: &Shared, limits: &Limits, cfg: &Config) -> (Config, Limits) {
    let cfg = Config { multipv: cfg.multipv.max(skill::CANDIDATES), ..cfg.clone() };
    let share = skill::budget_share(cfg.skill_level);
    shared.time.use_share(share);
    let limits = Limits {
        depth: Some(limits.depth_limit(&cfg).min(skill::depth(cfg.skill_level))),
        nodes: limits.node_limit(&cfg).map(|n| ((n as f64 * share) as u64).max(skill::MIN_NODES)),
        ..limits.clone()
    };
    (cfg, limits)
}

/// The handicapped pick among a skill search's best root moves (`top`, best first).
fn skill_pick(level: u32, mut top: Vec<RootMove>) -> RootMove {
    let scored: Vec<(Move, i32)> = top.iter().filter(|rm| rm.score != -VALUE_INF).map(|rm| (rm.mv, rm.score)).collect();
    let picked = skill::pick(level, &scored, &mut SmallRng::from_entropy());
    let i = top.iter().position(|rm| Some(rm.mv) == picked).unwrap_or(0);
    top.swap_remove(i)
}

/// Runs the workers (Lazy SMP) with `tables[i]` for thread `i` (missing ones are
/// made); returns the main thread's best root moves (as many as `MultiPV`, best
/// first) and the last completed depth.
fn run_workers(
    shared: &Arc<Shared>,
    pos: &Position,
    limits: &Limits,
    cfg: &Config,
    out: &Sink,
    root_moves: Vec<RootMove>,
    tables: &mut Vec<ThreadTables>,
) -> (Vec<RootMove>, i32) {
    let max_depth = limits.depth_limit(cfg);
    let nodes_limit = limits.node_limit(cfg).unwrap_or(0);
    let threads = cfg.threads.max(1).min(shared.nodes.len());
    while tables.len() < threads {
        tables.push(ThreadTables::new());
    }
    let mut mine: Vec<ThreadTables> = tables.drain(..threads).collect();
    let main_tables = mine.remove(0);
    std::thread::scope(|s| {
        let mut handles = Vec::new();
        for (id, t) in (1..threads).zip(mine) {
            let (sh, p, c, o, rms) = (shared.clone(), pos.clone(), cfg.clone(), out.clone(), root_moves.clone());
            let b = std::thread::Builder::new().stack_size(64 << 20);
            if let Ok(h) = b.spawn_scoped(s, move || {
                let mut w = Worker::new(id, p, sh, c, o, rms, t).with_node_limit(nodes_limit);
                w.iterate(max_depth);
                w.publish_nodes();
                w.into_tables()
            }) {
                handles.push(h);
            }
        }
        let mut w = Worker::new(0, pos.clone(), shared.clone(), cfg.clone(), out.clone(), root_moves, main_tables).with_node_limit(nodes_limit);
        w.iterate(max_depth);
        w.publish_nodes();
        shared.wait_while_pondering();
        shared.stop.store(true, Ordering::Relaxed);
        let lines = cfg.multipv.clamp(1, w.root_moves.len());
        let r = (w.root_moves[..lines].to_vec(), w.completed_depth);
        let mut back = vec![w.into_tables()];
        back.extend(handles.into_iter().filter_map(|h| h.join().ok()));
        tables.splice(0..0, back);
        r
    })
}

/// The answer from the best root move: resign below the resign value, else the move
/// with a ponder move (from the PV or the table) that is legal after it.
fn answer(shared: &Shared, pos: &Position, cfg: &Config, rm: &RootMove, depth: i32, result: &mut SearchResult) {
    result.best = rm.mv.to_string();
    result.score = rm.score.max(rm.prev_score);
    if rm.score != -VALUE_INF {
        result.score = rm.score;
    }
    result.depth = depth;
    if result.score <= -cfg.resign_value {
        result.best = "resign".into();
    } else {
        let mut p = pos.clone();
        p.do_move(rm.mv);
        let ponder = if rm.pv.len() > 1 {
            Some(rm.pv[1])
        } else {
            shared.tt.probe(p.key()).map(|e| e.mv).filter(|&m| m.is_ok() && legal_moves(&p).contains(m))
        };
        result.ponder = ponder.filter(|&m| legal_moves(&p).contains(m));
    }
}

/// Runs a whole `go`: root checks, Lazy SMP threads, reports, waiting for
/// `ponderhit`/`stop` when pondering or infinite, and finally the best move.
/// `tables` are the threads' histories and mate tables, kept by the caller between
/// searches (cleared here unless `cfg.keep_history`).
pub fn think(shared: Arc<Shared>, pos: &Position, limits: &Limits, cfg: &Config, tables: &mut Vec<ThreadTables>, out: Sink) -> SearchResult {
    shared.tt.new_search();
    // Statistics carried over from the previous move order the next search better:
    // +221 -179 over 400 games at 20,000 nodes a move (docs/strength.md).
    // The low-ply history is learnt afresh either way (`clear_histories` includes it).
    if !cfg.keep_history {
        tables.iter_mut().for_each(ThreadTables::clear_histories);
    } else {
        tables.iter_mut().for_each(|t| t.histories.new_search());
    }
    let legal = legal_moves(pos);
    let mut result = SearchResult { best: "resign".into(), ponder: None, score: -VALUE_MATE, depth: 0, nodes: 0, root_probe_ms: 0 };
    let mut root_moves = Vec::new();
    let declared = declaration(pos, cfg.entering_king);
    if let Some(d) = declared {
        result.best = match d {
            Declaration::Win => "win".into(),
            Declaration::Try(m) => m.to_string(),
        };
        result.score = VALUE_MATE;
    } else if !legal.is_empty() {
        root_moves = root_moves_of(pos, limits, &legal);
    }
    let probe_start = Instant::now();
    let root_mate = if !root_moves.is_empty() && limits.searchmoves.is_empty() && cfg.multipv <= 1 {
        root_mate_probe(&shared, pos, &out, cfg.verbose, limits.node_limit(cfg))
    } else {
        None
    };
    result.root_probe_ms = probe_start.elapsed().as_millis() as u64;
    if let Some(line) = root_mate {
        shared.wait_while_pondering();
        result.best = line[0].to_string();
        result.ponder = line.get(1).copied();
        result.score = mate_in(line.len());
        result.depth = line.len() as i32;
    } else if !root_moves.is_empty() {
        let (best, depth) = if skill::enabled(cfg.skill_level) {
            let (cfg, limits) = skill_settings(&shared, limits, cfg);
            let (top, depth) = run_workers(&shared, pos, &limits, &cfg, &out, root_moves, tables);
            (skill_pick(cfg.skill_level, top), depth)
        } else {
            let (mut top, depth) = run_workers(&shared, pos, limits, cfg, &out, root_moves, tables);
            (top.swap_remove(0), depth)
        };
        answer(&shared, pos, cfg, &best, depth, &mut result);
    } else {
        shared.wait_while_pondering();
    }
    result.nodes = shared.total_nodes();
    shared.answered.store(true, Ordering::Release);
    out(&Report::BestMove { best: result.best.clone(), ponder: result.ponder });
    result
}

/// Runs the df-pn solver on the root for a small share of the time budget; on a
/// proved mate reports it and returns the mating line (legal, attacker first, ending
/// in mate).
fn root_mate_probe(shared: &Shared, pos: &Position, out: &Sink, verbose: bool, node_limit: Option<u64>) -> Option<Vec<Move>> {
    let (budget, cap) = shared.time.mate_probe_limits(node_limit);
    let mut solver = Solver::for_nodes(budget);
    let line = match solver.solve(pos, cap, &shared.stop, budget) {
        MateResult::Mate(line) if !line.is_empty() => line,
        _ => return None,
    };
    // Trust but verify: every move legal and the line ends in mate.
    let mut p = pos.clone();
    for &m in &line {
        if !is_legal(&p, m) {
            return None;
        }
        p.do_move(m);
    }
    if !(p.in_check() && legal_moves(&p).is_empty()) {
        return None;
    }
    if verbose {
        let elapsed = shared.time.elapsed().max(1);
        let nodes = solver.stats.nodes;
        let n = line.len();
        out(&Report::Pv(PvReport {
            depth: n as i32,
            seldepth: n,
            multipv: None,
            score: mate_in(n),
            bound: Bound::Exact,
            nodes,
            nps: nodes * 1000 / elapsed,
            time_ms: elapsed,
            hashfull: None,
            pv: line.clone(),
        }));
    }
    Some(line)
}
