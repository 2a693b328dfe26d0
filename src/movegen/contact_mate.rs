//! Mate by a contact check, read off the attack bitboards without making the move.
//!
//! A check from a square next to the king, or a knight's check, cannot be blocked: the
//! defender must take the checking piece or step the king away. Whether either is
//! possible follows from the attacks of the position after the move, which are found
//! from the position before it with the moved piece's two squares corrected. This is
//! YaneuraOu's `mate_1ply` idea in its simplest form; the search asks it at most nodes
//! (the quiescence search included), so it must be cheap. Uses `position` and `core`.

use super::{push_piece_moves, CheckInfo, MoveList};
use crate::core::attacks::{king_attacks, knight_attacks, line_through, piece_attacks};
use crate::core::bitboard::Bitboard;
use crate::core::types::{Color, Move, PieceType, Square};
use crate::position::Position;

/// The pieces a drop may mate with, the strongest first (a pawn drop may not mate).
const DROPPERS: [PieceType; 6] =
    [PieceType::Rook, PieceType::Bishop, PieceType::Gold, PieceType::Silver, PieceType::Lance, PieceType::Knight];

/// A mate in one by a contact check of the side to move (not in check): drops first,
/// then board moves, the first found. Checks from a distance and discovered checks are
/// not tried. `ci` is the side to move's check information.
pub fn contact_mate_in_one(pos: &Position, ci: &CheckInfo) -> Option<Move> {
    let us = pos.side_to_move();
    let them = us.flip();
    if !pos.has_king(them) {
        return None;
    }
    let ksq = ci.enemy_king;
    let near = king_attacks(ksq);
    let knight_squares = ci.check_squares[PieceType::Knight.index()];
    let mut flights = Flights { pos, ksq, open: None };
    if let Some(m) = drop_mate(pos, ci, near | knight_squares, &mut flights) {
        return Some(m);
    }
    // Pinned pieces exist only where the mover has a king.
    let (own_king, pinned) = (pos.king_square(us), pos.pinned());
    let mut list = MoveList::new();
    for to in (near | knight_squares) & !pos.color_pieces(us) {
        let movers = if near.has(to) {
            pos.attackers_to(to, us, pos.occupied()) & !pos.pieces_of(us, PieceType::King)
        } else {
            pos.pieces_of(us, PieceType::Knight) & knight_attacks(them, to)
        };
        for from in movers {
            if pinned.has(from) && !line_through(own_king, from).has(to) {
                continue;
            }
            let moved = pos.piece_on(from).kind();
            // Leaving `from` may uncover a slider's attack only on squares in line with it.
            let occ = pos.occupied().without(from).without(ksq) | Bitboard::from_square(to);
            list.clear();
            push_piece_moves(&mut list, us, moved, from, Bitboard::from_square(to), false);
            for &m in list.iter() {
                let kind = if m.is_promotion() { moved.promote() } else { moved };
                let escape = flights.open().without(to) & !piece_attacks(us, kind, to, occ);
                if escape.into_iter().all(|f| line_through(from, f).any()) && contact_check_mates(pos, m) == Some(true) {
                    return Some(m);
                }
            }
        }
    }
    None
}

/// The enemy king's flights before the move: squares next to it, free of its own
/// pieces and attacked by nothing of the mover's. Found once, when first asked.
struct Flights<'a> {
    pos: &'a Position,
    ksq: Square,
    open: Option<Bitboard>,
}

impl Flights<'_> {
    fn open(&mut self) -> Bitboard {
        let (pos, ksq) = (self.pos, self.ksq);
        *self.open.get_or_insert_with(|| {
            let us = pos.side_to_move();
            let occ_no_king = pos.occupied().without(ksq);
            let candidates = king_attacks(ksq) & !pos.color_pieces(us.flip());
            candidates.into_iter().filter(|&f| !pos.is_attacked(f, us, occ_no_king)).fold(Bitboard::EMPTY, |b, f| b | Bitboard::from_square(f))
        })
    }
}

/// A drop from the hand of the side to move onto a square of `contact` that mates.
fn drop_mate(pos: &Position, ci: &CheckInfo, contact: Bitboard, flights: &mut Flights) -> Option<Move> {
    let us = pos.side_to_move();
    let hand = pos.hand(us);
    let empty = !pos.occupied();
    let occ_no_king = pos.occupied().without(ci.enemy_king);
    for pt in DROPPERS {
        if !hand.has(pt) {
            continue;
        }
        for to in ci.check_squares[pt.index()] & contact & empty {
            // A drop only adds the dropped piece's attacks: a flight it does not cover stays open.
            let covered = piece_attacks(us, pt, to, occ_no_king | Bitboard::from_square(to));
            if (flights.open().without(to) & !covered).any() {
                continue;
            }
            let m = Move::drop(pt, to);
            if contact_check_mates(pos, m) == Some(true) {
                return Some(m);
            }
        }
    }
    None
}

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
