//! Solution extraction: the shortest mate and the best defence against it, read
//! from proofs and checked by bounded re-searches, with a greedy fallback from the
//! table. Uses `dfpn` through `Solver::ask`.

use super::spare::spare_pieces;
use super::*;

/// Limits of the work after the first proof (shortening it, reading the line).
pub(super) struct Polish {
    /// Until when the proof may be shortened.
    pub(super) shortest_by: Option<Instant>,
    /// Until when the exact line (best defence) may be read.
    pub(super) line_by: Option<Instant>,
    /// Nodes the two phases may spend together.
    pub(super) nodes: u64,
}

impl Polish {
    /// The plan after a proof found `proof_nodes` into a solve that began at `start`.
    /// With a time limit, what is left of it (at least a small grace) is shared: three
    /// fifths to shorten the proof, the rest to read the line. Without one (or in a
    /// node-bounded probe) the work is bounded by a multiple of the proof's nodes.
    pub(super) fn after_proof(start: Instant, limit: Option<Duration>, proof_nodes: u64, max_nodes: u64) -> Polish {
        let node_bound = proof_nodes.saturating_mul(8).max(4_000_000);
        let Some(t) = limit else {
            return Polish { shortest_by: None, line_by: None, nodes: node_bound };
        };
        let now = Instant::now();
        let grace = (t / 5).min(Duration::from_millis(300));
        let end = (start + t).max(now + grace);
        let left = end - now;
        let nodes = if max_nodes == u64::MAX { u64::MAX } else { node_bound };
        Polish { shortest_by: Some(now + left * 3 / 5), line_by: Some(end), nodes }
    }

}

/// Why bounded work ended early: stopped, past its deadline `at`, or out of nodes.
pub(super) fn open_reason(stop: &AtomicBool, at: Option<Instant>) -> &'static str {
    if stop.load(Ordering::Relaxed) {
        "stopped"
    } else if at.is_some_and(|d| Instant::now() >= d) {
        "out of time"
    } else {
        "node limit"
    }
}

/// Whether `line` is a mating line from `pos` (attacker to move): every move legal,
/// every attacker move a check, odd length, and the defender mated at the end.
pub fn is_mating_line(pos: &Position, line: &[Move]) -> bool {
    let mut p = pos.clone();
    for (i, &m) in line.iter().enumerate() {
        if !movegen::is_legal(&p, m) {
            return false;
        }
        p.do_move(m);
        if i % 2 == 0 && !p.in_check() {
            return false;
        }
    }
    line.len() % 2 == 1 && p.in_check() && movegen::legal_moves(&p).is_empty()
}

impl Solver {
    /// The answer line after a proof of length `len`: the shortest mate with its best
    /// defence when that is proved within the plan (`stats.exact`), otherwise a mating
    /// line read from the table, marked as not proved shortest (`stats.bound_reason`;
    /// `stats.mate_within` is then the proved bound). Empty only when no mating line
    /// could be rebuilt at all.
    pub(super) fn finish(&mut self, pos: &mut Position, len: u16, stop: &AtomicBool, plan: &Polish, max_nodes: u64) -> Vec<Move> {
        self.stats.mate_within = len;
        // Read a line while the table still holds the whole proof: the answer if the
        // shortening below cannot finish (it may overwrite parts of the proof).
        // (By the plain rules, whose table holds the first proof: every ply counts.)
        let conventions = std::mem::replace(&mut self.conventions, false);
        let fallback = self.bounded_greedy_line(pos, max_nodes, len);
        self.conventions = conventions;
        let mut tail_pairs = 0;
        self.budget = plan.nodes;
        let (line, at) = self.solution(pos, len, stop, plan, max_nodes);
        if let Some((pv, set_aside)) = line {
            let counted = pv.iter().filter(|&&(_, c)| c).count();
            let line: Vec<Move> = pv.iter().map(|&(m, _)| m).collect();
            // By the conventions a solution may stop short of the longest defence (one
            // that leaves the attacker spare pieces); it is still the exact answer, but
            // only by the plies the rule really set aside: a line shorter than the proved
            // length for any other reason (answers of bounded searches that disagree)
            // proves nothing, and is a bound.
            if is_mating_line(pos, &line) && counted + set_aside as usize == self.stats.mate_within as usize {
                self.stats.exact = true;
                self.stats.length = counted as u16;
                return line;
            }
        }
        self.stats.bound_reason = Some(open_reason(stop, at));
        // The shortening may have proved a shorter mate than the fallback's: read the
        // line again within that bound (the table now holds that proof).
        let mut line = fallback;
        if line.is_empty() || line.len() > self.stats.mate_within as usize {
            let tighter = self.bounded_greedy_line(pos, max_nodes, self.stats.mate_within);
            let counted = tighter.len() - 2 * self.tail_pairs as usize;
            if !tighter.is_empty() && (line.is_empty() || counted < line.len() - 2 * tail_pairs as usize) {
                line = tighter;
                tail_pairs = self.tail_pairs;
            }
        }
        if is_mating_line(pos, &line) {
            self.stats.length = line.len() as u16 - 2 * tail_pairs;
            line
        } else {
            Vec::new()
        }
    }

