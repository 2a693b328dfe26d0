//! Alternative mates (余詰, yozume): after a tsume is solved, whether the attacker has
//! a second mating move at any of his plies of the main line.
//!
//! What counts (the composers' definition, as `hisha mate --alt` checks it): at the
//! attacker's node before ply `k` of the main line, whose shortest mate is `R` plies
//! (the main line's remaining length; counted by the composers' conventions when the
//! solver follows them), another legal check that also forces mate within `R` plies.
//!
//! * A move that mates in the same or fewer plies is an alternative. Fewer can only
//!   happen when the main line is not proved shortest (早詰, an early mate).
//! * At the final ply (`R = 1`) another mating move is an alternative too, reported as
//!   a final-move one (最終手余詰), which the composers tolerate.
//! * A move that mates only in more plies than `R` is a detour ("redundant"), not an
//!   alternative, and is not looked for.
//! * A promoted and an unpromoted move between the same squares are different moves;
//!   such a pair is marked (成・不成非限定), as is a drop of the main move's piece on
//!   another square (打ち場所非限定).
//! * Alternatives inside the defender's side variations (変化別詰) are not checked: only
//!   the attacker's nodes of the main line.
//!
//! Every check is one bounded question to the solver ("is the defender mated within
//! `R - 1` plies after this move?") with a node budget and a deadline; a question left
//! open is reported as undecided, never as "no alternative". Each alternative found
//! comes with a mating line (the best defence where it can be read within the budget,
//! otherwise one defence and the table's line) that is played out on a `Position`:
//! legal, every attacker move a check, mate at the end, within `R` plies. The solver's
//! table from the solve is kept warm, so most questions are answered from it.
//! Uses `Solver::ask` and the solution extraction of `line`.

use super::line::{Pv, PvCtx};
use super::*;

/// Limits of the alternative-mate checks.
#[derive(Clone, Copy, Debug)]
pub struct AltLimits {
    /// Nodes one question (one candidate move, or one length) may spend.
    pub nodes_per_check: u64,
    /// When the whole pass stops (checks not made by then are undecided).
    pub deadline: Option<Instant>,
}

/// An alternative mating move at one attacker node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AltMate {
    /// The alternative move.
    pub mv: Move,
    /// Its mating line, the move first, checked by playing it out.
    pub line: Vec<Move>,
    /// Plies the mate takes (the line's counted plies; futile interpositions taken do
    /// not count under the conventions).
    pub plies: u16,
    /// Whether the line shows the best defence (false: one defence and the table's
    /// line after it, read when the exact line did not fit the budget).
    pub best_defence: bool,
    /// The main move with the same squares, differing only in promotion.
    pub promotion_twin: bool,
    /// A drop of the same piece as the main move's drop, on another square.
    pub drop_twin: bool,
}

/// A candidate move whose check was left open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AltUndecided {
    pub mv: Move,
    /// Why: "node limit", "out of time", "stopped", or a note on the line.
    pub reason: &'static str,
}

/// The checks at one attacker node of the main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AltPly {
    /// 1-based ply of the main line (odd: the attacker's).
    pub ply: usize,
    /// The main line's move here.
    pub main: Move,
    /// The node's shortest mate (plies), the length an alternative must keep to;
    /// `None` when it could not be settled (the whole node is then undecided).
    pub remaining: Option<u16>,
    /// Whether this is the main line's last (mating) move.
    pub final_move: bool,
    /// Other checks looked at.
    pub candidates: usize,
    pub alternatives: Vec<AltMate>,
    pub undecided: Vec<AltUndecided>,
}

/// The result of the alternative-mate pass over a main line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AltReport {
    pub plies: Vec<AltPly>,
    /// Nodes the pass spent.
    pub nodes: u64,
}

impl AltReport {
    /// Whether every check was decided.
    pub fn decided(&self) -> bool {
        self.plies.iter().all(|p| p.remaining.is_some() && p.undecided.is_empty())
    }

    /// The plies (1-based) that have at least one alternative.
    pub fn plies_with_alternatives(&self) -> Vec<usize> {
        self.plies.iter().filter(|p| !p.alternatives.is_empty()).map(|p| p.ply).collect()
    }

