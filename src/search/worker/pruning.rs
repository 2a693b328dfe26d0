//! Pruning and reductions of the main search: razoring, reverse futility and null
//! moves for a whole node, late-move, futility, history and SEE pruning for one move,
//! and the late-move reduction of a move already made. A child of `worker`, whose
//! state it shares.

use super::*;
#[cfg(not(feature = "tune"))]
use once_cell::sync::Lazy;

/// Razoring: a non-PV node whose evaluation lies more than `RAZOR_BASE +
/// RAZOR_PER_DEPTH_SQ * depth²` below alpha is answered by the quiescence search
/// (YaneuraOu's margins).
const RAZOR_BASE: i32 = 502;
/// Razoring's margin per squared ply of depth.
const RAZOR_PER_DEPTH_SQ: i32 = 306;

/// The late-move reduction formula (depth and move number from 1).
fn lmr_formula(depth: usize, number: usize) -> i32 {
    (0.5 + (depth as f64).ln() * (number as f64).ln() / (params::lmr_divisor() as f64 / 100.0)) as i32
}

/// Late-move reductions by `[depth][move number]`, from the default divisor.
#[cfg(not(feature = "tune"))]
static LMR: Lazy<Vec<[i32; 64]>> = Lazy::new(|| {
    let mut t = vec![[0i32; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = lmr_formula(d, m);
        }
    }
    t
});

/// Late-move reduction of move `number` at `depth` (both capped at 63).
#[inline(always)]
fn lmr(depth: i32, number: i32) -> i32 {
    let (d, m) = ((depth as usize).min(63), (number as usize).min(63));
    #[cfg(not(feature = "tune"))]
    return LMR[d][m];
    // A tuning build computes it each time: the divisor may change between games.
    #[cfg(feature = "tune")]
    return if d == 0 || m == 0 { 0 } else { lmr_formula(d, m) };
}

/// What pruning decides for one move before it is made.
pub(super) enum MovePruning {
    /// The move is searched.
    Search,
    /// The move is skipped.
    Skip,
    /// A quiet move skipped by futility, with its futility value: the node's best value
    /// rises to it (as YaneuraOu raises `bestValue`), so a node that fails low stores
    /// an upper bound no lower than what the pruned moves were taken to reach, not the
    /// value of the moves searched before them. Session 64: +24 +/- 20 Elo over 1,200
    /// games.
    Futile(i32),
}

impl Worker {
    /// Razoring, reverse futility and null-move pruning (non-PV nodes not in check): the
    /// value to return when the node is pruned. Razoring hands a node far below alpha
    /// to the quiescence search (session 60; tried at depth 3 and less in session 14,
    /// +2 over 200 games). Reverse futility returns a third of the way
    /// from beta to the evaluation (Stockfish's and YaneuraOu's blend; the evaluation
    /// itself until session 58), so the parent is not handed a bound far above beta on
    /// the strength of a static evaluation alone. Nothing is stored here.
    pub(super) fn prune_node(&mut self, node: &mut Node) -> Option<i32> {
        let (eval, beta, depth, ply) = (node.eval, node.beta, node.depth, node.ply);
        // A non-PV node's window is null: alpha is beta - 1.
        let alpha = beta - 1;
        if eval < alpha - RAZOR_BASE - RAZOR_PER_DEPTH_SQ * depth * depth {
            return Some(self.qsearch(alpha, beta, ply, false));
        }
        let margin = params::rfp_margin() - if node.improving { params::rfp_improving() } else { 0 };
        if depth < params::rfp_max_depth() && eval - margin * depth >= beta {
            return Some(beta + (eval - beta) / 3);
        }
        if depth >= 2 && eval >= beta && self.pos.state().last_move != Move::NULL {
            let r = params::nmp_base() + depth / params::nmp_depth_div() + ((eval - beta) / params::nmp_eval_div()).min(params::nmp_eval_max());
            self.make_null_move(ply);
            self.cont_idx[ply] = 0;
            let v = -self.search(-beta, -beta + 1, depth - r, ply + 1, false, !node.cut);
            self.pos.undo_null_move();
            if self.stopped() {
                return Some(0);
            }
            if v >= beta {
                return Some(if v >= MATE_IN_MAX { beta } else { v });
            }
            node.threat = v <= -MATE_IN_MAX;
        }
        None
    }