    /// Shortest mate and its best defence, starting from a proof of length `len`
    /// (`stats.mate_within` follows the shortening). `None` with the deadline of the
    /// phase that could not finish. The line comes with the plies the pieces-to-spare
    /// rule set aside in it (see `PvCtx::set_aside`).
    fn solution(&mut self, pos: &mut Position, len: u16, stop: &AtomicBool, plan: &Polish, max_nodes: u64) -> (Option<(Pv, u16)>, Option<Instant>) {
        let mut len = len;
        while len >= 3 {
            match self.ask(pos, len - 2, true, stop, plan.shortest_by, max_nodes) {
                Answer::Yes(l) => {
                    len = l;
                    self.stats.mate_within = l;
                }
                Answer::No => break,
                Answer::Unknown => return (None, plan.shortest_by),
            }
        }
        let mut ctx = PvCtx::new(stop, plan.line_by, max_nodes);
        let mut line = Vec::new();
        if self.pv_or(pos, len, &mut ctx, &mut line) && !ctx.failed {
            (Some((line, ctx.set_aside)), plan.line_by)
        } else {
            (None, plan.line_by)
        }
    }

    /// Appends the best line from an OR node whose exact mate length is `len`: the
    /// first mate of that length found, or, where the pieces-to-spare rule asks for
    /// one (`ctx.explore`), a mate leaving the attacker pieces to spare if one is found
    /// (see `spare::most_spares`). Nothing is appended when it fails.
    pub(super) fn pv_or(&mut self, pos: &mut Position, len: u16, ctx: &mut PvCtx, line: &mut Pv) -> bool {
        let kids = self.checks_by_table(pos, len);
        // The first lines below are read as usual; only this node looks further.
        let explore = std::mem::replace(&mut ctx.explore, false);
        let mut first = None;
        for (i, c) in kids.iter().enumerate() {
            if let Some(read) = self.mate_line(pos, c.m, len, ctx) {
                first = Some((i, read));
                break;
            }
            if ctx.failed {
                break;
            }
        }
        ctx.explore = explore;
        let Some((i, read)) = first else { return false };
        let (sub, set_aside) = if explore && self.conventions { self.most_spares(pos, len, &kids, i, read, ctx) } else { read };
        ctx.set_aside += set_aside;
        line.extend(sub);
        true
    }

    /// The checks at an OR node, those the table already proves within `len - 1` first
    /// (shortest first), then the most promising.
    fn checks_by_table(&mut self, pos: &Position, len: u16) -> Vec<Child> {
        let mut list = MoveList::new();
        let mut kids = Vec::new();
        gen_node_moves(pos, true, &mut list, &mut kids);
        let hand = pos.hand(pos.side_to_move());
        kids.sort_by_key(|c| {
            let r = self.tt.probe(board_key_after(pos, c.m, self.salt(pos, pos.side_to_move())), hand_after_attack(pos, hand, c.m), len - 1);
            if r.pn == 0 {
                r.len as u32
            } else {
                1000 + r.pn.min(1 << 20)
            }
        });
        kids
    }

    /// The line of the check `m` from the OR node `pos` (exact length `len`) with the
    /// plies set aside in it, when `m` mates within `len`; `None` when it does not or a
    /// question stays open (`ctx.failed` is set then).
    pub(super) fn mate_line(&mut self, pos: &mut Position, m: Move, len: u16, ctx: &mut PvCtx) -> Option<(Pv, u16)> {
        pos.do_move(m);
        let read = match self.ask(pos, len - 1, false, ctx.stop, ctx.deadline, ctx.max_nodes) {
            Answer::Yes(_) => self.read_apart(ctx, |s, ctx, sub| s.pv_and(pos, len - 1, ctx, sub)),
            Answer::No => None,
            Answer::Unknown => {
                ctx.failed = true;
                None
            }
        };
        pos.undo_move(m);
        read.map(|(sub, set_aside)| {
            let mut line = vec![(m, true)];
            line.extend(sub);
            (line, set_aside)
        })
    }

