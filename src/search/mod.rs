//! Alpha-beta search: iterative deepening with aspiration windows, principal variation
//! search, a shared transposition table, quiescence search, move ordering (hash move,
//! SEE-sorted captures, killers, counter-moves, history), null-move pruning, late-move
//! reductions, futility and late-move pruning, check extensions, mate-distance pruning,
//! mate-in-1 detection, the repetition rules, entering-king declarations, Lazy SMP and
//! MultiPV.

use crate::core::attacks::{king_attacks, knight_attacks};
use crate::core::bitboard::Bitboard;
use crate::eval;
use crate::movegen::{generate, legal_moves, CheckInfo, GenType, MoveList, MAX_MOVES};
use crate::eval::nnue::{self, Accumulator, Network, RefreshCache};
use crate::position::Position;
use time::{Budget, Clock, TimeOptions};
use tt::{Bound, TranspositionTable};
use crate::core::types::{Color, Move, PieceType};
use once_cell::sync::Lazy;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

pub mod time;
pub mod tt;

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Score of mate at the root.
pub const VALUE_MATE: i32 = 32000;
/// Larger than any score.
pub const VALUE_INF: i32 = 32001;
/// Scores at least this large are mates.
pub const MATE_IN_MAX: i32 = VALUE_MATE - 2 * MAX_PLY as i32;
/// Score of a superior position by repetition (more in hand, same board).
pub const VALUE_SUPERIOR: i32 = 2500;

/// Which entering-king declaration rule applies.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum EnteringKingRule {
    /// No declaration.
    None,
    /// CSA 24-point rule (31 points declare a win).
    Csa24,
    /// CSA 27-point rule (Black 28, White 27).
    Csa27,
}

/// Engine settings that shape a search.
#[derive(Clone, Debug)]
pub struct Config {
    /// Number of search threads.
    pub threads: usize,
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Declaration rule.
    pub entering_king: EnteringKingRule,
    /// Game length (in plies, by the position's move number) after which the game is a draw; 0 = none.
    pub max_moves_to_draw: u32,
    /// Resign when the best score is at or below minus this.
    pub resign_value: i32,
    /// Default depth limit (0 = none).
    pub depth_limit: i32,
    /// Default node limit (0 = none).
    pub nodes_limit: u64,
    /// Time allocation options.
    pub time: TimeOptions,
    /// Whether to print `info` lines.
    pub verbose: bool,
    /// Evaluate with the network (`nnue`) rather than the hand-made evaluation (`eval`).
    pub use_nnue: bool,
    /// Keep the move-ordering statistics from one search to the next (data generation).
    pub keep_history: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: 1,
            multipv: 1,
            entering_king: EnteringKingRule::Csa27,
            max_moves_to_draw: 0,
            resign_value: 99999,
            depth_limit: 0,
            nodes_limit: 0,
            time: TimeOptions::default(),
            verbose: true,
            use_nnue: true,
            keep_history: false,
        }
    }
}

/// What `go` asked for.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Depth limit.
    pub depth: Option<i32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder (no bestmove before `ponderhit` or `stop`).
    pub ponder: bool,
    /// Root moves to consider (empty = all).
    pub searchmoves: Vec<Move>,
    /// Clock fields.
    pub clock: Clock,
}

/// State shared between the protocol thread and the search threads.
pub struct Shared {
    /// Set to end the search.
    pub stop: AtomicBool,
    /// True while pondering (time limits are ignored).
    pub pondering: AtomicBool,
    /// True for `go infinite`.
    pub infinite: AtomicBool,
    base: Instant,
    start_ms: AtomicU64,
    timed: AtomicBool,
    soft: AtomicBool,
    optimum_ms: AtomicU64,
    maximum_ms: AtomicU64,
    nodes: Vec<AtomicU64>,
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
            base: Instant::now(),
            start_ms: AtomicU64::new(0),
            timed: AtomicBool::new(false),
            soft: AtomicBool::new(false),
            optimum_ms: AtomicU64::new(0),
            maximum_ms: AtomicU64::new(0),
            nodes: (0..threads.max(1)).map(|_| AtomicU64::new(0)).collect(),
            tt,
        }
    }

    /// Milliseconds since the clock (re)started.
    pub fn elapsed(&self) -> u64 {
        (self.base.elapsed().as_millis() as u64).saturating_sub(self.start_ms.load(Ordering::Relaxed))
    }

    /// Restarts the clock now with a new budget (used at `go` and `ponderhit`).
    pub fn set_budget(&self, b: Option<Budget>) {
        self.start_ms.store(self.base.elapsed().as_millis() as u64, Ordering::Relaxed);
        match b {
            Some(b) => {
                self.optimum_ms.store(b.optimum, Ordering::Relaxed);
                self.maximum_ms.store(b.maximum, Ordering::Relaxed);
                self.soft.store(b.soft, Ordering::Relaxed);
                self.timed.store(true, Ordering::Relaxed);
            }
            None => self.timed.store(false, Ordering::Relaxed),
        }
    }

    /// Nodes searched by all threads so far.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Where `info` and `bestmove` lines go.
pub type Sink = Arc<dyn Fn(&str) + Send + Sync>;

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `bestmove` text: a move, `resign` or `win`.
    pub best: String,
    /// Ponder move, if any.
    pub ponder: Option<Move>,
    /// Score of the best move (side to move).
    pub score: i32,
    /// Last completed depth.
    pub depth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
}

// ---------------------------------------------------------------------------------
// Rules used by the search.

/// Whether the side to move may declare a win under `rule` (RULES.md, entering king).
pub fn can_declare_win(pos: &Position, rule: EnteringKingRule) -> bool {
    if rule == EnteringKingRule::None {
        return false;
    }
    let us = pos.side_to_move();
    let zone = Bitboard::zone(us);
    if !zone.has(pos.king_square(us)) || pos.in_check() {
        return false;
    }
    let mine = pos.color_pieces(us) & zone;
    let others = mine.without(pos.king_square(us));
    if others.count() < 10 {
        return false;
    }
    let big = |b: Bitboard| {
        (b & (pos.pieces(PieceType::Rook)
            | pos.pieces(PieceType::Dragon)
            | pos.pieces(PieceType::Bishop)
            | pos.pieces(PieceType::Horse)))
            .count()
    };
    let nbig = big(others);
    let mut points = nbig * 5 + (others.count() - nbig);
    let h = pos.hand(us);
    for pt in PieceType::HAND {
        let n = h.count(pt);
        points += if pt == PieceType::Rook || pt == PieceType::Bishop { 5 * n } else { n };
    }
    let need = match rule {
        EnteringKingRule::Csa27 => {
            if us == Color::Black {
                28
            } else {
                27
            }
        }
        EnteringKingRule::Csa24 => 31,
        EnteringKingRule::None => u32::MAX,
    };
    points >= need
}

