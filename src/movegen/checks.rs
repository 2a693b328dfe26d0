//! Check detection (`CheckInfo`: which squares and which discovered lines give check)
//! and the generator of every checking move used by the mate solver.
//! Uses `core`, `position` and the generators of `movegen`.

use super::{gen_drops, gen_evasions, gen_king_moves, gen_moves_of, MoveList};
use crate::core::attacks::*;
use crate::core::bitboard::Bitboard;
use crate::core::types::{Move, PieceType, Square};
use crate::position::Position;

/// Every legal move that gives check (captures, promotions, non-promotions, quiet
/// moves, discovered checks and drops; evasions that check when in check). Used by
/// the tsume solver, which needs them all.
pub fn generate_checks(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let ci = CheckInfo::new(pos);
    let mut tmp = MoveList::new();
    if pos.in_check() {
        gen_evasions(pos, us, true, &mut tmp);
    } else {
        let own = pos.color_pieces(us);
        let mut any_cs = Bitboard::EMPTY;
        for pt in PieceType::ALL {
            if pt != PieceType::King {
                any_cs |= ci.check_squares[pt.index()];
            }
        }
        let disc = ci.discoverers;
        // Direct checks: the piece (promoted or not) lands on a checking square.
        gen_moves_of(pos, us, !disc, any_cs & !own, true, &mut tmp);
        // Discovered checks: any move of a blocker off the line.
        if disc.any() {
            gen_moves_of(pos, us, disc, !own, true, &mut tmp);
            if disc.has(pos.king_square(us)) {
                gen_king_moves(pos, us, !own, &mut tmp);
            }
        }
        let mut drop_cs = Bitboard::EMPTY;
        for pt in PieceType::HAND {
            if pos.hand(us).has(pt) {
                drop_cs |= ci.check_squares[pt.index()];
            }
        }
        gen_drops(pos, us, drop_cs & !pos.occupied(), &mut tmp);
    }
    for &m in tmp.iter() {
        if ci.gives_check(pos, m) {
            list.push(m);
        }
    }
}

/// What a side needs to know to tell quickly whether a move gives check.
pub struct CheckInfo {
    /// For each piece type, squares from which a piece of the mover attacks the enemy king.
    pub check_squares: [Bitboard; PieceType::NUM],
    /// Mover's pieces whose departure uncovers a slider attack on the enemy king.
    pub discoverers: Bitboard,
    /// The enemy king's square.
    pub enemy_king: Square,
}

impl CheckInfo {
    /// Check information for the side to move in `pos`.
    pub fn new(pos: &Position) -> CheckInfo {
        let us = pos.side_to_move();
        let them = us.flip();
        let ek = pos.king_square(them);
        let occ = pos.occupied();
        let mut cs = [Bitboard::EMPTY; PieceType::NUM];
        cs[PieceType::Pawn.index()] = pawn_attacks(them, ek);
        cs[PieceType::Lance.index()] = lance_attacks(them, ek, occ);
        cs[PieceType::Knight.index()] = knight_attacks(them, ek);
        cs[PieceType::Silver.index()] = silver_attacks(them, ek);
        let gold = gold_attacks(them, ek);
        for pt in [PieceType::Gold, PieceType::ProPawn, PieceType::ProLance, PieceType::ProKnight, PieceType::ProSilver] {
            cs[pt.index()] = gold;
        }
        cs[PieceType::Bishop.index()] = bishop_attacks(ek, occ);
        cs[PieceType::Rook.index()] = rook_attacks(ek, occ);
        cs[PieceType::Horse.index()] = cs[PieceType::Bishop.index()] | king_attacks(ek);
        cs[PieceType::Dragon.index()] = cs[PieceType::Rook.index()] | king_attacks(ek);
        if !pos.has_king(them) {
            return CheckInfo { check_squares: [Bitboard::EMPTY; PieceType::NUM], discoverers: Bitboard::EMPTY, enemy_king: ek };
        }
        let (blockers, _) = pos.slider_blockers(them, ek);
        CheckInfo { check_squares: cs, discoverers: blockers & pos.color_pieces(us), enemy_king: ek }
    }

    /// Whether the legal move `m` gives check.
    #[inline]
    pub fn gives_check(&self, pos: &Position, m: Move) -> bool {
        let to = m.to();
        if m.is_drop() {
            return self.check_squares[m.drop_piece().index()].has(to);
        }
        let from = m.from();
        let pt = pos.piece_on(from).kind();
        let moved = if m.is_promotion() { pt.promote() } else { pt };
        if self.check_squares[moved.index()].has(to) {
            // Lance/rook/bishop check squares were computed with the mover still on
            // `from`; a slider moving along the line towards the king is still fine
            // because `from` lies behind `to` as seen from the king.
            return true;
        }
        if self.discoverers.has(from) && !line_through(self.enemy_king, from).has(to) {
            return true;
        }
        false
    }
}
