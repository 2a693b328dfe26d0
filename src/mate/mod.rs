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

use crate::core::attacks::between;
use crate::movegen::{self, GenType, MoveList};
use crate::position::Position;
use crate::core::types::{Color, Hand, Move, Piece, PieceType};
use crate::core::zobrist;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
/// Depth budget of an unlimited search (plies); deeper lines are cut.
const MAX_PLY: u16 = 4000;
/// Default hash size in MiB when the caller has no USI_Hash value.
pub const DEFAULT_HASH_MB: usize = 256;

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

/// Search statistics of the last solve.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Nodes visited (df-pn expansions) in all phases.
    pub nodes: u64,
    /// Wall time in seconds.
    pub seconds: f64,
    /// Nodes of the first proof (the rest went into the shortest line).
    pub proof_nodes: u64,
    /// Whether a returned mate is proved shortest with the best defence (false when
    /// the polishing ran out of time or nodes and a line from the table was returned).
    pub exact: bool,
}

// ---------------------------------------------------------------------------
// Hand helpers
// ---------------------------------------------------------------------------

#[inline]
fn hand_min(a: Hand, b: Hand) -> Hand {
    let mut h = Hand::EMPTY;
    for pt in PieceType::HAND {
        h.set(pt, a.count(pt).min(b.count(pt)));
    }
    h
}

#[inline]
fn hand_max(a: Hand, b: Hand) -> Hand {
    let mut h = Hand::EMPTY;
    for pt in PieceType::HAND {
        h.set(pt, a.count(pt).max(b.count(pt)));
    }
    h
}

#[inline]
fn hand_sum(a: Hand, b: Hand) -> Hand {
    let mut h = Hand::EMPTY;
    for pt in PieceType::HAND {
        h.set(pt, a.count(pt) + b.count(pt));
    }
    h
}

fn hand_total(h: Hand) -> u32 {
    PieceType::HAND.iter().map(|&pt| h.count(pt)).sum()
}

/// Hand kind a captured piece turns into, if `m` captures.
#[inline]
fn captured_kind(pos: &Position, m: Move) -> Option<PieceType> {
    if m.is_drop() {
        return None;
    }
    pos.piece_on(m.to()).piece_type().map(|pt| pt.unpromote())
}

/// Board key (board + side to move) after `m`, as `do_move` would compute it.
#[inline]
fn board_key_after(pos: &Position, m: Move, salt: u64) -> u64 {
    let us = pos.side_to_move();
    let mut k = pos.state().board_key ^ zobrist::side_key() ^ salt;
    let to = m.to();
    if m.is_drop() {
        k ^= zobrist::piece_key(Piece::new(us, m.drop_piece()), to);
    } else {
        let from = m.from();
        let pc = pos.piece_on(from);
        let cap = pos.piece_on(to);
        if cap.is_some() {
            k ^= zobrist::piece_key(cap, to);
        }
        let moved = if m.is_promotion() { Piece::new(us, pc.kind().promote()) } else { pc };
        k ^= zobrist::piece_key(pc, from) ^ zobrist::piece_key(moved, to);
    }
    k
}

/// Mixed into table keys when White attacks, so that one table can serve problems
/// with either attacker (a position means different things for the two).
#[inline]
fn attacker_salt(attacker: Color) -> u64 {
    match attacker {
        Color::Black => 0,
        Color::White => 0x9e37_79b9_7f4a_7c14,
    }
}

/// Salt of the table keys for problems with `attacker` attacking in `pos`: the key
/// proper is the board plus the attacker's hand, which fixes the defender's hand only
/// for a given set of pieces in play, so the set (and the attacker) is mixed in.
/// Constant over a search, since moves never change the set of pieces.
fn key_salt(pos: &Position, attacker: Color) -> u64 {
    let mut packed: u64 = 0;
    for pt in PieceType::HAND {
        let mut n = pos.pieces(pt).count() as u64 + pos.hand(Color::Black).count(pt) as u64 + pos.hand(Color::White).count(pt) as u64;
        if pt != PieceType::Gold {
            n += pos.pieces(pt.promote()).count() as u64;
        }
        packed = (packed << 5) | n;
    }
    // Full piece sets (tsume with all remaining pieces in hand) keep salt 0 for Black.
    let full: u64 = [18u64, 4, 4, 4, 2, 2, 4].iter().fold(0, |a, &n| (a << 5) | n);
    (packed ^ full).wrapping_mul(0x2545_f491_4f6c_dd1d) & !1 ^ attacker_salt(attacker)
}

/// Table key of the current position under `salt` (see `key_salt`).
#[inline]
fn node_key(pos: &Position, salt: u64) -> u64 {
    pos.state().board_key ^ salt
}

