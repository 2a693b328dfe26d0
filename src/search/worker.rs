//! One search thread: the tree search (`search`; its pruning and reductions in
//! `worker/pruning.rs`), quiescence search (`qsearch`, in `worker/qsearch.rs`), the
//! evaluation state kept along the current line, and the per-ply stacks (PV,
//! evaluations, moves made). Uses the rest of `search`, `position`, `movegen`, `eval`
//! and the mate probes of `mate`.

use super::history::{history_bonus, piece_to, ThreadTables};
use super::movepick::{is_tactical, MoveOrder, MovePicker, MoveScores, StagedPicker, GOOD_CAPTURE};
use super::params;
use super::report::Sink;
use super::shared::Shared;
use super::think::RootMove;
use super::tt::{Bound, TtEntry, DEPTH_UNSEARCHED};
use super::{from_tt, mate_in, mated_in, to_tt, Config, MATE_IN_MAX, MAX_PLY, REPETITION_DRAW_AT, VALUE_INF, VALUE_SUPERIOR};
use crate::core::types::{Move, Piece};
use crate::eval::nnue::{self, Accumulator, Network, RefreshCache};
use crate::eval::{self, PIECE_VALUE};
use crate::movegen::{contact_mate_in_one, generate, CheckInfo, GenType, MoveList};
use crate::position::rules::{declaration, repetition_in_search, Repetition};
use crate::position::see::see_ge;
use crate::position::Position;
use std::sync::atomic::Ordering;
use std::sync::Arc;

mod mates;
mod ordering;
mod pruning;
use pruning::MovePruning;
use ordering::NodeOrder;
mod qsearch;

/// The material a move wins by taking `captured` (the piece on its destination): 0 when
/// the square is empty.
#[inline(always)]
fn captured_value(captured: Piece) -> i32 {
    if captured.is_some() {
        PIECE_VALUE[captured.kind().index()]
    } else {
        0
    }
}

/// Plies taken off a move searched without a late-move reduction at an expected cut
/// node with no table move: `cut_first_reduce` of them, the second only where more than
/// two plies remain.
fn cut_first_less(new_depth: i32) -> i32 {
    let k = params::cut_first_reduce();
    (k >= 1) as i32 + (k >= 2 && new_depth > 2) as i32
}

/// A reduced move that beats alpha and the node's best value by this much (plus two
/// a ply) is searched again a ply deeper (YaneuraOu's 43).
const DEEPER_MARGIN: i32 = 43;
/// One that beats alpha but not the node's best value by this much is searched again
/// a ply shallower (YaneuraOu's 9).
const SHALLOWER_MARGIN: i32 = 9;

/// Shallowest remaining depth at which a PV node runs a df-pn mate probe.
const MATE_PROBE_DEPTH: i32 = 8;
/// Shallowest remaining depth for a probe at a non-PV node.
const MATE_PROBE_DEPTH_NON_PV: i32 = 99;
/// Node budget of a probe at a non-PV node.
const MATE_PROBE_NODES: u64 = 200;
/// Node budget of a probe at a PV node.
const MATE_PROBE_PV_NODES: u64 = 300;
/// Ordering scores from here up are the table's move and the captures that do not lose
/// material (`GOOD_CAPTURE` give or take a little capture history); every quiet history
/// score is far below. (Killers scored between the two until session 56: +18 +/- 20
/// Elo over 1,200 games without them.)
const GOOD_MOVE_SCORE: i32 = GOOD_CAPTURE / 2;

/// What every move of a node shares.
#[derive(Copy, Clone)]
struct Node {
    beta: i32,
    depth: i32,
    ply: usize,
    pv: bool,
    cut: bool,
    root: bool,
    eval: i32,
    improving: bool,
    in_check: bool,
    /// The node has a table move.
    tt_move: bool,
    /// The static evaluation before its correction: what the table keeps.
    raw_eval: i32,
    /// The null move was mated: the opponent threatens mate, so quiet moves are
    /// neither pruned by count, futility or history nor reduced as much.
    threat: bool,
}

