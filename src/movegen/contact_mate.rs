//! Mate by a contact check, read off the attack bitboards without making the move.
//!
//! A check from a square next to the king, or a knight's check, cannot be blocked: the
//! defender must take the checking piece or step the king away. Whether either is
//! possible follows from the attacks of the position after the move, which are found
//! from the position before it with the moved piece's two squares corrected. This is
//! YaneuraOu's `mate_1ply` idea in its simplest form; the search asks it for every
//! check next to the enemy king, so it must be cheap. Uses `position` and `core`.

use crate::core::attacks::{king_attacks, piece_attacks};
use crate::core::bitboard::Bitboard;
use crate::core::types::{Color, Move, PieceType, Square};
use crate::position::Position;

/// Whether the legal move `m` of the side to move mates at once, when that can be read
/// from the attacks: `m` checks from a square next to the king (or as a knight), and
/// uncovers no second check. `None` when `m` is not such a check (no check, a check
/// from a distance, a discovered check): make the move and look for evasions then.
/// A pawn drop that mates is illegal (uchifuzume): the caller must not pass one.
pub fn contact_check_mates(pos: &Position, m: Move) -> Option<bool> {
    let us = pos.side_to_move();
    let them = us.flip();
    if !pos.has_king(them) {
        return None;
    }
    let ksq = pos.king_square(them);
    let to = m.to();
    let (left, kind) = if m.is_drop() {
        (Bitboard::EMPTY, m.drop_piece())
    } else {
        let kind = pos.piece_on(m.from()).kind();
        (Bitboard::from_square(m.from()), if m.is_promotion() { kind.promote() } else { kind })
    };
    let occ = (pos.occupied() & !left) | Bitboard::from_square(to);
    let contact = king_attacks(ksq).has(to) || kind == PieceType::Knight;
    if !contact || !piece_attacks(us, kind, to, occ).has(ksq) {
        return None;
    }
    // The position's bitboards still show the moved piece on the square it left.
    if (pos.slider_attacks_to(ksq, us, occ) & !left).any() {
        return None;
    }
    Some(mated_by_contact_check(pos, us, to, kind, left, occ))
}

/// Whether the defender (not `us`) is mated after `us` put a `kind` on `to`, checking
/// its king from next to it (or as a knight) and alone. `left` is the square the piece
/// came from (empty for a drop), `occ` the occupancy after the move.
pub(super) fn mated_by_contact_check(pos: &Position, us: Color, to: Square, kind: PieceType, left: Bitboard, occ: Bitboard) -> bool {
    let them = us.flip();
    let ksq = pos.king_square(them);
    let occ_no_king = occ.without(ksq);
    let guarded = |sq: Square| (pos.attackers_to(sq, us, occ_no_king) & !left).any();
    // The king takes an unguarded checker (the most common answer, so asked first).
    let flights = king_attacks(ksq) & !pos.color_pieces(them).without(to);
    if flights.has(to) && !guarded(to) {
        return false;
    }
    // A defender other than the king takes the checker, unless that exposes its king.
    for capturer in pos.attackers_to(to, them, occ).without(ksq) {
        if (pos.slider_attacks_to(ksq, us, occ.without(capturer)) & !left).is_empty() {
            return false;
        }
    }
    // The king steps to a square neither the checker nor anything else attacks.
    let checker_covers = piece_attacks(us, kind, to, occ_no_king);
    !(flights.without(to) & !checker_covers).into_iter().any(|flight| !guarded(flight))
}
