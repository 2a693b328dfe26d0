//! The mate probes of the main search: mate in one by the checks next to the enemy
//! king, and a short df-pn probe where the subtree is big enough to pay for it. A child
//! of `worker`, whose state it shares.

use super::*;

impl Worker {
    /// A mate in one: a checking move next to the king (or a knight check) after
    /// which the defender has no evasion.
    pub(super) fn mate1(&mut self, ci: &CheckInfo) -> Option<Move> {
        let near = king_attacks(ci.enemy_king);
        let knight_sq = knight_attacks(self.pos.side_to_move().flip(), ci.enemy_king);
        let mut list = MoveList::new();
        generate_onto(&self.pos, near | knight_sq, &mut list);
        for &m in list.iter() {
            let to = m.to();
            let knightish = knight_sq.has(to)
                && (if m.is_drop() { m.drop_piece() == PieceType::Knight } else { self.pos.piece_on(m.from()).kind() == PieceType::Knight });
            if !(near.has(to) || knightish) || !ci.gives_check(&self.pos, m) {
                continue;
            }
            // Most candidates are decided from the attacks; the rest are played out.
            let mated = contact_check_mates(&self.pos, m).unwrap_or_else(|| {
                self.pos.do_move(m);
                let mated = !has_evasion(&self.pos);
                self.pos.undo_move(m);
                mated
            });
            if mated {
                return Some(m);
            }
        }
        None
    }

    /// Mate in one, then (deep enough) a short df-pn probe: the mate score to return.
    /// `tte` is the node's table entry: a search of this node already stored there
    /// (with a score short of mate) has looked for the mate in one and found none.
    pub(super) fn probe_mates(&mut self, ci: &CheckInfo, node: &Node, key: u64, tte: Option<TtEntry>) -> Option<i32> {
        let (ply, depth) = (node.ply, node.depth);
        let searched = tte.is_some_and(|e| e.depth > 0 && e.bound != Bound::None && from_tt(e.score, ply).abs() < MATE_IN_MAX);
        let mate1 = if searched { None } else { self.mate1(ci) };
        let (m, v, bound) = if let Some(m) = mate1 {
            (m, mate_in(ply + 1), Bound::Exact)
        } else if depth >= if node.pv { MATE_PROBE_DEPTH } else { MATE_PROBE_DEPTH_NON_PV } && node.beta < MATE_IN_MAX {
            // A short df-pn probe where the subtree is big enough to pay for it.
            let budget = if node.pv { MATE_PROBE_PV_NODES } else { MATE_PROBE_NODES };
            let (m, len) = self.tables.mate.quick_mate_in(&mut self.pos, budget)?;
            // The probe's line may not be the shortest: a lower bound.
            (m, mate_in(ply + len as usize), Bound::Lower)
        } else {
            return None;
        };
        if node.pv {
            self.pv[ply][0] = m;
            self.pv_len[ply] = 1;
        }
        self.shared.tt.store(key, m, to_tt(v, ply), node.eval, depth.min(MAX_PLY as i32), bound);
        Some(v)
    }
}
