//! Solution extraction: the shortest mate and the best defence against it, read
//! from proofs and checked by bounded re-searches, with a greedy fallback from the
//! table. Uses `dfpn` through `Solver::ask`.

use super::*;

impl Solver {
    /// Shortest mate and its best defence, starting from a proof of length `len`.
    pub(super) fn solution(&mut self, pos: &mut Position, len: u16, stop: &AtomicBool, deadline: Option<Instant>, max_nodes: u64) -> Vec<Move> {
        let mut len = len;
        let mut exact = true;
        while len >= 3 {
            match self.ask(pos, len - 2, true, stop, deadline, max_nodes) {
                Answer::Yes(l) => len = l,
                Answer::No => break,
                Answer::Unknown => {
                    exact = false;
                    break;
                }
            }
        }
        let mut ctx = PvCtx { stop, deadline, max_nodes, budget: 64, failed: false };
        if exact {
            let mut line = Vec::new();
            if self.pv_or(pos, len, &mut ctx, &mut line) && !ctx.failed {
                self.stats.exact = true;
                return line;
            }
        }
        self.greedy_line(pos, max_nodes)
    }

    /// Appends the best line from an OR node whose exact mate length is `len`.
    pub(super) fn pv_or(&mut self, pos: &mut Position, len: u16, ctx: &mut PvCtx, line: &mut Vec<Move>) -> bool {
        let mut list = MoveList::new();
        let mut kids = Vec::new();
        gen_node_moves(pos, true, &mut list, &mut kids);
        // Moves the table already proves within len-1 first.
        let hand = pos.hand(pos.side_to_move());
        kids.sort_by_key(|c| {
            let r = self.tt.probe(board_key_after(pos, c.m, key_salt(pos, pos.side_to_move())), hand_after_attack(pos, hand, c.m), len - 1);
            if r.pn == 0 {
                r.len as u32
            } else {
                1000 + r.pn.min(1 << 20)
            }
        });
        for c in kids {
            pos.do_move(c.m);
            let a = self.ask(pos, len - 1, false, ctx.stop, ctx.deadline, ctx.max_nodes);
            let ok = match a {
                Answer::Yes(_) => {
                    line.push(c.m);
                    self.pv_and(pos, len - 1, ctx, line)
                }
                Answer::No => false,
                Answer::Unknown => {
                    ctx.failed = true;
                    false
                }
            };
            pos.undo_move(c.m);
            if ok {
                return true;
            }
            if ctx.failed {
                return false;
            }
        }
        false
    }

    /// Appends the best defence line from an AND node whose exact value is `len`.
    pub(super) fn pv_and(&mut self, pos: &mut Position, len: u16, ctx: &mut PvCtx, line: &mut Vec<Move>) -> bool {
        let mut list = MoveList::new();
        let mut kids = Vec::new();
        gen_node_moves(pos, false, &mut list, &mut kids);
        if kids.is_empty() {
            return len == 0;
        }
        if len < 2 {
            return false;
        }
        // The longest defences are those not mated within len-3.
        let mut cands = Vec::new();
        for c in &kids {
            if len < 4 {
                cands.push(c.m);
                continue;
            }
            pos.do_move(c.m);
            let a = self.ask(pos, len - 3, true, ctx.stop, ctx.deadline, ctx.max_nodes);
            pos.undo_move(c.m);
            match a {
                Answer::Yes(_) => {}
                Answer::No => cands.push(c.m),
                Answer::Unknown => {
                    ctx.failed = true;
                    return false;
                }
            }
        }
        if cands.is_empty() {
            return false;
        }
        // Among equally long defences, the one leaving the attacker the fewest pieces
        // in hand at the end (it used the most); evaluated while the budget lasts.
        let attacker = pos.side_to_move().flip();
        let mut best: Option<(u32, Vec<Move>)> = None;
        for (k, &m) in cands.iter().enumerate() {
            if k > 0 && ctx.budget == 0 {
                break;
            }
            ctx.budget = ctx.budget.saturating_sub(1);
            let mut sub = vec![m];
            pos.do_move(m);
            let ok = self.pv_or(pos, len - 1, ctx, &mut sub);
            let left = if ok {
                let mut q = pos.clone();
                for &mm in &sub[1..] {
                    q.do_move(mm);
                }
                hand_total(q.hand(attacker))
            } else {
                u32::MAX
            };
            pos.undo_move(m);
            if ctx.failed {
                return false;
            }
            if ok && best.as_ref().is_none_or(|(b, _)| left < *b) {
                best = Some((left, sub));
            }
        }
        match best {
            Some((_, sub)) => {
                line.extend(sub);
                true
            }
            None => false,
        }
    }

    /// A mating line read from the table (proved children), used when the exact
    /// extraction could not finish in time. Always a legal line of checks ending in mate
    /// when it returns a non-empty line. Its re-searches are small and bounded by
    /// nodes, so they ignore `stop` (the caller has already been stopped once).
    pub(super) fn greedy_line(&mut self, pos: &mut Position, max_nodes: u64) -> Vec<Move> {
        let never = AtomicBool::new(false);
        self.budget = u64::MAX;
        let mut line = Vec::new();
        let mut p = pos.clone();
        let mut or_node = true;
        let budget = max_nodes.min(200_000);
        for _ in 0..MAX_DEPTH {
            let mut list = MoveList::new();
            let mut kids = Vec::new();
            gen_node_moves(&p, or_node, &mut list, &mut kids);
            if kids.is_empty() {
                break;
            }
            let attacker = if or_node { p.side_to_move() } else { p.side_to_move().flip() };
            let hand = p.hand(attacker);
            let mut pick: Option<(Move, u16)> = None;
            for c in &kids {
                let ch = if or_node { hand_after_attack(&p, hand, c.m) } else { hand };
                let mut r = self.tt.probe(board_key_after(&p, c.m, key_salt(&p, attacker)), ch, MAX_DEPTH);
                if r.pn != 0 && !or_node {
                    // Unknown defence: settle it with a bounded search.
                    p.do_move(c.m);
                    if let Answer::Yes(l) = self.ask(&mut p, MAX_DEPTH, true, &never, None, budget) {
                        r.pn = 0;
                        r.len = l;
                    }
                    p.undo_move(c.m);
                }
                if r.pn == 0 {
                    let better = match pick {
                        None => true,
                        Some((_, l)) => (or_node && r.len < l) || (!or_node && r.len > l),
                    };
                    if better {
                        pick = Some((c.m, r.len));
                    }
                }
            }
            if pick.is_none() && or_node {
                // The table lost this part of the proof: find a mating check again.
                for c in &kids {
                    p.do_move(c.m);
                    let a = self.ask(&mut p, MAX_DEPTH, false, &never, None, budget);
                    p.undo_move(c.m);
                    if let Answer::Yes(l) = a {
                        pick = Some((c.m, l));
                        break;
                    }
                }
            }
            let Some((m, _)) = pick else { break };
            line.push(m);
            p.do_move(m);
            or_node = !or_node;
        }
        // Only a line that really ends in mate is an answer.
        let mated = p.in_check() && movegen::legal_moves(&p).is_empty();
        if mated && line.len() % 2 == 1 {
            line
        } else {
            Vec::new()
        }
    }
}

pub(super) struct PvCtx<'a> {
    pub(super) stop: &'a AtomicBool,
    pub(super) deadline: Option<Instant>,
    pub(super) max_nodes: u64,
    /// Remaining full evaluations of tied defences.
    pub(super) budget: u32,
    pub(super) failed: bool,
}