/// Attacker's hand after the attacker plays `m`.
#[inline]
fn hand_after_attack(pos: &Position, hand: Hand, m: Move) -> Hand {
    let mut h = hand;
    if m.is_drop() {
        h.remove(m.drop_piece());
    } else if let Some(pt) = captured_kind(pos, m) {
        h.add(pt);
    }
    h
}

// ---------------------------------------------------------------------------
// Transposition table
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    hand: Hand,
    pn: u32,
    dn: u32,
    /// Search effort below this node; 0 marks an empty slot.
    amount: u32,
    /// Length of a known mate with `hand` as proof hand (NO_LEN if none).
    proof_len: u16,
    /// Depth up to which `hand` is a disproof hand (0 if none).
    disproof_depth: u16,
}

const BUCKET: usize = 8;

/// `n` empty entries from zeroed memory.
fn zeroed_entries(n: usize) -> Vec<Entry> {
    let n = n.max(1);
    let Ok(layout) = std::alloc::Layout::array::<Entry>(n) else {
        return vec![Entry::default(); BUCKET];
    };
    // SAFETY: `Entry` is `repr(C)` and made only of integers (`Hand` wraps a u32), so
    // all-zero bytes are a valid value (an empty slot). The pointer comes from the
    // global allocator with exactly this layout, as `Vec::from_raw_parts` requires.
    // Measured: filling a 256 MiB table with `vec![Entry::default(); n]` touched every
    // page and cost about 0.13 s of system time per `go mate`; zeroed pages are only
    // mapped when used.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout) as *mut Entry;
        if p.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Vec::from_raw_parts(p, n, n)
    }
}

/// The solver's transposition table (buckets of 8 entries of 32 bytes).
pub struct MateTable {
    entries: Vec<Entry>,
    buckets: usize,
}

impl MateTable {
    /// A table of about `mb` MiB (at least one bucket).
    pub fn new(mb: usize) -> MateTable {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let buckets = (bytes / (std::mem::size_of::<Entry>() * BUCKET)).max(1);
        MateTable { entries: zeroed_entries(buckets * BUCKET), buckets }
    }

    /// A small table for about `entries` entries.
    fn with_entries(n: usize) -> MateTable {
        let buckets = (n / BUCKET).clamp(16, 1 << 22);
        MateTable { entries: zeroed_entries(buckets * BUCKET), buckets }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        for e in self.entries.iter_mut() {
            *e = Entry::default();
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET
    }

    /// Looks a node up for a search that has `depth` plies left.
    #[inline]
    fn probe(&self, key: u64, hand: Hand, depth: u16) -> Res {
        let b = self.bucket(key);
        let mut res = Res::unknown(1, 1);
        let mut best_len = NO_LEN;
        let mut best_dd = 0u16;
        for e in &self.entries[b..b + BUCKET] {
            if e.amount == 0 || e.key != key {
                continue;
            }
            if e.proof_len <= depth && e.proof_len < best_len && hand.is_superset_of(e.hand) {
                best_len = e.proof_len;
                res.ph = e.hand;
            }
            if best_len == NO_LEN && e.disproof_depth > 0 && e.disproof_depth >= depth && e.disproof_depth > best_dd && e.hand.is_superset_of(hand) {
                best_dd = e.disproof_depth;
                res.ph = e.hand;
            }
            if e.hand == hand && e.pn > 0 && e.dn > 0 && e.pn < INF && e.dn < INF {
                res.pn = e.pn;
                res.dn = e.dn;
            }
        }
        if best_len != NO_LEN {
            res.pn = 0;
            res.dn = INF;
            res.len = best_len;
        } else if best_dd > 0 {
            res.pn = INF;
            res.dn = 0;
            res.ddepth = best_dd;
        }
        res
    }

    #[inline]
    fn slot(&mut self, key: u64, hand: Hand) -> &mut Entry {
        let b = self.bucket(key);
        let mut victim = b;
        let mut victim_amount = u32::MAX;
        for i in b..b + BUCKET {
            let e = &self.entries[i];
            if e.amount == 0 {
                if victim_amount > 0 {
                    victim = i;
                    victim_amount = 0;
                }
                continue;
            }
            if e.key == key && e.hand == hand {
                return &mut self.entries[i];
            }
            // Proved/disproved entries are worth more than unresolved ones.
            let worth = if e.proof_len != NO_LEN || e.disproof_depth > 0 { e.amount.saturating_mul(4) } else { e.amount };
            if worth < victim_amount {
                victim = i;
                victim_amount = worth;
            }
        }
        let e = &mut self.entries[victim];
        *e = Entry { key, hand, pn: 0, dn: 0, amount: 1, proof_len: NO_LEN, disproof_depth: 0 };
        e
    }

    fn store_proof(&mut self, key: u64, ph: Hand, len: u16, amount: u32) {
        let e = self.slot(key, ph);
        e.proof_len = e.proof_len.min(len);
        e.amount = e.amount.max(amount).max(1);
    }

    fn store_disproof(&mut self, key: u64, dh: Hand, depth: u16, amount: u32) {
        if depth == 0 {
            return;
        }
        let e = self.slot(key, dh);
        e.disproof_depth = e.disproof_depth.max(depth);
        e.amount = e.amount.max(amount).max(1);
    }

    fn store_unknown(&mut self, key: u64, hand: Hand, pn: u32, dn: u32, amount: u32) {
        let e = self.slot(key, hand);
        e.pn = pn;
        e.dn = dn;
        e.amount = e.amount.max(amount).max(1);
    }
}

// ---------------------------------------------------------------------------
// Search
// ---------------------------------------------------------------------------

/// A node's (or child's) value.
#[derive(Clone, Copy, Debug)]
struct Res {
    pn: u32,
    dn: u32,
    /// Mate length when proved.
    len: u16,
    /// Depth a disproof holds to.
    ddepth: u16,
    /// Proof hand (proved) or disproof hand (disproved).
    ph: Hand,
    /// Ply of the repeated ancestor a disproof depends on (NO_REP if none).
    rep: u16,
}

impl Res {
    #[inline]
    fn unknown(pn: u32, dn: u32) -> Res {
        Res { pn, dn, len: NO_LEN, ddepth: 0, ph: Hand::EMPTY, rep: NO_REP }
    }
}

#[derive(Clone, Copy)]
struct Child {
    m: Move,
    key: u64,
    hand: Hand,
    r: Res,
}

/// Work buffers kept by a `Solver` between searches (no allocation per search).
#[derive(Default)]
struct Buffers {
    /// (board key, attacker hand) of the nodes on the current path, by ply.
    path: Vec<(u64, Hand)>,
    /// Counting filter over the path keys (fast "no repetition" answer).
    rep_filter: Vec<u16>,
    /// The children of every node on the path, frame after frame.
    children: Vec<Child>,
}

/// Limits and counters of one search.
struct Search<'a> {
    tt: &'a mut MateTable,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    max_nodes: u64,
    nodes: u64,
    aborted: bool,
    b: Buffers,
    scratch: MoveList,
    /// Key salt of this search (see `key_salt`).
    salt: u64,
}

