//! The move pickers: they hand out a node's moves best first. `StagedPicker` (the main
//! search, not in check) generates by stages: the table's move, captures, and the quiet
//! moves only when the node gets that far. `MovePicker` takes a list generated at once
//! and scored by the caller (the root, evasions, quiescence). Both find the best of the
//! rest by a selection step for the first moves (most cut-offs happen there) and sort
//! the remainder once (n log n instead of n^2). At the root the order is the root
//! moves' own (sorted by the previous iteration). Uses `core`, `movegen` and
//! `position`.

use crate::core::bounded::BoundedVec;
use crate::core::types::{Move, PieceType};
use crate::movegen::{generate, is_generated, GenType, MoveList, MAX_MOVES};
use crate::position::Position;

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

/// Sorts `moves` by their `scores`, then by move bits, both descending (one sort of
/// packed keys, so moves and scores travel together).
fn sort_by_score(moves: &mut [Move], scores: &mut [i32]) {
    let mut keyed: BoundedVec<u64, MAX_MOVES> = BoundedVec::new();
    for (&m, &s) in moves.iter().zip(scores.iter()) {
        keyed.push((((s as i64 - i32::MIN as i64) as u64) << 16) | m.raw() as u64);
    }
    keyed.as_mut_slice().sort_unstable_by(|a, b| b.cmp(a));
    for ((m, s), &k) in moves.iter_mut().zip(scores.iter_mut()).zip(keyed.iter()) {
        *m = Move::from_raw(k as u16);
        *s = ((k >> 16) as i64 + i32::MIN as i64) as i32;
    }
}

/// Moves the best-scored move of `from..` (the first of equals) to `from`.
#[inline]
fn select_best(moves: &mut [Move], scores: &mut [i32], from: usize) {
    let mut bi = from;
    for j in from + 1..scores.len() {
        if scores[j] > scores[bi] {
            bi = j;
        }
    }
    moves.swap(from, bi);
    scores.swap(from, bi);
}

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
            select_best(moves, scores, i);
        } else if self.order == Order::SelectThenSort && i == SELECT_FIRST && n > SELECT_FIRST + 1 {
            sort_by_score(&mut moves[i..n], &mut scores[i..n]);
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

/// The stages of the staged picker, in order.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    TtMove,
    GenerateCaptures,
    GoodCaptures,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    Done,
}

/// Captures and pawn promotions (the moves `GenType::CapturesPromotions` lists).
#[inline]
pub fn is_tactical(pos: &Position, m: Move) -> bool {
    pos.is_capture(m) || (m.is_promotion() && pos.piece_on(m.from()).kind() == PieceType::Pawn)
}

/// How the main search scores the moves of a stage (higher first).
pub trait MoveOrder {
    /// A capture or pawn promotion: at least `GOOD_CAPTURE` when it does not lose material.
    fn tactical_score(&self, m: Move) -> i32;
    /// A quiet move other than the table's move.
    fn quiet_score(&self, m: Move) -> i32;
}

/// The lowest score of a capture that does not lose material.
pub const GOOD_CAPTURE: i32 = 2_000_000;

/// The main search's picker when not in check: the table's move, then captures
/// (generated only now), the good ones best first, the quiet moves (generated only if
/// reached), and last the losing captures. A node cut off by an early move never
/// generates or scores its quiet moves. Scores are those the one-list picker would
/// give, so the order is the same but for ties.
pub struct StagedPicker<'a> {
    moves: &'a mut MoveList,
    scores: &'a mut MoveScores,
    stage: Stage,
    /// The current stage's range of the lists.
    cur: usize,
    end: usize,
    /// Losing captures, moved to the front of the lists during the good-capture stage.
    bad_end: usize,
    tt_move: Move,
    /// Moves handed out so far.
    handed: usize,
    /// Whether the quiet moves past the first few (picked by selection) are sorted.
    quiets_sorted: bool,
}

impl<'a> StagedPicker<'a> {
    /// A picker for the position `pos` (not in check) with the table's move `tt_move`
    /// (tested for legality here).
    pub fn new(pos: &Position, moves: &'a mut MoveList, scores: &'a mut MoveScores, tt_move: Move) -> Self {
        moves.clear();
        scores.clear();
        let tt_move = if tt_move != Move::NONE && is_generated(pos, tt_move, false) { tt_move } else { Move::NONE };
        let stage = if tt_move == Move::NONE { Stage::GenerateCaptures } else { Stage::TtMove };
        StagedPicker { moves, scores, stage, cur: 0, end: 0, bad_end: 0, tt_move, handed: 0, quiets_sorted: false }
    }

    /// Moves handed out so far (zero after the last one: the position has no legal move).
    pub fn handed(&self) -> usize {
        self.handed
    }

    /// The next move with its index in the picker's order and its score.
    pub fn next_move(&mut self, pos: &Position, order: &impl MoveOrder) -> Option<(usize, Move, i32)> {
        let (m, score) = self.next_scored(pos, order)?;
        self.handed += 1;
        Some((self.handed - 1, m, score))
    }

