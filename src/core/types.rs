//! Core shogi value types: colours, squares, pieces, hands and moves.
//!
//! Squares are numbered file-major: `index = file * 9 + rank`, where file 0 is the
//! USI file `1` and rank 0 is the USI rank `a`. A file is therefore nine consecutive
//! bits of a bitboard, which keeps lance and rook file attacks cheap.
//! Uses nothing else in the crate.

use std::fmt;

/// The side to move or the owner of a piece.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// Sente, moves first in an even game, upper-case in SFEN.
    Black = 0,
    /// Gote, lower-case in SFEN.
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// Array index of this colour.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other colour.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

/// A file, 0 for USI file `1` up to 8 for file `9`.
pub type File = u8;
/// A rank, 0 for USI rank `a` up to 8 for rank `i`.
pub type Rank = u8;

/// One of the 81 squares, file-major (`file * 9 + rank`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of squares on the board.
    pub const NUM: usize = 81;

    /// The square at `file` (0 = USI `1`) and `rank` (0 = USI `a`).
    #[inline(always)]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(file * 9 + rank)
    }

    /// The square with this file-major index; the index must be below 81.
    #[inline(always)]
    pub const fn from_index(index: usize) -> Square {
        debug_assert!(index < 81);
        Square(index as u8)
    }

    /// The square with this index, or `None` when it is off the board.
    pub const fn try_from_index(index: usize) -> Option<Square> {
        if index < 81 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// File-major index of the square.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File of the square (0 = USI `1`).
    #[inline(always)]
    pub const fn file(self) -> File {
        self.0 / 9
    }

    /// Rank of the square (0 = USI `a`).
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        self.0 % 9
    }

    /// Rank counted from `c`'s own side: 0 is the far rank `c` moves towards.
    #[inline(always)]
    pub const fn relative_rank(self, c: Color) -> Rank {
        match c {
            Color::Black => self.rank(),
            Color::White => 8 - self.rank(),
        }
    }

    /// The same square seen from the other side (rotated 180 degrees).
    #[inline(always)]
    pub const fn flip(self) -> Square {
        Square(80 - self.0)
    }

    /// The square `df` files and `dr` ranks away, if on the board.
    pub fn offset(self, df: i32, dr: i32) -> Option<Square> {
        let f = self.file() as i32 + df;
        let r = self.rank() as i32 + dr;
        if (0..9).contains(&f) && (0..9).contains(&r) {
            Some(Square::new(f as u8, r as u8))
        } else {
            None
        }
    }

    /// Iterates over all 81 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }

    /// Parses a USI square such as `7g`.
    pub fn from_usi(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].wrapping_sub(b'1');
        let r = b[1].wrapping_sub(b'a');
        if f < 9 && r < 9 {
            Some(Square::new(f, r))
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'1' + self.file()) as char, (b'a' + self.rank()) as char)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A kind of piece, promoted kinds included; promoted = unpromoted + 8.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    /// Pawn (歩).
    Pawn = 1,
    /// Lance (香).
    Lance = 2,
    /// Knight (桂).
    Knight = 3,
    /// Silver general (銀).
    Silver = 4,
    /// Bishop (角).
    Bishop = 5,
    /// Rook (飛).
    Rook = 6,
    /// Gold general (金).
    Gold = 7,
    /// King (玉).
    King = 8,
    /// Tokin, a promoted pawn.
    ProPawn = 9,
    /// Promoted lance.
    ProLance = 10,
    /// Promoted knight.
    ProKnight = 11,
    /// Promoted silver.
    ProSilver = 12,
    /// Horse, a promoted bishop.
    Horse = 13,
    /// Dragon, a promoted rook.
    Dragon = 14,
}