/// Outcome of the repetition scan.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Repetition {
    /// No repetition.
    None,
    /// Plain repetition: draw.
    Draw,
    /// The opponent gave perpetual check: win for the side to move.
    Win,
    /// The side to move gave perpetual check: loss.
    Lose,
    /// Same board, side to move holds strictly more in hand.
    Superior,
    /// Same board, side to move holds strictly less in hand.
    Inferior,
}

/// Looks for an earlier occurrence of the current board (same side to move).
pub fn repetition(pos: &Position) -> Repetition {
    let st = pos.state();
    // Cycles longer than 32 plies are rare; the cap keeps the scan cheap in long games.
    let end = (st.plies_from_null as usize).min(32);
    let us = pos.side_to_move();
    let mut i = 4;
    while i <= end {
        let Some(s) = pos.state_back(i) else { break };
        if s.board_key == st.board_key {
            if s.hand == st.hand {
                if st.continuous_check[us.index()] as usize * 2 >= i {
                    return Repetition::Lose;
                }
                if st.continuous_check[us.flip().index()] as usize * 2 >= i {
                    return Repetition::Win;
                }
                return Repetition::Draw;
            }
            if st.hand.is_superset_of(s.hand) {
                return Repetition::Superior;
            }
            if s.hand.is_superset_of(st.hand) {
                return Repetition::Inferior;
            }
        }
        i += 2;
    }
    Repetition::None
}

// ---------------------------------------------------------------------------------
// Static exchange evaluation.

const SEE_ORDER: [PieceType; 14] = [
    PieceType::Pawn,
    PieceType::Lance,
    PieceType::Knight,
    PieceType::ProPawn,
    PieceType::ProLance,
    PieceType::ProKnight,
    PieceType::Silver,
    PieceType::ProSilver,
    PieceType::Gold,
    PieceType::Bishop,
    PieceType::Rook,
    PieceType::Horse,
    PieceType::Dragon,
    PieceType::King,
];

fn see_value(pt: PieceType) -> i32 {
    eval::PIECE_VALUE[pt.index()]
}

/// Static exchange evaluation of the legal move `m` (material balance for the mover).
pub fn see(pos: &Position, m: Move) -> i32 {
    let to = m.to();
    let us = pos.side_to_move();
    let mut occ = pos.occupied();
    let mut gain = [0i32; 40];
    let mut on_square;
    if m.is_drop() {
        gain[0] = 0;
        on_square = m.drop_piece();
        occ = occ.with(to);
    } else {
        let cap = pos.piece_on(to);
        gain[0] = if cap.is_some() { see_value(cap.kind()) } else { 0 };
        let pt = pos.piece_on(m.from()).kind();
        on_square = if m.is_promotion() {
            gain[0] += see_value(pt.promote()) - see_value(pt);
            pt.promote()
        } else {
            pt
        };
        occ = occ.without(m.from());
    }
    let mut side = us.flip();
    let mut n = 1;
    loop {
        let attackers = pos.attackers_to(to, side, occ) & occ;
        if attackers.is_empty() {
            break;
        }
        let mut found = None;
        for pt in SEE_ORDER {
            let b = attackers & pos.pieces(pt);
            if b.any() {
                found = Some((pt, b.lsb()));
                break;
            }
        }
        let Some((pt, from)) = found else { break };
        if pt == PieceType::King && (pos.attackers_to(to, side.flip(), occ) & occ).any() {
            break;
        }
        if n >= gain.len() {
            break;
        }
        gain[n] = see_value(on_square) - gain[n - 1];
        on_square = pt;
        occ = occ.without(from);
        side = side.flip();
        n += 1;
    }
    while n > 1 {
        n -= 1;
        gain[n - 1] = -((-gain[n - 1]).max(gain[n]));
    }
    gain[0]
}

// ---------------------------------------------------------------------------------

static LMR: Lazy<Vec<[i32; 64]>> = Lazy::new(|| {
    let mut t = vec![[0i32; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.5 + (d as f64).ln() * (m as f64).ln() / 2.2) as i32;
        }
    }
    t
});

#[derive(Clone)]
struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    bound: Bound,
    pv: Vec<Move>,
    seldepth: usize,
}

struct Worker {
    id: usize,
    pos: Position,
    shared: Arc<Shared>,
    cfg: Config,
    out: Sink,
    nodes: u64,
    nodes_limit: u64,
    seldepth: usize,
    root_depth: i32,
    pv_idx: usize,
    root_moves: Vec<RootMove>,
    mat: Vec<i32>,
    /// Network accumulators by ply (used when `cfg.use_nnue`).
    acc: Vec<Accumulator>,
    net: Arc<Network>,
    refresh_cache: RefreshCache,
    evals: Vec<i32>,
    killers: Vec<[Move; 2]>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: Vec<usize>,
    history: Vec<[i32; 81]>,
    /// Capture history: `[(moved piece, to) index][captured kind]`.
    capture_history: Vec<[i16; 16]>,
    /// Continuation history: `[(piece, to) of an earlier move][(piece, to) of this move]`.
    cont: Vec<i16>,
    /// `(piece, to)` index of the move made at each ply (0 for a null move).
    cont_idx: Vec<usize>,
    counter: Vec<[Move; 81]>,
    /// Small df-pn solver for mate probes inside the tree.
    mate: crate::mate::Solver,
    best_changes: u32,
    completed_depth: i32,
}

/// Shallowest remaining depth at which a node runs a df-pn mate probe.
const MATE_PROBE_DEPTH: i32 = 8;
/// Shallowest remaining depth for a probe at a non-PV node.
const MATE_PROBE_DEPTH_NON_PV: i32 = 99;
/// Node budget of a probe at a non-PV node.
const MATE_PROBE_NODES: u64 = 200;
/// Node budget of a probe at a PV node.
const MATE_PROBE_PV_NODES: u64 = 300;
/// Entries of each thread's probe table (kept between searches).
const MATE_PROBE_TABLE: u64 = 1 << 16;

fn mate_in(ply: usize) -> i32 {
    VALUE_MATE - ply as i32
}

fn mated_in(ply: usize) -> i32 {
    -VALUE_MATE + ply as i32
}

fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_IN_MAX {
        v + ply as i32
    } else if v <= -MATE_IN_MAX {
        v - ply as i32
    } else {
        v
    }
}

fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_IN_MAX {
        v - ply as i32
    } else if v <= -MATE_IN_MAX {
        v + ply as i32
    } else {
        v
    }
}

/// USI text of a score: `cp N` or `mate N` (plies, negative when being mated).
pub fn score_text(v: i32) -> String {
    if v >= MATE_IN_MAX {
        format!("mate {}", VALUE_MATE - v)
    } else if v <= -MATE_IN_MAX {
        format!("mate -{}", VALUE_MATE + v)
    } else {
        format!("cp {v}")
    }
}

const CONT_N: usize = 32 * 81;
const HIST_MAX: i32 = 16384;

/// History bonus (or, negated, malus) for a move at a cut-off `depth` plies deep.
fn history_bonus(depth: i32) -> i32 {
    (depth * depth * 16 + 32).min(2000)
}

#[inline(always)]
fn gravity(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HIST_MAX;
}

/// `gravity` on an entry of a compact (`i16`) table.
#[inline(always)]
fn gravity16(e: &mut i16, bonus: i32) {
    let mut h = *e as i32;
    gravity(&mut h, bonus);
    *e = h as i16;
}

const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

impl Worker {
    fn new(id: usize, pos: Position, shared: Arc<Shared>, cfg: Config, out: Sink, root_moves: Vec<RootMove>, nodes_limit: u64) -> Worker {
        let tables = take_tables();
        Worker {
            id,
            pos,
            shared,
            cfg,
            out,
            nodes: 0,
            nodes_limit,
            seldepth: 0,
            root_depth: 0,
            pv_idx: 0,
            root_moves,
            mat: vec![0; MAX_PLY + 4],
            acc: vec![Accumulator::default(); MAX_PLY + 4],
            net: nnue::network(),
            refresh_cache: RefreshCache::default(),
            evals: vec![0; MAX_PLY + 4],
            killers: vec![[Move::NONE; 2]; MAX_PLY + 4],
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: vec![0; MAX_PLY + 2],
            history: tables.history,
            capture_history: tables.capture_history,
            cont: tables.cont,
            cont_idx: vec![0; MAX_PLY + 4],
            counter: tables.counter,
            mate: tables.mate,
            best_changes: 0,
            completed_depth: 0,
        }
    }

    #[inline(always)]
    fn stopped(&self) -> bool {
        self.shared.stopped()
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
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
        if !sh.pondering.load(Ordering::Relaxed)
            && sh.timed.load(Ordering::Relaxed)
            && sh.elapsed() >= sh.maximum_ms.load(Ordering::Relaxed)
        {
            sh.stop.store(true, Ordering::Relaxed);
        }
    }

    fn static_eval(&self, ply: usize) -> i32 {
        if self.cfg.use_nnue {
            self.net.evaluate(&self.acc[ply], self.pos.side_to_move()).clamp(-MATE_IN_MAX + 1, MATE_IN_MAX - 1)
        } else {
            eval::evaluate_with(&self.pos, self.mat[ply])
        }
    }

