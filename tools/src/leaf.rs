//! Labels on the quiet leaf (`train-nnue --qsearch-leaf`): each training position is
//! replaced by the end of its quiescence search's principal line, keeping the stored
//! search score and game result (turned to the leaf's side to move). The network then
//! learns the score where nothing hangs, as YaneuraOu's learner does, instead of
//! learning to see a pending exchange from a static position.

use hisha::position::Position;
use hisha::search::leaf::QuietLeaf;

/// Nodes one leaf search may take; positions past it are kept as they are.
pub const LEAF_NODE_LIMIT: u64 = 20_000;

/// `pos` (with its score and result, side to move's view) moved to its quiet leaf,
/// and how many plies that took.
pub fn to_leaf(leaf: &mut QuietLeaf, mut pos: Position, score: i32, result: f32) -> (Position, i32, f32, usize) {
    let line = leaf.line(&pos);
    for &m in &line {
        pos.do_move(m);
    }
    if line.len() % 2 == 1 {
        // A negative result means "not known" (text data without one): kept as it is.
        let result = if result < 0.0 { result } else { 1.0 - result };
        (pos, -score, result, line.len())
    } else {
        (pos, score, result, line.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_odd_line_turns_score_and_result_to_the_leafs_mover() {
        hisha::init();
        let mut leaf = QuietLeaf::new(LEAF_NODE_LIMIT);
        // Black's gold on 5h can take an undefended White rook on 5g: one ply to quiet.
        let pos = Position::from_sfen("4k4/9/9/9/9/9/4r4/4G4/4K4 b - 1").expect("valid");
        let (leaf_pos, score, result, plies) = to_leaf(&mut leaf, pos.clone(), 300, 0.75);
        assert_eq!(plies, 1);
        assert_eq!((score, result), (-300, 0.25));
        assert_ne!(leaf_pos.to_sfen(), pos.to_sfen());
        let quiet = Position::startpos();
        let (same, score, result, plies) = to_leaf(&mut leaf, quiet.clone(), 40, 0.5);
        assert_eq!((same.to_sfen(), score, result, plies), (quiet.to_sfen(), 40, 0.5, 0));
    }
}