/// One move about to be searched.
#[derive(Copy, Clone)]
struct Candidate {
    mv: Move,
    score: i32,
    number: i32,
    quiet: bool,
    gives_check: bool,
    /// Plies added to (or, negative, taken from) the move's depth: singular extensions.
    extension: i32,
}

/// A node's move picker: one scored list (the root, in check) or stages (elsewhere).
enum Picker<'a> {
    Listed(MovePicker<'a>),
    Staged(StagedPicker<'a>),
}

/// The outcome of a singular extension test.
enum Singular {
    /// Search the table's move this many plies deeper (negative: shallower).
    Extend(i32),
    /// The node fails high without the table's move: return this value.
    Cut(i32),
    /// The search was stopped during the test.
    Stopped,
}

/// Moves tried without a cut-off, punished when another move cuts off.
struct Tried {
    quiets: [Move; 64],
    nq: usize,
    captures: [Move; 32],
    nc: usize,
}

impl Tried {
    fn new() -> Tried {
        Tried { quiets: [Move::NONE; 64], nq: 0, captures: [Move::NONE; 32], nc: 0 }
    }

    fn add(&mut self, m: Move, quiet: bool) {
        if quiet && self.nq < self.quiets.len() {
            self.quiets[self.nq] = m;
            self.nq += 1;
        } else if !quiet && self.nc < self.captures.len() {
            self.captures[self.nc] = m;
            self.nc += 1;
        }
    }
}

/// One search thread.
pub(super) struct Worker {
    pub id: usize,
    pub pos: Position,
    pub shared: Arc<Shared>,
    pub cfg: Config,
    pub out: Sink,
    pub nodes: u64,
    nodes_limit: u64,
    pub seldepth: usize,
    pub pv_idx: usize,
    pub root_moves: Vec<RootMove>,
    /// Material and piece-square sum by ply (used without the network).
    pub mat: Vec<i32>,
    /// Network accumulators by ply (used when `cfg.use_nnue`).
    pub acc: Vec<Accumulator>,
    pub net: Arc<Network>,
    refresh_cache: RefreshCache,
    evals: Vec<i32>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: Vec<usize>,
    /// `(piece, to)` index of the move made at each ply (0 for a null move).
    cont_idx: Vec<usize>,
    /// The move a singular-extension search at each ply leaves out (`Move::NONE` when none).
    excluded: Vec<Move>,
    /// Histories and the mate-probe table, kept by the caller between searches.
    tables: ThreadTables,
    pub best_changes: u32,
    pub completed_depth: i32,
    /// The score of a draw for each side to move (`Config::draw_scores` of the root).
    draw: [i32; 2],
}

impl Worker {
    pub fn new(
        id: usize,
        pos: Position,
        shared: Arc<Shared>,
        cfg: Config,
        out: Sink,
        root_moves: Vec<RootMove>,
        tables: ThreadTables,
    ) -> Worker {
        let draw = cfg.draw_scores(pos.side_to_move());
        Worker {
            id,
            pos,
            shared,
            cfg,
            out,
            nodes: 0,
            nodes_limit: 0,
            seldepth: 0,
            pv_idx: 0,
            root_moves,
            mat: vec![0; MAX_PLY + 4],
            acc: vec![Accumulator::default(); MAX_PLY + 4],
            net: nnue::network(),
            refresh_cache: RefreshCache::default(),
            evals: vec![0; MAX_PLY + 4],
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: vec![0; MAX_PLY + 2],
            cont_idx: vec![0; MAX_PLY + 4],
            excluded: vec![Move::NONE; MAX_PLY + 4],
            tables,
            best_changes: 0,
            completed_depth: 0,
            draw,
        }
    }

    /// Stops the search (all threads) after `n` nodes in all; 0 for no limit.
    pub fn with_node_limit(mut self, n: u64) -> Worker {
        self.nodes_limit = n;
        self
    }

    /// Gives the thread's tables back for the next search.
    pub fn into_tables(self) -> ThreadTables {
        self.tables
    }

    /// Publishes this thread's node count.
    pub fn publish_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }

    #[inline(always)]
    pub fn stopped(&self) -> bool {
        self.shared.stopped()
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.publish_nodes();
            if self.id == 0 {
                self.check_limits();
            }
        }
    }

    fn check_limits(&self) {
        let sh = &self.shared;
        if self.nodes_limit > 0 && sh.total_nodes() >= self.nodes_limit {
            sh.stop.store(true, Ordering::Relaxed);
        }
        if !sh.pondering.load(Ordering::Relaxed) && sh.time.past_maximum() {
            sh.stop.store(true, Ordering::Relaxed);
        }
    }

    fn static_eval(&self, ply: usize) -> i32 {
        if self.cfg.use_nnue {
            self.net.evaluate(&self.acc[ply], &self.pos).clamp(-MATE_IN_MAX + 1, MATE_IN_MAX - 1)
        } else {
            eval::evaluate_with(&self.pos, self.mat[ply])
        }
    }

    /// Plays `m` at `ply` in the tree, keeping the evaluation state of `ply + 1` current.
    #[inline]
    fn make_move(&mut self, m: Move, ply: usize) {
        if !self.cfg.use_nnue {
            // The material delta reads the position before the move.
            self.mat[ply + 1] = self.mat[ply] + eval::delta(&self.pos, m);
        }
        self.pos.do_move(m);
        // The child's table and correction entries load while the accumulator updates.
        self.shared.tt.prefetch(self.pos.key());
        self.tables.corrections.prefetch(&self.pos, &self.cont_idx, ply + 1);
        if self.cfg.use_nnue {
            let (head, tail) = self.acc.split_at_mut(ply + 1);
            tail[0].update(&head[ply], &self.net, &self.pos, m, &mut self.refresh_cache);
        }
    }

    /// Passes at `ply` (null move); the evaluation state carries over.
    #[inline]
    fn make_null_move(&mut self, ply: usize) {
        self.pos.do_null_move();
        if self.cfg.use_nnue {
            let (head, tail) = self.acc.split_at_mut(ply + 1);
            tail[0].clone_from(&head[ply]);
        } else {
            self.mat[ply + 1] = self.mat[ply];
        }
    }

    /// Copies the child's PV behind `m` into the PV of `ply`.
    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][0] = m;
        let l = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][1..=l].copy_from_slice(&tail[0][..l]);
        self.pv_len[ply] = l + 1;
    }

    /// Whether a table entry's bound settles the node's value `v` in `(alpha, beta)`.
    fn tt_cuts(e: &TtEntry, v: i32, alpha: i32, beta: i32) -> bool {
        match e.bound {
            Bound::Exact => true,
            Bound::Lower => v >= beta,
            Bound::Upper => v <= alpha,
            Bound::None => false,
        }
    }

    /// The score of a draw for the side to move here.
    #[inline]
    fn draw_score(&self) -> i32 {
        self.draw[self.pos.side_to_move().index()]
    }

    /// The checks every non-root node starts with: stop, repetition, game length,
    /// maximum ply, mate distance. `Err(value)` ends the node; `Ok` gives the narrowed window.
    fn enter_node(&self, alpha: i32, beta: i32, ply: usize) -> Result<(i32, i32), i32> {
        if self.stopped() {
            return Err(0);
        }
        match repetition_in_search(&self.pos, ply, REPETITION_DRAW_AT) {
            Repetition::None => {}
            Repetition::Draw => return Err(self.draw_score()),
            Repetition::Win => return Err(mate_in(ply)),
            Repetition::Lose => return Err(mated_in(ply)),
            Repetition::Superior => return Err(VALUE_SUPERIOR),
            Repetition::Inferior => return Err(-VALUE_SUPERIOR),
        }
        if self.cfg.max_moves_to_draw > 0 && self.pos.game_ply() > self.cfg.max_moves_to_draw {
            return Err(self.draw_score());
        }
        if ply >= MAX_PLY - 2 {
            return Err(if self.pos.in_check() { 0 } else { self.static_eval(ply) });
        }
        let alpha = alpha.max(mated_in(ply));
        let beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return Err(alpha);
        }
        Ok((alpha, beta))
    }

    /// The node's evaluation: `(eval, static_eval, raw)`, where `raw` is the static
    /// evaluation (the table's when it has one; 0 in check), `static_eval` that plus the
    /// correction histories' value, and `eval` that sharpened by the table's score where
    /// its bound allows. The table keeps `raw`.
    fn node_eval(&self, in_check: bool, tte: Option<TtEntry>, ply: usize) -> (i32, i32, i32) {
        if in_check {
            return (-VALUE_INF, -VALUE_INF, 0);
        }
        let raw = match tte {
            Some(e) if e.eval.abs() < MATE_IN_MAX => e.eval,
            _ => self.static_eval(ply),
        };
        let static_eval = self.corrected(raw, ply);
        let mut ev = static_eval;
        if let Some(e) = tte {
            let v = from_tt(e.score, ply);
            if v.abs() < MATE_IN_MAX
                && (e.bound == Bound::Exact || (e.bound == Bound::Lower && v > ev) || (e.bound == Bound::Upper && v < ev))
            {
                ev = v;
            }
        }
        (ev, static_eval, raw)
    }

    /// A static evaluation `raw` at `ply` with the correction histories' value added
    /// (kept out of the mate range).
    fn corrected(&self, raw: i32, ply: usize) -> i32 {
        let correction = self.tables.corrections.value(&self.pos, &self.cont_idx, ply);
        (raw + correction).clamp(-MATE_IN_MAX + 1, MATE_IN_MAX - 1)
    }

    /// Teaches the correction histories the searched value `best` of a node (not in
    /// check) whose corrected static evaluation was `static_eval`, where the value's
    /// bound says which way the evaluation was wrong and the best move was no capture.
    fn learn_correction(&mut self, node: &Node, best: i32, best_move: Move, static_eval: i32) {
        let (beta, depth, ply) = (node.beta, node.depth, node.ply);
        let capture = best_move != Move::NONE && !self.is_quiet(best_move);
        let below = best < static_eval && best < beta;
        let above = best > static_eval && best_move != Move::NONE;
        if !capture && (below || above) && best.abs() < MATE_IN_MAX {
            self.tables.corrections.update(&self.pos, &self.cont_idx, ply, depth, best, static_eval);
        }
    }

    /// Searches the child after move `c` was made: reduced null window, then null
    /// window at full depth, then full window at PV nodes. A reduced search that
    /// beats alpha is searched again a ply deeper when it beats the node's best value
    /// `best` by far, a ply shallower when it barely does (YaneuraOu's doDeeperSearch
    /// and doShallowerSearch).
    fn search_child(&mut self, node: &Node, c: &Candidate, alpha: i32, best: i32) -> i32 {
        let (beta, ply, mut new_depth) = (node.beta, node.ply, node.depth - 1 + c.extension);
        // Losing captures are often sound sacrifices in shogi (the piece goes to hand):
        // reduce them only where they look futile or at expected cut nodes.
        let captured = self.pos.state().captured;
        let capture_value = captured_value(captured);
        let reduce_capture = c.score < 0 && (node.cut || node.eval + 2 * capture_value <= alpha);
        let mut v;
        if node.depth >= 3 && c.number > 1 + node.pv as i32 && (c.quiet || reduce_capture) {
            let r = self.reduction(node, c);
            let d = (new_depth - r.max(0)).clamp(1, new_depth.max(1));
            v = -self.search(-alpha - 1, -alpha, d, ply + 1, false, true);
            if v > alpha && d < new_depth {
                let deeper = v > best + DEEPER_MARGIN + 2 * new_depth;
                let shallower = v < best + SHALLOWER_MARGIN;
                new_depth += deeper as i32 - shallower as i32;
                if d < new_depth {
                    v = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, false, !node.cut);
                }
            }
        } else if !node.pv || c.number > 1 {
            // At an expected cut node without a table move even the moves not reduced
            // above go shallower (YaneuraOu's step 18).
            let less = if node.cut && !node.tt_move { cut_first_less(new_depth) } else { 0 };
            v = -self.search(-alpha - 1, -alpha, new_depth - less, ply + 1, false, !node.cut);
        } else {
            v = alpha + 1; // force full window below
        }
        let mut child_pv = false;
        if node.pv && (c.number == 1 || (v > alpha && (node.root || v < beta))) {
            v = -self.search(-beta, -alpha, new_depth, ply + 1, true, false);
            child_pv = true;
        }
        if !child_pv {
            // The child's pv row is stale: only its own PV search fills it.
            self.pv_len[ply + 1] = 0;
        }
        v
    }

    /// Records the result of root move number `idx` (in the root move list).
    fn update_root_move(&mut self, idx: usize, c: &Candidate, v: i32, alpha: i32, beta: i32) {
        let seldepth = self.seldepth;
        let improved = c.number == 1 || v > alpha;
        let mut newpv = Vec::new();
        if improved {
            newpv.push(c.mv);
            let l = self.pv_len[1];
            newpv.extend_from_slice(&self.pv[1][..l]);
        }
        let rm = &mut self.root_moves[idx];
        if improved {
            rm.score = v;
            rm.seldepth = seldepth;
            rm.bound = if v >= beta {
                Bound::Lower
            } else if v <= alpha {
                Bound::Upper
            } else {
                Bound::Exact
            };
            rm.pv = newpv;
            if c.number > 1 && self.pv_idx == 0 {
                self.best_changes += 1;
            }
        } else {
            rm.score = -VALUE_INF;
        }
    }

    /// Singular extension test of the table's move `m`: the node searched without it,
    /// to half depth, against a bound a little below the table's score. When nothing
    /// else comes close the move is extended a ply; when the other moves alone hold a
    /// bound at or above beta the node is cut with it (multi-cut); otherwise a table
    /// move expected to fail high anyway is searched `se_neg_tt` plies shallower, and
    /// one at an expected cut node `se_neg_cut` plies shallower (YaneuraOu's rules;
    /// session 67: with the cut-node reductions, singular extensions fired so much
    /// more often that the bench tree grew by half, and these rules bring it back).
    fn singular(&mut self, node: &Node, tte: Option<TtEntry>, m: Move) -> Singular {
        let Some(e) = tte else { return Singular::Extend(0) };
        let tt_value = from_tt(e.score, node.ply);
        let deep_enough = node.depth >= params::se_depth() && e.depth >= node.depth - 3;
        let lower = matches!(e.bound, Bound::Lower | Bound::Exact);
        if !(deep_enough && lower && tt_value.abs() < MATE_IN_MAX && (node.ply as i32) < 2 * (self.completed_depth + 1)) {
            return Singular::Extend(0);
        }
        let singular_beta = tt_value - params::se_margin() * node.depth / 8;
        self.excluded[node.ply] = m;
        let v = self.search(singular_beta - 1, singular_beta, (node.depth - 1) / 2, node.ply, false, node.cut);
        self.excluded[node.ply] = Move::NONE;
        if self.stopped() {
            Singular::Stopped
        } else if v < singular_beta {
            Singular::Extend(1)
        } else if singular_beta >= node.beta {
            Singular::Cut(singular_beta)
        } else if v >= node.beta && v.abs() < MATE_IN_MAX {
            Singular::Cut(v)
        } else if tt_value >= node.beta {
            Singular::Extend(-params::se_neg_tt())
        } else if node.cut {
            Singular::Extend(-params::se_neg_cut())
        } else {
            Singular::Extend(0)
        }
    }

    /// The node's moves: the root moves still to search, or every legal move; false
    /// when there is none (mated: the root always has moves).
    fn node_moves(&self, root: bool, list: &mut MoveList) -> bool {
        if root {
            for rm in &self.root_moves[self.pv_idx..] {
                list.push(rm.mv);
            }
            true
        } else {
            generate(&self.pos, GenType::Legal, false, list);
            !list.is_empty()
        }
    }

    /// The bound of a searched node's value `best` in the window it had.
    fn node_bound(best: i32, beta: i32, pv_node: bool, old_alpha: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if pv_node && best > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// The value of a node settled before any search (`Some`): a table entry deep enough
    /// whose bound fits the window (not at PV nodes or in a singular test: `no_table_cut`),
    /// or a winning entering-king declaration (not at the root).
    fn settled_early(&self, tte: Option<TtEntry>, alpha: i32, beta: i32, depth: i32, ply: usize, no_table_cut: bool) -> Option<i32> {
        if let Some(e) = tte {
            let v = from_tt(e.score, ply);
            if !no_table_cut && e.depth >= depth && Self::tt_cuts(&e, v, alpha, beta) {
                return Some(v);
            }
        }
        if ply > 0 && declaration(&self.pos, self.cfg.entering_king).is_some() {
            return Some(mate_in(ply + 1));
        }
        None
    }

    /// The node's evaluation as `node_eval` gives it, kept in the evaluation stack and,
    /// on a table miss, stored at once with the table key `key` (as YaneuraOu does: a
    /// node cut off by reverse futility or a null move stores nothing else, and its next
    /// visit then skips the network).
    fn evaluate_node(&mut self, in_check: bool, tte: Option<TtEntry>, key: u64, ply: usize) -> (i32, i32, i32) {
        let (eval, static_eval, raw_eval) = self.node_eval(in_check, tte, ply);
        if tte.is_none() && !in_check {
            self.shared.tt.store(key, Move::NONE, 0, raw_eval, DEPTH_UNSEARCHED, Bound::None);
        }
        self.evals[ply] = eval;
        (eval, static_eval, raw_eval)
    }

    /// Alpha-beta search of the current position to `depth` plies, `ply` plies below the root.
    pub fn search(&mut self, alpha: i32, beta: i32, depth: i32, ply: usize, pv_node: bool, cut_node: bool) -> i32 {
        let root = ply == 0;
        if pv_node {
            self.pv_len[ply] = 0;
        }
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, pv_node);
        }
        self.count_node();
        if pv_node && ply > self.seldepth {
            self.seldepth = ply;
        }
        let (mut alpha, beta) = if root {
            (alpha, beta)
        } else {
            match self.enter_node(alpha, beta, ply) {
                Ok(window) => window,
                Err(v) => return v,
            }
        };
        let in_check = self.pos.in_check();
        let key = self.pos.key();
        let excluded = self.excluded[ply];
        let singular_search = excluded != Move::NONE;
        let tte = self.shared.tt.probe(key);
        let tt_move = if root { self.root_moves[self.pv_idx].mv } else { tte.map(|e| e.mv).unwrap_or(Move::NONE) };
        if let Some(v) = self.settled_early(tte, alpha, beta, depth, ply, pv_node || singular_search) {
            return v;
        }
        let (eval, static_eval, raw_eval) = self.evaluate_node(in_check, tte, key, ply);
        let improving = !in_check && ply >= 2 && eval > self.evals[ply - 2];
        let mut node = Node { beta, depth, ply, pv: pv_node, cut: cut_node, root, eval, improving, in_check, tt_move: tt_move != Move::NONE, raw_eval, threat: false };
        if !pv_node && !in_check && !singular_search && beta.abs() < MATE_IN_MAX {
            if let Some(v) = self.prune_node(&mut node) {
                return v;
            }
        }

        let mut list = MoveList::new();
        let staged = !root && !in_check;
        if !staged && !self.node_moves(root, &mut list) {
            return mated_in(ply);
        }
        let ci = CheckInfo::new(&self.pos);
        if staged && !singular_search {
            if let Some(v) = self.probe_mates(&ci, &node, key, tte) {
                return v;
            }
        }
        let mut scores = MoveScores::new();
        let mut picker = if root {
            Picker::Listed(MovePicker::as_given(&mut list, &mut scores))
        } else if in_check {
            Picker::Listed(MovePicker::main(&mut list, &mut scores, |m| self.main_score(m, tt_move, ply)))
        } else {
            Picker::Staged(StagedPicker::new(&self.pos, &mut list, &mut scores, tt_move))
        };

        let mut best = -VALUE_INF;
        let mut best_move = Move::NONE;
        let mut move_count: i32 = 0;
        let mut tried = Tried::new();
        let old_alpha = alpha;

        loop {
            let next = match &mut picker {
                Picker::Listed(p) => p.next_move(),
                Picker::Staged(p) => p.next_move(&self.pos, &NodeOrder { worker: self, ply }),
            };
            let Some((i, m, score)) = next else { break };
            if m == excluded {
                continue;
            }
            move_count += 1;
            // No `info currmove` lines: ShogiHome takes one for the PV of a line without
            // `pv` and loses the comment's PV, and YaneuraOu prints none in shogi.
            let quiet = self.is_quiet(m);
            let gives_check = ci.gives_check(&self.pos, m);
            let mut c = Candidate { mv: m, score, number: move_count, quiet, gives_check, extension: 0 };
            if !root && best > -MATE_IN_MAX {
                match self.prune_move(&node, &c, alpha) {
                    MovePruning::Search => {}
                    MovePruning::Skip => continue,
                    MovePruning::Futile(f) => {
                        if f.abs() < MATE_IN_MAX {
                            best = best.max(f);
                        }
                        continue;
                    }
                }
            }
            if m == tt_move && !root && !singular_search {
                match self.singular(&node, tte, m) {
                    Singular::Extend(e) => c.extension = e,
                    Singular::Cut(v) => return v,
                    Singular::Stopped => return 0,
                }
            }

            self.cont_idx[ply] = piece_to(&self.pos, m);
            self.make_move(m, ply);
            let v = self.search_child(&node, &c, alpha, best);
            self.pos.undo_move(m);
            if self.stopped() {
                return 0;
            }
            if root {
                self.update_root_move(self.pv_idx + i, &c, v, alpha, beta);
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if pv_node && !root {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        self.update_cutoff(m, quiet, ply, depth, &tried);
                        break;
                    }
                    alpha = v;
                }
            }
            tried.add(m, quiet);
        }

        if move_count == 0 {
            // No legal move (lost, as the rules have it; in check the list was not
            // empty, so only the excluded move was legal), or every move was pruned.
            let none_legal = in_check || matches!(&picker, Picker::Staged(p) if p.handed() == 0);
            return if none_legal && !singular_search { mated_in(ply) } else { alpha };
        }
        if best == -VALUE_INF {
            best = alpha;
        }
        if singular_search {
            return best;
        }
        if best_move == Move::NONE && !root {
            self.reward_prior_quiet(&node, best, old_alpha);
        }
        if !in_check {
            self.learn_correction(&node, best, best_move, static_eval);
        }
        let bound = Self::node_bound(best, beta, pv_node, old_alpha);
        self.shared.tt.store(key, best_move, to_tt(best, ply), raw_eval, depth, bound);
        best
    }
}

#[cfg(test)]
mod tests;
