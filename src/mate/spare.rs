//! The composers' pieces-to-spare rule, applied while the solution line is read
//! (`line::pv_and`): a defence two plies longer than another does not make the
//! solution when it leaves the attacker pieces to spare, and the shorter one uses
//! every piece.
//!
//! A defence "leaves pieces to spare" when SOME shortest mate after it does (the
//! reading of Zuko 15, `tests/mate.rs`). The first mate the reading finds depends on
//! what the table holds, so judging by it alone made the answer depend on the table's
//! size: when it uses every piece, the attacker's other mates of the same length are
//! tried for one that does not (`most_spares`), within a budget. When none is found
//! the longer defence stays: the rule then gives no shorter solution than it can
//! show, which is the safe side. Uses `line`.

use super::futile::Futility;
use super::line::{Choice, Defences, Pv, PvCtx};
use super::*;

/// Other mates of the same length that one application of the rule may try (those
/// nested in its lines have their own) and that the whole reading of a line may.
const EXPLORE_PER_RULE: u32 = 32;
pub(super) const EXPLORE_TOTAL: u32 = 512;

impl Solver {
    /// The defence to play at an AND node of value `len` (evasions `kids`, the longest
    /// defences read in `longest`): the best of the longest, unless every one of them
    /// leaves pieces to spare and a defence two plies shorter uses every piece; that
    /// one then, two plies set aside. A defence whose own line the rule cut by two
    /// further on is such a shorter defence (its plies are set aside already). `None`
    /// when nothing could be read or a question stays open (`ctx.failed`).
    pub(super) fn spare_rule(&mut self, pos: &mut Position, kids: &[Child], len: u16, mut longest: Defences, ctx: &mut PvCtx) -> Option<Choice> {
        if !longest.complete || longest.read.iter().all(|c| c.set_aside > 0) {
            // A longest defence not read may use every piece: keep the longer. (And
            // when the rule cut every line read further on, none lasts `len` plies.)
            return longest.into_best();
        }
        // A defence whose line the rule cut by two further on lasts two plies less:
        // it may be the shorter defence that uses every piece.
        let cut_short = longest.read.iter().position(|c| c.set_aside == 2 && c.left == 0);
        let shorter = match cut_short {
            Some(i) => longest.read.swap_remove(i),
            None => match self.shorter_defence(pos, kids, len - 2, ctx) {
                Some(mut s) if s.left == 0 => {
                    s.set_aside += 2;
                    s
                }
                _ if ctx.failed => return None,
                _ => return longest.into_best(),
            },
        };
        let mut read = longest.read;
        for i in 0..read.len() {
            if read[i].left > 0 || read[i].set_aside > 0 {
                continue;
            }
            // Its first mate uses every piece: look for another that does not.
            let left = self.spares_after(pos, read[i].defence, len, ctx);
            if left == 0 {
                return Some(read.swap_remove(i));
            }
            read[i].left = left;
        }
        Some(shorter)
    }

    /// The most pieces to spare found after the defence `d` from the AND node `pos`
    /// (value `len`) among the attacker's mates of that length, trying others while
    /// the budget lasts; 0 when none is found or a question stays open (the longer
    /// defence then stays, the safe side).
    fn spares_after(&mut self, pos: &mut Position, d: Move, len: u16, ctx: &mut PvCtx) -> u32 {
        let attacker = pos.side_to_move().flip();
        let explore = std::mem::replace(&mut ctx.explore, true);
        let budget = std::mem::replace(&mut ctx.explore_budget, EXPLORE_PER_RULE);
        // A mate that a capped futility test misses is a mate not seen here, and the
        // table's capped answers would hide it: ask with thorough tests, which the
        // table keeps apart (see `Futility`).
        let futility = std::mem::replace(&mut self.futility, Futility::Thorough);
        pos.do_move(d);
        let read = self.read_apart(ctx, |s, ctx, sub| s.pv_or(pos, len - 1, ctx, sub));
        pos.undo_move(d);
        self.futility = futility;
        ctx.explore = explore;
        ctx.explore_budget = budget;
        if ctx.failed {
            // Undecided here; the reading itself goes on.
            ctx.failed = false;
            return 0;
        }
        let Some((sub, _)) = read else { return 0 };
        let mut line = vec![(d, true)];
        line.extend(sub);
        spare_pieces(pos, &line, attacker)
    }