#[inline]
fn filter_index(key: u64) -> usize {
    (key >> 48) as usize
}

/// Appends the attacker's legal checks (or, at an AND node, all legal evasions).
fn gen_node_moves(pos: &Position, or_node: bool, list: &mut MoveList, out: &mut Vec<Child>) {
    list.clear();
    if or_node {
        movegen::generate_checks(pos, list);
    } else {
        movegen::generate(pos, GenType::Legal, true, list);
    }
    for &m in list.iter() {
        out.push(Child { m, key: 0, hand: Hand::EMPTY, r: Res::unknown(1, 1) });
    }
}

/// Whether the check on the defender (to move) could be blocked by a drop.
fn check_is_blockable(pos: &Position) -> bool {
    let checkers = pos.checkers();
    if checkers.more_than_one() || checkers.is_empty() {
        return false;
    }
    let ksq = pos.king_square(pos.side_to_move());
    between(ksq, checkers.lsb()).any()
}

/// Proof hand at an AND node: when the defender could interpose by a drop, every kind
/// it lacks must stay in the attacker's hand (otherwise the defender would hold one).
fn and_proof_hand_adjust(pos: &Position, ph: Hand) -> Hand {
    if !check_is_blockable(pos) {
        return ph;
    }
    let def = pos.side_to_move();
    let dh = pos.hand(def);
    let ah = pos.hand(def.flip());
    let mut h = ph;
    for pt in PieceType::HAND {
        if dh.count(pt) == 0 {
            h.set(pt, ah.count(pt));
        }
    }
    h
}

/// Disproof hand at an OR node: kinds the attacker lacks stay absent (one more would
/// add drops); other counts may grow up to `dh`.
fn or_disproof_hand_adjust(pos: &Position, dh: Hand) -> Hand {
    let ah = pos.hand(pos.side_to_move());
    let mut h = dh;
    for pt in PieceType::HAND {
        if ah.count(pt) == 0 {
            h.set(pt, 0);
        }
    }
    hand_max(h, ah)
}

/// Every piece not on the board (attacker's hand + defender's hand).
fn all_hand_pieces(pos: &Position) -> Hand {
    hand_sum(pos.hand(Color::Black), pos.hand(Color::White))
}

#[inline]
fn eps_threshold(second: u32) -> u32 {
    // 1 + epsilon trick (epsilon = 1/4): give the best child some slack beyond the
    // second best so that the search does not thrash between close siblings.
    if second >= INF_M1 {
        return INF_M1;
    }
    (second + 1).max(second.saturating_add(second / 4)).min(INF_M1)
}