    /// Plays `m` at `ply` in the tree, keeping the evaluation state of `ply + 1` current.
    #[inline]
    fn make_move(&mut self, m: Move, ply: usize) {
        if self.cfg.use_nnue {
            self.pos.do_move(m);
            self.shared.tt.prefetch(self.pos.key());
            let (head, tail) = self.acc.split_at_mut(ply + 1);
            tail[0].update(&head[ply], &self.net, &self.pos, m, &mut self.refresh_cache);
        } else {
            self.mat[ply + 1] = self.mat[ply] + eval::delta(&self.pos, m);
            self.pos.do_move(m);
            self.shared.tt.prefetch(self.pos.key());
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

    fn mate1(&mut self, list: &MoveList, ci: &CheckInfo) -> Option<Move> {
        let near = king_attacks(ci.enemy_king);
        let knight_sq = knight_attacks(self.pos.side_to_move().flip(), ci.enemy_king);
        for &m in list.iter() {
            let to = m.to();
            let knightish = knight_sq.has(to)
                && (if m.is_drop() { m.drop_piece() == PieceType::Knight } else { self.pos.piece_on(m.from()).kind() == PieceType::Knight });
            if !(near.has(to) || knightish) || !ci.gives_check(&self.pos, m) {
                continue;
            }
            self.pos.do_move(m);
            let mut ev = MoveList::new();
            generate(&self.pos, GenType::Evasions, false, &mut ev);
            self.pos.undo_move(m);
            if ev.is_empty() {
                return Some(m);
            }
        }
        None
    }

    fn score_moves(&self, list: &MoveList, scores: &mut [i32], tt_move: Move, ply: usize) {
        let killers = self.killers[ply];
        let prev = self.pos.state().last_move;
        let cm = if prev.is_ok() {
            let pc = self.pos.piece_on(prev.to());
            self.counter[pc.index()][prev.to().index()]
        } else {
            Move::NONE
        };
        for (i, &m) in list.iter().enumerate() {
            scores[i] = if m == tt_move {
                i32::MAX
            } else if !self.is_quiet(m) {
                let cap = self.pos.piece_on(m.to());
                let v = if cap.is_some() { eval::PIECE_VALUE[cap.kind().index()] } else { 300 };
                let h = self.capture_score(m) / 4;
                if see(&self.pos, m) >= 0 {
                    2_000_000 + v * 8 + h
                } else {
                    -2_000_000 + v + h
                }
            } else if m == killers[0] {
                1_500_000
            } else if m == killers[1] {
                1_400_000
            } else if m == cm {
                1_300_000
            } else {
                self.quiet_score(m, ply)
            };
        }
    }

    /// `(moved piece, to)` index of `m`, the key of the history tables (before `do_move`).
    #[inline]
    fn piece_to(&self, m: Move) -> usize {
        self.pos.moved_piece(m).index() * 81 + m.to().index()
    }

    /// Capture-history value of a capture or pawn promotion (call before `do_move`).
    #[inline]
    fn capture_score(&self, m: Move) -> i32 {
        self.capture_history[self.piece_to(m)][self.pos.piece_on(m.to()).kind().index()] as i32
    }

    fn update_capture(&mut self, m: Move, bonus: i32) {
        let (i, captured) = (self.piece_to(m), self.pos.piece_on(m.to()).kind().index());
        gravity16(&mut self.capture_history[i][captured], bonus);
    }

    #[inline]
    fn quiet_score(&self, m: Move, ply: usize) -> i32 {
        let pc = self.pos.moved_piece(m);
        let cur = self.piece_to(m);
        let mut v = self.history[pc.index()][m.to().index()];
        if ply >= 1 {
            v += self.cont[self.cont_idx[ply - 1] * CONT_N + cur] as i32;
        }
        if ply >= 2 {
            v += self.cont[self.cont_idx[ply - 2] * CONT_N + cur] as i32;
        }
        v
    }

    fn update_cont(&mut self, m: Move, ply: usize, bonus: i32) {
        let pc = self.pos.moved_piece(m);
        let cur = self.piece_to(m);
        gravity(&mut self.history[pc.index()][m.to().index()], bonus);
        for back in 1..=2 {
            if ply >= back {
                gravity16(&mut self.cont[self.cont_idx[ply - back] * CONT_N + cur], bonus);
            }
        }
    }

    fn update_quiet(&mut self, m: Move, ply: usize, depth: i32, tried: &[Move]) {
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        let bonus = history_bonus(depth);
        self.update_cont(m, ply, bonus);
        for &q in tried {
            if q != m {
                self.update_cont(q, ply, -bonus);
            }
        }
        let prev = self.pos.state().last_move;
        if prev.is_ok() {
            let pc = self.pos.piece_on(prev.to());
            self.counter[pc.index()][prev.to().index()] = m;
        }
    }

    fn is_quiet(&self, m: Move) -> bool {
        !(self.pos.is_capture(m) || (m.is_promotion() && self.pos.piece_on(m.from()).kind() == PieceType::Pawn))
    }

    #[allow(clippy::too_many_arguments)]
    fn search(&mut self, mut alpha: i32, mut beta: i32, depth: i32, ply: usize, pv_node: bool, cut_node: bool) -> i32 {
        let root = ply == 0;
        if pv_node {
            self.pv_len[ply] = 0;
        }
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, pv_node, 0);
        }
        self.count_node();
        if pv_node && ply > self.seldepth {
            self.seldepth = ply;
        }
        if !root {
            if self.stopped() {
                return 0;
            }
            match repetition(&self.pos) {
                Repetition::None => {}
                Repetition::Draw => return 0,
                Repetition::Win => return mate_in(ply),
                Repetition::Lose => return mated_in(ply),
                Repetition::Superior => return VALUE_SUPERIOR,
                Repetition::Inferior => return -VALUE_SUPERIOR,
            }
            if self.cfg.max_moves_to_draw > 0 && self.pos.game_ply() > self.cfg.max_moves_to_draw {
                return 0;
            }
            if ply >= MAX_PLY - 2 {
                return if self.pos.in_check() { 0 } else { self.static_eval(ply) };
            }
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        let in_check = self.pos.in_check();
        let key = self.pos.key();
        let tte = self.shared.tt.probe(key);
        let tt_move = if root {
            self.root_moves[self.pv_idx].mv
        } else {
            tte.map(|e| e.mv).unwrap_or(Move::NONE)
        };
        if let Some(e) = tte {
            let v = from_tt(e.score, ply);
            if !pv_node
                && e.depth >= depth
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                    Bound::None => false,
                }
            {
                return v;
            }
        }
        if !root && can_declare_win(&self.pos, self.cfg.entering_king) {
            return mate_in(ply + 1);
        }

        let eval = if in_check {
            -VALUE_INF
        } else if let Some(e) = tte {
            let mut ev = if e.eval.abs() < MATE_IN_MAX { e.eval } else { self.static_eval(ply) };
            let v = from_tt(e.score, ply);
            if v.abs() < MATE_IN_MAX
                && (e.bound == Bound::Exact || (e.bound == Bound::Lower && v > ev) || (e.bound == Bound::Upper && v < ev))
            {
                ev = v;
            }
            ev
        } else {
            self.static_eval(ply)
        };
        self.evals[ply] = eval;
        let improving = !in_check && ply >= 2 && eval > self.evals[ply - 2];

        if !pv_node && !in_check && beta.abs() < MATE_IN_MAX {
            // Reverse futility.
            if depth < 7 && eval - (140 - if improving { 40 } else { 0 }) * depth >= beta {
                return eval;
            }
            // Null move.
            if depth >= 2 && eval >= beta && self.pos.state().last_move != Move::NULL {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.make_null_move(ply);
                self.cont_idx[ply] = 0;
                let v = -self.search(-beta, -beta + 1, depth - r, ply + 1, false, !cut_node);
                self.pos.undo_null_move();
                if self.stopped() {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_IN_MAX { beta } else { v };
                }
            }
        }

        let mut list = MoveList::new();
        if root {
            for rm in &self.root_moves[self.pv_idx..] {
                list.push(rm.mv);
            }
        } else {
            generate(&self.pos, GenType::Legal, false, &mut list);
            if list.is_empty() {
                return mated_in(ply);
            }
        }
        let ci = CheckInfo::new(&self.pos);
        if !root && !in_check {
            if let Some(m) = self.mate1(&list, &ci) {
                let v = mate_in(ply + 1);
                if pv_node {
                    self.pv[ply][0] = m;
                    self.pv_len[ply] = 1;
                }
                self.shared.tt.store(key, m, to_tt(v, ply), eval, depth.min(MAX_PLY as i32), Bound::Exact);
                return v;
            }
            // A short df-pn probe where the subtree is big enough to pay for it.
            if depth >= if pv_node { MATE_PROBE_DEPTH } else { MATE_PROBE_DEPTH_NON_PV } && beta < MATE_IN_MAX {
                let budget = if pv_node { MATE_PROBE_PV_NODES } else { MATE_PROBE_NODES };
                if let Some((m, len)) = self.mate.quick_mate_in(&mut self.pos, budget) {
                    let v = mate_in(ply + len as usize);
                    if pv_node {
                        self.pv[ply][0] = m;
                        self.pv_len[ply] = 1;
                    }
                    // The probe's line may not be the shortest: a lower bound.
                    self.shared.tt.store(key, m, to_tt(v, ply), eval, depth.min(MAX_PLY as i32), Bound::Lower);
                    return v;
                }
            }
        }
        let mut scores = [0i32; MAX_MOVES];
        if !root {
            self.score_moves(&list, &mut scores, tt_move, ply);
        }
        let n = list.len();
        let moves = list.as_mut_slice();

        let mut best = -VALUE_INF;
        let mut best_move = Move::NONE;
        let mut move_count: i32 = 0;
        let mut quiets_tried = [Move::NONE; 64];
        let mut nq = 0;
        let mut captures_tried = [Move::NONE; 32];
        let mut nc = 0;
        let old_alpha = alpha;
        self.killers[ply + 1] = [Move::NONE; 2];

        for i in 0..n {
            if !root {
                if i < 6 {
                    // Selection sort step: most nodes cut off within the first moves.
                    let mut bi = i;
                    for j in i + 1..n {
                        if scores[j] > scores[bi] {
                            bi = j;
                        }
                    }
                    moves.swap(i, bi);
                    scores.swap(i, bi);
                } else if i == 6 && n > 7 {
                    // Then sort the rest at once (n log n instead of n^2).
                    let mut keyed = [0u64; MAX_MOVES];
                    for j in i..n {
                        keyed[j] = (((scores[j] as i64 - i32::MIN as i64) as u64) << 16) | moves[j].raw() as u64;
                    }
                    keyed[i..n].sort_unstable_by(|a, b| b.cmp(a));
                    for j in i..n {
                        moves[j] = Move::from_raw(keyed[j] as u16);
                        scores[j] = ((keyed[j] >> 16) as i64 + i32::MIN as i64) as i32;
                    }
                }
            }
            let m = moves[i];
            move_count += 1;
            if root && self.id == 0 && self.cfg.verbose && self.shared.elapsed() > 3000 {
                (self.out)(&format!("info depth {} currmove {} currmovenumber {}", depth, m, move_count as usize + self.pv_idx));
            }
            let quiet = self.is_quiet(m);
            let gives_check = ci.gives_check(&self.pos, m);

            // Pruning at shallow depth.
            if !root && best > -MATE_IN_MAX && !in_check {
                if quiet && !gives_check {
                    if !pv_node && depth <= 8 && move_count > 6 + depth * depth * if improving { 2 } else { 1 } {
                        continue;
                    }
                    if depth <= 6 && eval + 120 + 110 * depth <= alpha {
                        continue;
                    }
                    if depth <= 4 && scores[i] < -3000 * depth && move_count > 2 {
                        continue;
                    }
                } else if depth <= 5 && !gives_check && scores[i] < 0 && see(&self.pos, m) < -120 * depth {
                    continue;
                }
            }

            let mut ext = 0;
            if gives_check && (depth <= 4 || see(&self.pos, m) >= 0) && (ply as i32) < 2 * self.root_depth {
                ext = 1;
            }
            let new_depth = depth - 1 + ext;

            self.cont_idx[ply] = self.piece_to(m);
            self.make_move(m, ply);
            let mut v;
            // Losing captures are often sound sacrifices in shogi (the piece goes to hand):
            // reduce them only where they look futile or at expected cut nodes.
            let captured = self.pos.state().captured;
            let capture_value = if captured.is_some() { eval::PIECE_VALUE[captured.kind().index()] } else { 0 };
            let reduce_capture = scores[i] < 0 && (cut_node || eval + 2 * capture_value <= alpha);
            if depth >= 3 && move_count > 1 + pv_node as i32 && (quiet || reduce_capture) {
                let mut r = LMR[(depth as usize).min(63)][(move_count as usize).min(63)];
                if pv_node {
                    r -= 1;
                }
                if cut_node {
                    r += 1;
                }
                if !improving {
                    r += 1;
                }
                if scores[i] >= 1_300_000 {
                    r -= 1;
                }
                if gives_check {
                    r -= 1;
                }
                if !quiet {
                    r -= 1;
                }
                if quiet && scores[i] < 1_300_000 {
                    r -= (scores[i] / 8000).clamp(-3, 3);
                }
                let d = (new_depth - r.max(0)).clamp(1, new_depth.max(1));
                v = -self.search(-alpha - 1, -alpha, d, ply + 1, false, true);
                if v > alpha && d < new_depth {
                    v = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, false, !cut_node);
                }
            } else if !pv_node || move_count > 1 {
                v = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, false, !cut_node);
            } else {
                v = alpha + 1; // force full window below
            }
            let mut child_pv = false;
            if pv_node && (move_count == 1 || (v > alpha && (root || v < beta))) {
                v = -self.search(-beta, -alpha, new_depth, ply + 1, true, false);
                child_pv = true;
            }
            if !child_pv {
                // The child's pv row is stale: only its own PV search fills it.
                self.pv_len[ply + 1] = 0;
            }
            self.pos.undo_move(m);
            if self.stopped() {
                return 0;
            }

