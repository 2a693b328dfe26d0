//! Move ordering and its learning in the main and quiescence searches: the scores the
//! move pickers sort by (table move, captures by SEE and victim, quiet histories), and
//! the history updates after a cut-off and after a fail low. A child of `worker`,
//! whose state it shares.

use super::*;

impl Worker {
    /// Ordering score of `m` in the main search (the one-list picker of in-check
    /// nodes): hash move, captures by SEE and victim, then quiet histories. The staged
    /// picker gives the same scores stage by stage.
    pub(super) fn main_score(&self, m: Move, tt_move: Move, ply: usize) -> i32 {
        if m == tt_move {
            i32::MAX
        } else if !self.is_quiet(m) {
            self.tactical_order(m)
        } else {
            self.tables.histories.quiet_score(&self.pos, m, &self.cont_idx, ply)
        }
    }

    /// A capture or pawn promotion: `GOOD_CAPTURE` and up by victim and capture history
    /// when its SEE does not lose, far below every quiet move otherwise.
    fn tactical_order(&self, m: Move) -> i32 {
        let cap = self.pos.piece_on(m.to());
        let v = if cap.is_some() { PIECE_VALUE[cap.kind().index()] } else { 300 };
        let hist = self.tables.histories.capture_score(&self.pos, m) / 4;
        if see_ge(&self.pos, m, 0) {
            GOOD_CAPTURE + v * 8 + hist
        } else {
            -GOOD_CAPTURE + v + hist
        }
    }

    /// Ordering score of `m` in quiescence search: hash move, then most valuable
    /// victim / least valuable attacker.
    pub(super) fn quiescence_score(&self, m: Move, tt_move: Move, ply: usize) -> i32 {
        let cap = self.pos.piece_on(m.to());
        if m == tt_move {
            1_000_000
        } else if cap.is_some() {
            PIECE_VALUE[cap.kind().index()] * 8 - if m.is_drop() { 0 } else { PIECE_VALUE[self.pos.piece_on(m.from()).kind().index()] / 16 }
        } else if self.pos.is_capture(m) || m.is_promotion() {
            100
        } else {
            self.tables.histories.quiet_score(&self.pos, m, &self.cont_idx, ply) / 16 - 10000
        }
    }

    /// Histories after quiet move `m` cut off at `ply`: `m` rewarded by `bonus`, the
    /// other quiets tried punished by as much. (There are no killers or counter-move,
    /// as in YaneuraOu: the counter-move went in session 55, +5 +/- 24 Elo over 800
    /// games, the killers in session 56, +18 +/- 20 over 1,200.)
    fn update_quiet(&mut self, m: Move, ply: usize, bonus: i32, tried: &[Move]) {
        let h = &mut self.tables.histories;
        h.update_quiet(&self.pos, m, &self.cont_idx, ply, bonus);
        for &q in tried {
            if q != m {
                h.update_quiet(&self.pos, q, &self.cont_idx, ply, -bonus);
            }
        }
    }

    /// Histories after move `m` cut off: the move rewarded, the tried moves punished.
    pub(super) fn update_cutoff(&mut self, m: Move, quiet: bool, ply: usize, depth: i32, tried: &Tried) {
        let bonus = history_bonus(depth);
        if quiet {
            self.update_quiet(m, ply, bonus, &tried.quiets[..tried.nq]);
        } else {
            self.tables.histories.update_capture(&self.pos, m, bonus);
        }
        for &c in &tried.captures[..tried.nc] {
            self.tables.histories.update_capture(&self.pos, c, -bonus);
        }
    }

    /// Histories after a node fails low: nothing tried here reaches alpha, so the move
    /// that led here served the side that played it. When that move was quiet (no
    /// capture or promotion) it is rewarded at its own ply by half the cut-off bonus of
    /// this depth, and half as much again for each of: a node deeper than 5 plies, a PV
    /// or expected cut node, a value more than 62 cp a ply below alpha (Stockfish's
    /// prior-countermove bonus). Session 65: +53 +/- 20 Elo over 1,200 games.
    pub(super) fn reward_prior_quiet(&mut self, node: &Node, best: i32, alpha: i32) {
        let st = self.pos.state();
        let last = st.last_move;
        if !last.is_ok() || st.captured.is_some() || last.is_promotion() {
            return;
        }
        let depth = node.depth;
        let weight = 1 + (depth > 5) as i32 + (node.pv || node.cut) as i32 + (best < alpha - 62 * depth) as i32;
        let prior = node.ply - 1;
        let cur = self.cont_idx[prior];
        self.tables.histories.update_quiet_at(cur, &self.cont_idx, prior, history_bonus(depth) * weight / 2);
    }

    /// Neither a capture nor a pawn promotion.
    pub(super) fn is_quiet(&self, m: Move) -> bool {
        !is_tactical(&self.pos, m)
    }
}

/// The staged picker's view of a node's ordering scores.
pub(super) struct NodeOrder<'w> {
    pub worker: &'w Worker,
    pub ply: usize,
}

impl MoveOrder for NodeOrder<'_> {
    fn tactical_score(&self, m: Move) -> i32 {
        self.worker.tactical_order(m)
    }

    fn quiet_score(&self, m: Move) -> i32 {
        self.worker.tables.histories.quiet_score(&self.worker.pos, m, &self.worker.cont_idx, self.ply)
    }
}