impl PieceType {
    /// Number of slots needed for arrays indexed by piece type.
    pub const NUM: usize = 15;
    /// Every piece type in index order.
    pub const ALL: [PieceType; 14] = [
        PieceType::Pawn,
        PieceType::Lance,
        PieceType::Knight,
        PieceType::Silver,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Gold,
        PieceType::King,
        PieceType::ProPawn,
        PieceType::ProLance,
        PieceType::ProKnight,
        PieceType::ProSilver,
        PieceType::Horse,
        PieceType::Dragon,
    ];
    /// The seven kinds that can be held in hand, in SFEN hand order (R B G S N L P).
    pub const HAND_SFEN_ORDER: [PieceType; 7] = [
        PieceType::Rook,
        PieceType::Bishop,
        PieceType::Gold,
        PieceType::Silver,
        PieceType::Knight,
        PieceType::Lance,
        PieceType::Pawn,
    ];
    /// The seven kinds that can be held in hand, in index order.
    pub const HAND: [PieceType; 7] = [
        PieceType::Pawn,
        PieceType::Lance,
        PieceType::Knight,
        PieceType::Silver,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Gold,
    ];

    /// Array index of this piece type.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece type with this index (1..=14).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Option<PieceType> {
        if i >= 1 && i <= 14 {
            Some(Self::ALL[i - 1])
        } else {
            None
        }
    }

    /// Whether this kind can promote (pawn, lance, knight, silver, bishop, rook).
    #[inline(always)]
    pub const fn can_promote(self) -> bool {
        (self as u8) <= 6
    }

    /// Whether this is a promoted kind.
    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 9
    }

    /// The promoted kind; only meaningful when `can_promote()`.
    #[inline(always)]
    pub const fn promote(self) -> PieceType {
        match Self::from_index(self as usize + 8) {
            Some(p) => p,
            None => self,
        }
    }

    /// The unpromoted kind (the kind it becomes in hand when captured).
    #[inline(always)]
    pub const fn unpromote(self) -> PieceType {
        if self.is_promoted() {
            match Self::from_index(self as usize - 8) {
                Some(p) => p,
                None => self,
            }
        } else {
            self
        }
    }

    /// Whether it moves like a gold (gold and the promoted minor pieces).
    #[inline(always)]
    pub const fn moves_like_gold(self) -> bool {
        matches!(
            self,
            PieceType::Gold | PieceType::ProPawn | PieceType::ProLance | PieceType::ProKnight | PieceType::ProSilver
        )
    }

    /// SFEN letter of the unpromoted kind (upper case).
    pub const fn letter(self) -> char {
        match self.unpromote() {
            PieceType::Pawn => 'P',
            PieceType::Lance => 'L',
            PieceType::Knight => 'N',
            PieceType::Silver => 'S',
            PieceType::Bishop => 'B',
            PieceType::Rook => 'R',
            PieceType::Gold => 'G',
            _ => 'K',
        }
    }

    /// The unpromoted kind with this SFEN letter (either case).
    pub fn from_letter(c: char) -> Option<PieceType> {
        Some(match c.to_ascii_uppercase() {
            'P' => PieceType::Pawn,
            'L' => PieceType::Lance,
            'N' => PieceType::Knight,
            'S' => PieceType::Silver,
            'B' => PieceType::Bishop,
            'R' => PieceType::Rook,
            'G' => PieceType::Gold,
            'K' => PieceType::King,
            _ => return None,
        })
    }
}

/// A coloured piece, or no piece; packed as `color << 4 | piece type`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Piece(u8);

impl Piece {
    /// The empty square marker.
    pub const NONE: Piece = Piece(0);
    /// Number of slots for arrays indexed by piece.
    pub const NUM: usize = 32;

    /// The piece of kind `pt` owned by `c`.
    #[inline(always)]
    pub const fn new(c: Color, pt: PieceType) -> Piece {
        Piece(((c as u8) << 4) | pt as u8)
    }

    /// Whether this is the empty marker.
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Whether this is a real piece.
    #[inline(always)]
    pub const fn is_some(self) -> bool {
        self.0 != 0
    }

    /// Owner of the piece (meaningless for `NONE`).
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 >> 4 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Kind of the piece; `None` for the empty marker.
    #[inline(always)]
    pub const fn piece_type(self) -> Option<PieceType> {
        PieceType::from_index((self.0 & 15) as usize)
    }

    /// Kind of a piece known to be real.
    #[inline(always)]
    pub fn kind(self) -> PieceType {
        debug_assert!(self.is_some());
        match PieceType::from_index((self.0 & 15) as usize) {
            Some(pt) => pt,
            None => PieceType::Pawn,
        }
    }