impl<'a> Search<'a> {
    fn new(tt: &'a mut MateTable, mut b: Buffers, stop: &'a AtomicBool, deadline: Option<Instant>, max_nodes: u64) -> Search<'a> {
        if b.rep_filter.len() != 1 << 16 {
            b.rep_filter = vec![0; 1 << 16];
            b.path = Vec::with_capacity(MAX_PLY as usize + 2);
            b.children = Vec::with_capacity(1 << 14);
        }
        Search {
            tt,
            stop,
            deadline,
            max_nodes,
            nodes: 0,
            aborted: false,
            b,
            scratch: MoveList::new(),
            salt: 0,
        }
    }

    fn check_limits(&mut self) {
        if self.nodes >= self.max_nodes || self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
            return;
        }
        if let Some(d) = self.deadline {
            if Instant::now() >= d {
                self.aborted = true;
            }
        }
    }

    /// Searches `pos` (an OR node if `or_node`) with `depth` plies left until it is
    /// resolved or the limits hit. Returns the root value.
    fn run(&mut self, pos: &mut Position, depth: u16, or_node: bool) -> Res {
        if !self.b.path.is_empty() {
            // Pushes and pops are balanced, so this only happens after a panic.
            self.b.path.clear();
            self.b.rep_filter.iter_mut().for_each(|v| *v = 0);
        }
        self.b.children.clear();
        let attacker = if or_node { pos.side_to_move() } else { pos.side_to_move().flip() };
        self.salt = key_salt(pos, attacker);
        let key = node_key(pos, self.salt);
        let hand = pos.hand(attacker);
        self.push_path(key, hand);
        let r = self.mid(pos, INF, INF, 0, depth, or_node);
        self.pop_path();
        r
    }

    #[inline]
    fn push_path(&mut self, key: u64, hand: Hand) {
        self.b.path.push((key, hand));
        self.b.rep_filter[filter_index(key)] += 1;
    }

    #[inline]
    fn pop_path(&mut self) {
        if let Some((k, _)) = self.b.path.pop() {
            self.b.rep_filter[filter_index(k)] -= 1;
        }
    }

    /// Ply of an ancestor equal to (key, hand), if any.
    #[inline]
    fn find_repetition(&self, key: u64, hand: Hand) -> Option<u16> {
        if self.b.rep_filter[filter_index(key)] == 0 {
            return None;
        }
        self.b.path.iter().rposition(|&(k, h)| k == key && h == hand).map(|i| i as u16)
    }

    /// The df-pn multiple-iterative-deepening step.
    fn mid(&mut self, pos: &mut Position, th_pn: u32, th_dn: u32, ply: u16, depth: u16, or_node: bool) -> Res {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        let attacker = if or_node { pos.side_to_move() } else { pos.side_to_move().flip() };
        let key = node_key(pos, self.salt);
        let hand = pos.hand(attacker);
        let start_nodes = self.nodes;

        if or_node && (depth == 0 || ply >= MAX_PLY) {
            return Res { pn: INF, dn: 0, len: NO_LEN, ddepth: depth, ph: all_hand_pieces(pos), rep: NO_REP };
        }

        let base = self.b.children.len();
        gen_node_moves(pos, or_node, &mut self.scratch, &mut self.b.children);
        let n = self.b.children.len() - base;
        if n == 0 {
            let r = if or_node {
                let dh = or_disproof_hand_adjust(pos, all_hand_pieces(pos));
                self.tt.store_disproof(key, dh, DEPTH_INF, 1);
                Res { pn: INF, dn: 0, len: NO_LEN, ddepth: DEPTH_INF, ph: dh, rep: NO_REP }
            } else {
                let ph = and_proof_hand_adjust(pos, Hand::EMPTY);
                self.tt.store_proof(key, ph, 0, 1);
                Res { pn: 0, dn: INF, len: 0, ddepth: 0, ph, rep: NO_REP }
            };
            return r;
        }
        if !or_node && depth < 2 {
            self.b.children.truncate(base);
            // Not mated yet and no time to mate. With a bigger attacker hand the
            // defender might lack its interposing pieces, so only a check that cannot
            // be blocked frees the hand.
            let dh = if check_is_blockable(pos) { hand } else { all_hand_pieces(pos) };
            return Res { pn: INF, dn: 0, len: NO_LEN, ddepth: depth, ph: dh, rep: NO_REP };
        }

        // Initialise the children from the table (and the path, for repetitions).
        let cdepth = depth - 1;
        for i in base..base + n {
            let m = self.b.children[i].m;
            let ck = board_key_after(pos, m, self.salt);
            let chand = if or_node { hand_after_attack(pos, hand, m) } else { hand };
            let r = match self.find_repetition(ck, chand) {
                Some(p) => Res { pn: INF, dn: 0, len: NO_LEN, ddepth: DEPTH_INF, ph: chand, rep: p },
                None => self.tt.probe(ck, chand, cdepth),
            };
            let c = &mut self.b.children[i];
            c.key = ck;
            c.hand = chand;
            c.r = r;
        }

        self.push_path(key, hand);
        let mut res;
        loop {
            res = self.evaluate(pos, base, n, or_node, ply, hand);
            if res.pn >= th_pn || res.dn >= th_dn || self.aborted {
                break;
            }
            // Select the most promising child and the runner-up.
            let (best, second) = self.select(base, n, or_node);
            let c = self.b.children[best];
            let (cth_pn, cth_dn) = if or_node {
                let others = res.dn.saturating_sub(c.r.dn);
                (th_pn.min(eps_threshold(second)), if th_dn >= INF { INF } else { th_dn - others.min(th_dn - 1) })
            } else {
                let others = res.pn.saturating_sub(c.r.pn);
                (if th_pn >= INF { INF } else { th_pn - others.min(th_pn - 1) }, th_dn.min(eps_threshold(second)))
            };
            pos.do_move(c.m);
            let r = self.mid(pos, cth_pn, cth_dn, ply + 1, cdepth, !or_node);
            pos.undo_move(c.m);
            self.b.children[best].r = r;
        }
        self.pop_path();

        let amount = (self.nodes - start_nodes).min(u32::MAX as u64) as u32;
        if !self.aborted || res.pn == 0 || res.dn == 0 {
            if res.pn == 0 {
                self.tt.store_proof(key, res.ph, res.len, amount);
            } else if res.dn == 0 {
                if res.rep == NO_REP {
                    self.tt.store_disproof(key, res.ph, res.ddepth, amount);
                }
            } else {
                self.tt.store_unknown(key, hand, res.pn, res.dn, amount);
            }
        }
        self.b.children.truncate(base);
        res
    }

    /// The node's value from its children's.
    #[inline]
    fn evaluate(&self, pos: &Position, base: usize, n: usize, or_node: bool, ply: u16, hand: Hand) -> Res {
        let ch = &self.b.children[base..base + n];
        if or_node {
            let mut pn = INF;
            let mut dn: u32 = 0;
            let mut best_len = NO_LEN;
            let mut best_i = usize::MAX;
            for (i, c) in ch.iter().enumerate() {
                pn = pn.min(c.r.pn);
                dn = dn.saturating_add(c.r.dn);
                if c.r.pn == 0 && c.r.len < best_len {
                    best_len = c.r.len;
                    best_i = i;
                }
            }
            if best_i != usize::MAX {
                // Proved: proof hand of the child, plus the dropped piece, minus the capture.
                let c = &ch[best_i];
                let mut ph = c.r.ph;
                if c.m.is_drop() {
                    ph.add(c.m.drop_piece());
                } else if let Some(pt) = captured_kind(pos, c.m) {
                    if ph.count(pt) > 0 {
                        ph.remove(pt);
                    }
                }
                let ph = hand_min(ph, hand);
                return Res { pn: 0, dn: INF, len: best_len.saturating_add(1), ddepth: 0, ph, rep: NO_REP };
            }
            if dn == 0 {
                // Disproved: every check fails.
                let mut dh = all_hand_pieces(pos);
                let mut dd = DEPTH_INF;
                let mut rep = NO_REP;
                for c in ch {
                    let mut h = c.r.ph;
                    if c.m.is_drop() {
                        h.add(c.m.drop_piece());
                    } else if let Some(pt) = captured_kind(pos, c.m) {
                        if h.count(pt) > 0 {
                            h.remove(pt);
                        }
                    }
                    dh = hand_min(dh, h);
                    dd = dd.min(if c.r.ddepth == DEPTH_INF { DEPTH_INF } else { c.r.ddepth + 1 });
                    rep = rep.min(c.r.rep);
                }
                if rep != NO_REP && rep >= ply {
                    rep = NO_REP;
                }
                let dh = if rep == NO_REP { or_disproof_hand_adjust(pos, dh) } else { hand };
                return Res { pn: INF, dn: 0, len: NO_LEN, ddepth: dd, ph: dh, rep };
            }
            Res::unknown(pn, dn.min(INF_M1))
        } else {
            let mut pn: u32 = 0;
            let mut dn = INF;
            let mut dis_i = usize::MAX;
            for (i, c) in ch.iter().enumerate() {
                pn = pn.saturating_add(c.r.pn);
                dn = dn.min(c.r.dn);
                if c.r.dn == 0 {
                    // Prefer a path-independent disproof, then the deepest one.
                    let better = match ch.get(dis_i) {
                        None => true,
                        Some(d) => {
                            (c.r.rep == NO_REP && d.r.rep != NO_REP)
                                || (c.r.rep == NO_REP) == (d.r.rep == NO_REP) && c.r.ddepth > d.r.ddepth
                        }
                    };
                    if better {
                        dis_i = i;
                    }
                }
            }
            if let Some(c) = ch.get(dis_i) {
                let dd = if c.r.ddepth == DEPTH_INF { DEPTH_INF } else { c.r.ddepth + 1 };
                let mut rep = c.r.rep;
                if rep != NO_REP && rep >= ply {
                    rep = NO_REP;
                }
                let mut dh = if rep == NO_REP { c.r.ph } else { hand };
                if c.m.is_drop() {
                    // The refutation drops a piece: the defender must keep one, so the
                    // attacker may not hold more of that kind than now.
                    let pt = c.m.drop_piece();
                    dh.set(pt, dh.count(pt).min(hand.count(pt)));
                }
                return Res { pn: INF, dn: 0, len: NO_LEN, ddepth: dd, ph: dh, rep };
            }
            if pn == 0 {
                let mut ph = Hand::EMPTY;
                let mut len = 0u16;
                for c in ch {
                    ph = hand_max(ph, c.r.ph);
                    len = len.max(c.r.len);
                }
                let ph = and_proof_hand_adjust(pos, ph);
                return Res { pn: 0, dn: INF, len: len.saturating_add(1), ddepth: 0, ph, rep: NO_REP };
            }
            Res::unknown(pn.min(INF_M1), dn)
        }
    }

    /// Index of the child to search and the runner-up's number (pn at OR, dn at AND).
    #[inline]
    fn select(&self, base: usize, n: usize, or_node: bool) -> (usize, u32) {
        let mut best = base;
        let mut best_v = INF + 1;
        let mut best_o = 0u32;
        let mut second = INF;
        for i in base..base + n {
            let r = &self.b.children[i].r;
            let (v, o) = if or_node { (r.pn, r.dn) } else { (r.dn, r.pn) };
            // Ties: prefer the child that is harder for the other side to refute.
            if v < best_v || (v == best_v && o > best_o) {
                second = second.min(best_v);
                best = i;
                best_v = v;
                best_o = o;
            } else if v < second {
                second = v;
            }
        }
        (best, second.min(INF))
    }
}