    /// Whether late-move pruning skips the quiet move numbered `number`: at a node of
    /// depth 8 or less, past `lmp_base + 2 d²` moves where the evaluation is improving
    /// and at PV nodes, and past two thirds of `lmp_base + d²` elsewhere. (PV nodes
    /// were exempt until session 57, as they are in Stockfish; pruning them at the
    /// improving count, as YaneuraOu prunes them: +57 +/- 24 Elo over 800 games. Toward
    /// YaneuraOu's half at nodes not improving: three quarters in session 63, +24 +/- 20
    /// over 1,200; two thirds in session 64, +10 +/- 17 over 1,600.)
    fn past_move_count(node: &Node, number: i32) -> bool {
        let limit = if node.improving || node.pv {
            params::lmp_base() + 2 * node.depth * node.depth
        } else {
            (params::lmp_base() + node.depth * node.depth) * 2 / 3
        };
        node.depth <= 8 && number > limit
    }

    /// The most a quiet move searched to `lmr_depth` is taken to gain at this node:
    /// the evaluation plus the futility margin. Futility pruning skips it when this
    /// does not reach above alpha.
    fn futility_value(node: &Node, lmr_depth: i32) -> i32 {
        node.eval + params::futility_base() + params::futility_per_depth() * lmr_depth
    }

    /// Pruning of one move before it is made: move count, futility, history and SEE
    /// for quiet moves, SEE for checking moves and losing captures. In check the same
    /// rules apply to the evasions (interposing drops are most of them), futility aside:
    /// the node has no static evaluation.
    pub(super) fn prune_move(&self, node: &Node, c: &Candidate, alpha: i32) -> MovePruning {
        let depth = node.depth;
        let skip = |pruned: bool| if pruned { MovePruning::Skip } else { MovePruning::Search };
        if c.quiet && c.gives_check {
            // Checking drops and moves are a large share of a shogi node's moves, and
            // most of them just give the piece away: at any depth, a check that loses
            // more than the depth's margin is not searched.
            skip(!see_ge(&self.pos, c.mv, -params::see_prune_margin() * depth))
        } else if c.quiet {
            // The depth this move would be searched to after its late-move reduction,
            // the expected cut node's extra plies included (YaneuraOu's `lmrDepth`
            // takes its whole reduction). Deep cut nodes that fail low searched about
            // 54 moves where YaneuraOu's search 29 (session 80); with the cut node's
            // plies futility and history pruning reach them.
            let lmr_depth = (depth - 1 - lmr(depth, c.number) - Self::cut_node_plies(node)).max(0);
            if !node.in_check && !node.threat && lmr_depth <= params::futility_max_depth() {
                let futility = Self::futility_value(node, lmr_depth);
                if futility <= alpha {
                    return MovePruning::Futile(futility);
                }
            }
            skip(
                (!node.threat && Self::past_move_count(node, c.number))
                || (!node.threat
                    && lmr_depth <= params::history_prune_depth()
                    && c.score < -params::history_prune_margin() * depth
                    && c.number > 2)
                || !see_ge(&self.pos, c.mv, -params::quiet_see_margin() * lmr_depth * lmr_depth),
            )
        } else {
            // A capture (or promotion) that loses more than the depth's margin, at any
            // depth as YaneuraOu does (capped at depth 5 before: +22 +/- 24 over 800
            // games, session 40).
            skip(c.score < 0 && !see_ge(&self.pos, c.mv, -params::see_prune_margin() * depth))
        }
    }

    /// The late-move reduction's extra plies at an expected cut node (0 elsewhere),
    /// which the pruning of quiet moves takes off their reduced depth as well.
    fn cut_node_plies(node: &Node) -> i32 {
        if node.cut { params::lmr_cut_node() } else { 0 }
    }

    /// Late-move reduction of a move already made (`reduce_capture`: a losing capture
    /// that looks futile or sits at an expected cut node).
    pub(super) fn reduction(&self, node: &Node, c: &Candidate) -> i32 {
        let mut r = lmr(node.depth, c.number);
        if node.pv {
            r -= 1;
        }
        r += Self::cut_node_plies(node);
        if node.threat {
            r -= 1;
        }
        if !node.improving {
            r += 1;
        }
        if c.score >= GOOD_MOVE_SCORE {
            r -= 1;
        }
        if c.gives_check {
            r -= 1;
        }
        if !c.quiet {
            r -= 1;
        }
        if c.quiet && c.score < GOOD_MOVE_SCORE {
            r -= (c.score / params::lmr_history_div()).clamp(-3, 3);
        }
        r
    }
}
