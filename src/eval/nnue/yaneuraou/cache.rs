//! The refresh cache of HalfKP networks (Stockfish's "Finny tables"): for each
//! perspective and own-king square, the accumulator last computed there with the board
//! and hands it was computed for, so that the refresh after a king move adds and
//! removes only what changed since (a few rows) instead of all 38.

use super::features::{board_piece, hand_piece, missing_pieces, own_king, FE_END};
use super::{add_row, sub_row, Network, HALF};
use crate::core::types::{Color, PieceType};
use crate::eval::nnue::accumulator::CacheEntry;
use crate::position::Position;

/// One remembered accumulator, with the pieces that were nowhere then (each counts as
/// BonaPiece 0).
#[derive(Clone)]
struct Entry {
    entry: CacheEntry,
    missing: usize,
}

/// The cache: one entry per (perspective, own-king square), made on first use.
#[derive(Default)]
pub struct KingCache {
    entries: Vec<Entry>,
}

impl KingCache {
    /// Writes `persp`'s HalfKP accumulator half in `pos` to `out`.
    pub fn refresh(&mut self, net: &Network, pos: &Position, persp: Color, out: &mut [i16; HALF]) {
        if self.entries.is_empty() {
            self.entries = vec![Entry { entry: CacheEntry::blank(), missing: 0 }; 2 * 81];
        }
        let king = own_king(pos, persp);
        let base = king * FE_END;
        let e = &mut self.entries[persp.index() * 81 + king];
        if !e.entry.valid {
            e.missing = 0;
        }
        e.entry.catch_up(
            net,
            pos,
            |pc, sq| (pc.kind() != PieceType::King).then(|| base + board_piece(persp, pc, sq)),
            |owner, pt, k| base + hand_piece(persp, owner, pt, k - 1),
        );
        let acc = &mut e.entry.acc;
        let now = missing_pieces(pos);
        for _ in now..e.missing {
            sub_row(acc, net.row(base));
        }
        for _ in e.missing..now {
            add_row(acc, net.row(base));
        }
        e.missing = now;
        out.copy_from_slice(acc);
    }
}
