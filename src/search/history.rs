//! Move-ordering statistics learnt during a search, owned by each search thread:
//! the butterfly-style history (by moved piece and destination), the capture history,
//! the continuation history (a move against the moves 1, 2, 4 and 6 plies before it),
//! and the low-ply history (the first plies from the root, learnt afresh each search),
//! all updated by one gravity rule. `ThreadTables` bundles them with the thread's
//! correction histories (`correction`) and small mate-probe table so a caller (the
//! `Engine`) can keep them from one search to the next. Uses `core`, `position` and `mate`.

use super::correction::Corrections;
use crate::core::types::Move;
use crate::mate::Solver;
use crate::position::Position;

/// Number of `(piece, to)` indices: 32 piece codes by 81 squares.
pub(super) const PIECE_TO: usize = 32 * 81;
/// The earlier moves a quiet move's continuation history pairs it with (plies back)
/// and the divisor of each in the ordering score: the move just before and the one
/// before that, then this side's own moves two and three turns back at half weight
/// (Stockfish's plies; 400-game runs in docs/strength.md, session 37).
const CONTINUATION_PLIES: [(usize, i32); 4] = [(1, 1), (2, 1), (4, 2), (6, 2)];
/// Plies from the root with a low-ply history of their own.
const LOW_PLIES: usize = 5;
/// Largest magnitude a history entry approaches.
const HIST_MAX: i32 = 16384;
/// Entries of each thread's mate-probe table (kept between searches).
const MATE_PROBE_TABLE: u64 = 1 << 16;

/// History bonus (or, negated, malus) for a move at a cut-off `depth` plies deep:
/// linear in the depth, as YaneuraOu's `min(128d - 77, 1529)`. (It was
/// `min(16d² + 32, 2000)` until session 56: +21 +/- 24 Elo over 800 games for this.)
#[inline]
pub(super) fn history_bonus(depth: i32) -> i32 {
    (130 * depth - 80).min(1600)
}

/// The gravity update: moves `h` towards `±limit` by `bonus`, less as it nears it
/// (the histories' rule, and the correction histories' with their own limit).
#[inline(always)]
fn gravity(h: &mut i32, bonus: i32, limit: i32) {
    *h += bonus - *h * bonus.abs() / limit;
}

/// `gravity` on an entry of a compact (`i16`) table, kept within `±limit`.
#[inline(always)]
pub(super) fn gravity16(e: &mut i16, bonus: i32, limit: i32) {
    let mut h = *e as i32;
    gravity(&mut h, bonus, limit);
    *e = h.clamp(-limit, limit) as i16;
}

/// `(moved piece, to)` index of `m`, the key of the history tables (before `do_move`).
#[inline]
pub(super) fn piece_to(pos: &Position, m: Move) -> usize {
    pos.moved_piece(m).index() * 81 + m.to().index()
}

/// The move-ordering statistics of one search thread.
pub struct Histories {
    /// Quiet-move history: `[moved piece][to]`.
    quiet: Vec<[i32; 81]>,
    /// Capture history: `[(moved piece, to) index][captured kind]`.
    capture: Vec<[i16; 16]>,
    /// Continuation history: `[(piece, to) of an earlier move][(piece, to) of this move]`.
    cont: Vec<i16>,
    /// Quiet-move history of the plies next to the root, `[ply][(piece, to)]`: the
    /// moves that refute there, learnt afresh in each search.
    low_ply: Vec<[i16; PIECE_TO]>,
}

impl Histories {
    fn new() -> Histories {
        Histories {
            quiet: vec![[0; 81]; 32],
            capture: vec![[0; 16]; PIECE_TO],
            cont: vec![0; PIECE_TO * PIECE_TO],
            low_ply: vec![[0; PIECE_TO]; LOW_PLIES],
        }
    }

    /// Zeroes every table in place (cheaper than new ones: no allocation or page
    /// faults, which cost a short search up to 15% of its time).
    fn clear(&mut self) {
        for h in self.quiet.iter_mut() {
            h.fill(0);
        }
        for h in self.capture.iter_mut() {
            h.fill(0);
        }
        self.cont.fill(0);
        self.new_search();
    }

    /// Forgets what is learnt per search (the low-ply history).
    pub fn new_search(&mut self) {
        for h in self.low_ply.iter_mut() {
            h.fill(0);
        }
    }

