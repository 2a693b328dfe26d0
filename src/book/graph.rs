//! The book graph `hisha makebook` grows: one node per position (transpositions
//! shared), each with the moves already expanded into child nodes and the best
//! move not yet expanded (with its search value). Values are backed up by negamax
//! over the graph (a cycle counts as a draw), and the next move to expand is the
//! one reached at least cost, a line's cost being what its moves give up against
//! the best move of each position plus a cost per ply ("drop-out expansion").

use super::key::PosKey;
use super::store::BookMove;
use crate::position::Position;
use crate::core::types::Move;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// The best move of a position not yet expanded, as its search found it.
#[derive(Clone, Copy, Debug)]
pub struct Frontier {
    /// The move.
    pub mv: Move,
    /// Its value for the side to move.
    pub value: i32,
    /// Depth of the search.
    pub depth: i32,
    /// The reply the search expected.
    pub ponder: Move,
    /// Key of the position the move leads to. When that position is in the graph too
    /// (reached by a transposition), the move takes its backed-up value instead of the
    /// search's.
    pub child: u64,
}

/// One book position.
pub struct Node {
    /// SFEN with move number.
    pub sfen: String,
    /// Plies from the nearest start position.
    pub plies: u32,
    /// Moves expanded, with the hash of the position each leads to.
    pub children: Vec<(Move, u64)>,
    /// Best unexpanded move, if any remains.
    pub frontier: Option<Frontier>,
    /// Value of the position when it has no move at all (mated, or a declared win).
    pub terminal: i32,
    /// Depth of the position's own search.
    pub depth: i32,
}

/// The whole graph, keyed by [`PosKey::hash`] without move number.
#[derive(Default)]
pub struct Graph {
    /// All nodes.
    pub nodes: HashMap<u64, Node>,
    /// Start positions with the extra cost of expanding under them.
    pub roots: Vec<(u64, i32)>,
    /// Cost of one ply of depth, in centipawns of value given up: lower grows
    /// the book deeper, higher grows it wider.
    pub ply_cost: i32,
}

/// The hash a position is stored under.
pub fn node_key(pos: &Position) -> u64 {
    PosKey::from_sfen(&pos.to_sfen()).map(|k| k.hash(None)).unwrap_or(0)
}

/// A frontier move's value: its position's backed-up one when that position is in
/// `val` (a transposition), else its search's.
fn frontier_value(f: &Frontier, val: &HashMap<u64, i32>) -> i32 {
    val.get(&f.child).map_or(f.value, |v| -v)
}

impl Graph {
    /// Negamax values of every node reachable from the roots.
    pub fn values(&self) -> HashMap<u64, i32> {
        let mut val = HashMap::with_capacity(self.nodes.len());
        let mut on_path = std::collections::HashSet::new();
        for &(r, _) in &self.roots {
            self.value_of(r, &mut val, &mut on_path);
        }
        val
    }

    fn value_of(&self, k: u64, val: &mut HashMap<u64, i32>, on_path: &mut std::collections::HashSet<u64>) -> i32 {
        if let Some(&v) = val.get(&k) {
            return v;
        }
        let Some(n) = self.nodes.get(&k) else { return 0 };
        if !on_path.insert(k) {
            return 0; // a cycle: repetition, scored as a draw
        }
        let mut best: Option<i32> =
            n.frontier.map(|f| if self.nodes.contains_key(&f.child) { -self.value_of(f.child, val, on_path) } else { f.value });
        for &(_, c) in &n.children {
            let v = -self.value_of(c, val, on_path);
            best = Some(best.map_or(v, |b| b.max(v)));
        }
        on_path.remove(&k);
        let v = best.unwrap_or(n.terminal);
        val.insert(k, v);
        v
    }

    /// The node and frontier move to expand next: least cost from a root, among
    /// frontier moves at most `window` below their position's value and at most
    /// `max_plies` from a start.
    pub fn next_expansion(&self, window: i32, max_plies: u32) -> Option<u64> {
        let val = self.values();
        let mut cost: HashMap<u64, i32> = HashMap::new();
        let mut heap = BinaryHeap::new();
        for &(r, c) in &self.roots {
            heap.push(Reverse((c, r)));
        }
        let mut best: Option<(i32, u64)> = None;
        while let Some(Reverse((c, k))) = heap.pop() {
            if cost.contains_key(&k) {
                continue;
            }
            cost.insert(k, c);
            if best.is_some_and(|(bc, _)| c >= bc) {
                break;
            }
            let Some(n) = self.nodes.get(&k) else { continue };
            let v = val.get(&k).copied().unwrap_or(0);
            if let Some(f) = n.frontier {
                let loss = (v - frontier_value(&f, &val)).max(0);
                if loss <= window && n.plies < max_plies {
                    let fc = c + loss + self.ply_cost;
                    if best.is_none_or(|(bc, _)| fc < bc) {
                        best = Some((fc, k));
                    }
                }
            }
            for &(_, ch) in &n.children {
                if !cost.contains_key(&ch) {
                    let cv = -val.get(&ch).copied().unwrap_or(0);
                    heap.push(Reverse((c + (v - cv).max(0) + self.ply_cost, ch)));
                }
            }
        }
        best.map(|(_, k)| k)
    }

