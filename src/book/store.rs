//! The book held in memory: position hashes sorted for binary search, each with a
//! contiguous run of moves, built once at load time and then only read. About 12
//! bytes per position plus 16 per move.

use super::key::{flip_move, PosKey};
use crate::movegen;
use crate::position::Position;
use crate::core::types::Move;

/// Most moves kept for one position (no position has more legal moves; the bound
/// keeps merging repeated entries linear).
pub const MAX_MOVES_PER_POSITION: usize = 1024;

/// One book move as recorded in the file (from the side to move's view).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// The expected reply (`Move::NONE` when none is recorded).
    pub ponder: Move,
    /// Evaluation in centipawns for the side to move (0 when missing).
    pub value: i32,
    /// Search depth behind the value (0 when missing).
    pub depth: i32,
    /// How often the move was played or chosen (1 when missing).
    pub count: u32,
}

/// A read-only opening book.
pub struct Book {
    keys: Vec<u64>,
    /// `starts[i]..starts[i + 1]` are the moves of `keys[i]`.
    starts: Vec<u32>,
    moves: Vec<BookMove>,
    ignore_ply: bool,
}

/// Collects positions and moves in file order, then sorts them into a [`Book`].
pub struct BookBuilder {
    /// (hash, first move, number of moves) per position line.
    entries: Vec<(u64, u32, u32)>,
    moves: Vec<BookMove>,
    ignore_ply: bool,
}

/// The legal book moves found for a position.
pub struct Probe {
    /// Legal moves in the probed position's orientation, in book order.
    pub moves: Vec<BookMove>,
    /// Whether they came from the colour-flipped entry.
    pub flipped: bool,
}

impl BookBuilder {
    /// An empty builder; `ignore_ply` drops the move numbers from the keys.
    pub fn new(ignore_ply: bool) -> BookBuilder {
        BookBuilder { entries: Vec::new(), moves: Vec::new(), ignore_ply }
    }

    /// Starts a position; the moves added next belong to it.
    pub fn add_position(&mut self, key: &PosKey, ply: Option<u32>) {
        let h = key.hash(if self.ignore_ply { None } else { ply });
        self.entries.push((h, self.moves.len() as u32, 0));
    }

    /// Adds a move to the last position (ignored before any position, and past
    /// [`MAX_MOVES_PER_POSITION`]).
    pub fn add_move(&mut self, m: BookMove) {
        if let Some(e) = self.entries.last_mut() {
            if self.moves.len() < u32::MAX as usize && (e.2 as usize) < MAX_MOVES_PER_POSITION {
                self.moves.push(m);
                e.2 += 1;
            }
        }
    }

    /// Sorts by hash and merges repeated positions (the first record of a move wins).
    pub fn finish(mut self) -> Book {
        self.entries.sort_by_key(|e| e.0);
        let mut keys = Vec::with_capacity(self.entries.len());
        let mut starts = Vec::with_capacity(self.entries.len() + 1);
        let mut moves = Vec::with_capacity(self.moves.len());
        let mut i = 0;
        while i < self.entries.len() {
            let h = self.entries[i].0;
            let first = moves.len();
            while i < self.entries.len() && self.entries[i].0 == h {
                let (_, s, n) = self.entries[i];
                for m in &self.moves[s as usize..(s + n) as usize] {
                    if moves.len() - first < MAX_MOVES_PER_POSITION && !moves[first..].iter().any(|x: &BookMove| x.mv == m.mv) {
                        moves.push(*m);
                    }
                }
                i += 1;
            }
            if moves.len() > first {
                keys.push(h);
                starts.push(first as u32);
            }
        }
        starts.push(moves.len() as u32);
        keys.shrink_to_fit();
        starts.shrink_to_fit();
        moves.shrink_to_fit();
        Book { keys, starts, moves, ignore_ply: self.ignore_ply }
    }
}

impl Book {
    /// A book with no positions.
    pub fn empty() -> Book {
        BookBuilder::new(true).finish()
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the book has no positions.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Number of moves over all positions.
    pub fn move_count(&self) -> usize {
        self.moves.len()
    }

    /// Whether move numbers were left out of the keys.
    pub fn ignores_ply(&self) -> bool {
        self.ignore_ply
    }

    fn find(&self, h: u64) -> &[BookMove] {
        match self.keys.binary_search(&h) {
            Ok(i) => &self.moves[self.starts[i] as usize..self.starts[i + 1] as usize],
            Err(_) => &[],
        }
    }

    /// The recorded moves of a key at move number `ply` (entries written without a
    /// move number match any).
    pub fn lookup(&self, key: &PosKey, ply: u32) -> &[BookMove] {
        if self.ignore_ply {
            return self.find(key.hash(None));
        }
        let exact = self.find(key.hash(Some(ply)));
        if exact.is_empty() {
            self.find(key.hash(None))
        } else {
            exact
        }
    }

    /// The legal book moves of `pos`; with `flipped`, the colour-flipped entry is
    /// used when the position itself has no legal book move. Illegal moves and
    /// illegal replies are dropped (replies become `Move::NONE`).
    pub fn probe(&self, pos: &Position, flipped: bool) -> Probe {
        let mut out = Probe { moves: Vec::new(), flipped: false };
        if self.is_empty() {
            return out;
        }
        let Ok(key) = PosKey::from_sfen(&pos.to_sfen()) else { return out };
        let ply = pos.game_ply();
        let legal = movegen::legal_moves(pos);
        out.moves = legal_only(pos, &legal, self.lookup(&key, ply), false);
        if out.moves.is_empty() && flipped {
            out.moves = legal_only(pos, &legal, self.lookup(&key.flipped(), ply), true);
            out.flipped = !out.moves.is_empty();
        }
        out
    }
}

fn legal_only(pos: &Position, legal: &movegen::MoveList, found: &[BookMove], flip: bool) -> Vec<BookMove> {
    let mut out = Vec::with_capacity(found.len());
    for b in found {
        let mut b = *b;
        if flip {
            b.mv = flip_move(b.mv);
            b.ponder = flip_move(b.ponder);
        }
        if !legal.contains(b.mv) {
            continue;
        }
        if b.ponder != Move::NONE {
            let mut after = pos.clone();
            after.do_move(b.mv);
            if !movegen::is_legal(&after, b.ponder) {
                b.ponder = Move::NONE;
            }
        }
        out.push(b);
    }
    out
}
