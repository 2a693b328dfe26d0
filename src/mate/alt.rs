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
//! * A move that mates only in more plies than `R` is a longer alternative, which the
//!   composers count as a flaw (キズ; 将棋無双 第14番's 7四龍, 9 plies against the
//!   main line's 5), unless its line comes back to the main line: passes through a
//!   position of the main line from this node on (the same board, hands and side to
//!   move), a detour (迂回), which is no flaw. These are looked for when
//!   `AltLimits::longer` is set, at any length, and kept apart from the
//!   same-length ones: `AltReport::status` is about the latter only, as it always was,
//!   and `AltReport::longer_status` about the former. The detour test is made on the
//!   line shown (the best defence when it could be read).
//! * A promoted and an unpromoted move between the same squares are different moves;
//!   such a pair is marked (成・不成非限定), as is a drop of the main move's piece on
//!   another square (打ち場所非限定).
//! * Alternatives inside the defender's side variations (変化別詰) are not checked: only
//!   the attacker's nodes of the main line.
//!
//! Every check is one bounded question to the solver ("is the defender mated within
//! `R - 1` plies after this move?") with a node budget and a deadline; a question left
//! open is reported as undecided, never as "no alternative". A move that does not mate
//! within `R` gets a second question of the same kind, within the solver's depth limit
//! (with the same budget), when longer mates are looked for; one left open is a longer question
//! undecided, which leaves `status` alone. Should that question find a mate within `R`
//! after all (under the conventions the solver's futility tests are bounded, see
//! `futile`, so two questions can disagree), its verified line makes it an alternative
//! of the same length. Each alternative found comes with a mating line (the best
//! defence where it can be read within the budget, otherwise one defence and the
//! table's line) that is played out on a `Position`: legal, every attacker move a
//! check, mate at the end, within `R` plies (a longer one: within its bound). The
//! solver's table from the solve is kept warm, so most questions are answered from it.
//!
//! The detour test looks at one line: where the attacker has two mates of the same
//! length after the move, one coming back and one not, which is shown decides it
//! (Zuko 98's final position: 3c2d 2a3a, then 2d3c back or 2d2b on).
//! Uses `Solver::ask` and the solution extraction of `line`.

use super::line::{Pv, PvCtx};
use super::*;

/// `exact_value`'s answer when the node has no mate within the main line's length by
/// the conventions alone (only a line shortened by the pieces-to-spare rule has that).
const NO_MATE_WITHIN: &str = "no mate within the main line's length";

/// Limits of the alternative-mate checks.
#[derive(Clone, Copy, Debug)]
pub struct AltLimits {
    /// Nodes one question (one candidate move, or one length) may spend.
    pub nodes_per_check: u64,
    /// When the whole pass stops (checks not made by then are undecided).
    pub deadline: Option<Instant>,
    /// Look for longer mates too, at any length: within the solver's depth limit, so
    /// the questions are bounded by their nodes, not by their depth.
    pub longer: bool,
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

/// A mate that takes more plies than the node's length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LongerMate {
    /// The move, its line and length (`plies` > the node's length) as for the others.
    pub mate: AltMate,
    /// `Some(j)`: the line passes through the main line's position before its ply `j`
    /// (`j` = the main line's length + 1: its final, mated position), a detour (迂回);
    /// `None`: it does not, a longer alternative (a flaw).
    pub detour_at: Option<usize>,
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
    /// Whether `remaining` is the main line's own length, shorter than any mate by the
    /// conventions alone: the pieces-to-spare rule set a longer defence aside in it
    /// (`spare`). Other checks are then judged within it by the conventions alone,
    /// which may miss an alternative that needs the rule too.
    pub by_rule: bool,
    /// Whether this is the main line's last (mating) move.
    pub final_move: bool,
    /// Other checks looked at.
    pub candidates: usize,
    pub alternatives: Vec<AltMate>,
    pub undecided: Vec<AltUndecided>,
    /// Mates in more plies than `remaining`, detours included (when looked for).
    pub longer: Vec<LongerMate>,
    /// Other checks whose longer question was left open.
    pub longer_undecided: Vec<AltUndecided>,
}

