//! YaneuraOu's input features in Hisha's terms: the BonaPiece numbering (every piece
//! on the board or in hand seen from one side, promoted minor pieces counted as golds,
//! kings apart), the HalfKP index (own king square times BonaPiece) and the K+P index
//! (BonaPiece, then both kings' squares), the active-feature list of a position and the
//! features a move adds and removes. Uses `core` and `position`.

use super::super::features::orient;
use super::FeatureSet;
use crate::core::types::{Color, Move, Piece, PieceType, Square};
use crate::position::Position;

/// BonaPieces of pieces on the board and in hand (`fe_end`): the first 90 are hand
/// slots, then 18 runs of 81 squares (friend and enemy of each board kind).
pub const FE_END: usize = 1548;
/// Pieces other than the kings in an even game: every one of them has a feature, and
/// a missing one (a handicap, a composed problem) counts as BonaPiece 0.
pub const PIECES: usize = 38;
/// Room for the active features of one perspective (38 pieces and two kings).
pub const MAX_ACTIVE: usize = PIECES + 2;

/// First hand slot of each hand kind (by piece type index, P L N S B R G), the
/// friend's and the enemy's: `slot + i` is the (i+1)-th piece held.
const HAND_BASE: [[usize; 2]; 8] = [[0, 0], [1, 20], [39, 44], [49, 54], [59, 64], [79, 82], [85, 88], [69, 74]];

/// First square of each board kind (by piece type index), friend's and enemy's;
/// promoted pawns, lances, knights and silvers count as golds.
const BOARD_BASE: [[usize; 2]; 15] = [
    [0, 0],
    [90, 171],    // pawn
    [252, 333],   // lance
    [414, 495],   // knight
    [576, 657],   // silver
    [900, 981],   // bishop
    [1224, 1305], // rook
    [738, 819],   // gold
    [FE_END, FE_END + 81], // king (K+P only, after the BonaPieces)
    [738, 819],   // promoted pawn
    [738, 819],   // promoted lance
    [738, 819],   // promoted knight
    [738, 819],   // promoted silver
    [1062, 1143], // horse
    [1386, 1467], // dragon
];

/// BonaPiece of `pc` on `sq` seen from `persp` (kings give `FE_END + square`, or
/// `FE_END + 81 + square` for the enemy king).
#[inline(always)]
pub fn board_piece(persp: Color, pc: Piece, sq: Square) -> usize {
    BOARD_BASE[pc.kind().index()][(pc.color() != persp) as usize] + orient(persp, sq)
}

/// BonaPiece of the `nth` (0-based) piece of kind `pt` in `owner`'s hand seen from `persp`.
#[inline(always)]
pub fn hand_piece(persp: Color, owner: Color, pt: PieceType, nth: u32) -> usize {
    HAND_BASE[pt.index()][(owner != persp) as usize] + nth as usize
}

/// The square `persp`'s king stands on, seen from `persp` (a position without that
/// king, a composed problem, uses the home square 5i).
#[inline(always)]
pub fn own_king(pos: &Position, persp: Color) -> usize {
    if pos.has_king(persp) {
        orient(persp, pos.king_square(persp))
    } else {
        44
    }
}

/// Pieces other than the kings that are neither on the board nor in hand (a handicap,
/// a composed problem): YaneuraOu leaves each at BonaPiece 0 in its piece list.
pub fn missing_pieces(pos: &Position) -> usize {
    let kings = Color::ALL.iter().filter(|&&c| pos.has_king(c)).count();
    let mut present = pos.occupied().count() as usize - kings;
    for c in Color::ALL {
        let h = pos.hand(c);
        present += PieceType::HAND.iter().map(|&pt| h.count(pt) as usize).sum::<usize>();
    }
    PIECES.saturating_sub(present)
}

impl FeatureSet {
    /// The input index of BonaPiece `bp` for a perspective whose own king stands on
    /// `king` (relative square). King BonaPieces (`FE_END` and up, K+P only) are their
    /// own index.
    #[inline(always)]
    pub fn piece_index(self, king: usize, bp: usize) -> usize {
        match self {
            _ if bp >= FE_END => bp,
            FeatureSet::HalfKp => king * FE_END + bp,
            FeatureSet::KP => bp,
        }
    }

    /// Writes the active input indices of `persp` in `pos` to `out`; returns how many.
    pub fn active(self, pos: &Position, persp: Color, out: &mut [usize; MAX_ACTIVE]) -> usize {
        let king = own_king(pos, persp);
        let mut n = 0;
        for sq in pos.occupied() {
            let pc = pos.piece_on(sq);
            if pc.kind() == PieceType::King && self == FeatureSet::HalfKp {
                continue;
            }
            if n < MAX_ACTIVE {
                out[n] = self.piece_index(king, board_piece(persp, pc, sq));
                n += 1;
            }
        }
        for owner in Color::ALL {
            let hand = pos.hand(owner);
            for pt in PieceType::HAND {
                for i in 0..hand.count(pt) {
                    if n < MAX_ACTIVE {
                        out[n] = self.piece_index(king, hand_piece(persp, owner, pt, i));
                        n += 1;
                    }
                }
            }
        }
        for _ in 0..missing_pieces(pos) {
            if n < MAX_ACTIVE {
                out[n] = self.piece_index(king, 0);
                n += 1;
            }
        }
        n
    }

    /// Whether `m` (just played, by the side not to move in `pos`) makes `persp`'s
    /// accumulator start afresh: its own king moved and the features hang on it.
    #[inline(always)]
    pub fn needs_refresh(self, pos: &Position, m: Move, persp: Color) -> bool {
        self == FeatureSet::HalfKp && !m.is_drop() && {
            let pc = pos.piece_on(m.to());
            pc.kind() == PieceType::King && pc.color() == persp
        }
    }

    /// The features `m` (just played in `pos`) removes and adds for `persp`, when it
    /// does not need a refresh: up to two of each. Returns the counts.
    #[inline(always)]
    pub fn changed(self, pos: &Position, m: Move, persp: Color, removed: &mut [usize; 2], added: &mut [usize; 2]) -> (usize, usize) {
        let us = pos.side_to_move().flip();
        let king = own_king(pos, persp);
        let to = m.to();
        let now = pos.piece_on(to);
        let index = |bp: usize| self.piece_index(king, bp);
        if m.is_drop() {
            let pt = m.drop_piece();
            removed[0] = index(hand_piece(persp, us, pt, pos.hand(us).count(pt)));
            added[0] = index(board_piece(persp, now, to));
            return (1, 1);
        }
        let (mut r, mut a) = (0, 0);
        if now.kind() != PieceType::King || self == FeatureSet::KP {
            let before = if m.is_promotion() { Piece::new(us, now.kind().unpromote()) } else { now };
            removed[r] = index(board_piece(persp, before, m.from()));
            added[a] = index(board_piece(persp, now, to));
            r += 1;
            a += 1;
        }
        let cap = pos.state().captured;
        if cap.is_some() {
            let pt = cap.kind().unpromote();
            removed[r] = index(board_piece(persp, cap, to));
            added[a] = index(hand_piece(persp, us, pt, pos.hand(us).count(pt) - 1));
            r += 1;
            a += 1;
        }
        (r, a)
    }
}