    /// At the OR node `pos` (exact length `len`, checks `kids`), whose first mate
    /// `kids[first]` read as `read`: a mate of that length leaving the attacker pieces
    /// to spare when one is found within the budget, else `read`. The other checks are
    /// tried with their first line below, then every mate again looking further below,
    /// so that the moves near the top are tried before the budget goes down one line.
    pub(super) fn most_spares(&mut self, pos: &mut Position, len: u16, kids: &[Child], first: usize, read: (Pv, u16), ctx: &mut PvCtx) -> (Pv, u16) {
        let attacker = pos.side_to_move();
        let mut best = (spare_pieces(pos, &read.0, attacker), read);
        let mut mates = vec![kids[first].m];
        ctx.explore = false;
        for (_, c) in kids.iter().enumerate().filter(|&(i, _)| i != first) {
            // Checks that do not mate cost a question each, not a reading: only mates
            // count against the budget.
            if !ctx.may_try_another(best.0, false) {
                break;
            }
            if let Some(r) = self.optional_mate_line(pos, c.m, len, ctx) {
                ctx.may_try_another(best.0, true);
                mates.push(c.m);
                keep_more_spares(pos, attacker, r, &mut best);
            }
        }
        ctx.explore = true;
        for &m in &mates {
            if !ctx.may_try_another(best.0, true) {
                break;
            }
            if let Some(r) = self.optional_mate_line(pos, m, len, ctx) {
                keep_more_spares(pos, attacker, r, &mut best);
            }
        }
        best.1
    }

    /// `mate_line` where a mate is already known: a question left open ends the search
    /// for others (their budget is spent) instead of the reading.
    fn optional_mate_line(&mut self, pos: &mut Position, m: Move, len: u16, ctx: &mut PvCtx) -> Option<(Pv, u16)> {
        let read = self.mate_line(pos, m, len, ctx);
        if ctx.failed {
            ctx.failed = false;
            ctx.explore_budget = 0;
        }
        read
    }
}

/// Makes the mate `read` from `pos` the best one when it leaves more pieces to spare.
fn keep_more_spares(pos: &Position, attacker: Color, read: (Pv, u16), best: &mut (u32, (Pv, u16))) {
    let left = spare_pieces(pos, &read.0, attacker);
    if left > best.0 {
        *best = (left, read);
    }
}

impl PvCtx<'_> {
    /// Whether another mate may be tried after one leaving `left` pieces to spare
    /// (none yet); counts it against the budgets when `spend`.
    fn may_try_another(&mut self, left: u32, spend: bool) -> bool {
        let more = left == 0 && self.explore_budget > 0 && self.explore_total > 0;
        if more && spend {
            self.explore_budget -= 1;
            self.explore_total -= 1;
        }
        more
    }
}

/// The pieces `attacker` holds at the end of `line` played from `pos`, less those
/// taken from futile interpositions in it (the convention ignores them), counted kind
/// by kind: a futile piece the attacker dropped again is no longer held and is not
/// taken off twice. (The total less the number of futile pairs wrapped around below
/// zero there, and a line that used every piece looked like one with pieces to spare.)
pub(super) fn spare_pieces(pos: &Position, line: &Pv, attacker: Color) -> u32 {
    let mut q = pos.clone();
    let mut futile = Hand::EMPTY;
    for &(m, counted) in line {
        if !counted && m.is_drop() {
            futile.add(m.drop_piece());
        }
        q.do_move(m);
    }
    let held = q.hand(attacker);
    PieceType::HAND.iter().map(|&pt| held.count(pt).saturating_sub(futile.count(pt))).sum()
}