    /// Runs `read` into a line of its own, returning it with the plies the rule set
    /// aside in it, when it succeeds; `ctx.set_aside` is left as it was, so that lines
    /// tried and dropped do not count.
    pub(super) fn read_apart(&mut self, ctx: &mut PvCtx, read: impl FnOnce(&mut Self, &mut PvCtx, &mut Pv) -> bool) -> Option<(Pv, u16)> {
        let outer = std::mem::replace(&mut ctx.set_aside, 0);
        let mut sub = Pv::new();
        let ok = read(self, ctx, &mut sub) && !ctx.failed;
        let set_aside = std::mem::replace(&mut ctx.set_aside, outer);
        ok.then_some((sub, set_aside))
    }

    /// Appends the best defence line from an AND node whose exact value is `len`.
    pub(super) fn pv_and(&mut self, pos: &mut Position, len: u16, ctx: &mut PvCtx, line: &mut Pv) -> bool {
        let mut list = MoveList::new();
        let mut kids = Vec::new();
        gen_node_moves(pos, false, &mut list, &mut kids);
        let futile = if self.conventions && check_is_blockable(pos) {
            match self.futile_squares(pos, len, ctx) {
                Some(f) => f,
                None => return false,
            }
        } else {
            Vec::new()
        };
        kids.retain(|c| !(c.m.is_drop() && futile.iter().any(|&(sq, _)| sq == c.m.to())));
        if kids.is_empty() && futile.is_empty() {
            return len == 0;
        }
        // The longest real defences: every one is mated within len-1.
        let Some(cands) = self.defences_lasting(pos, &kids, len, true, ctx) else { return false };
        if cands.is_empty() {
            // Only a futile interposition lasts this long: show it taken, uncounted
            // (the one nearest the king, for the shortest line).
            let ksq = pos.king_square(pos.side_to_move());
            return match futile.iter().filter(|&&(_, l)| l == len).min_by_key(|&&(sq, _)| between(ksq, sq).count()) {
                Some(&(sq, _)) => self.pv_futile(pos, sq, len, ctx, line),
                None => false,
            };
        }
        let Some(read) = self.best_defence(pos, &cands, len, ctx) else { return false };
        let chosen = if self.conventions && len >= 4 { self.spare_rule(pos, &kids, len, read, ctx) } else { read.into_best() };
        let Some(chosen) = chosen else { return false };
        ctx.set_aside += chosen.set_aside;
        line.extend(chosen.line);
        !ctx.failed
    }

    /// The best defence among those worth exactly `len` plies here (evasions `kids`),
    /// with the pieces it leaves the attacker; see `best_defence`.
    pub(super) fn shorter_defence(&mut self, pos: &mut Position, kids: &[Child], len: u16, ctx: &mut PvCtx) -> Option<Choice> {
        let cands = self.defences_lasting(pos, kids, len, false, ctx)?;
        if cands.is_empty() {
            return None;
        }
        self.best_defence(pos, &cands, len, ctx)?.into_best()
    }

    /// The evasions among `kids` after which the mate takes exactly `len - 1` more
    /// plies: not mated within `len - 3`, but within `len - 1` (taken as known when
    /// `known_within`). `None` once a question stays undecided (`ctx.failed` is set).
    fn defences_lasting(&mut self, pos: &mut Position, kids: &[Child], len: u16, known_within: bool, ctx: &mut PvCtx) -> Option<Vec<Move>> {
        let mut out = Vec::new();
        if len < 2 {
            return Some(out);
        }
        for c in kids {
            if known_within && len < 4 {
                out.push(c.m);
                continue;
            }
            pos.do_move(c.m);
            let within = if known_within { Answer::Yes(len - 1) } else { self.ask(pos, len - 1, true, ctx.stop, ctx.deadline, ctx.max_nodes) };
            let shorter = if len >= 4 { self.ask(pos, len - 3, true, ctx.stop, ctx.deadline, ctx.max_nodes) } else { Answer::No };
            pos.undo_move(c.m);
            match (within, shorter) {
                (Answer::Yes(_), Answer::No) => out.push(c.m),
                (Answer::Unknown, _) | (_, Answer::Unknown) => {
                    ctx.failed = true;
                    return None;
                }
                _ => {}
            }
        }
        Some(out)
    }

