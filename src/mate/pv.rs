//! The line a running solve is working on, for its progress reports (`go mate`
//! prints it as `info ... pv`): read from the table, starting at the solve's root,
//! the way df-pn itself walks the tree. At the attacker's nodes the check proved
//! shortest, else the one with the smallest proof number (ties: the larger disproof
//! number); at the defender's nodes a refutation, else the reply with the smallest
//! disproof number (the most resisting; ties: the larger proof number), else the one
//! proved longest. The walk stops where the table knows nothing of the next node, at
//! a repetition, at a move that is not legal where it stands, and after
//! `MAX_PV_PLIES`; it costs one move generation and one probe per child along the
//! line, and runs once per report. Uses `table`, `keys` and `dfpn`.

use super::*;

/// Longest line a progress report shows (plies).
pub const MAX_PV_PLIES: usize = 256;

/// Where lines are read from: a solve's root, the key salt of its first search
/// (the plain rules: that table holds the first proof) and whether that proof is in.
pub(super) struct LineRoot {
    pub(super) pos: Position,
    pub(super) salt: u64,
    pub(super) proved: bool,
}

impl LineRoot {
    /// The root of a solve of `pos`, attacker to move.
    pub(super) fn new(pos: &Position) -> LineRoot {
        LineRoot { pos: pos.clone(), salt: mode_salt(key_salt(pos, pos.side_to_move()), false, Futility::Capped), proved: false }
    }
}

/// Order of a child for the line: lower first.
type Rank = (u8, u32, u32);

/// The child's `Rank`; `None`: never followed (a disproved check: the attacker would
/// not play it).
fn rank(r: &Res, or_node: bool) -> Option<Rank> {
    if or_node {
        if r.pn == 0 {
            Some((0, r.len as u32, 0))
        } else if r.dn == 0 {
            None
        } else {
            Some((1, r.pn, INF - r.dn.min(INF)))
        }
    } else if r.dn == 0 {
        Some((0, 0, 0))
    } else if r.pn == 0 {
        Some((2, (NO_LEN - r.len) as u32, 0))
    } else {
        Some((1, r.dn, INF - r.pn.min(INF)))
    }
}

/// The most promising line from `root` (attacker to move) as the table `tt` has it
/// under `salt`, at most `max_plies` long. Every move is legal where it stands.
pub(super) fn table_line(tt: &MateTable, root: &Position, salt: u64, max_plies: usize) -> Vec<Move> {
    let mut p = root.clone();
    let attacker = p.side_to_move();
    let mut seen = vec![(node_key(&p, salt), p.hand(attacker))];
    let mut line = Vec::new();
    let (mut list, mut kids) = (MoveList::new(), Vec::new());
    let mut or_node = true;
    while line.len() < max_plies.min(MAX_DEPTH as usize - 1) {
        kids.clear();
        gen_node_moves(&p, or_node, &mut list, &mut kids);
        let hand = p.hand(attacker);
        let depth = MAX_DEPTH - 1 - line.len() as u16;
        let mut best: Option<(Rank, Move, u64, Hand)> = None;
        for c in &kids {
            let key = board_key_after(&p, c.m, salt);
            let chand = if or_node { hand_after_attack(&p, hand, c.m) } else { hand };
            let Some(r) = tt.probe_known(key, chand, depth) else { continue };
            let Some(k) = rank(&r, or_node) else { continue };
            if best.as_ref().is_none_or(|b| k < b.0) {
                best = Some((k, c.m, key, chand));
            }
        }
        let Some((_, m, key, chand)) = best else { break };
        if seen.contains(&(key, chand)) || !movegen::is_legal(&p, m) {
            break;
        }
        p.do_move(m);
        line.push(m);
        seen.push((key, chand));
        or_node = !or_node;
    }
    line
}

