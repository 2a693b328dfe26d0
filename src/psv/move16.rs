//! YaneuraOu's 16-bit move encoding used in PackedSfenValue: bits 0-6 the destination
//! square, bits 7-13 the origin square or, for a drop, the dropped kind (pawn 1 ...
//! gold 7), bit 14 set for a drop, bit 15 set for a promotion. 0 is "no move".

use crate::core::types::{Move, PieceType, Square};

const DROP: u16 = 1 << 14;
const PROMOTE: u16 = 1 << 15;

/// The YaneuraOu encoding of `m` (0 for `Move::NONE` or the null move).
pub fn to_move16(m: Move) -> u16 {
    if !m.is_ok() {
        return 0;
    }
    let to = m.to().index() as u16;
    if m.is_drop() {
        to | (m.drop_piece() as u16) << 7 | DROP
    } else {
        to | (m.from().index() as u16) << 7 | if m.is_promotion() { PROMOTE } else { 0 }
    }
}

/// The move encoded by `v`, or `None` for 0 or a code no move has (legality in a
/// position is for the caller to check).
pub fn from_move16(v: u16) -> Option<Move> {
    let to = Square::try_from_index((v & 0x7f) as usize)?;
    let from = ((v >> 7) & 0x7f) as usize;
    if v & DROP != 0 {
        let pt = PieceType::from_index(from).filter(|&p| p != PieceType::King && !p.is_promoted())?;
        if v & PROMOTE != 0 {
            return None;
        }
        return Some(Move::drop(pt, to));
    }
    let from = Square::try_from_index(from).filter(|&f| f != to)?;
    Some(Move::normal(from, to, v & PROMOTE != 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_cshogi() {
        // Values from cshogi 1.1.0: move16_to_psv(move16(board.move_from_usi(...))).
        for (usi, code) in [("7g7f", 0x1e3b), ("8h2b+", 0xa30a), ("B*4e", 0x429f)] {
            let m = Move::from_usi(usi).unwrap();
            assert_eq!(to_move16(m), code, "{usi}");
            assert_eq!(from_move16(code), Some(m), "{usi}");
        }
    }

    #[test]
    fn impossible_codes_are_refused() {
        assert_eq!(from_move16(0), None);
        assert_eq!(from_move16(81), None); // to off the board
        assert_eq!(from_move16(DROP | 8 << 7 | 40), None); // king drop
        assert_eq!(from_move16(DROP | PROMOTE | 1 << 7 | 40), None);
        assert_eq!(from_move16(90 << 7 | 40), None); // from off the board
    }
}
