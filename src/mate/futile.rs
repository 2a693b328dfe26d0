//! Futile interpositions (muda-ai) under the composers' conventions.
//!
//! A drop between a distant checker and the king that the checker simply takes is no
//! defence, and is not counted, when the mate goes on within the same count anyway.
//! The test used here: the position where the checker has moved onto the interposition
//! square (the turn passed, the defender keeping the piece it would have dropped) is
//! mated within the node's budget. The defender keeping the piece makes the test strict:
//! the attacker must mate without the captured piece, as the convention asks. Moved
//! interpositions (a piece on the board stepping in between) are always real defences.
//!
//! Lengths: an AND node's conventional length is the longest of its real defences and
//! of the mates after its futile interpositions are taken (the pair itself uncounted),
//! so a proof of length `L` stays a proof for every budget from `L` up; see
//! `docs/tsume.md`. Uses `dfpn` (the nested searches) and `position`.

use super::*;
use crate::core::bitboard::Bitboard;
use crate::core::types::Square;

/// Nodes one futility test may spend (most futile interpositions are taken and mated
/// at once; a test that needs more counts the interposition as a real defence).
const FUTILITY_NODES: u64 = 500;
/// The same for the thorough tests of `Futility::Thorough`.
const THOROUGH_FUTILITY_NODES: u64 = 10_000;

/// How far the futility tests of a search look. `Capped` is the solver's mode. A test
/// that runs out counts the drop as a real defence, which only lengthens a mate, so
/// the solution length errs on the safe side; but the pieces-to-spare rule (`spare.rs`)
/// looks for a mate that leaves pieces to spare, and one not seen keeps a longer
/// defence, so the answer would depend on what the capped tests saw (on the table's
/// size). It asks in the `Thorough` mode, whose tests may spend more and whose answers
/// the table keeps apart (`mode_salt`), so that no capped disproof answers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Futility {
    Capped,
    Thorough,
}

impl Futility {
    /// Nodes one test may spend.
    fn nodes(self) -> u64 {
        match self {
            Futility::Capped => FUTILITY_NODES,
            Futility::Thorough => THOROUGH_FUTILITY_NODES,
        }
    }
}

/// Slots of the cache of futility tests given up (node limit) in this search.
pub(super) const GAVE_UP_SLOTS: usize = 4096;

/// The legal moves of the piece on `from` to `sq`, promoting first.
pub(super) fn moves_onto(pos: &Position, from: Square, sq: Square) -> impl Iterator<Item = Move> {
    [true, false].map(|p| Move::normal(from, sq, p)).map(|m| movegen::is_legal(pos, m).then_some(m)).into_iter().flatten()
}

/// Calls `f` on the position an interposition on `sq` leaves once the checker takes it,
/// less the captured piece: the checker moved onto `sq` (promoted, then unpromoted,
/// where legal) with the defender to move and still in check. Stops at the first
/// `Some`. `pos` is an AND node in check by one distant slider.
pub(super) fn with_checker_on<T>(pos: &mut Position, sq: Square, mut f: impl FnMut(&mut Position, Move) -> Option<T>) -> Option<T> {
    let checker = pos.checkers().lsb();
    pos.do_null_move();
    let mut out = None;
    for m in moves_onto(pos, checker, sq) {
        pos.do_move(m);
        if pos.in_check() {
            out = f(pos, m);
        }
        pos.undo_move(m);
        if out.is_some() {
            break;
        }
    }
    pos.undo_null_move();
    out
}