/// The result of the alternative-mate pass over a main line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AltReport {
    pub plies: Vec<AltPly>,
    /// Nodes the pass spent.
    pub nodes: u64,
    /// Whether longer mates were looked for.
    pub longer: bool,
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
            format!("alt {}", plies_list(&plies))
        }
    }

    /// The plies (1-based) that have a longer alternative that is no detour.
    pub fn plies_with_longer(&self) -> Vec<usize> {
        self.plies.iter().filter(|p| p.longer.iter().any(|l| l.detour_at.is_none())).map(|p| p.ply).collect()
    }

    /// The verdict on longer mates: `longer none` (every question decided, none but
    /// detours), `longer 1,79` (longer alternatives that are no detour at these plies,
    /// every question decided), `longer undecided` (some question, of either kind, left
    /// open), or `longer unchecked` (not looked for).
    pub fn longer_status(&self) -> String {
        if !self.longer {
            return "longer unchecked".to_string();
        }
        if !self.decided() || self.plies.iter().any(|p| !p.longer_undecided.is_empty()) {
            return "longer undecided".to_string();
        }
        let plies = self.plies_with_longer();
        if plies.is_empty() {
            "longer none".to_string()
        } else {
            format!("longer {}", plies_list(&plies))
        }
    }
}

/// `1,7` for plies 1 and 7.
fn plies_list(plies: &[usize]) -> String {
    plies.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(",")
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

/// The full keys (board, hands, side to move) of the main line's positions: before
/// each of its moves, then after the last (as far as its moves are legal).
fn main_line_keys(pos: &Position, main: &[Move]) -> Vec<u64> {
    let mut p = pos.clone();
    let mut keys = vec![p.key()];
    for &m in main {
        if !movegen::is_legal(&p, m) {
            break;
        }
        p.do_move(m);
        keys.push(p.key());
    }
    keys
}

/// One attacker node of the main line, as the pass looks at it.
struct MainNode<'a> {
    /// The main line's move here, its 1-based ply and the plies left from here.
    main: Move,
    ply: usize,
    raw_left: u16,
    /// The keys of the main line's positions from this node on (`main_line_keys`).
    later: &'a [u64],
}

