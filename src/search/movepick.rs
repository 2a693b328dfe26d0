//! The move picker: hands out a node's moves best first. The moves are generated
//! once and scored by the caller; the picker then finds the best of the rest by a
//! selection step for the first moves (most cut-offs happen there) and sorts the
//! remainder once (n log n instead of n^2). At the root the order is the root moves'
//! own (sorted by the previous iteration). Uses `core` and `movegen`.

use crate::core::bounded::BoundedVec;
use crate::core::types::Move;
use crate::movegen::{MoveList, MAX_MOVES};

/// How the picker orders.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Order {
    /// In list order (root moves).
    AsGiven,
    /// Selection for the first `SELECT_FIRST` moves, then one sort (main search).
    SelectThenSort,
    /// Selection for every move (quiescence search: few moves, early cut-offs).
    Select,
}

/// Moves picked by selection before the main search sorts the rest.
const SELECT_FIRST: usize = 6;

/// The ordering scores of one node's moves, kept by the caller beside its move list
/// (the picker borrows both, so building a picker copies nothing).
pub type MoveScores = BoundedVec<i32, MAX_MOVES>;

/// One node's moves with their ordering scores.
pub struct MovePicker<'a> {
    moves: &'a mut [Move],
    scores: &'a mut [i32],
    next: usize,
    order: Order,
}

impl<'a> MovePicker<'a> {
    #[inline(always)]
    fn with(
        moves: &'a mut MoveList,
        scores: &'a mut MoveScores,
        order: Order,
        mut score: impl FnMut(Move) -> i32,
    ) -> MovePicker<'a> {
        scores.clear();
        for &m in moves.iter() {
            scores.push(score(m));
        }
        MovePicker { moves: moves.as_mut_slice(), scores: scores.as_mut_slice(), next: 0, order }
    }

    /// Moves in the order given, each scored 0 (the root).
    #[inline(always)]
    pub fn as_given(moves: &'a mut MoveList, scores: &'a mut MoveScores) -> MovePicker<'a> {
        Self::with(moves, scores, Order::AsGiven, |_| 0)
    }

    /// Main-search order by `score` (higher first).
    #[inline(always)]
    pub fn main(moves: &'a mut MoveList, scores: &'a mut MoveScores, score: impl FnMut(Move) -> i32) -> MovePicker<'a> {
        Self::with(moves, scores, Order::SelectThenSort, score)
    }

    /// Quiescence order by `score` (higher first).
    #[inline(always)]
    pub fn quiescence(
        moves: &'a mut MoveList,
        scores: &'a mut MoveScores,
        score: impl FnMut(Move) -> i32,
    ) -> MovePicker<'a> {
        Self::with(moves, scores, Order::Select, score)
    }

    /// Moves `next` to the front of the rest: the best remaining move by a selection
    /// step (the first of equals), or, for the sorted stage, sorts the rest by score
    /// then by move bits, both descending.
    fn order_next(&mut self) {
        let (i, n) = (self.next, self.moves.len());
        let moves = &mut *self.moves;
        let scores = &mut *self.scores;
        if self.order == Order::Select || (self.order == Order::SelectThenSort && i < SELECT_FIRST) {
            let mut bi = i;
            for j in i + 1..n {
                if scores[j] > scores[bi] {
                    bi = j;
                }
            }
            moves.swap(i, bi);
            scores.swap(i, bi);
        } else if self.order == Order::SelectThenSort && i == SELECT_FIRST && n > SELECT_FIRST + 1 {
            let mut keyed: BoundedVec<u64, MAX_MOVES> = BoundedVec::new();
            for j in i..n {
                keyed.push((((scores[j] as i64 - i32::MIN as i64) as u64) << 16) | moves[j].raw() as u64);
            }
            keyed.as_mut_slice().sort_unstable_by(|a, b| b.cmp(a));
            for (j, &k) in (i..n).zip(keyed.iter()) {
                moves[j] = Move::from_raw(k as u16);
                scores[j] = ((k >> 16) as i64 + i32::MIN as i64) as i32;
            }
        }
    }

    /// The next move with its index in the picker's order and its score.
    #[inline]
    pub fn next_move(&mut self) -> Option<(usize, Move, i32)> {
        if self.next >= self.moves.len() {
            return None;
        }
        self.order_next();
        let i = self.next;
        self.next += 1;
        Some((i, self.moves[i], self.scores[i]))
    }
}