// ---------------------------------------------------------------------------
// The solver front end: proof, shortest mate, solution line
// ---------------------------------------------------------------------------

/// A reusable tsume solver (owns its transposition table).
pub struct Solver {
    tt: MateTable,
    /// Nodes the current phase may still spend over all its searches.
    budget: u64,
    bufs: Buffers,
    /// Statistics of the last call.
    pub stats: Stats,
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
        Solver { tt: MateTable::new(hash_mb), budget: u64::MAX, bufs: Buffers::default(), stats: Stats::default() }
    }

    /// A solver with a small table fit for `max_nodes`-node probes.
    pub fn for_nodes(max_nodes: u64) -> Solver {
        Solver { tt: MateTable::with_entries((max_nodes as usize).saturating_mul(2)), budget: u64::MAX, bufs: Buffers::default(), stats: Stats::default() }
    }

    /// Is there a mate within `depth` plies (`or_node`: attacker to move)?
    fn ask(&mut self, pos: &mut Position, depth: u16, or_node: bool, stop: &AtomicBool, deadline: Option<Instant>, max_nodes: u64) -> Answer {
        let bufs = std::mem::take(&mut self.bufs);
        let mut s = Search::new(&mut self.tt, bufs, stop, deadline, max_nodes.min(self.budget));
        let r = s.run(pos, depth, or_node);
        self.bufs = std::mem::take(&mut s.b);
        self.stats.nodes += s.nodes;
        self.budget = self.budget.saturating_sub(s.nodes);
        if r.pn == 0 {
            Answer::Yes(r.len)
        } else if r.dn == 0 && r.rep == NO_REP {
            Answer::No
        } else if r.dn == 0 {
            // Cannot happen at a root (its own repetitions resolve there); be safe.
            Answer::Unknown
        } else {
            Answer::Unknown
        }
    }

    /// Solves `pos` (attacker = side to move) within the limits.
    pub fn solve(&mut self, pos: &Position, time_limit: Option<Duration>, stop: &AtomicBool, max_nodes: u64) -> MateResult {
        let start = Instant::now();
        self.stats = Stats::default();
        self.budget = u64::MAX;
        let deadline = time_limit.map(|t| start + t);
        let mut p = pos.clone();
        let res = match self.ask(&mut p, MAX_PLY, true, stop, deadline, max_nodes) {
            Answer::No => MateResult::NoMate,
            Answer::Unknown => MateResult::Timeout,
            Answer::Yes(len) => {
                // Post-processing (shortest mate, best defence) gets what is left of the
                // time plus a small grace, and falls back on the table's line.
                let grace = time_limit.map(|t| (t / 5).min(Duration::from_millis(300)));
                let post_deadline = match (deadline, grace) {
                    (Some(d), Some(g)) => Some(d.max(Instant::now()) + g),
                    _ => None,
                };
                // Without a deadline, bound the polishing by the proof's own effort.
                self.stats.proof_nodes = self.stats.nodes;
                self.budget = self.stats.nodes.saturating_mul(8).max(4_000_000);
                let line = self.solution(&mut p, len, stop, post_deadline, max_nodes);
                if line.is_empty() {
                    MateResult::Timeout
                } else {
                    MateResult::Mate(line)
                }
            }
        };
        self.stats.seconds = start.elapsed().as_secs_f64();
        res
    }

    /// Shortest mate and its best defence, starting from a proof of length `len`.
    fn solution(&mut self, pos: &mut Position, len: u16, stop: &AtomicBool, deadline: Option<Instant>, max_nodes: u64) -> Vec<Move> {
        let mut len = len;
        let mut exact = true;
        while len >= 3 {
            match self.ask(pos, len - 2, true, stop, deadline, max_nodes) {
                Answer::Yes(l) => len = l,
                Answer::No => break,
                Answer::Unknown => {
                    exact = false;
                    break;
                }
            }
        }
        let mut ctx = PvCtx { stop, deadline, max_nodes, budget: 64, failed: false };
        if exact {
            let mut line = Vec::new();
            if self.pv_or(pos, len, &mut ctx, &mut line) && !ctx.failed {
                self.stats.exact = true;
                return line;
            }
        }
        self.greedy_line(pos, stop, max_nodes)
    }

    /// Appends the best line from an OR node whose exact mate length is `len`.
    fn pv_or(&mut self, pos: &mut Position, len: u16, ctx: &mut PvCtx, line: &mut Vec<Move>) -> bool {
        let mut list = MoveList::new();
        let mut kids = Vec::new();
        gen_node_moves(pos, true, &mut list, &mut kids);
        // Moves the table already proves within len-1 first.
        let hand = pos.hand(pos.side_to_move());
        kids.sort_by_key(|c| {
            let r = self.tt.probe(board_key_after(pos, c.m, key_salt(pos, pos.side_to_move())), hand_after_attack(pos, hand, c.m), len - 1);
            if r.pn == 0 {
                r.len as u32
            } else {
                1000 + r.pn.min(1 << 20)
            }
        });
        for c in kids {
            pos.do_move(c.m);
            let a = self.ask(pos, len - 1, false, ctx.stop, ctx.deadline, ctx.max_nodes);
            let ok = match a {
                Answer::Yes(_) => {
                    line.push(c.m);
                    self.pv_and(pos, len - 1, ctx, line)
                }
                Answer::No => false,
                Answer::Unknown => {
                    ctx.failed = true;
                    false
                }
            };
            pos.undo_move(c.m);
            if ok {
                return true;
            }
            if ctx.failed {
                return false;
            }
        }
        false
    }

    /// Appends the best defence line from an AND node whose exact value is `len`.
    fn pv_and(&mut self, pos: &mut Position, len: u16, ctx: &mut PvCtx, line: &mut Vec<Move>) -> bool {
        let mut list = MoveList::new();
        let mut kids = Vec::new();
        gen_node_moves(pos, false, &mut list, &mut kids);
        if kids.is_empty() {
            return len == 0;
        }
        if len < 2 {
            return false;
        }
        // The longest defences are those not mated within len-3.
        let mut cands = Vec::new();
        for c in &kids {
            if len < 4 {
                cands.push(c.m);
                continue;
            }
            pos.do_move(c.m);
            let a = self.ask(pos, len - 3, true, ctx.stop, ctx.deadline, ctx.max_nodes);
            pos.undo_move(c.m);
            match a {
                Answer::Yes(_) => {}
                Answer::No => cands.push(c.m),
                Answer::Unknown => {
                    ctx.failed = true;
                    return false;
                }
            }
        }
        if cands.is_empty() {
            return false;
        }
        // Among equally long defences, the one leaving the attacker the fewest pieces
        // in hand at the end (it used the most); evaluated while the budget lasts.
        let attacker = pos.side_to_move().flip();
        let mut best: Option<(u32, Vec<Move>)> = None;
        for (k, &m) in cands.iter().enumerate() {
            if k > 0 && ctx.budget == 0 {
                break;
            }
            ctx.budget = ctx.budget.saturating_sub(1);
            let mut sub = vec![m];
            pos.do_move(m);
            let ok = self.pv_or(pos, len - 1, ctx, &mut sub);
            let left = if ok {
                let mut q = pos.clone();
                for &mm in &sub[1..] {
                    q.do_move(mm);
                }
                hand_total(q.hand(attacker))
            } else {
                u32::MAX
            };
            pos.undo_move(m);
            if ctx.failed {
                return false;
            }
            if ok && best.as_ref().is_none_or(|(b, _)| left < *b) {
                best = Some((left, sub));
            }
        }
        match best {
            Some((_, sub)) => {
                line.extend(sub);
                true
            }
            None => false,
        }
    }

    /// A mating line read from the table (proved children), used when the exact
    /// extraction could not finish in time. Always a legal line of checks ending in mate
    /// when it returns a non-empty line.
    fn greedy_line(&mut self, pos: &mut Position, stop: &AtomicBool, max_nodes: u64) -> Vec<Move> {
        let never = AtomicBool::new(false);
        let _ = stop;
        self.budget = u64::MAX;
        let mut line = Vec::new();
        let mut p = pos.clone();
        let mut or_node = true;
        let budget = max_nodes.min(200_000);
        for _ in 0..MAX_PLY {
            let mut list = MoveList::new();
            let mut kids = Vec::new();
            gen_node_moves(&p, or_node, &mut list, &mut kids);
            if kids.is_empty() {
                break;
            }
            let attacker = if or_node { p.side_to_move() } else { p.side_to_move().flip() };
            let hand = p.hand(attacker);
            let mut pick: Option<(Move, u16)> = None;
            for c in &kids {
                let ch = if or_node { hand_after_attack(&p, hand, c.m) } else { hand };
                let mut r = self.tt.probe(board_key_after(&p, c.m, key_salt(&p, attacker)), ch, MAX_PLY);
                if r.pn != 0 && !or_node {
                    // Unknown defence: settle it with a bounded search.
                    p.do_move(c.m);
                    if let Answer::Yes(l) = self.ask(&mut p, MAX_PLY, true, &never, None, budget) {
                        r.pn = 0;
                        r.len = l;
                    }
                    p.undo_move(c.m);
                }
                if r.pn == 0 {
                    let better = match pick {
                        None => true,
                        Some((_, l)) => (or_node && r.len < l) || (!or_node && r.len > l),
                    };
                    if better {
                        pick = Some((c.m, r.len));
                    }
                }
            }
            if pick.is_none() && or_node {
                // The table lost this part of the proof: find a mating check again.
                for c in &kids {
                    p.do_move(c.m);
                    let a = self.ask(&mut p, MAX_PLY, false, &never, None, budget);
                    p.undo_move(c.m);
                    if let Answer::Yes(l) = a {
                        pick = Some((c.m, l));
                        break;
                    }
                }
            }
            let Some((m, _)) = pick else { break };
            line.push(m);
            p.do_move(m);
            or_node = !or_node;
        }
        // Only a line that really ends in mate is an answer.
        let mated = p.in_check() && movegen::legal_moves(&p).is_empty();
        if mated && line.len() % 2 == 1 {
            line
        } else {
            Vec::new()
        }
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
        let depth = 64u16.min(MAX_PLY);
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
                let r = self.tt.probe(board_key_after(p, c.m, key_salt(p, p.side_to_move())), hand_after_attack(p, hand, c.m), depth - 1);
                (r.pn == 0).then_some((r.len, c.m))
            })
            .min_by_key(|&(l, _)| l)
            .map(|(l, m)| (m, l.saturating_add(1)))
    }
}

