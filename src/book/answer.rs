//! Turning a book hit into USI output: the book line shown as the PV (following
//! the best book move of each position for `BookPvMoves` plies), the `info` lines
//! (one per candidate when MultiPV asks for more) and the `bestmove ... ponder ...`.

use super::select::{best_of, book_turn, eligible, pick, BookOptions};
use super::store::{Book, BookMove};
use crate::position::Position;
use crate::core::types::{Color, Move};
use rand::Rng;

/// The book line that starts with `first`: `plies` moves at most, each the best
/// book move of its position, ending with the recorded reply when the book runs out.
pub fn book_line(book: &Book, pos: &Position, first: BookMove, plies: u32, flipped: bool) -> Vec<Move> {
    let mut line = vec![first.mv];
    let mut p = pos.clone();
    p.do_move(first.mv);
    let mut reply = first.ponder;
    while (line.len() as u32) < plies {
        match best_of(&book.probe(&p, flipped).moves) {
            Some(b) => {
                line.push(b.mv);
                p.do_move(b.mv);
                reply = b.ponder;
            }
            None => {
                if reply != Move::NONE {
                    line.push(reply);
                }
                break;
            }
        }
    }
    line
}

fn info_line(book: &Book, pos: &Position, m: BookMove, o: &BookOptions, multipv: Option<usize>) -> String {
    let line = book_line(book, pos, m, o.pv_moves.max(1), o.flipped);
    let pv: Vec<String> = line.iter().map(|m| m.to_string()).collect();
    let mpv = multipv.map(|k| format!(" multipv {k}")).unwrap_or_default();
    format!("info depth {}{mpv} score cp {} pv {}", m.depth.max(1), m.value, pv.join(" "))
}

/// The lines that answer `go` from the book (the last is `bestmove`), or `None`
/// when the book has no eligible legal move here or this probe skips the book.
pub fn answer(book: &Book, pos: &Position, o: &BookOptions, multipv: usize, searchmoves: &[Move], rng: &mut impl Rng) -> Option<Vec<String>> {
    if !book_turn(o, pos.game_ply(), rng) {
        return None;
    }
    let probe = book.probe(pos, o.flipped);
    let mut found = probe.moves;
    if !searchmoves.is_empty() {
        found.retain(|m| searchmoves.contains(&m.mv));
    }
    let cands = eligible(&found, pos.side_to_move() == Color::White, o);
    let chosen = cands[pick(&cands, rng)?];
    let mut out = Vec::new();
    if multipv > 1 {
        out.push(info_line(book, pos, chosen, o, Some(1)));
        let mut others: Vec<BookMove> = found.iter().copied().filter(|m| m.mv != chosen.mv).collect();
        others.sort_by_key(|m| std::cmp::Reverse((m.value, m.count)));
        for (i, m) in others.iter().take(multipv - 1).enumerate() {
            out.push(info_line(book, pos, *m, o, Some(i + 2)));
        }
    } else {
        out.push(info_line(book, pos, chosen, o, None));
    }
    out.push(format!(
        "info string book move {} (value {}, depth {}, count {}), one of {} candidate(s) among {} legal book move(s){}",
        chosen.mv,
        chosen.value,
        chosen.depth,
        chosen.count,
        cands.len(),
        found.len(),
        if probe.flipped { " of the colour-flipped position" } else { "" }
    ));
    let reply = if chosen.ponder != Move::NONE {
        Some(chosen.ponder)
    } else {
        book_line(book, pos, chosen, 2, o.flipped).get(1).copied()
    };
    out.push(match reply {
        Some(r) => format!("bestmove {} ponder {r}", chosen.mv),
        None => format!("bestmove {}", chosen.mv),
    });
    Some(out)
}
