//! The quiescence search: the stand-pat evaluation, then captures and promotions (in
//! check, the evasions that do not lose material once one holds) until the position is
//! quiet. A child of `worker`, whose state it shares.

use super::*;

/// In check, once an evasion has been searched and does not lose to mate, the
/// remaining evasions whose exchange loses more than this (centipawns) are skipped.
/// +22 +/- 34 and +18 +/- 34 in two 400-game runs at 20,000 nodes (docs/strength.md).
const EVASION_SEE_MARGIN: i32 = 75;

impl Worker {
    /// Quiescence search: captures and promotions (evasions in check) until quiet.
    pub(super) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, pv_node: bool, qdepth: i32) -> i32 {
        self.count_node();
        if pv_node {
            self.pv_len[ply] = 0;
            if ply > self.seldepth {
                self.seldepth = ply;
            }
        }
        if self.stopped() {
            return 0;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 2 {
            return if in_check { 0 } else { self.static_eval(ply) };
        }
        let key = self.pos.key();
        let tte = self.shared.tt.probe(key);
        if let Some(e) = tte {
            let v = from_tt(e.score, ply);
            if !pv_node && Self::tt_cuts(&e, v, alpha, beta) {
                return v;
            }
        }
        let tt_move = tte.map(|e| e.mv).unwrap_or(Move::NONE);
        let mut best;
        let stand;
        if in_check {
            best = -VALUE_INF;
            stand = -VALUE_INF;
        } else {
            stand = match tte {
                Some(e) if e.eval.abs() < MATE_IN_MAX && e.eval != 0 => e.eval,
                _ => self.static_eval(ply),
            };
            if stand >= beta {
                if tte.is_none() {
                    self.shared.tt.store(key, Move::NONE, to_tt(stand, ply), stand, DEPTH_UNSEARCHED, Bound::Lower);
                }
                return stand;
            }
            if stand > alpha {
                alpha = stand;
            }
            best = stand;
        }
        let mut list = MoveList::new();
        if in_check {
            generate(&self.pos, GenType::Evasions, false, &mut list);
            if list.is_empty() {
                return mated_in(ply);
            }
        } else {
            generate(&self.pos, GenType::CapturesPromotions, false, &mut list);
        }
        let mut scores = MoveScores::new();
        let mut picker = MovePicker::quiescence(&mut list, &mut scores, |m| self.quiescence_score(m, tt_move, ply));
        let mut best_move = Move::NONE;
        while let Some((_, m, _)) = picker.next_move() {
            if in_check && best > -MATE_IN_MAX && !see_ge(&self.pos, m, -EVASION_SEE_MARGIN) {
                // One evasion already holds: interposing drops and moves that lose
                // material are not searched (as YaneuraOu's qsearch does).
                continue;
            }
            if !in_check {
                let cap = self.pos.piece_on(m.to());
                let gain = if cap.is_some() { PIECE_VALUE[cap.kind().index()] * 2 } else { 500 };
                if stand + gain + params::qs_futility_margin() <= alpha || !see_ge(&self.pos, m, 0) || (qdepth < -8 && cap.is_none()) {
                    continue;
                }
            }
            self.cont_idx[ply] = piece_to(&self.pos, m);
            self.make_move(m, ply);
            let v = -self.qsearch(-beta, -alpha, ply + 1, pv_node, qdepth - 1);
            self.pos.undo_move(m);
            if self.stopped() {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        if best == -VALUE_INF {
            best = mated_in(ply);
        }
        let bound = if best >= beta { Bound::Lower } else { Bound::Upper };
        self.shared.tt.store(key, best_move, to_tt(best, ply), if in_check { 0 } else { stand }, -1, bound);
        best
    }
}
