//! Choosing a book move: the options that govern it (YaneuraOu's names and
//! meanings), the filters (game ply, ignore rate, recorded depth, value against the
//! best move and against the side's floor) and the count-weighted random pick.

use super::store::BookMove;
use rand::Rng;

/// `BookFile` value for no book.
pub const NO_BOOK: &str = "no_book";
/// `BookFile` value for the book built into the binary.
pub const EMBEDDED: &str = "<embedded>";

/// The book options, as set over USI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookOptions {
    /// `BookFile`: a path, [`NO_BOOK`] or [`EMBEDDED`].
    pub file: String,
    /// `BookMoves`: the last game ply (move number) that uses the book.
    pub book_moves: u32,
    /// `BookEvalDiff`: candidates are at most this many centipawns below the best.
    pub eval_diff: i32,
    /// `BookEvalBlackLimit`: Black ignores moves valued below this.
    pub eval_black_limit: i32,
    /// `BookEvalWhiteLimit`: White ignores moves valued below this.
    pub eval_white_limit: i32,
    /// `BookDepthLimit`: moves recorded with a lower depth are ignored (0 = all).
    pub depth_limit: i32,
    /// `BookIgnoreRate`: percent of probes that skip the book.
    pub ignore_rate: u32,
    /// `FlippedBook`: also look up the colour-flipped position.
    pub flipped: bool,
    /// `BookPvMoves`: plies of book line shown as the PV.
    pub pv_moves: u32,
    /// `IgnoreBookPly`: match positions whatever their move number.
    pub ignore_ply: bool,
}

impl Default for BookOptions {
    fn default() -> Self {
        BookOptions {
            file: NO_BOOK.to_string(),
            book_moves: 16,
            eval_diff: 30,
            eval_black_limit: 0,
            eval_white_limit: -140,
            depth_limit: 0,
            ignore_rate: 0,
            flipped: true,
            pv_moves: 8,
            ignore_ply: false,
        }
    }
}

/// Whether this probe may use the book at all (game ply and ignore rate).
pub fn book_turn(o: &BookOptions, game_ply: u32, rng: &mut impl Rng) -> bool {
    if game_ply > o.book_moves {
        return false;
    }
    o.ignore_rate == 0 || rng.gen_range(0..100) >= o.ignore_rate
}

/// The moves that pass `BookDepthLimit`, then `BookEvalDiff` and the side's limit.
pub fn eligible(moves: &[BookMove], white_to_move: bool, o: &BookOptions) -> Vec<BookMove> {
    let deep: Vec<BookMove> = moves.iter().copied().filter(|m| o.depth_limit == 0 || m.depth >= o.depth_limit).collect();
    let Some(best) = deep.iter().map(|m| m.value).max() else { return deep };
    let side_limit = if white_to_move { o.eval_white_limit } else { o.eval_black_limit };
    let limit = best.saturating_sub(o.eval_diff).max(side_limit);
    deep.into_iter().filter(|m| m.value >= limit).collect()
}

/// Index of a move picked at random with probability proportional to its count
/// (uniformly when every count is 0).
pub fn pick(moves: &[BookMove], rng: &mut impl Rng) -> Option<usize> {
    if moves.is_empty() {
        return None;
    }
    let total: u64 = moves.iter().map(|m| m.count as u64).sum();
    if total == 0 {
        return Some(rng.gen_range(0..moves.len()));
    }
    let mut r = rng.gen_range(0..total);
    for (i, m) in moves.iter().enumerate() {
        if r < m.count as u64 {
            return Some(i);
        }
        r -= m.count as u64;
    }
    Some(moves.len() - 1)
}

/// The move a PV follows: best value, then most played.
pub fn best_of(moves: &[BookMove]) -> Option<BookMove> {
    moves.iter().copied().max_by_key(|m| (m.value, m.count))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::Move;

    fn bm(s: &str, value: i32, depth: i32, count: u32) -> BookMove {
        BookMove { mv: Move::from_usi(s).unwrap(), ponder: Move::NONE, value, depth, count }
    }

    #[test]
    fn filters_by_depth_diff_and_side_limit() {
        let list = [bm("7g7f", 50, 20, 1), bm("2g2f", 30, 20, 1), bm("5g5f", 10, 20, 1), bm("1g1f", 60, 3, 1)];
        let o = BookOptions { eval_diff: 25, depth_limit: 10, ..BookOptions::default() };
        let e: Vec<String> = eligible(&list, false, &o).iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(e, ["7g7f", "2g2f"]);
        let o = BookOptions { eval_diff: 1000, eval_black_limit: 20, ..BookOptions::default() };
        assert_eq!(eligible(&list, false, &o).len(), 3);
        let o = BookOptions { eval_diff: 1000, eval_white_limit: 55, ..BookOptions::default() };
        assert_eq!(eligible(&list, true, &o).len(), 1);
    }

    #[test]
    fn pick_never_takes_a_zero_count_move_among_played_ones() {
        let list = [bm("7g7f", 0, 0, 0), bm("2g2f", 0, 0, 5)];
        let mut rng = rand::thread_rng();
        for _ in 0..200 {
            assert_eq!(pick(&list, &mut rng), Some(1));
        }
    }
}