    fn next_scored(&mut self, pos: &Position, order: &impl MoveOrder) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenerateCaptures;
                    return Some((self.tt_move, i32::MAX));
                }
                Stage::GenerateCaptures => {
                    generate(pos, GenType::CapturesPromotions, false, self.moves);
                    for &m in self.moves.iter() {
                        self.scores.push(order.tactical_score(m));
                    }
                    (self.cur, self.end) = (0, self.moves.len());
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    while self.cur < self.end {
                        self.select_best(self.cur, self.end);
                        let (m, s) = (self.moves.as_slice()[self.cur], self.scores.as_slice()[self.cur]);
                        self.cur += 1;
                        if m == self.tt_move {
                            continue;
                        }
                        if s < GOOD_CAPTURE {
                            // The rest lose material: keep them at the front for the last stage.
                            for j in self.cur - 1..self.end {
                                if self.moves.as_slice()[j] != self.tt_move {
                                    self.moves.as_mut_slice().swap(self.bad_end, j);
                                    self.scores.as_mut_slice().swap(self.bad_end, j);
                                    self.bad_end += 1;
                                }
                            }
                            self.cur = self.end;
                            break;
                        }
                        return Some((m, s));
                    }
                    // Only the losing captures stay; the quiet moves go after them.
                    self.moves.truncate(self.bad_end);
                    self.scores.truncate(self.bad_end);
                    self.stage = Stage::GenerateQuiets;
                }
                Stage::GenerateQuiets => {
                    let start = self.moves.len();
                    generate(pos, GenType::Quiets, false, self.moves);
                    for &m in &self.moves.as_slice()[start..] {
                        let s = if m == self.tt_move { i32::MIN } else { order.quiet_score(m) };
                        self.scores.push(s);
                    }
                    (self.cur, self.end) = (start, self.moves.len());
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    while self.cur < self.end {
                        if self.handed < SELECT_FIRST {
                            self.select_best(self.cur, self.end);
                        } else if !self.quiets_sorted {
                            sort_by_score(&mut self.moves.as_mut_slice()[self.cur..self.end], &mut self.scores.as_mut_slice()[self.cur..self.end]);
                            self.quiets_sorted = true;
                        }
                        let (m, s) = (self.moves.as_slice()[self.cur], self.scores.as_slice()[self.cur]);
                        self.cur += 1;
                        if s != i32::MIN {
                            return Some((m, s));
                        }
                    }
                    (self.cur, self.end) = (0, self.bad_end);
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if self.cur < self.end {
                        self.select_best(self.cur, self.end);
                        self.cur += 1;
                        return Some((self.moves.as_slice()[self.cur - 1], self.scores.as_slice()[self.cur - 1]));
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// Moves the best-scored move of `from..end` (the first of equals) to `from`.
    fn select_best(&mut self, from: usize, end: usize) {
        select_best(&mut self.moves.as_mut_slice()[..end], &mut self.scores.as_mut_slice()[..end], from);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scores by move bits, captures above quiet moves, a third of the captures losing.
    struct BitsOrder;

    impl MoveOrder for BitsOrder {
        fn tactical_score(&self, m: Move) -> i32 {
            if m.raw() % 3 == 0 { -GOOD_CAPTURE + m.raw() as i32 } else { GOOD_CAPTURE + m.raw() as i32 }
        }
        fn quiet_score(&self, m: Move) -> i32 {
            (m.raw() % 1000) as i32 - 500
        }
    }

    /// On every perft-suite position not in check, the staged picker hands out each move
    /// of `generate(Legal)` exactly once: the table's move first, then good captures,
    /// quiet moves and losing captures, each stage best first; an illegal table move is
    /// never handed out.
    #[test]
    fn staged_picker_hands_out_every_legal_move_once_in_stage_order() {
        crate::init();
        let text = include_str!("../../positions/perft.txt");
        let mut tested = 0;
        for sfen in text.lines().filter_map(|l| l.split('|').nth(1)) {
            let Ok(pos) = Position::from_sfen(sfen.trim()) else { continue };
            if pos.in_check() {
                continue;
            }
            let mut legal = MoveList::new();
            generate(&pos, GenType::Legal, false, &mut legal);
            let illegal = Move::from_usi("1a1b").unwrap();
            let quiet_tt = legal.iter().copied().find(|&m| !is_tactical(&pos, m)).unwrap_or(Move::NONE);
            for tt in [Move::NONE, illegal, *legal.iter().last().unwrap_or(&Move::NONE), quiet_tt] {
                let (mut moves, mut scores) = (MoveList::new(), MoveScores::new());
                let mut picker = StagedPicker::new(&pos, &mut moves, &mut scores, tt);
                let (mut seen, mut staged_scores) = (Vec::new(), Vec::new());
                let mut last = i32::MAX;
                while let Some((i, m, s)) = picker.next_move(&pos, &BitsOrder) {
                    assert_eq!(i, seen.len());
                    if !(s == i32::MAX && i == 0) {
                        // Within a stage best first; stages in falling score bands.
                        assert!(s <= last || (s < 0 && last >= 0), "{sfen}: {m} {s} after {last}");
                    }
                    last = s;
                    seen.push(m);
                    staged_scores.push(s);
                }
                // The one-list picker with the same scores hands out the same score sequence.
                let (mut all, mut all_scores) = (MoveList::new(), MoveScores::new());
                generate(&pos, GenType::Legal, false, &mut all);
                let mut one = MovePicker::main(&mut all, &mut all_scores, |m| {
                    if m == tt {
                        i32::MAX
                    } else if is_tactical(&pos, m) {
                        BitsOrder.tactical_score(m)
                    } else {
                        BitsOrder.quiet_score(m)
                    }
                });
                let mut one_scores = Vec::new();
                while let Some((_, _, s)) = one.next_move() {
                    one_scores.push(s);
                }
                assert_eq!(staged_scores, one_scores, "{sfen}");
                let mut got: Vec<u16> = seen.iter().map(|m| m.raw()).collect();
                let mut want: Vec<u16> = legal.iter().map(|m| m.raw()).collect();
                got.sort_unstable();
                want.sort_unstable();
                assert_eq!(got, want, "{sfen} with table move {tt}");
                if legal.contains(tt) {
                    assert_eq!(seen[0], tt);
                }
                assert!(!seen.contains(&illegal) || legal.contains(illegal));
                tested += 1;
            }
        }
        assert!(tested > 300, "{tested}");
    }
}
