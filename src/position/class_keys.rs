//! Zobrist keys of parts of the position, kept up to date move by move beside the full
//! key: the pawns on the board, the minor pieces (lances, knights, silvers, golds and
//! the pieces that move like gold), and each side's other pieces with its hand. The
//! search's correction histories are indexed by them (Stockfish's and YaneuraOu's
//! pawn, minor-piece and non-pawn keys, with shogi's hands put to their owner's).
//! Uses `core` only.

use crate::core::types::{Color, Piece, PieceType, Square};
use crate::core::zobrist;

/// The part keys of one position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassKeys {
    /// Unpromoted pawns on the board, both sides.
    pub pawn: u64,
    /// Lances, knights, silvers, golds and promoted pawns, lances, knights and silvers
    /// on the board, both sides.
    pub minor: u64,
    /// Every piece of one side on the board but its pawns, and its hand.
    pub non_pawn: [u64; 2],
}

impl ClassKeys {
    /// Toggles `pc` on `sq` in the keys it belongs to.
    #[inline(always)]
    pub fn toggle_piece(&mut self, pc: Piece, sq: Square) {
        let k = zobrist::piece_key(pc, sq);
        let kind = pc.kind();
        if kind == PieceType::Pawn {
            self.pawn ^= k;
            return;
        }
        if is_minor(kind) {
            self.minor ^= k;
        }
        self.non_pawn[pc.color().index()] ^= k;
    }

    /// Changes `c`'s count of `pt` in hand from `before` to `after`.
    #[inline(always)]
    pub fn change_hand(&mut self, c: Color, pt: PieceType, before: u32, after: u32) {
        self.non_pawn[c.index()] ^= zobrist::hand_key(c, pt, before) ^ zobrist::hand_key(c, pt, after);
    }
}

/// Whether a piece of `kind` counts as a minor piece.
#[inline(always)]
fn is_minor(kind: PieceType) -> bool {
    !matches!(kind, PieceType::Pawn | PieceType::Bishop | PieceType::Rook | PieceType::King | PieceType::Horse | PieceType::Dragon)
}
