//! Key and hand arithmetic of the mate solver: hand minimum, maximum and sum, the
//! board key after a move, and the salt that lets one table serve many problems (by
//! attacker and pieces in play). Uses `core` and `position`.

use super::*;

// ---------------------------------------------------------------------------
// Hand helpers
// ---------------------------------------------------------------------------

#[inline]
pub(super) fn hand_min(a: Hand, b: Hand) -> Hand {
    let mut h = Hand::EMPTY;
    for pt in PieceType::HAND {
        h.set(pt, a.count(pt).min(b.count(pt)));
    }
    h
}

#[inline]
pub(super) fn hand_max(a: Hand, b: Hand) -> Hand {
    let mut h = Hand::EMPTY;
    for pt in PieceType::HAND {
        h.set(pt, a.count(pt).max(b.count(pt)));
    }
    h
}

#[inline]
pub(super) fn hand_sum(a: Hand, b: Hand) -> Hand {
    let mut h = Hand::EMPTY;
    for pt in PieceType::HAND {
        h.set(pt, a.count(pt) + b.count(pt));
    }
    h
}

pub(super) fn hand_total(h: Hand) -> u32 {
    PieceType::HAND.iter().map(|&pt| h.count(pt)).sum()
}

/// Hand kind a captured piece turns into, if `m` captures.
#[inline]
pub(super) fn captured_kind(pos: &Position, m: Move) -> Option<PieceType> {
    if m.is_drop() {
        return None;
    }
    pos.piece_on(m.to()).piece_type().map(|pt| pt.unpromote())
}

/// Board key (board + side to move) after `m`, as `do_move` would compute it.
#[inline]
pub(super) fn board_key_after(pos: &Position, m: Move, salt: u64) -> u64 {
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
pub(super) fn attacker_salt(attacker: Color) -> u64 {
    match attacker {
        Color::Black => 0,
        Color::White => 0x9e37_79b9_7f4a_7c14,
    }
}

/// Salt of the table keys for problems with `attacker` attacking in `pos`: the key
/// proper is the board plus the attacker's hand, which fixes the defender's hand only
/// for a given set of pieces in play, so the set (and the attacker) is mixed in.
/// Constant over a search, since moves never change the set of pieces.
pub(super) fn key_salt(pos: &Position, attacker: Color) -> u64 {
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

/// Salt of a search under the composers' conventions (`conventions`), with futility
/// tests of the thoroughness `futility`, or not: the modes give other lengths (a
/// futility test that runs out counts a drop as a real defence), so they keep apart
/// in a shared table.
#[inline]
pub(super) fn mode_salt(salt: u64, conventions: bool, futility: Futility) -> u64 {
    match (conventions, futility) {
        (false, _) => salt,
        (true, Futility::Capped) => salt ^ 0x6a09_e667_f3bc_c908 & !1,
        (true, Futility::Thorough) => salt ^ 0xbb67_ae85_84ca_a73a & !1,
    }
}

/// Table key of the current position under `salt` (see `key_salt`).
#[inline]
pub(super) fn node_key(pos: &Position, salt: u64) -> u64 {
    pos.state().board_key ^ salt
}

/// Attacker's hand after the attacker plays `m`.
#[inline]
pub(super) fn hand_after_attack(pos: &Position, hand: Hand, m: Move) -> Hand {
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
