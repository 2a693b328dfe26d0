//! Zobrist hash keys from a fixed-seed generator, identical in every build.
//! Uses `types`.

use crate::core::types::{Color, Piece, PieceType, Square};
use once_cell::sync::Lazy;
use rand::{RngCore, SeedableRng};

struct Keys {
    board: [[u64; 81]; Piece::NUM],
    hand: [[[u64; 19]; 8]; 2],
    side: u64,
}

static KEYS: Lazy<Box<Keys>> = Lazy::new(|| {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x4869_7368_6120_5a6f);
    let mut k = Box::new(Keys { board: [[0; 81]; Piece::NUM], hand: [[[0; 19]; 8]; 2], side: 0 });
    for pc in k.board.iter_mut() {
        for v in pc.iter_mut() {
            *v = rng.next_u64();
        }
    }
    for c in k.hand.iter_mut() {
        for pt in c.iter_mut() {
            // Count 0 hashes to 0 so an empty hand adds nothing.
            for v in pt.iter_mut().skip(1) {
                *v = rng.next_u64();
            }
        }
    }
    // Bit 0 of the full key is the side to move (keys otherwise have it clear).
    for pc in k.board.iter_mut() {
        for v in pc.iter_mut() {
            *v &= !1;
        }
    }
    for c in k.hand.iter_mut() {
        for pt in c.iter_mut() {
            for v in pt.iter_mut() {
                *v &= !1;
            }
        }
    }
    k.side = 1;
    k
});

/// Builds the key tables now.
pub fn init() {
    Lazy::force(&KEYS);
}

/// Key of `pc` standing on `sq`.
#[inline(always)]
pub fn piece_key(pc: Piece, sq: Square) -> u64 {
    KEYS.board[pc.index()][sq.index()]
}

/// Key of `c` holding exactly `n` pieces of kind `pt` (0 for n = 0).
#[inline(always)]
pub fn hand_key(c: Color, pt: PieceType, n: u32) -> u64 {
    KEYS.hand[c.index()][pt.index()][n.min(18) as usize]
}

/// Key toggled when White is to move.
#[inline(always)]
pub fn side_key() -> u64 {
    KEYS.side
}
