//! Correction histories: what the searches of positions sharing a part (the pawns, the
//! minor pieces, one side's other pieces with its hand) or reached by the same moves
//! found against their static evaluation, added to the evaluation of the next position
//! with that part or those moves. Stockfish's and YaneuraOu's pawn, minor-piece,
//! non-pawn and continuation corrections, indexed by the part keys `Position` keeps move
//! by move (`ClassKeys`) and by the last moves' `(piece, to)` indices; one set of tables
//! per search thread. Uses `position`.

use super::history::{gravity16, PIECE_TO};
use crate::core::prefetch::prefetch;
use crate::position::Position;

/// Entries of each part table (by bits 1-14 of a part key; bit 0 is the side to move's
/// in the full key only), per side to move.
const ENTRIES: usize = 1 << 14;
/// Largest magnitude an entry approaches.
const LIMIT: i32 = 1024;
/// Largest update of one search result.
const MAX_BONUS: i32 = LIMIT / 4;
/// Weights of the pawn, minor-piece, non-pawn and continuation corrections
/// (YaneuraOu's, over `WEIGHT_SCALE`): a part entry at its limit moves the evaluation
/// by about a pawn.
const PAWN_WEIGHT: i32 = 12153;
const MINOR_WEIGHT: i32 = 8620;
const NON_PAWN_WEIGHT: i32 = 12355;
const CONTINUATION_WEIGHT: i32 = 7982;
const WEIGHT_SCALE: i32 = 131072;

/// One table: `[part key % ENTRIES][side to move]`.
struct Table(Vec<[i16; 2]>);

impl Table {
    fn new() -> Table {
        Table(vec![[0; 2]; ENTRIES])
    }

    #[inline(always)]
    fn get(&self, key: u64, side: usize) -> i32 {
        self.0[(key >> 1) as usize % ENTRIES][side] as i32
    }

    #[inline(always)]
    fn prefetch(&self, key: u64) {
        prefetch(&self.0[(key >> 1) as usize % ENTRIES]);
    }

    #[inline(always)]
    fn update(&mut self, key: u64, side: usize, bonus: i32) {
        gravity16(&mut self.0[(key >> 1) as usize % ENTRIES][side], bonus, LIMIT);
    }
}

/// The correction tables of one search thread.
pub struct Corrections {
    pawn: Table,
    minor: Table,
    non_pawn: [Table; 2],
    /// `[(piece, to) of the move 2 or 4 plies back][(piece, to) of the last move]`.
    continuation: Vec<i16>,
}

/// The continuation correction's entries of a node at `ply`: the last move paired with
/// the moves two and four plies before the node (`cont_idx[p]` is the move made at `p`).
#[inline(always)]
fn continuation_slots(cont_idx: &[usize], ply: usize) -> [Option<usize>; 2] {
    let slot = |back: usize| (ply >= back).then(|| cont_idx[ply - back] * PIECE_TO + cont_idx[ply - 1]);
    [slot(2), slot(4)]
}

impl Corrections {
    pub(super) fn new() -> Corrections {
        Corrections {
            pawn: Table::new(),
            minor: Table::new(),
            non_pawn: [Table::new(), Table::new()],
            continuation: vec![0; PIECE_TO * PIECE_TO],
        }
    }

    /// Forgets everything learnt.
    pub(super) fn clear(&mut self) {
        let [black, white] = &mut self.non_pawn;
        for t in [&mut self.pawn, &mut self.minor, black, white] {
            t.0.fill([0; 2]);
        }
        self.continuation.fill(0);
    }

    /// The correction to add to the static evaluation of `pos` (side to move's view),
    /// `ply` plies from the root with `cont_idx` the moves made on the way.
    #[inline]
    pub fn value(&self, pos: &Position, cont_idx: &[usize], ply: usize) -> i32 {
        let k = pos.state().class_keys;
        let side = pos.side_to_move().index();
        let sum = PAWN_WEIGHT * self.pawn.get(k.pawn, side)
            + MINOR_WEIGHT * self.minor.get(k.minor, side)
            + NON_PAWN_WEIGHT * (self.non_pawn[0].get(k.non_pawn[0], side) + self.non_pawn[1].get(k.non_pawn[1], side));
        let continuation: i32 = continuation_slots(cont_idx, ply).iter().flatten().map(|&i| self.continuation[i] as i32).sum();
        (sum + CONTINUATION_WEIGHT * continuation) / WEIGHT_SCALE
    }

