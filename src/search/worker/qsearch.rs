//! The quiescence search: the stand-pat evaluation, a mate in one by a contact check,
//! then captures (in check, the evasions) until the position is quiet, pruned as
//! YaneuraOu's is: once one move holds, a move that neither checks nor recaptures is
//! searched only among the first two and, out of check, only past the futility and SEE
//! tests; and nothing but captures that do not lose material is searched. A child of
//! `worker`, whose state it shares.

use super::*;

/// Once a move holds, a move that does not lose more than this in its exchange
/// (centipawns) may still be searched (YaneuraOu's -73, less than a pawn).
const SEE_MARGIN: i32 = 73;

/// Moves searched at a node before the rest (checks and recaptures aside) are skipped.
const MOVES_BEFORE_CUT: i32 = 2;

impl Worker {
    /// Quiescence search: captures (evasions in check) until quiet.
    pub(super) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, pv_node: bool) -> i32 {
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
        // The static evaluation before its correction, which the table keeps.
        let mut raw = 0;
        if in_check {
            best = -VALUE_INF;
            stand = -VALUE_INF;
        } else {
            raw = match tte {
                Some(e) if e.eval.abs() < MATE_IN_MAX && e.eval != 0 => e.eval,
                _ => self.static_eval(ply),
            };
            stand = self.corrected(raw, ply);
            if stand >= beta {
                if tte.is_none() {
                    self.shared.tt.store(key, Move::NONE, to_tt(stand, ply), raw, DEPTH_UNSEARCHED, Bound::Lower);
                }
                return stand;
            }
            if stand > alpha {
                alpha = stand;
            }
            best = stand;
        }
        let ci = CheckInfo::new(&self.pos);
        // A mate in one by a contact check, asked where the table knows nothing of the
        // node and the stand pat has not failed high (YaneuraOu asks on every table miss):
        // +47 +/- 34 at equal nodes for 3% more instructions a node (session 41).
        if !in_check && tte.is_none() && contact_mate_in_one(&self.pos, &ci).is_some() {
            return mate_in(ply + 1);
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
        let last = self.pos.state().last_move;
        let recapture_sq = if last.is_ok() { Some(last.to()) } else { None };
        // A capture must be able to lift the stand-pat this far above alpha.
        let futility_base = stand.saturating_add(params::qs_futility_margin());
        let mut move_count = 0;
        while let Some((_, m, _)) = picker.next_move() {
            move_count += 1;
            // Until a move holds (in check, the first evasion) everything is searched.
            if best > -MATE_IN_MAX {
                let captured = self.pos.piece_on(m.to());
                if Some(m.to()) != recapture_sq && !ci.gives_check(&self.pos, m) {
                    if move_count > MOVES_BEFORE_CUT {
                        continue;
                    }
                    if !in_check {
                        let value = captured_value(captured);
                        if futility_base + value <= alpha {
                            best = best.max(futility_base + value);
                            continue;
                        }
                        if !see_ge(&self.pos, m, alpha - futility_base) {
                            best = best.max(alpha.min(futility_base));
                            continue;
                        }
                    }
                }
                // Interposing drops, king moves and quiet promotions are not searched
                // once a move holds, nor captures that lose material.
                if captured.is_none() || !see_ge(&self.pos, m, -SEE_MARGIN) {
                    continue;
                }
            }
            self.cont_idx[ply] = piece_to(&self.pos, m);
            self.make_move(m, ply);
            let v = -self.qsearch(-beta, -alpha, ply + 1, pv_node);
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
        self.shared.tt.store(key, best_move, to_tt(best, ply), if in_check { 0 } else { raw }, -1, bound);
        best
    }

    /// The principal line of a full-window quiescence search of the worker's position,
    /// from a fresh node count (empty when standing pat holds).
    pub fn quiescence_line(&mut self) -> Vec<Move> {
        self.nodes = 0;
        self.publish_nodes();
        self.seldepth = 0;
        self.mat[0] = eval::material_psq(&self.pos);
        self.acc[0].refresh(&self.net, &self.pos);
        self.qsearch(-VALUE_INF, VALUE_INF, 0, true);
        self.pv[0][..self.pv_len[0]].to_vec()
    }
}
