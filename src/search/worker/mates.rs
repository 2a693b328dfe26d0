//! The mate probes of the main search: mate in one by a contact check
//! (`movegen::contact_mate_in_one`), and a short df-pn probe where the subtree is big
//! enough to pay for it. A child of `worker`, whose state it shares.

use super::*;

impl Worker {
    /// Mate in one, then (deep enough) a short df-pn probe: the mate score to return.
    /// `tte` is the node's table entry: a search of this node already stored there
    /// (with a score short of mate) has looked for the mate in one and found none.
    pub(super) fn probe_mates(&mut self, ci: &CheckInfo, node: &Node, key: u64, tte: Option<TtEntry>) -> Option<i32> {
        let (ply, depth) = (node.ply, node.depth);
        let searched = tte.is_some_and(|e| e.depth > 0 && e.bound != Bound::None && from_tt(e.score, ply).abs() < MATE_IN_MAX);
        let mate1 = if searched { None } else { contact_mate_in_one(&self.pos, ci) };
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
        self.shared.tt.store(key, m, to_tt(v, ply), node.raw_eval, depth.min(MAX_PLY as i32), bound);
        Some(v)
    }
}