    /// Starts loading the six entries `value` will read for `pos` at `ply` (one in each
    /// part table, two in the continuation table), so that their cache misses overlap
    /// with the move's other work (called right after the move to `pos` is made).
    #[inline(always)]
    pub fn prefetch(&self, pos: &Position, cont_idx: &[usize], ply: usize) {
        let k = pos.state().class_keys;
        self.pawn.prefetch(k.pawn);
        self.minor.prefetch(k.minor);
        self.non_pawn[0].prefetch(k.non_pawn[0]);
        self.non_pawn[1].prefetch(k.non_pawn[1]);
        for i in continuation_slots(cont_idx, ply).into_iter().flatten() {
            prefetch(&self.continuation[i]);
        }
    }

    /// Learns from a search of `pos` to `depth` that found `best` where the corrected
    /// static evaluation said `static_eval`: every part moves by the error times the
    /// depth over 6 (over 8 until session 60: +30 +/- 20 Elo over 1,200 games).
    pub fn update(&mut self, pos: &Position, cont_idx: &[usize], ply: usize, depth: i32, best: i32, static_eval: i32) {
        let bonus = ((best - static_eval) * depth / 6).clamp(-MAX_BONUS, MAX_BONUS);
        let k = pos.state().class_keys;
        let side = pos.side_to_move().index();
        self.pawn.update(k.pawn, side, bonus);
        self.minor.update(k.minor, side, bonus);
        self.non_pawn[0].update(k.non_pawn[0], side, bonus);
        self.non_pawn[1].update(k.non_pawn[1], side, bonus);
        for i in continuation_slots(cont_idx, ply).into_iter().flatten() {
            gravity16(&mut self.continuation[i], bonus, LIMIT);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(sfen: &str) -> Position {
        crate::init();
        Position::from_sfen(sfen).expect("valid SFEN")
    }

    #[test]
    fn a_search_above_the_evaluation_raises_the_positions_sharing_its_parts() {
        let start = pos(crate::position::START_SFEN);
        let mut c = Corrections::new();
        let cont_idx = [0usize; 8];
        assert_eq!(c.value(&start, &cont_idx, 0), 0);
        for _ in 0..20 {
            c.update(&start, &cont_idx, 0, 8, 400, 0);
        }
        let raised = c.value(&start, &cont_idx, 0);
        assert!(raised > 50, "the searched position itself: {raised}");
        // A king step changes the non-pawn key of its side only: the pawn, minor and
        // other side's corrections still apply.
        let king_moved = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B3K1R1/LNSG1GSNL b - 1");
        let shared = c.value(&king_moved, &cont_idx, 0);
        assert!(shared > 0 && shared < raised, "shares three of four parts: {shared} of {raised}");
        // The other side to move has its own entries.
        let white = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
        assert_eq!(c.value(&white, &cont_idx, 0), 0);
        c.clear();
        assert_eq!(c.value(&start, &cont_idx, 0), 0);
    }

    #[test]
    fn a_search_below_the_evaluation_lowers_it_and_the_moves_before_count() {
        let p = pos(crate::position::START_SFEN);
        // `(piece, to)` indices of the moves made at plies 0-3 on the way here.
        let path = [100usize, 200, 300, 400, 0, 0, 0, 0];
        let mut c = Corrections::new();
        for _ in 0..20 {
            c.update(&p, &path, 4, 8, -400, 0);
        }
        let lowered = c.value(&p, &path, 4);
        let other_path = [101usize, 201, 301, 401, 0, 0, 0, 0];
        let elsewhere = c.value(&p, &other_path, 4);
        assert!(lowered < elsewhere && elsewhere < 0, "{lowered} < {elsewhere} < 0");
    }
}