impl Dfpn<'_> {
    /// Takes the drops on squares where an interposition is futile out of this AND
    /// node's children (`base..base + *n`, `pos` in check by a distant slider), testing
    /// the squares of the drops that `worth_testing` picks. Returns the proof hand and
    /// the length that the futility proofs need.
    pub(super) fn remove_futile_drops(
        &mut self,
        pos: &mut Position,
        (base, n): (usize, &mut usize),
        (ply, depth): (u16, u16),
        worth_testing: impl Fn(&Child) -> bool,
    ) -> (Hand, u16) {
        let (mut ph, mut len) = (Hand::EMPTY, 0u16);
        let mut squares = Bitboard::EMPTY;
        for c in &self.b.children[base..base + *n] {
            if c.m.is_drop() && worth_testing(c) {
                squares = squares.with(c.m.to());
            }
        }
        let mut futile = Bitboard::EMPTY;
        for sq in squares.iter() {
            if let Some((h, l)) = self.futility_proof(pos, sq, ply, depth) {
                futile = futile.with(sq);
                ph = hand_max(ph, h);
                len = len.max(l);
            }
        }
        // Nested searches have truncated the buffer back to this frame's end.
        let mut i = base;
        while i < base + *n {
            let m = self.b.children[i].m;
            if m.is_drop() && futile.has(m.to()) {
                self.b.children.swap_remove(i);
                *n -= 1;
            } else {
                i += 1;
            }
        }
        (ph, len)
    }

    /// The proof hand and length of the mate after an interposition on `sq` is taken
    /// (see the module doc), if it is mated within `depth`.
    fn futility_proof(&mut self, pos: &mut Position, sq: Square, ply: u16, depth: u16) -> Option<(Hand, u16)> {
        with_checker_on(pos, sq, |p, _| {
            let key = node_key(p, self.salt);
            let hand = p.hand(p.side_to_move().flip());
            if self.find_repetition(key, hand).is_some() {
                return None;
            }
            let r = self.tt.probe(key, hand, depth);
            if r.pn == 0 {
                return Some((r.ph, r.len));
            }
            if r.dn == 0 {
                return None;
            }
            if self.gave_up(key, depth) {
                self.give_ups += 1;
                return None;
            }
            let r = self.nested_and(p, ply, depth);
            if r.pn == 0 {
                Some((r.ph, r.len))
            } else {
                if r.dn != 0 {
                    self.note_gave_up(key, depth);
                    self.give_ups += 1;
                }
                None
            }
        })
    }

    /// Searches the AND node `p` to the end within a node cap of its own.
    fn nested_and(&mut self, p: &mut Position, ply: u16, depth: u16) -> Res {
        let saved = self.max_nodes;
        let cap = self.futility_cap.unwrap_or(self.futility.nodes());
        self.max_nodes = saved.min(self.nodes.saturating_add(cap));
        // `mid` puts the node on the path itself.
        let r = self.mid(p, INF, INF, ply + 1, depth, false);
        self.max_nodes = saved;
        if self.aborted {
            // Only the cap of this test may have run out: the search goes on.
            self.aborted = false;
            self.check_limits();
        }
        r
    }

    fn gave_up_slot(key: u64, depth: u16) -> (usize, u64) {
        let tag = key ^ (depth as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        ((tag >> 40) as usize % GAVE_UP_SLOTS, tag | 1)
    }

    fn gave_up(&self, key: u64, depth: u16) -> bool {
        let (i, tag) = Self::gave_up_slot(key, depth);
        self.b.gave_up[i] == tag
    }

    fn note_gave_up(&mut self, key: u64, depth: u16) {
        let (i, tag) = Self::gave_up_slot(key, depth);
        self.b.gave_up[i] = tag;
    }
}

/// Plays out the futile interpositions left at the end of a conventional mate: while
/// the defender's only evasions are drops between its king and a distant checker, one
/// is dropped next to the king and the checker takes it. Returns the moves (played on
/// `pos`) when that ends in checkmate; otherwise `None` with `pos` as it was.
pub(super) fn futile_tail(pos: &mut Position) -> Option<Vec<Move>> {
    let mut played = Vec::new();
    let mated = loop {
        let evasions = movegen::legal_moves(pos);
        if evasions.is_empty() {
            break pos.in_check();
        }
        if played.len() >= 32 || !evasions.iter().all(|m| m.is_drop()) {
            break false;
        }
        let ksq = pos.king_square(pos.side_to_move());
        let checker = pos.checkers().lsb();
        let Some(&drop) = evasions.iter().min_by_key(|m| between(ksq, m.to()).count()) else { break false };
        pos.do_move(drop);
        played.push(drop);
        let Some(take) = moves_onto(pos, checker, drop.to()).next() else { break false };
        pos.do_move(take);
        played.push(take);
        if !pos.in_check() {
            break false;
        }
    };
    if mated {
        return Some(played);
    }
    for &m in played.iter().rev() {
        pos.undo_move(m);
    }
    None
}