    /// Array index of the piece (0..32).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// SFEN text of the piece (`+P`, `k`, ...).
    pub fn sfen(self) -> String {
        let Some(pt) = self.piece_type() else { return String::new() };
        let mut s = String::new();
        if pt.is_promoted() {
            s.push('+');
        }
        let l = pt.letter();
        s.push(if self.color() == Color::Black { l } else { l.to_ascii_lowercase() });
        s
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            write!(f, ".")
        } else {
            write!(f, "{}", self.sfen())
        }
    }
}

/// Pieces in one side's hand, packed into a `u32` with a spare guard bit above
/// every count so that "has at least as much of everything" is one subtraction.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Hand(u32);

const HAND_SHIFT: [u32; 8] = [0, 0, 8, 12, 16, 24, 28, 20];
const HAND_MASK: [u32; 8] = [0, 0x1f, 0x7, 0x7, 0x7, 0x3, 0x3, 0x7];
const HAND_BORROW: u32 = (1 << 5) | (1 << 11) | (1 << 15) | (1 << 19) | (1 << 23) | (1 << 26) | (1 << 30);

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand(0);

    /// The largest count of `pt` a hand can hold in a legal game.
    pub const fn max_count(pt: PieceType) -> u32 {
        match pt {
            PieceType::Pawn => 18,
            PieceType::Bishop | PieceType::Rook => 2,
            _ => 4,
        }
    }

    /// Number of `pt` pieces held (`pt` must be a hand kind).
    #[inline(always)]
    pub const fn count(self, pt: PieceType) -> u32 {
        (self.0 >> HAND_SHIFT[pt as usize]) & HAND_MASK[pt as usize]
    }

    /// Whether at least one `pt` is held.
    #[inline(always)]
    pub const fn has(self, pt: PieceType) -> bool {
        self.0 & (HAND_MASK[pt as usize] << HAND_SHIFT[pt as usize]) != 0
    }

    /// Adds one `pt`.
    #[inline(always)]
    pub fn add(&mut self, pt: PieceType) {
        self.0 += 1 << HAND_SHIFT[pt as usize];
    }

    /// Removes one `pt`; the hand must hold one.
    #[inline(always)]
    pub fn remove(&mut self, pt: PieceType) {
        debug_assert!(self.has(pt));
        self.0 -= 1 << HAND_SHIFT[pt as usize];
    }

    /// Sets the count of `pt` (clamped to what the field holds).
    pub fn set(&mut self, pt: PieceType, n: u32) {
        let s = HAND_SHIFT[pt as usize];
        let m = HAND_MASK[pt as usize];
        self.0 = (self.0 & !(m << s)) | ((n & m) << s);
    }

    /// Whether the hand is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every count in `self` is at least the count in `other`.
    #[inline(always)]
    pub const fn is_superset_of(self, other: Hand) -> bool {
        self.0.wrapping_sub(other.0) & HAND_BORROW == 0
    }

    /// The raw packed value.
    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// Whether any piece other than pawns is held.
    #[inline(always)]
    pub const fn has_except_pawn(self) -> bool {
        self.0 & !HAND_MASK[1] != 0
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for pt in PieceType::HAND_SFEN_ORDER {
            let n = self.count(pt);
            if n > 0 {
                write!(f, "{}{}", pt.letter(), n)?;
            }
        }
        Ok(())
    }
}