            if root {
                let idx = self.pv_idx + i;
                let seldepth = self.seldepth;
                let mut newpv = Vec::new();
                if move_count == 1 || v > alpha {
                    newpv.push(m);
                    let l = self.pv_len[ply + 1];
                    newpv.extend_from_slice(&self.pv[ply + 1][..l]);
                }
                let rm = &mut self.root_moves[idx];
                if move_count == 1 || v > alpha {
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
                    if move_count > 1 && self.pv_idx == 0 {
                        self.best_changes += 1;
                    }
                } else {
                    rm.score = -VALUE_INF;
                }
            }

            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if pv_node && !root {
                        self.pv[ply][0] = m;
                        let l = self.pv_len[ply + 1];
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply][1..=l].copy_from_slice(&tail[0][..l]);
                        self.pv_len[ply] = l + 1;
                    }
                    if v >= beta {
                        let bonus = history_bonus(depth);
                        if quiet {
                            let tried = quiets_tried;
                            self.update_quiet(m, ply, depth, &tried[..nq]);
                        } else {
                            self.update_capture(m, bonus);
                        }
                        for &c in &captures_tried[..nc] {
                            self.update_capture(c, -bonus);
                        }
                        break;
                    }
                    alpha = v;
                }
            }
            if quiet && nq < quiets_tried.len() {
                quiets_tried[nq] = m;
                nq += 1;
            } else if !quiet && nc < captures_tried.len() {
                captures_tried[nc] = m;
                nc += 1;
            }
        }

        if move_count == 0 {
            // Every move was pruned away or (root) none left: fall back.
            return if in_check { mated_in(ply) } else { alpha };
        }
        if best == -VALUE_INF {
            best = alpha;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(key, best_move, to_tt(best, ply), if in_check { 0 } else { eval }, depth, bound);
        best
    }

    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, pv_node: bool, qdepth: i32) -> i32 {
        self.count_node();
        if pv_node {
            self.pv_len[ply] = 0;
            if ply > self.seldepth {
                self.seldepth = ply;
            }
        }
        if self.stopped() {
            return 0;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 2 {
            return if in_check { 0 } else { self.static_eval(ply) };
        }
        let key = self.pos.key();
        let tte = self.shared.tt.probe(key);
        if let Some(e) = tte {
            let v = from_tt(e.score, ply);
            if !pv_node
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                    Bound::None => false,
                }
            {
                return v;
            }
        }
        let tt_move = tte.map(|e| e.mv).unwrap_or(Move::NONE);
        let mut best;
        let stand;
        if in_check {
            best = -VALUE_INF;
            stand = -VALUE_INF;
        } else {
            stand = match tte {
                Some(e) if e.eval.abs() < MATE_IN_MAX && e.eval != 0 => e.eval,
                _ => self.static_eval(ply),
            };
            if stand >= beta {
                return stand;
            }
            if stand > alpha {
                alpha = stand;
            }
            best = stand;
        }
        let mut list = MoveList::new();
        if in_check {
            generate(&self.pos, GenType::Evasions, false, &mut list);
            if list.is_empty() {
                return mated_in(ply);
            }
        } else {
            generate(&self.pos, GenType::CapturesPromotions, false, &mut list);
        }
        let n = list.len();
        let mut scores = [0i32; MAX_MOVES];
        for (i, &m) in list.iter().enumerate() {
            let cap = self.pos.piece_on(m.to());
            scores[i] = if m == tt_move {
                1_000_000
            } else if cap.is_some() {
                eval::PIECE_VALUE[cap.kind().index()] * 8
                    - if m.is_drop() { 0 } else { eval::PIECE_VALUE[self.pos.piece_on(m.from()).kind().index()] / 16 }
            } else if self.pos.is_capture(m) || m.is_promotion() {
                100
            } else {
                self.quiet_score(m, ply) / 16 - 10000
            };
        }
        let moves = list.as_mut_slice();
        let mut best_move = Move::NONE;
        for i in 0..n {
            let mut bi = i;
            for j in i + 1..n {
                if scores[j] > scores[bi] {
                    bi = j;
                }
            }
            moves.swap(i, bi);
            scores.swap(i, bi);
            let m = moves[i];
            if !in_check {
                let cap = self.pos.piece_on(m.to());
                let gain = if cap.is_some() { eval::PIECE_VALUE[cap.kind().index()] * 2 } else { 500 };
                if stand + gain + 150 <= alpha {
                    continue;
                }
                if see(&self.pos, m) < 0 {
                    continue;
                }
                if qdepth < -8 && cap.is_none() {
                    continue;
                }
            }
            self.cont_idx[ply] = self.piece_to(m);
            self.make_move(m, ply);
            let v = -self.qsearch(-beta, -alpha, ply + 1, pv_node, qdepth - 1);
            self.pos.undo_move(m);
            if self.stopped() {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if pv_node {
                        self.pv[ply][0] = m;
                        let l = self.pv_len[ply + 1];
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply][1..=l].copy_from_slice(&tail[0][..l]);
                        self.pv_len[ply] = l + 1;
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        if best == -VALUE_INF {
            best = mated_in(ply);
        }
        let bound = if best >= beta { Bound::Lower } else { Bound::Upper };
        self.shared.tt.store(key, best_move, to_tt(best, ply), if in_check { 0 } else { stand }, -1, bound);
        best
    }

    fn info_lines(&self, depth: i32) {
        let sh = &self.shared;
        let elapsed = sh.elapsed().max(1);
        let nodes = sh.total_nodes().max(self.nodes);
        let nps = nodes * 1000 / elapsed;
        let hashfull = sh.tt.hashfull();
        let multipv = self.cfg.multipv.min(self.root_moves.len());
        for (i, rm) in self.root_moves.iter().take(multipv).enumerate() {
            let updated = i <= self.pv_idx;
            let (score, bound) = if updated || rm.prev_score == -VALUE_INF {
                (rm.score, rm.bound)
            } else {
                (rm.prev_score, Bound::Exact)
            };
            if score == -VALUE_INF {
                continue;
            }
            let d = if updated { depth } else { (depth - 1).max(1) };
            let mut s = format!("info depth {d} seldepth {} ", rm.seldepth.max(d as usize));
            if multipv > 1 {
                s.push_str(&format!("multipv {} ", i + 1));
            }
            s.push_str(&format!("score {}", score_text(score)));
            if updated {
                match bound {
                    Bound::Lower => s.push_str(" lowerbound"),
                    Bound::Upper => s.push_str(" upperbound"),
                    _ => {}
                }
            }
            s.push_str(&format!(" nodes {nodes} nps {nps} time {elapsed} hashfull {hashfull} pv"));
            let pv: &[Move] = if rm.pv.is_empty() { std::slice::from_ref(&rm.mv) } else { &rm.pv };
            let mut p = self.pos.clone();
            for &m in pv {
                // Safety net: never print a move that is not legal where it stands.
                if !crate::movegen::is_legal(&p, m) {
                    break;
                }
                p.do_move(m);
                s.push(' ');
                s.push_str(&m.to_string());
            }
            (self.out)(&s);
        }
    }

    fn iterate(&mut self, max_depth: i32) {
        let multipv = self.cfg.multipv.max(1);
        let mut last_best = Move::NONE;
        let mut stable = 0;
        let mut last_score = -VALUE_INF;
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
            self.root_depth = depth;
            self.best_changes = 0;
            let npv = multipv.min(self.root_moves.len());
            for pv_idx in 0..npv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = 30;
                let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < 2000 {
                    ((prev - delta).max(-VALUE_INF), (prev + delta).min(VALUE_INF))
                } else {
                    (-VALUE_INF, VALUE_INF)
                };
                loop {
                    let v = self.search(alpha, beta, depth, 0, true, false);
                    self.root_moves[pv_idx..].sort_by(|a, b| b.score.cmp(&a.score).then(b.prev_score.cmp(&a.prev_score)));
                    if self.stopped() {
                        break;
                    }
                    if v <= alpha {
                        if self.id == 0 && self.cfg.verbose && self.shared.elapsed() > 3000 {
                            self.info_lines(depth);
                        }
                        beta = (alpha + beta) / 2;
                        alpha = (v - delta).max(-VALUE_INF);
                    } else if v >= beta {
                        if self.id == 0 && self.cfg.verbose && self.shared.elapsed() > 3000 {
                            self.info_lines(depth);
                        }
                        beta = (v + delta).min(VALUE_INF);
                    } else {
                        break;
                    }
                    delta += delta / 2 + 10;
                    if delta > 1500 {
                        alpha = -VALUE_INF;
                        beta = VALUE_INF;
                    }
                }
                self.root_moves[..=pv_idx].sort_by(|a, b| b.score.cmp(&a.score).then(b.prev_score.cmp(&a.prev_score)));
                if self.stopped() {
                    break;
                }
            }
            if self.stopped() {
                // A partly searched iteration still tells the best move when the first
                // root move was completed; the sort above keeps it first.
                if self.id == 0 && self.cfg.verbose && self.root_moves[0].score != -VALUE_INF && depth > 1 {
                    self.info_lines(depth);
                }
                break;
            }
            self.completed_depth = depth;
            if self.id != 0 {
                continue;
            }
            if self.cfg.verbose {
                self.info_lines(depth);
            }
            let best = self.root_moves[0].mv;
            let score = self.root_moves[0].score;
            if best == last_best {
                stable += 1;
            } else {
                stable = 0;
            }
            last_best = best;
            let sh = &self.shared;
            let pondering = sh.pondering.load(Ordering::Relaxed);
            // Proven mate: no need to go deeper.
            if score.abs() >= MATE_IN_MAX && VALUE_MATE - score.abs() <= depth && !pondering {
                break;
            }
            if sh.timed.load(Ordering::Relaxed) && sh.soft.load(Ordering::Relaxed) && !pondering {
                let opt = sh.optimum_ms.load(Ordering::Relaxed) as f64;
                let mut factor = if stable >= 4 { 0.6 } else if stable == 0 { 1.3 } else { 1.0 };
                if last_score != -VALUE_INF && score < last_score - 60 {
                    factor *= 1.4;
                }
                if self.root_moves.len() == 1 {
                    factor = 0.05;
                }
                if sh.elapsed() as f64 >= opt * factor * 0.7 {
                    break;
                }
            }
            last_score = score;
        }
    }
}