    /// The positions and their book moves, values backed up, ready to write.
    pub fn export(&self) -> Vec<(String, Vec<BookMove>)> {
        let val = self.values();
        let mut out = Vec::with_capacity(self.nodes.len());
        for n in self.nodes.values() {
            let mut moves = Vec::with_capacity(n.children.len() + 1);
            for &(mv, c) in &n.children {
                let Some(child) = self.nodes.get(&c) else { continue };
                let ponder = self.best_move(c, &val).unwrap_or(Move::NONE);
                let value = val.get(&c).map(|v| -v).unwrap_or(0);
                moves.push(BookMove { mv, ponder, value, depth: child.depth, count: 1 });
            }
            if let Some(f) = n.frontier {
                let ponder = self.best_move(f.child, &val).unwrap_or(f.ponder);
                moves.push(BookMove { mv: f.mv, ponder, value: frontier_value(&f, &val), depth: f.depth, count: 1 });
            }
            moves.sort_by_key(|m| Reverse(m.value));
            out.push((n.sfen.clone(), moves));
        }
        out
    }

    /// The move with the best backed-up value at `k`.
    fn best_move(&self, k: u64, val: &HashMap<u64, i32>) -> Option<Move> {
        let n = self.nodes.get(&k)?;
        let mut best = n.frontier.map(|f| (frontier_value(&f, val), f.mv));
        for &(mv, c) in &n.children {
            let v = -val.get(&c).copied().unwrap_or(0);
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, mv));
            }
        }
        best.map(|(_, m)| m)
    }

    /// Recomputes every node's distance in plies from the roots (after a resume).
    pub fn set_plies(&mut self) {
        let mut plies: HashMap<u64, u32> = HashMap::new();
        let mut queue: std::collections::VecDeque<u64> = self.roots.iter().map(|r| r.0).collect();
        for &(r, _) in &self.roots {
            plies.insert(r, 0);
        }
        while let Some(k) = queue.pop_front() {
            let p = plies[&k];
            let Some(n) = self.nodes.get(&k) else { continue };
            for &(_, c) in &n.children {
                if let std::collections::hash_map::Entry::Vacant(e) = plies.entry(c) {
                    e.insert(p + 1);
                    queue.push_back(c);
                }
            }
        }
        for (k, n) in self.nodes.iter_mut() {
            n.plies = plies.get(k).copied().unwrap_or(u32::MAX);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(frontier: Option<i32>, children: Vec<u64>) -> Node {
        let mv = Move::from_usi("7g7f").unwrap();
        Node {
            sfen: String::new(),
            plies: 0,
            children: children.into_iter().map(|c| (mv, c)).collect(),
            frontier: frontier.map(|value| Frontier { mv, value, depth: 1, ponder: Move::NONE, child: 0 }),
            terminal: -5000,
            depth: 1,
        }
    }

    #[test]
    fn negamax_backs_up_the_best_continuation() {
        let mut g = Graph::default();
        // Root: frontier worth 10, child 2 worth -50 for its mover (so +50 here).
        g.nodes.insert(1, node(Some(10), vec![2]));
        g.nodes.insert(2, node(Some(-80), vec![3]));
        g.nodes.insert(3, node(Some(50), vec![]));
        g.roots.push((1, 0));
        let v = g.values();
        assert_eq!(v[&3], 50);
        assert_eq!(v[&2], -50);
        assert_eq!(v[&1], 50);
        // A cycle back to the root counts as a draw, not as a loop.
        g.nodes.get_mut(&3).unwrap().children.push((Move::from_usi("2g2f").unwrap(), 1));
        assert_eq!(g.values()[&1], 50);
    }

    #[test]
    fn a_frontier_move_into_a_known_position_takes_its_value() {
        let mut g = Graph::default();
        // Root: child 2 (+50 here) and a frontier searched at 70 that leads to node 3,
        // which the graph knows (a transposition) and values at 10 for its mover.
        g.nodes.insert(1, node(Some(70), vec![2]));
        g.nodes.insert(2, node(Some(-50), vec![]));
        g.nodes.insert(3, node(Some(10), vec![]));
        g.nodes.get_mut(&1).unwrap().frontier.as_mut().unwrap().child = 3;
        g.roots.push((1, 0));
        assert_eq!(g.values()[&1], 50, "the frontier is worth -10, not its search's 70");
        let root = g.export().into_iter().find(|(_, m)| m.len() == 2).unwrap().1;
        assert_eq!(root.iter().map(|m| m.value).collect::<Vec<_>>(), vec![50, -10]);
        // Without the transposition the search's value stands.
        g.nodes.remove(&3);
        assert_eq!(g.values()[&1], 70);
    }

    #[test]
    fn expands_the_cheapest_frontier_first() {
        let mut g = Graph { ply_cost: 15, ..Graph::default() };
        g.nodes.insert(1, node(Some(0), vec![2]));
        g.nodes.insert(2, node(Some(-20), vec![]));
        g.nodes.get_mut(&2).unwrap().plies = 1;
        g.roots.push((1, 0));
        // Root value 20 (via child 2); the root's frontier gives up 20, the child's
        // frontier costs one more ply but gives up nothing: 15 + 15 < 20 + 15.
        assert_eq!(g.next_expansion(100, 10), Some(2));
        assert_eq!(g.next_expansion(100, 1), Some(1));
        assert_eq!(g.next_expansion(10, 1), None);
    }
}
