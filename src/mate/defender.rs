//! A root where the defender is to move, in check (as KomoringHeights answers it):
//! the root is an AND node. The answer is the defender's most resisting reply and
//! the shortest mate after it (the line starts with the defender's move and its
//! length counts that move), or no mate when some reply escapes. The same phases
//! as at an attacker's root: a first proof by the plain rules, its value made exact
//! (shortened two plies at a time, by the conventions when they apply), the line
//! read by `pv_and`; out of time, the longest line read from the table after any
//! reply, marked as not proved shortest. A defender that has no reply at all is
//! mated already: there is no line to give, and the answer is no mate. The progress
//! reports of such a solve carry no line. Uses `dfpn` through `Solver::ask` and
//! `line`.

use super::line::PvCtx;
use super::*;

/// Whether `line` from `pos` (the defender to move, in check) is a reply followed by
/// a mating line: even length, every move legal, every attacker move a check, mate
/// at the end.
pub fn is_defended_mating_line(pos: &Position, line: &[Move]) -> bool {
    let Some((&reply, rest)) = line.split_first() else { return false };
    if !pos.in_check() || !movegen::is_legal(pos, reply) {
        return false;
    }
    let mut p = pos.clone();
    p.do_move(reply);
    is_mating_line(&p, rest)
}

impl Solver {
    /// `solve` where the side to move in `pos` is in check and defends.
    pub(super) fn solve_defender(&mut self, pos: &Position, time_limit: Option<Duration>, stop: &AtomicBool, max_nodes: u64) -> MateResult {
        let start = Instant::now();
        self.started = start;
        self.next_report = start + self.progress.as_ref().map_or(Duration::ZERO, |p| p.1);
        self.stats = Stats { conventions: self.conventions, defender_first: true, ..Stats::default() };
        self.budget = u64::MAX;
        self.line_root = None;
        let deadline = time_limit.map(|t| start + t);
        let mut p = pos.clone();
        let res = if movegen::legal_moves(&p).is_empty() {
            MateResult::NoMate
        } else {
            // The first proof by the plain rules, as at an attacker's root.
            let conventions = std::mem::replace(&mut self.conventions, false);
            let first = self.ask(&mut p, MAX_DEPTH, false, stop, deadline, max_nodes);
            self.conventions = conventions;
            match first {
                Answer::No => MateResult::NoMate,
                Answer::Unknown => MateResult::Timeout,
                Answer::Yes(len) => {
                    self.note_first_proof(start);
                    let plan = Polish::after_proof(start, time_limit, self.stats.nodes, max_nodes);
                    let line = self.finish_defender(&mut p, len, stop, &plan, max_nodes);
                    if line.is_empty() {
                        MateResult::Timeout
                    } else {
                        MateResult::Mate(line)
                    }
                }
            }
        };
        self.stats.seconds = start.elapsed().as_secs_f64();
        res
    }

    /// The answer line after a proof of length `len` at a defender's root: exact when
    /// the plan allows (`stats.exact`), else the fallback read from the table.
    fn finish_defender(&mut self, pos: &mut Position, len: u16, stop: &AtomicBool, plan: &Polish, max_nodes: u64) -> Vec<Move> {
        self.stats.mate_within = len;
        // Read while the table holds the whole first proof (by the plain rules).
        let conventions = std::mem::replace(&mut self.conventions, false);
        let fallback = self.longest_reply_line(pos, max_nodes, len);
        self.conventions = conventions;
        self.budget = plan.nodes;
        let mut ctx = PvCtx::new(stop, plan.shortest_by, max_nodes);
        let mut at = plan.shortest_by;
        if let Some(exact) = self.exact_and_value(pos, len, &mut ctx) {
            self.stats.mate_within = exact;
            ctx.deadline = plan.line_by;
            at = plan.line_by;
            let mut pv = Vec::new();
            if self.pv_and(pos, exact, &mut ctx, &mut pv) && !ctx.failed {
                let counted = pv.iter().filter(|&&(_, c)| c).count();
                let line: Vec<Move> = pv.iter().map(|&(m, _)| m).collect();
                // Shorter than the value only by what the pieces-to-spare rule set aside
                // (see `line::finish`).
                if is_defended_mating_line(pos, &line) && counted + ctx.set_aside as usize == exact as usize {
                    self.stats.exact = true;
                    self.stats.length = counted as u16;
                    return line;
                }
            }
        }
        self.stats.bound_reason = Some(super::line::open_reason(stop, at));
        let (line, pairs) = fallback;
        self.stats.length = (line.len() as u16).saturating_sub(2 * pairs);
        line
    }

    /// The longest mating line read from the table after any reply (each within
    /// `bound - 1` plies when it can be), with its futile pairs; empty when no reply's
    /// line could be read.
    fn longest_reply_line(&mut self, pos: &mut Position, max_nodes: u64, bound: u16) -> (Vec<Move>, u16) {
        let mut best: (Vec<Move>, u16) = (Vec::new(), 0);
        for reply in movegen::legal_moves(pos).iter().copied() {
            pos.do_move(reply);
            let rest = self.bounded_greedy_line(pos, max_nodes, bound.saturating_sub(1).max(1));
            pos.undo_move(reply);
            if !rest.is_empty() && rest.len() + 1 > best.0.len() {
                let mut line = vec![reply];
                line.extend(rest);
                best = (line, self.tail_pairs);
            }
        }
        best
    }
}