    /// The verdict in one word or list: `unique` (every check decided, no alternative),
    /// `alt 1,7` (alternatives at these plies, every check decided), or `undecided`
    /// (some check left open; the alternatives found so far are still listed in
    /// `plies`).
    pub fn status(&self) -> String {
        if !self.decided() {
            return "undecided".to_string();
        }
        let plies = self.plies_with_alternatives();
        if plies.is_empty() {
            "unique".to_string()
        } else {
            format!("alt {}", plies.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(","))
        }
    }
}

/// Plays `line` out from `pos` (attacker to move): every move legal, every attacker
/// move a check, mate at the end, and at most `limit` counted plies, where a pair
/// marked uncounted must be a drop and the capture of the dropped piece. Returns the
/// counted plies.
pub(super) fn verify_line(pos: &Position, line: &Pv, limit: u16) -> Option<u16> {
    let moves: Vec<Move> = line.iter().map(|&(m, _)| m).collect();
    if !is_mating_line(pos, &moves) {
        return None;
    }
    let mut uncounted = 0usize;
    let mut i = 0;
    while i < line.len() {
        if !line[i].1 {
            let (drop, take) = (line[i].0, line.get(i + 1)?.0);
            if i % 2 == 0 || line[i + 1].1 || !drop.is_drop() || take.to() != drop.to() {
                return None;
            }
            uncounted += 2;
            i += 2;
        } else {
            i += 1;
        }
    }
    let counted = u16::try_from(line.len() - uncounted).ok()?;
    (counted <= limit).then_some(counted)
}

impl Solver {
    /// The alternative mates along `main` (a mating line from `pos`: the attacker's
    /// move first, or the defender's when the side to move in `pos` is in check), on a
    /// thread with a deep stack; see the module's doc for what counts. Uses this
    /// solver's table as the solve left it and its conventions setting.
    pub fn alternatives_deep(&mut self, pos: &Position, main: &[Move], limits: AltLimits, stop: &AtomicBool) -> AltReport {
        on_deep_stack(|| self.alternatives(pos, main, limits, stop)).unwrap_or_default()
    }

    /// `alternatives_deep` on the caller's thread.
    pub fn alternatives(&mut self, pos: &Position, main: &[Move], limits: AltLimits, stop: &AtomicBool) -> AltReport {
        let progress = self.progress.take();
        let stats = self.stats;
        self.budget = u64::MAX;
        let mut report = AltReport::default();
        let mut p = pos.clone();
        // A root in check has the defender to move: the attacker's plies are the odd ones.
        let attacker_parity = usize::from(pos.in_check());
        for (k, &m) in main.iter().enumerate() {
            if k % 2 == attacker_parity {
                let raw_left = u16::try_from(main.len() - k).unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
                let mut at = self.alternatives_at(&mut p, m, raw_left, limits, stop);
                at.ply = k + 1;
                report.plies.push(at);
            }
            if !movegen::is_legal(&p, m) {
                break;
            }
            p.do_move(m);
        }
        report.nodes = self.stats.nodes - stats.nodes;
        self.stats = stats;
        self.progress = progress;
        report
    }

    /// The checks at one attacker node (`pos`, left as found) whose main move is
    /// `main` with `raw_left` plies of the main line from here.
    fn alternatives_at(&mut self, pos: &mut Position, main: Move, raw_left: u16, limits: AltLimits, stop: &AtomicBool) -> AltPly {
        let mut list = MoveList::new();
        let mut kids = Vec::new();
        gen_node_moves(pos, true, &mut list, &mut kids);
        let others: Vec<Move> = kids.iter().map(|c| c.m).filter(|&m| m != main).collect();
        let remaining = self.exact_value(pos, raw_left, true, limits, stop).ok();
        let mut ply = AltPly {
            ply: 0,
            main,
            remaining,
            final_move: raw_left == 1,
            candidates: others.len(),
            alternatives: Vec::new(),
            undecided: Vec::new(),
        };
        let Some(r) = remaining else { return ply };
        ply.final_move = r == 1;
        for m in others {
            match self.check_alternative(pos, m, r, limits, stop) {
                Ok(Some(mut alt)) => {
                    alt.promotion_twin = !m.is_drop() && !main.is_drop() && m.from() == main.from() && m.to() == main.to();
                    alt.drop_twin = m.is_drop() && main.is_drop() && m.drop_piece() == main.drop_piece();
                    ply.alternatives.push(alt);
                }
                Ok(None) => {}
                Err(reason) => ply.undecided.push(AltUndecided { mv: m, reason }),
            }
        }
        ply
    }