    /// The equally long defences `cands` (value `len`), each read with the pieces its
    /// line leaves the attacker (`spare::spare_pieces`), while the budget of tied
    /// defences lasts; `None` once a question stays open (`ctx.failed` is set).
    pub(super) fn best_defence(&mut self, pos: &mut Position, cands: &[Move], len: u16, ctx: &mut PvCtx) -> Option<Defences> {
        let attacker = pos.side_to_move().flip();
        let mut out = Defences { read: Vec::new(), complete: true };
        for (k, &m) in cands.iter().enumerate() {
            if k > 0 && ctx.budget == 0 {
                out.complete = false;
                break;
            }
            ctx.budget = ctx.budget.saturating_sub(1);
            pos.do_move(m);
            let read = self.read_apart(ctx, |s, ctx, sub| s.pv_or(pos, len - 1, ctx, sub));
            pos.undo_move(m);
            if ctx.failed {
                return None;
            }
            let Some((sub, set_aside)) = read else {
                out.complete = false;
                continue;
            };
            let mut line = vec![(m, true)];
            line.extend(sub);
            let left = spare_pieces(pos, &line, attacker);
            out.read.push(Choice { defence: m, left, line, set_aside });
        }
        Some(out)
    }

    /// The squares where an interposition is futile at this AND node (value `len`),
    /// each with the length of the mate after it is taken; `None` if undecided.
    fn futile_squares(&mut self, pos: &mut Position, len: u16, ctx: &mut PvCtx) -> Option<Vec<(Square, u16)>> {
        let ksq = pos.king_square(pos.side_to_move());
        let mut out = Vec::new();
        for sq in between(ksq, pos.checkers().lsb()).iter() {
            let found = futile::with_checker_on(pos, sq, |p, _| match self.ask(p, len, false, ctx.stop, ctx.deadline, ctx.max_nodes) {
                Answer::Yes(l) => Some(Some(l)),
                Answer::No => None,
                Answer::Unknown => Some(None),
            });
            match found {
                Some(Some(l)) => out.push((sq, l)),
                Some(None) => {
                    ctx.failed = true;
                    return None;
                }
                None => {}
            }
        }
        Some(out)
    }

    /// Appends a futile interposition on `sq`, the checker taking it (both uncounted),
    /// and the line after it, from an AND node of value `len`.
    fn pv_futile(&mut self, pos: &mut Position, sq: Square, len: u16, ctx: &mut PvCtx, line: &mut Pv) -> bool {
        let Some(drop) = movegen::legal_moves(pos).iter().copied().find(|m| m.is_drop() && m.to() == sq) else {
            return false;
        };
        let checker = pos.checkers().lsb();
        pos.do_move(drop);
        let mut ok = false;
        for take in futile::moves_onto(pos, checker, sq) {
            pos.do_move(take);
            let read = match self.exact_and_value(pos, len, ctx) {
                Some(l) => self.read_apart(ctx, |s, ctx, sub| s.pv_and(pos, l, ctx, sub)),
                None => None,
            };
            pos.undo_move(take);
            if let Some((sub, set_aside)) = read {
                line.extend([(drop, false), (take, false)]);
                line.extend(sub);
                ctx.set_aside += set_aside;
                ok = true;
                break;
            }
            if ctx.failed {
                break;
            }
        }
        pos.undo_move(drop);
        ok
    }

    /// The exact value of an AND node known to be mated within `len`.
    pub(super) fn exact_and_value(&mut self, pos: &mut Position, len: u16, ctx: &mut PvCtx) -> Option<u16> {
        let mut l = len;
        while l >= 2 {
            match self.ask(pos, l - 2, false, ctx.stop, ctx.deadline, ctx.max_nodes) {
                Answer::Yes(x) => l = x.min(l - 2),
                Answer::No => break,
                Answer::Unknown => {
                    ctx.failed = true;
                    return None;
                }
            }
        }
        Some(l)
    }

    /// A mating line read from the table (proved children), used when the exact
    /// extraction could not finish in time. Always a legal line of checks ending in mate
    /// when it returns a non-empty line. Its re-searches are small and bounded by
    /// nodes, so they ignore `stop` (the caller has already been stopped once).
    /// `greedy_line` within `bound` plies (a proved mate length), so that the line is
    /// no longer than the proved bound; without the bound if that finds none.
    pub(super) fn bounded_greedy_line(&mut self, pos: &mut Position, max_nodes: u64, bound: u16) -> Vec<Move> {
        let line = self.greedy_line(pos, max_nodes, bound);
        if line.is_empty() && bound < MAX_DEPTH {
            self.greedy_line(pos, max_nodes, MAX_DEPTH)
        } else {
            line
        }
    }

