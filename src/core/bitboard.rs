//! A set of squares as one `u128` (bits 0..81, file-major).
//! Uses `types`.

use crate::core::types::{Color, Rank, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares; bit `i` is the square with file-major index `i`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

const ALL_BITS: u128 = (1u128 << 81) - 1;
const FILE1: u128 = 0x1ff;

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const ALL: Bitboard = Bitboard(ALL_BITS);

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// All squares of a file (0 = USI file `1`).
    #[inline(always)]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(FILE1 << (9 * file as u32))
    }

    /// All squares of a rank (0 = USI rank `a`).
    pub const fn rank(rank: Rank) -> Bitboard {
        let mut b = 0u128;
        let mut f = 0;
        while f < 9 {
            b |= 1u128 << (f * 9 + rank as u32);
            f += 1;
        }
        Bitboard(b)
    }

    /// Squares on the ranks `c` sees as relative ranks `lo..=hi`.
    pub const fn relative_ranks(c: Color, lo: Rank, hi: Rank) -> Bitboard {
        let mut b = 0u128;
        let mut r = lo;
        while r <= hi {
            let abs = match c {
                Color::Black => r,
                Color::White => 8 - r,
            };
            b |= Bitboard::rank(abs).0;
            r += 1;
        }
        Bitboard(b)
    }

    /// The promotion zone of `c` (its three far ranks).
    #[inline(always)]
    pub const fn zone(c: Color) -> Bitboard {
        match c {
            Color::Black => ZONE_BLACK,
            Color::White => ZONE_WHITE,
        }
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        (self.0 >> sq.index()) & 1 != 0
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        (self.0 as u64).count_ones() + ((self.0 >> 64) as u64).count_ones()
    }

    /// Whether the set holds more than one square.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest-index square; the set must not be empty.
    #[inline(always)]
    pub fn lsb(self) -> Square {
        debug_assert!(self.any());
        let lo = self.0 as u64;
        let i = if lo != 0 { lo.trailing_zeros() } else { 64 + ((self.0 >> 64) as u64).trailing_zeros() };
        Square::from_index(i as usize)
    }

    /// Removes and returns the lowest-index square; the set must not be empty.
    #[inline(always)]
    pub fn pop(&mut self) -> Square {
        let sq = self.lsb();
        self.0 &= self.0 - 1;
        sq
    }

    /// Set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | (1u128 << sq.index()))
    }

    /// Set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.index()))
    }

    /// Squares one step forward for `c` (towards its far rank), within files.
    #[inline(always)]
    pub const fn shift_forward(self, c: Color) -> Bitboard {
        match c {
            Color::Black => Bitboard((self.0 >> 1) & !RANK_I_BITS),
            Color::White => Bitboard((self.0 << 1) & !RANK_A_BITS & ALL_BITS),
        }
    }

    /// Fills every file that holds a square of the set.
    pub fn file_fill(self) -> Bitboard {
        let mut out = 0u128;
        let mut f = 0u32;
        while f < 9 {
            if (self.0 >> (9 * f)) & FILE1 != 0 {
                out |= FILE1 << (9 * f);
            }
            f += 1;
        }
        Bitboard(out)
    }

    /// Iterates over the squares in index order.
    #[inline(always)]
    pub fn iter(self) -> BitboardIter {
        BitboardIter(self)
    }
}

const RANK_A_BITS: u128 = Bitboard::rank(0).0;
const RANK_I_BITS: u128 = Bitboard::rank(8).0;
const ZONE_BLACK: Bitboard = Bitboard::relative_ranks(Color::Black, 0, 2);
const ZONE_WHITE: Bitboard = Bitboard::relative_ranks(Color::White, 0, 2);

/// Iterator over the squares of a bitboard.
pub struct BitboardIter(Bitboard);

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0.is_empty() {
            None
        } else {
            Some(self.0.pop())
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    #[inline(always)]
    fn into_iter(self) -> BitboardIter {
        BitboardIter(self)
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, o: Bitboard) -> Bitboard {
                Bitboard(self.0 $op o.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, o: Bitboard) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f)?;
        for r in 0..9u8 {
            for file in (0..9u8).rev() {
                write!(f, "{}", if self.has(Square::new(file, r)) { 'x' } else { '.' })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_visits_each_square_once() {
        let b = Bitboard::from_square(Square::new(0, 0)) | Bitboard::from_square(Square::new(8, 8))
            | Bitboard::from_square(Square::new(7, 1));
        let v: Vec<_> = b.iter().map(|s| s.to_string()).collect();
        assert_eq!(v, ["1a", "8b", "9i"]);
        assert_eq!(b.count(), 3);
        assert!(b.more_than_one());
        assert_eq!((!Bitboard::EMPTY).count(), 81);
    }

    #[test]
    fn forward_shift_stays_in_file() {
        let b = Bitboard::rank(0) | Bitboard::rank(8);
        assert_eq!(b.shift_forward(Color::Black), Bitboard::rank(7));
        assert_eq!(b.shift_forward(Color::White), Bitboard::rank(1));
        assert_eq!(Bitboard::zone(Color::Black).count(), 27);
        assert!(Bitboard::zone(Color::White).has(Square::new(4, 8)));
    }
}