impl MainNode<'_> {
    /// The main line's ply before which `line` (from `pos`, this node) passes through
    /// a position of the main line from here on: a detour. `None`: it never does.
    fn detour_at(&self, pos: &Position, line: &[Move]) -> Option<usize> {
        let mut p = pos.clone();
        for &m in line {
            p.do_move(m);
            let key = p.key();
            if let Some(i) = self.later.iter().position(|&k| k == key) {
                return Some(self.ply + i);
            }
        }
        None
    }
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
        let mut report = AltReport { longer: limits.longer, ..AltReport::default() };
        let keys = main_line_keys(pos, main);
        let mut p = pos.clone();
        // A root in check has the defender to move: the attacker's plies are the odd ones.
        let attacker_parity = usize::from(pos.in_check());
        for (k, &m) in main.iter().enumerate() {
            if k % 2 == attacker_parity {
                let raw_left = u16::try_from(main.len() - k).unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
                let node = MainNode { main: m, raw_left, ply: k + 1, later: &keys[k.min(keys.len())..] };
                report.plies.push(self.alternatives_at(&mut p, &node, limits, stop));
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

    /// The checks at one attacker node (`pos`, left as found) of the main line.
    fn alternatives_at(&mut self, pos: &mut Position, node: &MainNode, limits: AltLimits, stop: &AtomicBool) -> AltPly {
        let main = node.main;
        let mut list = MoveList::new();
        let mut kids = Vec::new();
        gen_node_moves(pos, true, &mut list, &mut kids);
        let others: Vec<Move> = kids.iter().map(|c| c.m).filter(|&m| m != main).collect();
        let (remaining, by_rule) = match self.exact_value(pos, node.raw_left, true, limits, stop) {
            Ok(v) => (Some(v), false),
            // No mate within the main line's length by the conventions alone: the
            // pieces-to-spare rule shortened the line, and its length is the one to keep to.
            Err(NO_MATE_WITHIN) => (Some(node.raw_left), true),
            Err(_) => (None, false),
        };
        let mut ply = AltPly {
            ply: node.ply,
            main,
            remaining,
            by_rule,
            final_move: node.raw_left == 1,
            candidates: others.len(),
            alternatives: Vec::new(),
            undecided: Vec::new(),
            longer: Vec::new(),
            longer_undecided: Vec::new(),
        };
        let Some(r) = remaining else { return ply };
        ply.final_move = r == 1;
        let twins = |mut alt: AltMate| {
            let m = alt.mv;
            alt.promotion_twin = !m.is_drop() && !main.is_drop() && m.from() == main.from() && m.to() == main.to();
            alt.drop_twin = m.is_drop() && main.is_drop() && m.drop_piece() == main.drop_piece();
            alt
        };
        for m in others {
            match self.check_alternative(pos, m, r, limits, stop) {
                Ok(Some(alt)) => ply.alternatives.push(twins(alt)),
                Ok(None) => {
                    if !limits.longer || r >= MAX_DEPTH {
                        continue;
                    }
                    match self.check_alternative(pos, m, MAX_DEPTH, limits, stop) {
                        // Within `r` after all: the first answer missed it (see the
                        // module doc), the verified line shows it.
                        Ok(Some(alt)) if alt.plies <= r => ply.alternatives.push(twins(alt)),
                        Ok(Some(alt)) => {
                            let detour_at = node.detour_at(pos, &alt.line);
                            ply.longer.push(LongerMate { mate: twins(alt), detour_at });
                        }
                        Ok(None) => {}
                        Err(reason) => ply.longer_undecided.push(AltUndecided { mv: m, reason }),
                    }
                }
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
            Answer::No => return Err(NO_MATE_WITHIN),
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
        let mut ctx = PvCtx::new(stop, limits.deadline, limits.nodes_per_check);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ply(n: usize, longer: Vec<Option<usize>>, open: bool) -> AltPly {
        let mv = Move::from_usi("G*8d").expect("move");
        let mate = AltMate { mv, line: vec![mv], plies: 9, best_defence: true, promotion_twin: false, drop_twin: false };
        AltPly {
            ply: n,
            main: mv,
            remaining: Some(5),
            by_rule: false,
            final_move: false,
            candidates: 1,
            alternatives: Vec::new(),
            undecided: Vec::new(),
            longer: longer.into_iter().map(|detour_at| LongerMate { mate: mate.clone(), detour_at }).collect(),
            longer_undecided: if open { vec![AltUndecided { mv, reason: "node limit" }] } else { Vec::new() },
        }
    }

    #[test]
    fn longer_status_lists_flaws_not_detours() {
        let report = |plies| AltReport { plies, nodes: 0, longer: true };
        assert_eq!(report(vec![ply(1, vec![None], false), ply(3, vec![Some(5)], false)]).longer_status(), "longer 1");
        assert_eq!(report(vec![ply(1, vec![Some(1)], false)]).longer_status(), "longer none");
        assert_eq!(report(vec![ply(1, vec![None], true)]).longer_status(), "longer undecided");
        let r = report(vec![ply(1, vec![None], false)]);
        // The same-length status is not touched by longer mates.
        assert_eq!((r.status().as_str(), r.plies_with_longer()), ("unique", vec![1]));
        assert_eq!(AltReport { longer: false, ..r }.longer_status(), "longer unchecked");
    }
}
