//! Left-right mirror augmentation for training: a position with files 1-9 reflected to
//! 9-1 is as good for either side as the original. The network's inputs already mirror
//! a perspective whose king stands on files 6-9 (`nnue::features`), so a mirrored copy
//! teaches something new only for a perspective whose king stands on file 5, the one
//! file the inputs leave as it is; `train-nnue --mirror` adds the copy for those.

use hisha::core::types::Color;
use hisha::position::Position;

/// `pos` reflected left-right; `None` if the reflection does not read back (a legal
/// position's always does).
pub fn mirrored(pos: &Position) -> Option<Position> {
    let sfen = pos.to_sfen();
    let (board, rest) = sfen.split_once(' ')?;
    let ranks: Vec<String> = board.split('/').map(mirror_rank).collect();
    Position::from_sfen(&format!("{} {rest}", ranks.join("/"))).ok()
}

/// One SFEN rank read right to left: its squares (a piece with its `+`, or a count of
/// empty squares) in the opposite order.
fn mirror_rank(rank: &str) -> String {
    let mut squares: Vec<&str> = Vec::with_capacity(9);
    let mut start = 0;
    for (i, c) in rank.char_indices() {
        if c != '+' {
            squares.push(&rank[start..i + c.len_utf8()]);
            start = i + c.len_utf8();
        }
    }
    squares.reverse();
    squares.concat()
}

/// Whether a king of either side stands on file 5, where the inputs do not mirror.
pub fn king_on_file_5(pos: &Position) -> bool {
    [Color::Black, Color::White].into_iter().any(|c| pos.has_king(c) && pos.king_square(c).index() / 9 == 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reflects_files_and_keeps_hands_and_side() {
        hisha::init();
        let pos = Position::from_sfen("ln1g3+Rl/2s1k4/p1ppp3p/6p2/1p7/2P6/PPSPPPP1P/7K1/LN1G1GSNL w BSPbgn2p 40").unwrap();
        let m = mirrored(&pos).unwrap();
        assert_eq!(m.to_sfen(), "l+R3g1nl/4k1s2/p3ppp1p/2p6/7p1/6P2/P1PPPPSPP/1K7/LNSG1G1NL w BSPbgn2p 40");
        assert_eq!(mirrored(&m).unwrap().to_sfen(), pos.to_sfen(), "twice is the identity");
        assert!(king_on_file_5(&pos) && king_on_file_5(&m));
        let start = mirrored(&Position::startpos()).unwrap();
        assert_eq!(start.to_sfen(), "lnsgkgsnl/1b5r1/ppppppppp/9/9/9/PPPPPPPPP/1R5B1/LNSGKGSNL b - 1", "rook and bishop swap");
        let castled = Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG1GSNL b - 1").unwrap();
        assert!(king_on_file_5(&castled), "White's king on 5a");
        let none = Position::from_sfen("lnsg1gsnl/1r1k3b1/ppppppppp/9/9/9/PPPPPPPPP/1BK4R1/LNSG1GSNL b - 1").unwrap();
        assert!(!king_on_file_5(&none));
    }
}
