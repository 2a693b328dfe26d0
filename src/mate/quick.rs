//! Quick answers before df-pn: a mate in 1 (a check that leaves no legal evasion) and
//! a mate in 3 (a check every evasion of which is answered by a mate in 1), found by
//! a direct search with a small cap on its work, so that the common short problems
//! never pay for df-pn's setup and its shortening of a first proof. A mate in 3 is
//! only tried once no mate in 1 exists, so either is the shortest. Under the
//! composers' conventions the mate in 3 is left to df-pn wherever an interposing drop
//! could be played (it might be futile and change the count). Uses `movegen` and
//! `position`.

use super::*;

/// Positions the mate-in-3 try may visit before it leaves the problem to df-pn.
const QUICK_POSITIONS: u64 = 1500;

/// The legal moves of `pos` into `list` (cleared first), unpromoted pawn, bishop and
/// rook moves included (every defence counts, as in df-pn).
fn legal_into(pos: &Position, list: &mut MoveList) {
    list.clear();
    movegen::generate(pos, GenType::Legal, true, list);
}

/// Whether the side to move has no legal move (an unpromoted move is legal only where
/// its promoted twin is, so those are left out here).
fn is_mated(pos: &Position, list: &mut MoveList) -> bool {
    list.clear();
    movegen::generate(pos, GenType::Legal, false, list);
    list.is_empty()
}

/// A check from `pos` that mates at once, the first the generator gives.
fn mate_in_one(pos: &mut Position, seen: &mut u64) -> Option<Move> {
    let mut checks = MoveList::new();
    let mut scratch = MoveList::new();
    movegen::generate_checks(pos, &mut checks);
    for &m in checks.iter() {
        *seen += 1;
        pos.do_move(m);
        let mated = is_mated(pos, &mut scratch);
        pos.undo_move(m);
        if mated {
            return Some(m);
        }
    }
    None
}

/// Whether a problem solved by the conventions might count differently than by the
/// rules within 3 plies: some check of `pos` can be answered by a drop.
fn drop_evasion_after_some_check(pos: &mut Position, seen: &mut u64) -> bool {
    let mut checks = MoveList::new();
    let mut evasions = MoveList::new();
    movegen::generate_checks(pos, &mut checks);
    checks.iter().any(|&m| {
        *seen += 1;
        pos.do_move(m);
        legal_into(pos, &mut evasions);
        pos.undo_move(m);
        evasions.iter().any(|e| e.is_drop())
    })
}

/// A mate in 3 from `pos` (no mate in 1 there): the first check every evasion of
/// which is mated at once, with the defence that leaves the attacker the fewest
/// pieces in hand (the first of those), as the solver's line picks it. `None` when
/// there is none or the cap is reached first.
fn mate_in_three(pos: &mut Position, seen: &mut u64) -> Option<Vec<Move>> {
    let attacker = pos.side_to_move();
    let mut checks = MoveList::new();
    let mut evasions = MoveList::new();
    movegen::generate_checks(pos, &mut checks);
    for &m in checks.iter() {
        pos.do_move(m);
        legal_into(pos, &mut evasions);
        let mut best: Option<(u32, Move, Move)> = None;
        for &e in evasions.iter() {
            pos.do_move(e);
            let reply = mate_in_one(pos, seen);
            let left = reply.map(|r| hand_total(hand_after_attack(pos, pos.hand(attacker), r)));
            pos.undo_move(e);
            match (reply, left) {
                (Some(r), Some(left)) if best.is_none_or(|b| left < b.0) => best = Some((left, e, r)),
                (Some(_), _) => {}
                _ => {
                    best = None;
                    break;
                }
            }
            if *seen > QUICK_POSITIONS {
                break;
            }
        }
        pos.undo_move(m);
        if *seen > QUICK_POSITIONS {
            return None;
        }
        if let Some((_, e, r)) = best {
            return Some(vec![m, e, r]);
        }
    }
    None
}

impl Solver {
    /// The shortest mate when it takes 1 or 3 plies and the direct search finds it
    /// within its cap; the statistics say so (proved shortest). `None`: df-pn decides
    /// (at once when the solve's node budget, `max_nodes`, is too small for the cap:
    /// the positions visited count as nodes).
    pub(super) fn quick_solve(&mut self, pos: &mut Position, max_nodes: u64) -> Option<Vec<Move>> {
        if max_nodes < 4 * QUICK_POSITIONS {
            return None;
        }
        let mut seen = 0;
        let mut line = mate_in_one(pos, &mut seen).map(|m| vec![m]);
        if line.is_none() && !(self.conventions && drop_evasion_after_some_check(pos, &mut seen)) {
            line = mate_in_three(pos, &mut seen);
        }
        self.stats.nodes += seen;
        let line = line?;
        let len = line.len() as u16;
        self.stats.exact = true;
        self.stats.mate_within = len;
        self.stats.length = len;
        Some(line)
    }
}
