//! Delayed expansion of interpositions (the idea of KomoringHeights' delayed moves):
//! at a defender's node, the drops that block a distant check are put into
//! chains, and a drop waits, counted neither in the node's proof number nor chosen,
//! while an earlier drop of its chain is unresolved. Drops on one square form a chain
//! (if one of them is mated, the others mostly are too); drops that nothing of the
//! defender's guards and that give no check form one chain across squares (the
//! "middle interpositions", almost always futile). Without the chains a distant
//! check's node counts every drop on every square, and a ladder of such checks looks
//! far harder than it is.
//!
//! A chain is a small number (`Child::chain`, 0: the move never waits) given in the
//! order the moves were generated; a node keeps at most `MAX_CHAINS - 1` chains, and
//! moves past them never wait.

use super::*;

/// Chains per node, so that the chains with an unresolved member fit in a `u64`.
pub(super) const MAX_CHAINS: u8 = 64;

/// Gives the drops among the defender's moves `children` (`pos`: the defender to
/// move, in check) their chains. Returns whether any move got one.
pub(super) fn chain_interpositions(pos: &Position, children: &mut [Child]) -> bool {
    let defender = pos.side_to_move();
    let occ = pos.occupied();
    // A defender's drop that checks the attacker's king is no mere block. Made at the
    // first drop: most defenders' nodes (a contact check, a king step only) have none.
    let mut checks: Option<movegen::CheckInfo> = None;
    let mut square_chain = [0u8; Square::NUM];
    let mut loose_chain = 0u8;
    let mut next = 1u8;
    let mut any = false;
    for c in children.iter_mut() {
        if !c.m.is_drop() {
            continue;
        }
        let to = c.m.to();
        let guarded = pos.is_attacked(to, defender, occ) || checks.get_or_insert_with(|| movegen::CheckInfo::new(pos)).gives_check(pos, c.m);
        let slot = if guarded { &mut square_chain[to.index()] } else { &mut loose_chain };
        if *slot == 0 {
            if next == MAX_CHAINS {
                continue;
            }
            *slot = next;
            next += 1;
        }
        c.chain = *slot;
        any = true;
    }
    any
}

/// What the waiting moves add to their node's proof number: one for every 16, so
/// that a defender with many interpositions in reserve is not taken for an easy one
/// (KomoringHeights adds half a unit, at least, for its reason: without it a defender
/// varying its interposing pieces can make the search go ever deeper). On the first
/// proofs of 14 middle-length classics, no addition and one for any waiting did the
/// same within a few per cent (86 s against 93 and 87 s).
#[inline]
pub(super) fn waiting_penalty(waiters: u32) -> u32 {
    waiters / 16
}

/// Walks `children` in order and says of each whether it waits: it is unresolved and
/// an earlier unresolved move shares its chain.
pub(super) struct Waiting {
    busy: u64,
}

impl Waiting {
    #[inline]
    pub(super) fn new() -> Waiting {
        Waiting { busy: 0 }
    }

    /// Whether `c`, the next child in order, waits.
    #[inline]
    pub(super) fn waits(&mut self, c: &Child) -> bool {
        if c.chain == 0 || c.r.pn == 0 || c.r.dn == 0 {
            return false;
        }
        let bit = 1u64 << c.chain;
        let waits = self.busy & bit != 0;
        self.busy |= bit;
        waits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chain of each evasion of `sfen` (defender to move, in check), by USI move.
    fn chains(sfen: &str) -> Vec<(String, u8)> {
        crate::init();
        let pos = Position::from_sfen(sfen).expect("sfen");
        let (mut list, mut kids) = (MoveList::new(), Vec::new());
        gen_node_moves(&pos, false, &mut list, &mut kids);
        assert!(chain_interpositions(&pos, &mut kids));
        kids.iter().map(|c| (c.m.to_string(), c.chain)).collect()
    }

    fn chain_of(chains: &[(String, u8)], usi: &str) -> u8 {
        chains.iter().find(|(m, _)| m == usi).map_or_else(|| panic!("{usi} not generated"), |c| c.1)
    }

    #[test]
    fn interpositions_wait_by_square_or_in_the_loose_chain() {
        // A rook's check down file 5. 5b is guarded by the king, 5c by the silver on 6b;
        // on 5d a silver or gold would check the attacker's king on 6e, a pawn would not
        // and nothing guards it.
        let c = chains("4k4/3s5/9/9/3KR4/9/9/9/9 w gsp 1");
        let (b, cc, d, loose) = (chain_of(&c, "G*5b"), chain_of(&c, "G*5c"), chain_of(&c, "G*5d"), chain_of(&c, "P*5d"));
        for (kind, chain) in [("S*5b", b), ("P*5b", b), ("S*5c", cc), ("P*5c", cc), ("S*5d", d)] {
            assert_eq!(chain_of(&c, kind), chain, "{kind}");
        }
        let mut distinct = vec![b, cc, d, loose];
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 4, "four chains: {c:?}");
        assert!(!distinct.contains(&0));
        assert_eq!(chain_of(&c, "5a4a"), 0, "a king step never waits");
        assert_eq!(chain_of(&c, "6b5c"), 0, "nor a board move");
    }

    /// A bounded search of `pos` (attacker to move) within `depth` plies from an
    /// empty table, with delayed expansion on or off; its value and nodes.
    fn bounded(pos: &Position, depth: u16, conventions: bool, delay: bool) -> (Res, u64) {
        crate::mate::tests::bounded_search(pos, depth, conventions, |s| s.delay = delay)
    }

    #[test]
    fn delayed_interpositions_change_no_answer() {
        crate::init();
        let dir = format!("{}/positions/mate", env!("CARGO_MANIFEST_DIR"));
        let (mut answers, mut other_trees) = ([0; 2], 0);
        for file in ["mate_short.txt", "mate_long.txt", "nomate.txt"] {
            let text = std::fs::read_to_string(format!("{dir}/{file}")).expect("problem file");
            for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
                let pos = Position::from_sfen(line.split('|').next().unwrap_or("").trim()).expect("sfen");
                for (depth, conventions) in [(5, false), (9, false), (9, true)] {
                    let ((on, nodes_on), (off, nodes_off)) = (bounded(&pos, depth, conventions, true), bounded(&pos, depth, conventions, false));
                    other_trees += (nodes_on != nodes_off) as u32;
                    assert_eq!((on.pn == 0, on.dn == 0), (off.pn == 0, off.dn == 0), "{line} within {depth}");
                    answers[(on.pn == 0) as usize] += 1;
                }
            }
        }
        assert!(answers[0] > 10 && answers[1] > 10, "mates and no mates both asked: {answers:?}");
        assert!(other_trees > 10, "the delay changed the tree in {other_trees} searches only");
    }

    #[test]
    fn a_move_waits_while_an_earlier_one_of_its_chain_is_open() {
        let open = Res::unknown(1, 1);
        let proved = Res { pn: 0, dn: INF, len: 1, ddepth: 0, ph: Hand::EMPTY, rep: NO_REP };
        let child = |chain, r| Child { m: Move::NONE, key: 0, hand: Hand::EMPTY, r, chain };
        let kids = [child(1, proved), child(1, open), child(2, open), child(1, open), child(0, open), child(2, open), child(1, proved)];
        let mut w = Waiting::new();
        let waits: Vec<bool> = kids.iter().map(|c| w.waits(c)).collect();
        assert_eq!(waits, [false, false, false, true, false, true, false]);
    }
}
