//! The nodes next to a bounded search's horizon, answered without a node per move:
//! an attacker's node with one or three plies left (a mate in one or three, or none
//! within the bound) and a defender's node with two. The shortening of a first proof
//! and the reading of the line ask "is there a mate within `d`", and most of those
//! searches' nodes lie there: each check was a node, probed and stored, whose
//! evasions were all listed only to see whether there was one. Here a check that
//! leaves the king a free step is not even played (`king_step_survives`); the others
//! are, and the defender's replies only looked for (`movegen::has_evasion`). A mate in one
//! or three is a mate whatever path led to it, so no repetition test is needed; the
//! results carry the proof and disproof hands `dfpn` would give. Plain rules only:
//! under the composers' conventions a check answered by drops alone may still be mate
//! (futile interpositions), which `dfpn` decides. Uses `dfpn`, `keys` and `movegen`.

use super::*;
use crate::core::attacks::{line_through, piece_attacks};
use crate::core::bitboard::Bitboard;

impl Dfpn<'_> {
    /// The value of a node with `depth` plies left, its moves at `base..base + n`, when
    /// it lies next to the horizon: an attacker's node with one or three plies left, a
    /// defender's with two. `None` elsewhere, under the conventions, or with the leaves
    /// off.
    pub(super) fn horizon_leaf(&mut self, pos: &mut Position, moves: (usize, usize), hand: Hand, depth: u16, or_node: bool) -> Option<Res> {
        if !self.leaves || self.conventions {
            return None;
        }
        let (base, n) = moves;
        match (or_node, depth) {
            (true, 1) => Some(self.mate_in_one_leaf(pos, base, n, hand)),
            (true, 3) => Some(self.mate_in_three_leaf(pos, base, n, hand)),
            (false, 2) => Some(self.mate_in_two_leaf(pos, base, n, hand)),
            _ => None,
        }
    }

    /// An attacker's node with one ply left, its checks at `base..base + n`: a check
    /// that leaves the king a free step is passed over (`king_step_survives`), each
    /// other one played and the defender's replies only looked for (`has_evasion`), not
    /// listed, searched as nodes nor stored. The proof and disproof hands are those
    /// `mid` and `node_numbers` would give: a mated child proves with the hand its
    /// interpositions need, a child left in check disproves for the hand it has when
    /// the check can be blocked, for any hand otherwise; a drop adds the dropped piece,
    /// a capture takes the captured kind off. Plain rules only: under the conventions
    /// a child answered by drops alone may still be mate (futile interpositions).
    fn mate_in_one_leaf(&mut self, pos: &mut Position, base: usize, n: usize, hand: Hand) -> Res {
        let mut dh = all_hand_pieces(pos);
        let free = free_king_steps(pos);
        for i in base..base + n {
            let m = self.b.children[i].m;
            if free.any() && king_step_survives(pos, free, m) {
                // Not mated, whatever the hands: the child's disproof hand is every
                // piece in hand, which before the check is `dh`'s start (no change).
                continue;
            }
            let captured = captured_kind(pos, m);
            pos.do_move(m);
            let mated = !movegen::has_evasion(pos);
            let child_hand = if mated {
                and_proof_hand_adjust(pos, Hand::EMPTY)
            } else {
                unmated_hand(pos, pos.hand(pos.side_to_move().flip()))
            };
            pos.undo_move(m);
            let h = hand_before_check(child_hand, m, captured);
            if mated {
                return Res { pn: 0, dn: INF, len: 1, ddepth: 0, ph: hand_min(h, hand), rep: NO_REP };
            }
            dh = hand_min(dh, h);
        }
        Res { pn: INF, dn: 0, len: NO_LEN, ddepth: 1, ph: or_disproof_hand_adjust(pos, dh), rep: NO_REP }
    }

    /// An attacker's node with three plies left, its checks at `base..base + n`: a mate
    /// in one first (the shorter), then each check played and its evasions answered by
    /// `mate_in_two_leaf`. Hands as `node_numbers` gives them at an OR node. Plain
    /// rules only.
    fn mate_in_three_leaf(&mut self, pos: &mut Position, base: usize, n: usize, hand: Hand) -> Res {
        let one = self.mate_in_one_leaf(pos, base, n, hand);
        if one.pn == 0 {
            return one;
        }
        let (mut dh, mut dd) = (all_hand_pieces(pos), DEPTH_INF);
        for i in base..base + n {
            let m = self.b.children[i].m;
            let (captured, child_hand) = (captured_kind(pos, m), hand_after_attack(pos, hand, m));
            pos.do_move(m);
            let evasions = self.b.children.len();
            gen_node_moves(pos, false, &mut self.scratch, &mut self.b.children);
            let k = self.b.children.len() - evasions;
            let r = if k == 0 {
                // Mated at once: the mate in one above would have found it.
                Res { pn: 0, dn: INF, len: 0, ddepth: 0, ph: and_proof_hand_adjust(pos, Hand::EMPTY), rep: NO_REP }
            } else {
                self.mate_in_two_leaf(pos, evasions, k, child_hand)
            };
            self.b.children.truncate(evasions);
            pos.undo_move(m);
            let h = hand_before_check(r.ph, m, captured);
            if r.pn == 0 {
                return Res { pn: 0, dn: INF, len: r.len + 1, ddepth: 0, ph: hand_min(h, hand), rep: NO_REP };
            }
            dh = hand_min(dh, h);
            dd = dd.min(ply_above(r.ddepth));
        }
        Res { pn: INF, dn: 0, len: NO_LEN, ddepth: dd, ph: or_disproof_hand_adjust(pos, dh), rep: NO_REP }
    }

    /// A defender's node with two plies left, its evasions at `base..base + n`: each
    /// evasion is played and the attacker's mate in one looked for at once
    /// (`mate_in_one_leaf`), without a node per reply. A mate in one is a mate
    /// whatever path led there, so no repetition test is needed. The hands are those
    /// of `node_numbers` at an AND node: the largest proof hand, adjusted for the
    /// interpositions; the first refutation's disproof hand, a refuting drop keeping
    /// the attacker's count of that kind. Plain rules only.
    fn mate_in_two_leaf(&mut self, pos: &mut Position, base: usize, n: usize, hand: Hand) -> Res {
        let mut ph = Hand::EMPTY;
        for i in base..base + n {
            let e = self.b.children[i].m;
            pos.do_move(e);
            let checks = self.b.children.len();
            gen_node_moves(pos, true, &mut self.scratch, &mut self.b.children);
            let k = self.b.children.len() - checks;
            let r = if k == 0 {
                let dh = or_disproof_hand_adjust(pos, all_hand_pieces(pos));
                Res { pn: INF, dn: 0, len: NO_LEN, ddepth: DEPTH_INF, ph: dh, rep: NO_REP }
            } else {
                self.mate_in_one_leaf(pos, checks, k, hand)
            };
            self.b.children.truncate(checks);
            pos.undo_move(e);
            if r.pn != 0 {
                let dh = hand_before_evasion(r.ph, e, hand);
                return Res { pn: INF, dn: 0, len: NO_LEN, ddepth: ply_above(r.ddepth), ph: dh, rep: NO_REP };
            }
            ph = hand_max(ph, r.ph);
        }
        Res { pn: 0, dn: INF, len: 2, ddepth: 0, ph: and_proof_hand_adjust(pos, ph), rep: NO_REP }
    }
}