/// A move in 16 bits: `to` (7 bits), `from` (7 bits) and a promote flag.
/// A drop stores `81 + piece type` in place of `from`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// No move (also used as "empty slot").
    pub const NONE: Move = Move(0);
    /// The null move used by null-move pruning (from == to == 1a).
    pub const NULL: Move = Move(0x7f | (0x7f << 7));
    const PROMOTE: u16 = 1 << 14;

    /// A board move, promoting if `promote`.
    #[inline(always)]
    pub const fn normal(from: Square, to: Square, promote: bool) -> Move {
        Move(to.0 as u16 | ((from.0 as u16) << 7) | if promote { Self::PROMOTE } else { 0 })
    }

    /// A drop of `pt` onto `to`.
    #[inline(always)]
    pub const fn drop(pt: PieceType, to: Square) -> Move {
        Move(to.0 as u16 | ((81 + pt as u16) << 7))
    }

    /// Destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square((self.0 & 0x7f) as u8)
    }

    /// Origin square of a board move (meaningless for a drop).
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square(((self.0 >> 7) & 0x7f) as u8)
    }

    /// Whether this is a drop.
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        ((self.0 >> 7) & 0x7f) >= 81
    }

    /// The dropped kind of a drop move.
    #[inline(always)]
    pub fn drop_piece(self) -> PieceType {
        match PieceType::from_index((((self.0 >> 7) & 0x7f) as usize).wrapping_sub(81)) {
            Some(pt) => pt,
            None => PieceType::Pawn,
        }
    }

    /// Whether a board move promotes.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & Self::PROMOTE != 0
    }

    /// Whether this is a real move (not NONE or NULL).
    #[inline(always)]
    pub const fn is_ok(self) -> bool {
        self.0 != 0 && self.0 != Self::NULL.0
    }

    /// The raw 16-bit encoding.
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// A move from its raw 16-bit encoding (not validated).
    #[inline(always)]
    pub const fn from_raw(v: u16) -> Move {
        Move(v)
    }

    /// Parses USI text (`7g7f`, `8h2b+`, `P*5e`) without checking legality.
    pub fn from_usi(s: &str) -> Option<Move> {
        let b = s.as_bytes();
        if b.len() == 4 && b[1] == b'*' {
            let pt = PieceType::from_letter(b[0] as char)?;
            if !b[0].is_ascii_uppercase() || pt == PieceType::King {
                return None;
            }
            let to = Square::from_usi(&s[2..4])?;
            return Some(Move::drop(pt, to));
        }
        if b.len() == 4 || (b.len() == 5 && b[4] == b'+') {
            let from = Square::from_usi(s.get(0..2)?)?;
            let to = Square::from_usi(s.get(2..4)?)?;
            if from == to {
                return None;
            }
            return Some(Move::normal(from, to, b.len() == 5));
        }
        None
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Move::NONE {
            return write!(f, "none");
        }
        if *self == Move::NULL {
            return write!(f, "null");
        }
        if self.is_drop() {
            write!(f, "{}*{}", self.drop_piece().letter(), self.to())
        } else {
            write!(f, "{}{}{}", self.from(), self.to(), if self.is_promotion() { "+" } else { "" })
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Material values in centipawns by piece type index (also used by SEE and ordering).
pub const PIECE_VALUE: [i32; 15] = [0, 90, 330, 380, 580, 880, 1100, 600, 15000, 600, 600, 600, 600, 1150, 1450];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_usi_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::from_usi(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::from_usi("1a").map(|s| s.index()), Some(0));
        assert_eq!(Square::from_usi("9i").map(|s| s.index()), Some(80));
        assert_eq!(Square::from_usi("0a"), None);
        assert_eq!(Square::from_usi("1j"), None);
    }

    #[test]
    fn move_usi_round_trip() {
        for s in ["7g7f", "8h2b+", "P*5e", "G*1a", "R*9i"] {
            let m = Move::from_usi(s).expect(s);
            assert_eq!(m.to_string(), s);
        }
        for s in ["", "7g7g", "K*5e", "p*5e", "7g7f=", "7g", "X*5e", "7g7f++"] {
            assert_eq!(Move::from_usi(s), None, "{s}");
        }
    }

    #[test]
    fn hand_counts_and_superset() {
        let mut h = Hand::EMPTY;
        for _ in 0..18 {
            h.add(PieceType::Pawn);
        }
        for pt in [PieceType::Rook, PieceType::Rook, PieceType::Gold, PieceType::Bishop] {
            h.add(pt);
        }
        assert_eq!(h.count(PieceType::Pawn), 18);
        assert_eq!(h.count(PieceType::Rook), 2);
        assert_eq!(h.count(PieceType::Gold), 1);
        let mut smaller = h;
        smaller.remove(PieceType::Gold);
        assert!(h.is_superset_of(smaller));
        assert!(!smaller.is_superset_of(h));
        let mut other = smaller;
        other.add(PieceType::Silver);
        assert!(!h.is_superset_of(other));
        assert!(!other.is_superset_of(h));
    }
}