    /// The exact (shortest) mate length of the node `pos` (`or_node`: attacker to
    /// move), known to be mated within `upper` plies or checked to be. `Err` with the
    /// reason when a question stays open or no mate within `upper` is found.
    fn exact_value(&mut self, pos: &mut Position, upper: u16, or_node: bool, limits: AltLimits, stop: &AtomicBool) -> Result<u16, &'static str> {
        let mut v = match self.ask(pos, upper, or_node, stop, limits.deadline, limits.nodes_per_check) {
            Answer::Yes(l) => l.min(upper),
            Answer::No => return Err("no mate within the main line's length"),
            Answer::Unknown => return Err(super::line::open_reason(stop, limits.deadline)),
        };
        while v >= 2 {
            match self.ask(pos, v - 2, or_node, stop, limits.deadline, limits.nodes_per_check) {
                Answer::Yes(l) => v = l.min(v - 2),
                Answer::No => break,
                Answer::Unknown => return Err(super::line::open_reason(stop, limits.deadline)),
            }
        }
        Ok(v)
    }

    /// Whether the check `m` from `pos` mates within `limit` plies: `Ok(Some)` with
    /// its verified line, `Ok(None)` when it does not, `Err` when undecided.
    fn check_alternative(&mut self, pos: &mut Position, m: Move, limit: u16, limits: AltLimits, stop: &AtomicBool) -> Result<Option<AltMate>, &'static str> {
        pos.do_move(m);
        let within = self.ask(pos, limit - 1, false, stop, limits.deadline, limits.nodes_per_check);
        let out = match within {
            Answer::No => Ok(None),
            Answer::Unknown => Err(super::line::open_reason(stop, limits.deadline)),
            Answer::Yes(_) => self.exact_value(pos, limit - 1, false, limits, stop).and_then(|v| self.alternative_line(pos, v, limits, stop)),
        };
        pos.undo_move(m);
        let line = match out {
            Ok(Some((line, best))) => (line, best),
            Ok(None) => return Ok(None),
            Err(e) => return Err(e),
        };
        let mut full: Pv = vec![(m, true)];
        full.extend(line.0.iter().copied());
        let Some(plies) = verify_line(pos, &full, limit) else {
            return Err("mate proved, but its line failed the check");
        };
        Ok(Some(AltMate { mv: m, line: full.iter().map(|&(mm, _)| mm).collect(), plies, best_defence: line.1, promotion_twin: false, drop_twin: false }))
    }

    /// The line after an alternative move (`pos`: the defender to move, mated in
    /// exactly `v` plies): the best defence when it can be read within the limits,
    /// else one defence and the table's line after it. `Ok(Some((line, best)))`.
    fn alternative_line(&mut self, pos: &mut Position, v: u16, limits: AltLimits, stop: &AtomicBool) -> Result<Option<(Pv, bool)>, &'static str> {
        let mut ctx = PvCtx { stop, deadline: limits.deadline, max_nodes: limits.nodes_per_check, budget: 64, failed: false };
        let mut line = Pv::new();
        if self.pv_and(pos, v, &mut ctx, &mut line) && !ctx.failed {
            return Ok(Some((line, true)));
        }
        // One defence, then the table's line (a bounded greedy read).
        for reply in movegen::legal_moves(pos).iter().copied() {
            pos.do_move(reply);
            let tail = if v >= 1 { self.greedy_line(pos, limits.nodes_per_check, v - 1) } else { Vec::new() };
            let pairs = self.tail_pairs as usize;
            pos.undo_move(reply);
            if tail.is_empty() {
                continue;
            }
            let mut out: Pv = vec![(reply, true)];
            let counted = tail.len() - 2 * pairs;
            out.extend(tail.iter().enumerate().map(|(i, &mm)| (mm, i < counted)));
            return Ok(Some((out, false)));
        }
        Err("mate proved, but no line could be read within the budget")
    }
}
