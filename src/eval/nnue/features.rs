//! The network's input features: king buckets, left-right mirroring, board and hand
//! (thermometer) features of each perspective, and the active-feature list. Uses
//! `core` and `position`.

use super::*;

/// Neurons of the hidden layer per perspective.
pub const HIDDEN: usize = 256;
/// Number of king buckets (copies of the feature set).
pub const KING_BUCKETS: usize = 9;
/// Piece classes on the board: 14 own kinds, then 14 enemy kinds.
pub(super) const PIECE_CLASSES: usize = 28;
/// Board features of one bucket.
pub const BOARD_FEATURES: usize = PIECE_CLASSES * 81;
/// Hand slots of one side: 18 pawns, 4 lances, knights, silvers, golds, 2 bishops, rooks.
pub const HAND_SLOTS: usize = 38;
/// Features of one bucket.
pub const FEATURES: usize = BOARD_FEATURES + 2 * HAND_SLOTS;
/// Inputs of the network (all buckets).
pub const INPUTS: usize = KING_BUCKETS * FEATURES;
/// Room for the active features of one perspective. Each of the 40 pieces gives
/// exactly one (its board square or its hand slot), so 40 are used; the rest is margin.
pub const MAX_ACTIVE: usize = 80;

/// Scale of the first layer: a float activation of 1.0 is `QA` in the accumulator.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the float network's output.
pub const OUTPUT_SCALE: i32 = 400;

/// First hand slot of each hand kind, by piece type index (P L N S B R G).
pub(super) const HAND_BASE: [usize; 8] = [0, 0, 18, 22, 26, 30, 32, 34];

/// How one side sees the board: which side, whether mirrored, which king bucket.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct View {
    pub(super) persp: Color,
    pub(super) mirror: bool,
    pub(super) base: usize,
}

#[inline(always)]
pub(super) fn orient(persp: Color, sq: Square) -> usize {
    match persp {
        Color::Black => sq.index(),
        Color::White => 80 - sq.index(),
    }
}

impl View {
    /// The view of `persp` whose king stands on `king` (`None`: no king, as in tsume).
    pub fn new(persp: Color, king: Option<Square>) -> View {
        let k = match king {
            Some(k) => orient(persp, k),
            None => 4 * 9 + 8, // as if on its home square 5i
        };
        let (f, r) = (k / 9, k % 9);
        let mirror = f > 4;
        let f = if mirror { 8 - f } else { f };
        let file_group = match f {
            0 => 0,
            1 | 2 => 1,
            _ => 2,
        };
        let rank_group = match r {
            8 => 0,
            7 => 1,
            _ => 2,
        };
        View { persp, mirror, base: (rank_group * 3 + file_group) * FEATURES }
    }

    /// The view of `persp` in `pos`.
    pub fn of(pos: &Position, persp: Color) -> View {
        View::new(persp, pos.has_king(persp).then(|| pos.king_square(persp)))
    }

    /// The king bucket (0..KING_BUCKETS).
    pub fn bucket(self) -> usize {
        self.base / FEATURES
    }

    #[inline(always)]
    pub(super) fn square(self, sq: Square) -> usize {
        let s = orient(self.persp, sq);
        if self.mirror {
            (8 - s / 9) * 9 + s % 9
        } else {
            s
        }
    }

    /// Input index of piece `pc` on `sq`.
    #[inline(always)]
    pub fn board(self, pc: Piece, sq: Square) -> usize {
        let class = if pc.color() == self.persp { 0 } else { 14 } + pc.kind().index() - 1;
        self.base + class * 81 + self.square(sq)
    }

    /// Input index of the `count`-th (1-based) piece of kind `pt` in `owner`'s hand.
    #[inline(always)]
    pub fn hand(self, owner: Color, pt: PieceType, count: u32) -> usize {
        let side = if owner == self.persp { 0 } else { HAND_SLOTS };
        self.base + BOARD_FEATURES + side + HAND_BASE[pt.index()] + count as usize - 1
    }
}

/// Writes the active input indices of `persp` in `pos` to `out`; returns how many.
pub fn active_features(pos: &Position, persp: Color, out: &mut [u16; MAX_ACTIVE]) -> usize {
    let view = View::of(pos, persp);
    let mut n = 0;
    for sq in pos.occupied() {
        out[n] = view.board(pos.piece_on(sq), sq) as u16;
        n += 1;
    }
    for c in Color::ALL {
        let h = pos.hand(c);
        for pt in PieceType::HAND {
            for k in 1..=h.count(pt).min(Hand::max_count(pt)) {
                if n < MAX_ACTIVE {
                    out[n] = view.hand(c, pt, k) as u16;
                    n += 1;
                }
            }
        }
    }
    n
}

/// Number of output buckets: the output layer has one set of weights for each, chosen
/// by how many pieces are in the hands, which tells the quiet opening from the
/// middlegame fights and the endgame races.
pub const OUTPUT_BUCKETS: usize = 8;

/// Output bucket by the number of pieces in both hands (0 to 38). The bounds split
/// self-play positions roughly evenly: 26% have none in hand, 5% have 14 or more.
pub(super) const BUCKET_OF_HAND_TOTAL: [u8; 39] = {
    let mut t = [7u8; 39];
    let upper = [0, 1, 2, 4, 6, 9, 13];
    let mut n = 0;
    let mut b = 0;
    while n < 39 {
        while b < upper.len() && n > upper[b] {
            b += 1;
        }
        t[n] = b as u8;
        n += 1;
    }
    t
};

/// The output bucket of `pos` (the same for both sides).
#[inline]
pub fn output_bucket(pos: &Position) -> usize {
    let mut total = 0;
    for c in Color::ALL {
        let h = pos.hand(c);
        for pt in PieceType::HAND {
            total += h.count(pt) as usize;
        }
    }
    BUCKET_OF_HAND_TOTAL[total.min(38)] as usize
}