/// The squares the defender's king (the side not to move in `pos`) could step to
/// if nothing changed (`movegen::safe_king_steps`).
fn free_king_steps(pos: &Position) -> Bitboard {
    let defender = pos.side_to_move().flip();
    movegen::safe_king_steps(pos, defender, !pos.color_pieces(defender))
}

/// Whether after the attacker's check `m` the defender's king can still step to one
/// of the `free` squares (`free_king_steps` before `m`): a square the move neither
/// lands on, nor attacks with the moved piece, nor opens a slider's line to by
/// leaving its square. Nothing else can newly attack a square: a drop or the moved
/// piece on its new square only blocks lines, and a capture puts the capturer where
/// the captured piece stood. So `true` means the check is not mate; `false` decides
/// nothing. A cheap test before playing the check.
fn king_step_survives(pos: &Position, free: Bitboard, m: Move) -> bool {
    let (attacker, defender) = (pos.side_to_move(), pos.side_to_move().flip());
    let (to, ksq) = (m.to(), pos.king_square(defender));
    let (kind, occ) = if m.is_drop() {
        (m.drop_piece(), pos.occupied() | Bitboard::from_square(to))
    } else {
        let from = m.from();
        let kind = pos.piece_on(from).kind();
        let kind = if m.is_promotion() { kind.promote() } else { kind };
        (kind, (pos.occupied().without(from)) | Bitboard::from_square(to))
    };
    let occ = occ.without(ksq);
    let covered = piece_attacks(attacker, kind, to, occ) | Bitboard::from_square(to);
    for s in free & !covered {
        if m.is_drop() || s == m.from() || line_through(s, m.from()).is_empty() {
            return true;
        }
        // On a line through the square left: an attacker's slider may see `s` now.
        if (pos.slider_attacks_to(s, attacker, occ) & !Bitboard::from_square(m.from())).is_empty() {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::write_sfen;

    /// The SFENs of a problem file of positions/mate/.
    fn sfens(file: &str) -> Vec<String> {
        crate::init();
        let path = format!("{}/positions/mate/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).expect("problem file");
        text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).map(|l| l.split('|').next().unwrap_or("").trim().to_string()).collect()
    }

    /// A bounded search of `pos` (attacker to move) for a mate within `depth` plies,
    /// from an empty table, with the leaves on or off.
    fn bounded(pos: &Position, depth: u16, leaves: bool) -> Res {
        crate::mate::tests::bounded_search(pos, depth, false, |s| s.leaves = leaves).0
    }

    /// `pos` with the attacker (the side to move) holding `hand` and the defender every
    /// other piece off the board.
    fn with_attacker_hand(pos: &Position, hand: Hand) -> Position {
        let attacker = pos.side_to_move();
        let all = all_hand_pieces(pos);
        let mut rest = Hand::EMPTY;
        for pt in PieceType::HAND {
            rest.set(pt, all.count(pt) - hand.count(pt));
        }
        let mut hands = [Hand::EMPTY; 2];
        hands[attacker.index()] = hand;
        hands[attacker.flip().index()] = rest;
        let board: [Piece; 81] = std::array::from_fn(|i| pos.piece_on(Square::from_index(i)));
        Position::from_sfen(&write_sfen(&board, attacker, &hands, 1)).expect("a position with the hand moved")
    }

    /// Every check of `pos` (attacker to move): whether `king_step_survives` said the
    /// king keeps a step and whether the defender has any reply after it.
    fn checks_with_escapes(pos: &mut Position, out: &mut Vec<(bool, bool)>) {
        let (mut list, mut kids) = (MoveList::new(), Vec::new());
        gen_node_moves(pos, true, &mut list, &mut kids);
        let free = free_king_steps(pos);
        for c in kids {
            let survives = king_step_survives(pos, free, c.m);
            pos.do_move(c.m);
            out.push((survives, movegen::has_evasion(pos)));
            pos.undo_move(c.m);
        }
    }

    #[test]
    fn a_king_step_said_to_survive_a_check_is_there() {
        let mut seen = Vec::new();
        for sfen in [sfens("mate_short.txt"), sfens("mate_long.txt"), sfens("nomate.txt")].concat() {
            let mut pos = Position::from_sfen(&sfen).expect("sfen");
            checks_with_escapes(&mut pos, &mut seen);
            // And two plies on: after each check and each reply.
            let (mut list, mut checks) = (MoveList::new(), Vec::new());
            gen_node_moves(&pos, true, &mut list, &mut checks);
            for c in checks {
                pos.do_move(c.m);
                for e in movegen::legal_moves(&pos).iter().copied() {
                    pos.do_move(e);
                    checks_with_escapes(&mut pos, &mut seen);
                    pos.undo_move(e);
                }
                pos.undo_move(c.m);
            }
        }
        // A knight's check that opens the bishop's diagonal onto the king's last free
        // square (6b): mate, though 6b was free before the move.
        let mut pos = Position::from_sfen("3sks3/4nn3/9/9/6N2/9/8B/9/9 b 2rb4g2sn4l18p 1").expect("sfen");
        let m = pos.parse_usi_move("3e4c").expect("a knight's move");
        let free = free_king_steps(&pos);
        assert!(free.has(Square::from_usi("6b").expect("square")), "6b free before the check");
        assert!(!king_step_survives(&pos, free, m), "the discovered bishop covers 6b");
        pos.do_move(m);
        assert!(pos.in_check() && !movegen::has_evasion(&pos), "3e4c mates");
        let said = seen.iter().filter(|&&(s, _)| s).count();
        assert!(seen.iter().all(|&(s, any)| !s || any), "a check said to leave a king step mates");
        assert!(said * 4 > seen.len(), "the test fires on {said} of {} checks", seen.len());
    }

    #[test]
    fn leaves_answer_as_the_full_search_with_hands_that_hold() {
        let (mut proofs, mut disproofs) = (0, 0);
        for sfen in [sfens("mate_short.txt"), sfens("mate_long.txt"), sfens("nomate.txt")].concat() {
            let pos = Position::from_sfen(&sfen).expect("sfen");
            for depth in [1, 3, 5, 7] {
                let (leaf, full) = (bounded(&pos, depth, true), bounded(&pos, depth, false));
                assert_eq!((leaf.pn == 0, leaf.dn == 0), (full.pn == 0, full.dn == 0), "{sfen} within {depth}");
                let hand = pos.hand(pos.side_to_move());
                if leaf.pn == 0 {
                    proofs += 1;
                    assert!(leaf.len <= depth && leaf.len % 2 == 1, "{sfen}: a mate in {} within {depth}", leaf.len);
                    // The proof hand is enough: with only it in hand the mate stays.
                    assert!(hand.is_superset_of(leaf.ph), "{sfen}: proof hand beyond the hand");
                    let r = bounded(&with_attacker_hand(&pos, leaf.ph), depth, false);
                    assert_eq!(r.pn, 0, "{sfen} within {depth}: no mate with the proof hand {:?}", leaf.ph);
                } else if leaf.dn == 0 {
                    disproofs += 1;
                    // The disproof hand is too little: even holding all of it, no mate.
                    assert!(leaf.ph.is_superset_of(hand), "{sfen}: disproof hand below the hand");
                    let r = bounded(&with_attacker_hand(&pos, leaf.ph), depth, false);
                    assert_eq!(r.dn, 0, "{sfen} within {depth}: a mate with the disproof hand {:?}", leaf.ph);
                }
            }
        }
        assert!(proofs > 20 && disproofs > 20, "both kinds exercised: {proofs} proofs, {disproofs} disproofs");
    }
}
