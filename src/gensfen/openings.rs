//! Randomised openings for self-play: the start position or, at a given rate, one of
//! the handicap starts of positions/handicaps.sfen, then a random number of uniformly
//! random legal moves.

use crate::movegen::legal_moves;
use crate::position::Position;
use rand::Rng;

/// The handicap starts, `name | sfen` lines (built in).
const HANDICAPS: &str = include_str!("../../positions/handicaps.sfen");

/// The handicap start positions, in file order.
pub fn handicap_starts() -> Vec<Position> {
    HANDICAPS
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(|l| l.split_once('|'))
        .filter_map(|(_, sfen)| Position::from_sfen(sfen.trim()).ok())
        .collect()
}

/// How openings are drawn.
#[derive(Clone, Debug)]
pub struct OpeningRule {
    /// Fewest random plies.
    pub min_plies: u32,
    /// Most random plies.
    pub max_plies: u32,
    /// Share of games that start from a handicap position (0..=1).
    pub handicap_rate: f64,
}

/// Draws an opening with `rng`: a start, then random moves (fewer if a position has
/// no legal move). Also returns which handicap start it came from, if any.
pub fn random_opening(rng: &mut impl Rng, rule: &OpeningRule, handicaps: &[Position]) -> (Position, Option<usize>) {
    let handicap = if !handicaps.is_empty() && rng.gen_bool(rule.handicap_rate.clamp(0.0, 1.0)) {
        Some(rng.gen_range(0..handicaps.len()))
    } else {
        None
    };
    let mut pos = handicap.map_or_else(Position::startpos, |i| handicaps[i].clone());
    let plies = rng.gen_range(rule.min_plies..=rule.max_plies.max(rule.min_plies));
    for _ in 0..plies {
        let list = legal_moves(&pos);
        if list.is_empty() {
            break;
        }
        pos.do_move(list.as_slice()[rng.gen_range(0..list.len())]);
    }
    (pos, handicap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn handicaps_load_and_openings_are_reproducible() {
        crate::init();
        let h = handicap_starts();
        assert_eq!(h.len(), 7);
        let rule = OpeningRule { min_plies: 2, max_plies: 10, handicap_rate: 0.5 };
        let draw = |seed| {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            (0..20).map(|_| random_opening(&mut rng, &rule, &h)).map(|(p, h)| (p.to_sfen(), h)).collect::<Vec<_>>()
        };
        let a = draw(3);
        assert_eq!(a, draw(3));
        assert_ne!(a, draw(4));
        assert!(a.iter().any(|(_, h)| h.is_some()) && a.iter().any(|(_, h)| h.is_none()));
        for (sfen, _) in &a {
            let plies = Position::from_sfen(sfen).unwrap().game_ply() - 1;
            assert!((2..=10).contains(&plies), "{sfen}");
        }
    }
}
