//! Weaker play on purpose (`SkillLevel` 0-19; 20 is full strength). Each level below
//! 20 halves the search's budget (time or nodes) every two levels, so that the levels
//! stand about equally far apart at any time control (level 0 searches a thousandth
//! of what full strength would); the search looks at the best few root moves, to a
//! depth of at most 1 + level, and then picks among them in the way of Stockfish's
//! skill levels, with a handicap that grows as the level falls: part of each move's
//! deficit to the best is forgiven, and a random bonus up to a pawn is added. Uses
//! `core` only.

use crate::core::types::{Move, PieceType, PIECE_VALUE};
use rand::Rng;

/// The level at which the engine plays at full strength (no handicap).
pub const MAX_LEVEL: u32 = 20;

/// Root moves a handicapped search keeps scored (its MultiPV).
pub const CANDIDATES: usize = 4;

/// Whether `level` plays below full strength.
pub fn enabled(level: u32) -> bool {
    level < MAX_LEVEL
}

/// Deepest iteration a search at `level` runs: 1 at level 0, 20 at level 19.
pub fn depth(level: u32) -> i32 {
    1 + level.min(MAX_LEVEL) as i32
}

/// Share of the full search's budget (time or nodes) a search at `level` uses:
/// 2^-(20 - level)/2, from about 0.001 at level 0 to 0.71 at level 19.
pub fn budget_share(level: u32) -> f64 {
    0.5f64.powf((MAX_LEVEL - level.min(MAX_LEVEL)) as f64 / 2.0)
}

/// Fewest nodes a handicapped search gets, however small its share.
pub const MIN_NODES: u64 = 64;

/// Picks the move to play at `level` from `scored`, the best root moves with their
/// scores, best first: each gets back `weakness/128` of its deficit to the best and a
/// random bonus up to `weakness/128` of the spread (at most a pawn), and the highest
/// total wins. Level 0 forgives nearly all (weakness 120 of 128), level 19 a third.
pub fn pick(level: u32, scored: &[(Move, i32)], rng: &mut impl Rng) -> Option<Move> {
    let &(best, top) = scored.first()?;
    let weakness = 120 - 2 * level.min(MAX_LEVEL - 1) as i64;
    let worst = scored.last().map_or(top, |s| s.1);
    let spread = (top as i64 - worst as i64).min(PIECE_VALUE[PieceType::Pawn.index()] as i64);
    let mut chosen = (best, i64::MIN);
    for &(m, score) in scored {
        let push = (weakness * (top as i64 - score as i64) + spread * rng.gen_range(0..weakness)) / 128;
        let total = score as i64 + push;
        if total >= chosen.1 {
            chosen = (m, total);
        }
    }
    Some(chosen.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::Square;
    use rand::SeedableRng;

    fn moves(scores: &[i32]) -> Vec<(Move, i32)> {
        scores.iter().enumerate().map(|(i, &s)| (Move::normal(Square::new(i as u8, 6), Square::new(i as u8, 5), false), s)).collect()
    }

    /// How often each candidate is picked over many tries.
    fn picks(level: u32, scored: &[(Move, i32)]) -> Vec<usize> {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let mut n = vec![0; scored.len()];
        for _ in 0..2000 {
            let m = pick(level, scored, &mut rng).expect("a move");
            n[scored.iter().position(|s| s.0 == m).expect("one of them")] += 1;
        }
        n
    }

    #[test]
    fn low_levels_stray_from_the_best_move_and_high_ones_rarely() {
        let scored = moves(&[100, 80, 60, 20]);
        let low = picks(0, &scored);
        let high = picks(19, &scored);
        assert!(low[0] < 1500 && low[1..].iter().sum::<usize>() > 500, "level 0: {low:?}");
        assert!(high[0] > low[0], "level 19 {high:?} against level 0 {low:?}");
        assert!(high[3] < low[3], "the worst candidate less often at level 19");
    }

    #[test]
    fn a_lost_piece_is_never_forgiven_enough() {
        // The spread is capped at a pawn: a move a rook worse stays out of reach at
        // level 19, where only part of the deficit is forgiven.
        let scored = moves(&[300, -800]);
        assert_eq!(picks(19, &scored)[1], 0);
        assert_eq!(pick(5, &[], &mut rand::rngs::SmallRng::seed_from_u64(1)), None);
    }
}