struct PvCtx<'a> {
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    max_nodes: u64,
    /// Remaining full evaluations of tied defences.
    budget: u32,
    failed: bool,
}

// ---------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------

/// Solves `pos` (attacker = side to move) within `time_limit` (None = infinite), polling `stop`.
pub fn solve(pos: &Position, time_limit: Option<Duration>, stop: &AtomicBool, hash_mb: usize) -> MateResult {
    solve_with_stats(pos, time_limit, stop, hash_mb).0
}

/// Like `solve`, also returning the search statistics.
pub fn solve_with_stats(pos: &Position, time_limit: Option<Duration>, stop: &AtomicBool, hash_mb: usize) -> (MateResult, Stats) {
    let mut solver = Solver::new(hash_mb);
    let r = solver.solve_deep(pos, time_limit, stop);
    (r, solver.stats)
}

impl Solver {
    /// `solve` on a helper thread with a large stack (deep problems recurse deeply).
    pub fn solve_deep(&mut self, pos: &Position, time_limit: Option<Duration>, stop: &AtomicBool) -> MateResult {
        let r = std::thread::scope(|s| {
            let h = std::thread::Builder::new()
                .stack_size(512 << 20)
                .spawn_scoped(s, || self.solve(pos, time_limit, stop, u64::MAX));
            match h {
                Ok(h) => h.join().ok(),
                Err(_) => None,
            }
        });
        r.unwrap_or(MateResult::Timeout)
    }
}

/// Quick bounded mate probe for the normal search: a mating first move if a mate is proved within `max_nodes`.
pub fn quick_mate(pos: &Position, max_nodes: u64) -> Option<Move> {
    Solver::for_nodes(max_nodes).quick_mate(pos, max_nodes)
}