/// The longest prefix of `line` whose every move is legal where it stands in `pos`.
pub fn legal_prefix(pos: &Position, line: &[Move]) -> usize {
    let mut p = pos.clone();
    for (i, &m) in line.iter().enumerate() {
        if !movegen::is_legal(&p, m) {
            return i;
        }
        p.do_move(m);
    }
    line.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position after `line` from `sfen`.
    fn after(sfen: &str, line: &[Move]) -> Position {
        let mut p = Position::from_sfen(sfen).expect("sfen");
        line.iter().for_each(|&m| p.do_move(m));
        p
    }

    /// Jupiter's Journey (411 plies): far from solved in the nodes given here.
    const LONG: &str = "3pl3p/1+Pn3pk1/2+p6/4+pG3/1K3p2P/+B5l1+B/+p3pS1+ll/p+p2PN3/3S1+sSPN b 2R2P3gn2p 1";

    #[test]
    fn a_partly_solved_table_gives_a_legal_line_of_checks() {
        crate::init();
        let pos = Position::from_sfen(LONG).expect("sfen");
        let mut solver = Solver::new(16);
        let never = AtomicBool::new(false);
        assert_eq!(solver.ask(&mut pos.clone(), MAX_DEPTH, true, &never, None, 200_000), Answer::Unknown);
        let root = LineRoot::new(&pos);
        let line = table_line(&solver.tt, &root.pos, root.salt, MAX_PV_PLIES);
        assert!(line.len() >= 2, "{line:?}");
        assert_eq!(legal_prefix(&pos, &line), line.len());
        // The attacker's moves are checks, the defender's answer them.
        let mut p = pos.clone();
        for (i, &m) in line.iter().enumerate() {
            p.do_move(m);
            assert_eq!(p.in_check(), i % 2 == 0, "ply {}: {m}", i + 1);
        }
        // The same table read again gives the same line; a shorter bound cuts it.
        assert_eq!(table_line(&solver.tt, &root.pos, root.salt, MAX_PV_PLIES), line);
        assert_eq!(table_line(&solver.tt, &root.pos, root.salt, 1), line[..1].to_vec());
        // An empty table knows nothing: no line.
        assert!(table_line(&MateTable::new(1), &root.pos, root.salt, MAX_PV_PLIES).is_empty());
    }

    #[test]
    fn a_proved_table_gives_the_proof_to_the_mate() {
        crate::init();
        let sfen = "6s1k/6+P2/8n/6+P2/9/9/9/9/9 b SNP2r2b4g2s2n4l15p 1";
        let pos = Position::from_sfen(sfen).expect("sfen");
        let mut solver = Solver::new(16);
        let never = AtomicBool::new(false);
        // The first proof need not be the shortest (here 9 plies, the shortest is 3).
        let Answer::Yes(len) = solver.ask(&mut pos.clone(), MAX_DEPTH, true, &never, None, 100_000) else { panic!("not proved") };
        let root = LineRoot::new(&pos);
        let line = table_line(&solver.tt, &root.pos, root.salt, MAX_PV_PLIES);
        assert!(is_mating_line(&pos, &line) && line.len() <= len as usize, "{line:?}, a proof of {len}");
        let end = after(sfen, &line);
        assert!(end.in_check() && movegen::legal_moves(&end).is_empty());
    }

    #[test]
    fn the_walk_ends_at_a_repetition_and_at_an_illegal_move() {
        crate::init();
        // The rook checks from 9a and 9b in turn, the king steps between 5a and 5b:
        // after four plies the root comes back. A table that holds only these nodes,
        // each open, leads the walk round the cycle once and no further.
        let sfen = "4k4/R8/9/9/9/9/9/9/4K4 b - 1";
        let pos = Position::from_sfen(sfen).expect("sfen");
        let root = LineRoot::new(&pos);
        let cycle: Vec<Move> = ["9b9a", "5a5b", "9a9b", "5b5a"].iter().map(|m| Move::from_usi(m).expect("move")).collect();
        let mut tt = MateTable::new(1);
        for k in 1..=cycle.len() {
            let q = after(sfen, &cycle[..k]);
            tt.store_unknown(node_key(&q, root.salt), Hand::EMPTY, 3, 3, 1);
        }
        let line = table_line(&tt, &root.pos, root.salt, MAX_PV_PLIES);
        assert_eq!(line, cycle[..3].to_vec(), "the walk must stop before the root comes back");
        assert_eq!(table_line(&tt, &root.pos, root.salt, 2), cycle[..2].to_vec());
        // A move that is not legal where it stands cuts a line there.
        assert_eq!(legal_prefix(&pos, &cycle), 4);
        let mut bad = cycle.clone();
        bad.insert(1, cycle[0]);
        assert_eq!(legal_prefix(&pos, &bad), 1);
    }
}