    /// Capture-history value of a capture or pawn promotion (call before `do_move`).
    #[inline]
    pub fn capture_score(&self, pos: &Position, m: Move) -> i32 {
        self.capture[piece_to(pos, m)][pos.piece_on(m.to()).kind().index()] as i32
    }

    /// Rewards (or, with a negative bonus, punishes) a capture.
    pub fn update_capture(&mut self, pos: &Position, m: Move, bonus: i32) {
        let (i, captured) = (piece_to(pos, m), pos.piece_on(m.to()).kind().index());
        gravity16(&mut self.capture[i][captured], bonus, HIST_MAX);
    }

    /// History value of a quiet move at `ply`; `cont_idx[p]` is the `(piece, to)`
    /// index of the move played at ply `p` (0 for a null move). The butterfly history
    /// counts twice, as in YaneuraOu (+28 +/- 26 Elo over 712 games, session 52).
    #[inline]
    pub fn quiet_score(&self, pos: &Position, m: Move, cont_idx: &[usize], ply: usize) -> i32 {
        let pc = pos.moved_piece(m);
        let cur = piece_to(pos, m);
        let mut v = 2 * self.quiet[pc.index()][m.to().index()];
        for (back, divisor) in CONTINUATION_PLIES {
            if ply >= back {
                v += self.cont[cont_idx[ply - back] * PIECE_TO + cur] as i32 / divisor;
            }
        }
        if ply < LOW_PLIES {
            v += 4 * self.low_ply[ply][cur] as i32 / (1 + ply as i32);
        }
        v
    }

    /// Rewards (or punishes) a quiet move in the quiet and continuation histories.
    pub fn update_quiet(&mut self, pos: &Position, m: Move, cont_idx: &[usize], ply: usize, bonus: i32) {
        self.update_quiet_at(piece_to(pos, m), cont_idx, ply, bonus);
    }

    /// Rewards (or punishes) the quiet move played at `ply`, known by its `(piece, to)`
    /// index `cur` (`cont_idx[ply]` once made), as `update_quiet` does.
    pub fn update_quiet_at(&mut self, cur: usize, cont_idx: &[usize], ply: usize, bonus: i32) {
        gravity(&mut self.quiet[cur / 81][cur % 81], bonus, HIST_MAX);
        for (back, _) in CONTINUATION_PLIES {
            if ply >= back {
                gravity16(&mut self.cont[cont_idx[ply - back] * PIECE_TO + cur], bonus, HIST_MAX);
            }
        }
        if ply < LOW_PLIES {
            gravity16(&mut self.low_ply[ply][cur], bonus, HIST_MAX);
        }
    }
}

/// Everything one search thread keeps from one search to the next.
pub struct ThreadTables {
    /// Move-ordering statistics.
    pub histories: Histories,
    /// Corrections of the static evaluation.
    pub corrections: Corrections,
    /// Small df-pn solver for mate probes inside the tree.
    pub mate: Solver,
}

impl Default for ThreadTables {
    fn default() -> Self {
        Self::new()
    }
}

impl ThreadTables {
    /// Fresh tables.
    pub fn new() -> ThreadTables {
        ThreadTables { histories: Histories::new(), corrections: Corrections::new(), mate: Solver::for_nodes(MATE_PROBE_TABLE) }
    }

    /// Forgets the move-ordering statistics and the corrections; the mate probes'
    /// table is kept (a proof or disproof stays true).
    pub fn clear_histories(&mut self) {
        self.histories.clear();
        self.corrections.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;

    #[test]
    fn a_new_search_forgets_the_low_ply_history_only() {
        crate::init();
        let pos = Position::startpos();
        let moves = legal_moves(&pos);
        let (near, deep) = (moves.as_slice()[0], moves.as_slice()[1]);
        let cont_idx = [0usize; 16];
        let mut h = Histories::new();
        h.update_quiet(&pos, near, &cont_idx, 2, history_bonus(6));
        h.update_quiet(&pos, deep, &cont_idx, 9, history_bonus(6));
        let (near_before, deep_before) = (h.quiet_score(&pos, near, &cont_idx, 2), h.quiet_score(&pos, deep, &cont_idx, 9));
        h.new_search();
        let (near_after, deep_after) = (h.quiet_score(&pos, near, &cont_idx, 2), h.quiet_score(&pos, deep, &cont_idx, 9));
        assert!(near_after > 0, "the butterfly and continuation parts stay");
        assert!(near_before > near_after, "the low-ply part goes: {near_before} -> {near_after}");
        assert_eq!(deep_before, deep_after, "a move learnt past the low plies keeps its score");
    }
}