    /// A mating line read from the table, every step within the length still proved
    /// (`bound` plies at the start).
    pub(super) fn greedy_line(&mut self, pos: &mut Position, max_nodes: u64, bound: u16) -> Vec<Move> {
        let never = AtomicBool::new(false);
        self.budget = u64::MAX;
        self.tail_pairs = 0;
        let mut line = Vec::new();
        let mut p = pos.clone();
        let mut or_node = true;
        let budget = max_nodes.min(200_000);
        let mut left = bound;
        for _ in 0..MAX_DEPTH {
            if left == 0 {
                break;
            }
            let d = left - 1;
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
                let mut r = self.tt.probe(board_key_after(&p, c.m, self.salt(&p, attacker)), ch, d);
                if r.pn != 0 && !or_node {
                    // Unknown defence: settle it with a bounded search.
                    p.do_move(c.m);
                    if let Answer::Yes(l) = self.ask(&mut p, d, true, &never, None, budget) {
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
                    let a = self.ask(&mut p, d, false, &never, None, budget);
                    p.undo_move(c.m);
                    if let Answer::Yes(l) = a {
                        pick = Some((c.m, l));
                        break;
                    }
                }
            }
            if pick.is_none() && !or_node && self.conventions {
                // Conventionally mated already: show the futile interpositions taken.
                if let Some(tail) = futile::futile_tail(&mut p) {
                    self.tail_pairs = tail.len() as u16 / 2;
                    line.extend(tail);
                }
                break;
            }
            let Some((m, l)) = pick else { break };
            left = l;
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

/// A solution line: each move with whether it counts (futile interpositions and
/// their captures do not, under the conventions).
pub(super) type Pv = Vec<(Move, bool)>;

/// One defence read at an AND node: its line (the defence first), the pieces it
/// leaves the attacker to spare, and the plies the rule set aside in it.
pub(super) struct Choice {
    pub(super) defence: Move,
    pub(super) left: u32,
    pub(super) line: Pv,
    pub(super) set_aside: u16,
}

/// The equally long defences read at an AND node, in order, and whether every one
/// was (the budget of tied defences may run out first).
pub(super) struct Defences {
    pub(super) read: Vec<Choice>,
    pub(super) complete: bool,
}

impl Defences {
    /// The defence that really lasts longest, leaving the fewest pieces to spare (the
    /// first of those). A defence whose line the pieces-to-spare rule shortened
    /// further on (`set_aside`) lasts that much less than its count says: at ply 32
    /// of Zuko 8, 2a1b and the book's 2a3b both count 9 plies, but after 2a1b the
    /// rule cuts the line to 7.
    pub(super) fn into_best(self) -> Option<Choice> {
        let mut best: Option<Choice> = None;
        for c in self.read {
            if best.as_ref().is_none_or(|b| (c.set_aside, c.left) < (b.set_aside, b.left)) {
                best = Some(c);
            }
        }
        best
    }
}

pub(super) struct PvCtx<'a> {
    pub(super) stop: &'a AtomicBool,
    pub(super) deadline: Option<Instant>,
    pub(super) max_nodes: u64,
    /// Remaining full evaluations of tied defences.
    pub(super) budget: u32,
    pub(super) failed: bool,
    /// Plies the pieces-to-spare rule set aside in the line being read (each time it
    /// applies, the solution stops two plies short of the longest defence). A line
    /// is exact when its count and these make the proved length.
    pub(super) set_aside: u16,
    /// Whether `pv_or` looks for a mate that leaves pieces to spare (on while the rule
    /// judges a longest defence; see `spare`).
    pub(super) explore: bool,
    /// Other mates the innermost application of the rule may still try.
    pub(super) explore_budget: u32,
    /// Other mates the whole reading may still try.
    pub(super) explore_total: u32,
}

impl<'a> PvCtx<'a> {
    /// The context of reading a line: questions bounded by `deadline` and `max_nodes`.
    pub(super) fn new(stop: &'a AtomicBool, deadline: Option<Instant>, max_nodes: u64) -> PvCtx<'a> {
        PvCtx { stop, deadline, max_nodes, budget: 64, failed: false, set_aside: 0, explore: false, explore_budget: 0, explore_total: spare::EXPLORE_TOTAL }
    }
}