/// Runs a whole `go`: root checks, Lazy SMP threads, `info` lines, waiting for
/// `ponderhit`/`stop` when pondering or infinite, and finally the `bestmove` line.
pub fn think(shared: Arc<Shared>, pos: &Position, limits: &Limits, cfg: &Config, out: Sink) -> SearchResult {
    shared.tt.new_search();
    // Statistics carried over from the previous move measured worse in self-play
    // (6-13-1), so every search starts with fresh move-ordering tables.
    if !cfg.keep_history {
        reset_history();
    }
    let legal = legal_moves(pos);
    let mut result = SearchResult { best: "resign".into(), ponder: None, score: -VALUE_MATE, depth: 0, nodes: 0 };
    let mut root_moves: Vec<RootMove> = Vec::new();
    if can_declare_win(pos, cfg.entering_king) {
        result.best = "win".into();
        result.score = VALUE_MATE;
    } else if !legal.is_empty() {
        // Search uses the promoting version only where promotion is optional for pawn,
        // bishop and rook; the unpromoted variants are dominated.
        let mut gen = MoveList::new();
        generate(pos, GenType::Legal, false, &mut gen);
        let mut cand: Vec<Move> = gen.iter().copied().collect();
        if !limits.searchmoves.is_empty() {
            let f: Vec<Move> = limits.searchmoves.iter().copied().filter(|m| legal.contains(*m)).collect();
            if !f.is_empty() {
                cand = f;
            }
        }
        root_moves = cand
            .into_iter()
            .map(|m| RootMove { mv: m, score: -VALUE_INF, prev_score: -VALUE_INF, bound: Bound::Exact, pv: vec![m], seldepth: 0 })
            .collect();
    }

    let root_mate = if !root_moves.is_empty() && limits.searchmoves.is_empty() && cfg.multipv <= 1 {
        let node_limit = limits.nodes.or(if cfg.nodes_limit > 0 { Some(cfg.nodes_limit) } else { None });
        root_mate_probe(&shared, pos, &out, cfg.verbose, node_limit)
    } else {
        None
    };
    if let Some(line) = root_mate {
        // Pondering or infinite: wait for ponderhit or stop before answering.
        while !shared.stopped() && (shared.pondering.load(Ordering::Relaxed) || shared.infinite.load(Ordering::Relaxed)) {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        result.best = line[0].to_string();
        result.ponder = line.get(1).copied();
        result.score = mate_in(line.len());
        result.depth = line.len() as i32;
    } else if !root_moves.is_empty() {
        let max_depth = limits
            .depth
            .or(if cfg.depth_limit > 0 { Some(cfg.depth_limit) } else { None })
            .unwrap_or(MAX_PLY as i32 - 28)
            .clamp(1, MAX_PLY as i32 - 28);
        let nodes_limit = limits.nodes.or(if cfg.nodes_limit > 0 { Some(cfg.nodes_limit) } else { None }).unwrap_or(0);
        let threads = cfg.threads.max(1).min(shared.nodes.len());
        let (main_result, _) = std::thread::scope(|s| {
            let mut handles = Vec::new();
            for id in 1..threads {
                let sh = shared.clone();
                let p = pos.clone();
                let c = cfg.clone();
                let o = out.clone();
                let rms = root_moves.clone();
                let b = std::thread::Builder::new().stack_size(64 << 20);
                if let Ok(h) = b.spawn_scoped(s, move || {
                    let mut w = Worker::new(id, p, sh, c, o, rms, nodes_limit);
                    w.iterate(max_depth);
                    sh_publish(&w);
                    give_back_tables(w);
                }) {
                    handles.push(h);
                }
            }
            let mut w = Worker::new(0, pos.clone(), shared.clone(), cfg.clone(), out.clone(), root_moves.clone(), nodes_limit);
            w.iterate(max_depth);
            sh_publish(&w);
            // Pondering or infinite: wait for ponderhit or stop before answering.
            while !shared.stopped()
                && (shared.pondering.load(Ordering::Relaxed) || shared.infinite.load(Ordering::Relaxed))
            {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            shared.stop.store(true, Ordering::Relaxed);
            for h in handles {
                let _ = h.join();
            }
            let r = (w.root_moves[0].clone(), w.completed_depth);
            give_back_tables(w);
            (r, ())
        });
        let (rm, depth) = main_result;
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
    } else {
        while !shared.stopped() && (shared.pondering.load(Ordering::Relaxed) || shared.infinite.load(Ordering::Relaxed)) {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
    result.nodes = shared.total_nodes();
    let line = match result.ponder {
        Some(p) => format!("bestmove {} ponder {}", result.best, p),
        None => format!("bestmove {}", result.best),
    };
    out(&line);
    result
}

/// Runs the df-pn solver on the root for a small share of the time budget; on a
/// proved mate prints its `info` line and returns the mating line (legal, attacker
/// first, ending in mate).
fn root_mate_probe(shared: &Shared, pos: &Position, out: &Sink, verbose: bool, node_limit: Option<u64>) -> Option<Vec<Move>> {
    let timed = shared.timed.load(Ordering::Relaxed);
    // A node-limited search gives the probe a fifth of its nodes, not a fixed budget
    // that could be ten times the search itself.
    let budget = if timed {
        (shared.optimum_ms.load(Ordering::Relaxed) * 25).clamp(5_000, 500_000)
    } else {
        node_limit.map_or(50_000, |n| (n / 5).clamp(200, 50_000))
    };
    let cap = if timed { Some(std::time::Duration::from_millis((shared.optimum_ms.load(Ordering::Relaxed) / 10).max(1))) } else { None };
    let mut solver = crate::mate::Solver::for_nodes(budget);
    let line = match solver.solve(pos, cap, &shared.stop, budget) {
        crate::mate::MateResult::Mate(line) if !line.is_empty() => line,
        _ => return None,
    };
    // Trust but verify: every move legal and the line ends in mate.
    let mut p = pos.clone();
    for &m in &line {
        if !crate::movegen::is_legal(&p, m) {
            return None;
        }
        p.do_move(m);
    }
    if !(p.in_check() && legal_moves(&p).is_empty()) {
        return None;
    }
    if verbose {
        let elapsed = shared.elapsed().max(1);
        let nodes = solver.stats.nodes;
        let pv: Vec<String> = line.iter().map(|m| m.to_string()).collect();
        out(&format!(
            "info depth {n} seldepth {n} score mate {n} nodes {nodes} nps {} time {elapsed} pv {}",
            nodes * 1000 / elapsed,
            pv.join(" "),
            n = line.len()
        ));
    }
    Some(line)
}

/// Move-ordering tables of one thread, kept between searches of a game.
struct Tables {
    history: Vec<[i32; 81]>,
    capture_history: Vec<[i16; 16]>,
    cont: Vec<i16>,
    counter: Vec<[Move; 81]>,
    mate: crate::mate::Solver,
}

static TABLE_POOL: Lazy<Mutex<Vec<Tables>>> = Lazy::new(|| Mutex::new(Vec::new()));

fn take_tables() -> Tables {
    let pooled = TABLE_POOL.lock().ok().and_then(|mut p| p.pop());
    pooled.unwrap_or_else(|| Tables {
        history: vec![[0; 81]; 32],
        capture_history: vec![[0; 16]; CONT_N],
        cont: vec![0; CONT_N * CONT_N],
        counter: vec![[Move::NONE; 81]; 32],
        mate: crate::mate::Solver::for_nodes(MATE_PROBE_TABLE),
    })
}

fn give_back_tables(w: Worker) {
    if let Ok(mut p) = TABLE_POOL.lock() {
        p.push(Tables { history: w.history, capture_history: w.capture_history, cont: w.cont, counter: w.counter, mate: w.mate });
    }
}

/// Zeroes the pooled move-ordering tables in place (cheaper than new ones: no
/// allocation or page faults, which cost a short search up to 15% of its time). The
/// in-tree mate probes' tables are kept: a proof or disproof stays true.
fn reset_history() {
    if let Ok(mut p) = TABLE_POOL.lock() {
        for t in p.iter_mut() {
            for h in t.history.iter_mut() {
                h.fill(0);
            }
            for h in t.capture_history.iter_mut() {
                h.fill(0);
            }
            t.cont.fill(0);
            for c in t.counter.iter_mut() {
                c.fill(Move::NONE);
            }
        }
    }
}

/// Forgets the move-ordering statistics kept between searches (on `usinewgame`).
pub fn clear_history() {
    if let Ok(mut p) = TABLE_POOL.lock() {
        p.clear();
    }
}

fn sh_publish(w: &Worker) {
    w.shared.nodes[w.id].store(w.nodes, Ordering::Relaxed);
}

/// Allocates the time for `limits` and resets the shared clock.
pub fn start_clock(shared: &Shared, pos: &Position, limits: &Limits, cfg: &Config) {
    let b = if limits.infinite { None } else { time::allocate(&limits.clock, pos.side_to_move(), pos.game_ply(), &cfg.time) };
    shared.set_budget(b);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn see_values() {
        crate::init();
        // Pawn takes a defended pawn: +90 -90 = 0; rook takes a pawn defended by a pawn: loses.
        let pos = Position::from_sfen("4k4/9/4g4/4p4/9/4R4/9/9/4K4 b - 1").unwrap();
        let m = pos.parse_usi_move("5f5d").unwrap();
        assert!(see(&pos, m) < 0);
        let pos = Position::from_sfen("4k4/9/9/4p4/9/4R4/9/9/4K4 b - 1").unwrap();
        let m = pos.parse_usi_move("5f5d").unwrap();
        assert_eq!(see(&pos, m), 90);
    }

    #[test]
    fn declaration_rules() {
        crate::init();
        let p28 = Position::from_sfen("RRBB1GGGG/4KSS2/9/9/9/9/9/9/4k4 b 2P 1").unwrap();
        let p33 = Position::from_sfen("RRBB1GGGG/4KSS2/9/9/9/9/9/9/4k4 b 7P 1").unwrap();
        let p9 = Position::from_sfen("RRBB1GGG1/4KSS2/9/9/9/9/9/9/4k4 b 9P 1").unwrap();
        assert!(can_declare_win(&p28, EnteringKingRule::Csa27));
        assert!(!can_declare_win(&p28, EnteringKingRule::Csa24));
        assert!(can_declare_win(&p33, EnteringKingRule::Csa24));
        assert!(!can_declare_win(&p9, EnteringKingRule::Csa27));
        assert!(!can_declare_win(&p33, EnteringKingRule::None));
    }

    #[test]
    fn repetition_kinds() {
        crate::init();
        let mut pos = Position::startpos();
        for m in ["5i4h", "5a4b", "4h5i", "4b5a"] {
            let mv = pos.parse_usi_move(m).unwrap();
            pos.do_move(mv);
        }
        assert_eq!(repetition(&pos), Repetition::Draw);
    }
}
