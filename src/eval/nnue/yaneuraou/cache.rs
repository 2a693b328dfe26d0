//! The refresh cache of HalfKP networks (Stockfish's "Finny tables"): for each
//! perspective and own-king square, the accumulator last computed there with the board
//! and hands it was computed for, so that the refresh after a king move adds and
//! removes only what changed since (a few rows) instead of all 38.

use super::features::{board_piece, hand_piece, own_king, FE_END, PIECES};
use super::{add_row, sub_row, Network, HALF};
use crate::core::types::{Color, Hand, Piece, PieceType, Square};
use crate::position::Position;

/// One remembered accumulator.
#[derive(Clone)]
struct Entry {
    acc: [i16; HALF],
    board: [Piece; 81],
    hands: [Hand; 2],
    /// Pieces that were nowhere (each counts as BonaPiece 0).
    missing: usize,
    valid: bool,
}

/// The cache: one entry per (perspective, own-king square), made on first use.
#[derive(Default)]
pub struct KingCache {
    entries: Vec<Entry>,
}

/// Pieces other than kings that are nowhere in `pos`.
fn missing(pos: &Position) -> usize {
    let kings = Color::ALL.iter().filter(|&&c| pos.has_king(c)).count();
    let mut present = pos.occupied().count() as usize - kings;
    for c in Color::ALL {
        let h = pos.hand(c);
        present += PieceType::HAND.iter().map(|&pt| h.count(pt) as usize).sum::<usize>();
    }
    PIECES.saturating_sub(present)
}

impl KingCache {
    /// Writes `persp`'s HalfKP accumulator half in `pos` to `out`.
    pub fn refresh(&mut self, net: &Network, pos: &Position, persp: Color, out: &mut [i16; HALF]) {
        if self.entries.is_empty() {
            let blank = Entry { acc: [0; HALF], board: [Piece::NONE; 81], hands: [Hand::EMPTY; 2], missing: 0, valid: false };
            self.entries = vec![blank; 2 * 81];
        }
        let king = own_king(pos, persp);
        let base = king * FE_END;
        let e = &mut self.entries[persp.index() * 81 + king];
        if !e.valid {
            e.acc.copy_from_slice(&net.ft_bias);
            e.board = [Piece::NONE; 81];
            e.hands = [Hand::EMPTY; 2];
            e.missing = 0;
            e.valid = true;
        }
        let row = |pc: Piece, sq: Square| (pc.is_some() && pc.kind() != PieceType::King).then(|| net.row(base + board_piece(persp, pc, sq)));
        for sq in Square::all() {
            let (old, new) = (e.board[sq.index()], pos.piece_on(sq));
            if old != new {
                if let Some(r) = row(old, sq) {
                    sub_row(&mut e.acc, r);
                }
                if let Some(r) = row(new, sq) {
                    add_row(&mut e.acc, r);
                }
                e.board[sq.index()] = new;
            }
        }
        for owner in Color::ALL {
            let (old, new) = (e.hands[owner.index()], pos.hand(owner));
            if old == new {
                continue;
            }
            for pt in PieceType::HAND {
                let (a, b) = (old.count(pt), new.count(pt));
                for i in b..a {
                    sub_row(&mut e.acc, net.row(base + hand_piece(persp, owner, pt, i)));
                }
                for i in a..b {
                    add_row(&mut e.acc, net.row(base + hand_piece(persp, owner, pt, i)));
                }
            }
            e.hands[owner.index()] = new;
        }
        let now = missing(pos);
        for _ in now..e.missing {
            sub_row(&mut e.acc, net.row(base));
        }
        for _ in e.missing..now {
            add_row(&mut e.acc, net.row(base));
        }
        e.missing = now;
        out.copy_from_slice(&e.acc);
    }
}
