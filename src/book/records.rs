//! `hisha makebook --from-records`: a book from game records, CSA files (one or
//! more games, `/` between games) or USI lines (`[position] startpos|sfen ...
//! moves ...`). Each move's count is how often it was played from its position;
//! its value is the mover's score in those games (win 1, draw 1/2, smoothed)
//! turned into centipawns, so `BookEvalDiff` prefers moves that won.

use super::key::{clip, PosKey};
use super::store::BookMove;
use super::writer::write_db;
use crate::position::{Position, START_SFEN};
use crate::core::types::{Color, Move, PieceType};
use std::collections::HashMap;

/// A game: its start, its moves and, when known, its winner (`None` for a draw).
pub struct Game {
    /// SFEN of the start.
    pub start: String,
    /// Moves in order.
    pub moves: Vec<Move>,
    /// `Some(Some(c))`: `c` won; `Some(None)`: draw; `None`: unknown.
    pub result: Option<Option<Color>>,
}

/// Per position: SFEN and per move (played, mover's points ×2, games with a result).
type Stats = HashMap<u64, (String, Vec<(Move, u32, u32, u32)>)>;

const CSA_PIECES: [(&str, PieceType); 14] = [
    ("FU", PieceType::Pawn),
    ("KY", PieceType::Lance),
    ("KE", PieceType::Knight),
    ("GI", PieceType::Silver),
    ("KI", PieceType::Gold),
    ("KA", PieceType::Bishop),
    ("HI", PieceType::Rook),
    ("OU", PieceType::King),
    ("TO", PieceType::ProPawn),
    ("NY", PieceType::ProLance),
    ("NK", PieceType::ProKnight),
    ("NG", PieceType::ProSilver),
    ("UM", PieceType::Horse),
    ("RY", PieceType::Dragon),
];

fn csa_square(f: u8, r: u8) -> Option<String> {
    if !(b'1'..=b'9').contains(&f) || !(b'1'..=b'9').contains(&r) {
        return None;
    }
    Some(format!("{}{}", f as char, (b'a' + (r - b'1')) as char))
}

/// One CSA move (`+7776FU`) as a legal move of `pos`.
fn csa_move(pos: &Position, t: &str) -> Result<Move, String> {
    let b = t.as_bytes();
    if b.len() != 7 {
        return Err(format!("bad CSA move '{}'", clip(t)));
    }
    let pt = CSA_PIECES.iter().find(|p| p.0 == &t[5..7]).map(|p| p.1).ok_or_else(|| format!("bad CSA piece in '{}'", clip(t)))?;
    let to = csa_square(b[3], b[4]).ok_or_else(|| format!("bad CSA square in '{}'", clip(t)))?;
    let usi = if &t[1..3] == "00" {
        format!("{}*{to}", pt.letter())
    } else {
        let from = csa_square(b[1], b[2]).ok_or_else(|| format!("bad CSA square in '{}'", clip(t)))?;
        let sq = crate::core::types::Square::from_usi(&from).ok_or("bad square")?;
        let promote = pt.is_promoted() && pos.piece_on(sq).piece_type().is_some_and(|p| !p.is_promoted());
        format!("{from}{to}{}", if promote { "+" } else { "" })
    };
    pos.parse_usi_move(&usi).ok_or_else(|| format!("illegal move '{t}' ({usi}) in {}", pos.to_sfen()))
}

/// The games of a CSA file. Only the even start (`PI`) and full `P1`..`P9`
/// diagrams with `P+`/`P-` hand lines are understood.
pub fn parse_csa(text: &str, name: &str) -> Result<Vec<Game>, String> {
    let mut games = Vec::new();
    for (gi, chunk) in text.split("\n/").enumerate() {
        let mut rows: Vec<String> = Vec::new();
        let mut hands = [String::new(), String::new()];
        let mut side = "b";
        let mut pos: Option<Position> = None;
        let mut game = Game { start: START_SFEN.to_string(), moves: Vec::new(), result: None };
        for (li, raw) in chunk.lines().enumerate() {
            for t in raw.split(',').map(str::trim) {
                let at = || format!("{name}: game {} line {}", gi + 1, li + 1);
                if let Some(removed) = t.strip_prefix("PI") {
                    rows = pi_rows(removed).map_err(|e| format!("{}: {e}", at()))?;
                } else if t.len() >= 2 && t.starts_with('P') && t.as_bytes()[1].is_ascii_digit() {
                    rows.push(t.to_string());
                } else if t.starts_with("P+") || t.starts_with("P-") {
                    hands[usize::from(t.starts_with("P-"))].push_str(&t[2..]);
                } else if t == "+" || t == "-" {
                    side = if t == "+" { "b" } else { "w" };
                    if rows.len() == 9 {
                        game.start = csa_diagram(&rows, &hands, side).map_err(|e| format!("{}: {e}", at()))?;
                    }
                } else if (t.starts_with('+') || t.starts_with('-')) && t.len() == 7 {
                    let p = match pos.as_mut() {
                        Some(p) => p,
                        None => pos.insert(Position::from_sfen(&game.start).map_err(|e| format!("{}: {e}", at()))?),
                    };
                    let m = csa_move(p, t).map_err(|e| format!("{}: {e}", at()))?;
                    p.do_move(m);
                    game.moves.push(m);
                } else if let Some(r) = t.strip_prefix('%') {
                    let mover = pos.as_ref().map_or(if side == "b" { Color::Black } else { Color::White }, |p| p.side_to_move());
                    game.result = csa_result(r, mover);
                }
            }
        }
        if !game.moves.is_empty() {
            games.push(game);
        }
    }
    Ok(games)
}

/// The even start as `P1`..`P9` rows, less the pieces `PI` names (`82HI22KA`: handicaps).
fn pi_rows(removed: &str) -> Result<Vec<String>, String> {
    let mut rows: Vec<String> = [
        "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY",
        "P2 * -HI *  *  *  *  * -KA * ",
        "P3-FU-FU-FU-FU-FU-FU-FU-FU-FU",
        "P4 *  *  *  *  *  *  *  *  * ",
        "P5 *  *  *  *  *  *  *  *  * ",
        "P6 *  *  *  *  *  *  *  *  * ",
        "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU",
        "P8 * +KA *  *  *  *  * +HI * ",
        "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY",
    ]
    .iter()
    .map(|r| r.to_string())
    .collect();
    for cell in removed.as_bytes().chunks(4) {
        let (f, r) = match cell {
            [f @ b'1'..=b'9', r @ b'1'..=b'9', _, _] => ((f - b'0') as usize, (r - b'0') as usize),
            _ => return Err(format!("bad PI removal '{}'", clip(removed))),
        };
        let at = 2 + 3 * (9 - f);
        rows[r - 1].replace_range(at..at + 3, " * ");
    }
    Ok(rows)
}

fn csa_result(r: &str, to_move: Color) -> Option<Option<Color>> {
    match r {
        "TORYO" | "TIME_UP" | "ILLEGAL_MOVE" | "TSUMI" => Some(Some(to_move.flip())),
        "KACHI" => Some(Some(to_move)),
        "SENNICHITE" | "JISHOGI" | "HIKIWAKE" => Some(None),
        "+ILLEGAL_ACTION" => Some(Some(Color::White)),
        "-ILLEGAL_ACTION" => Some(Some(Color::Black)),
        _ => None,
    }
}

/// SFEN of a `P1`..`P9` diagram (`+FU`, `-KY`, ` * ` cells) with hands.
fn csa_diagram(rows: &[String], hands: &[String; 2], side: &str) -> Result<String, String> {
    let mut board = String::new();
    for (r, row) in rows.iter().enumerate() {
        let cells = &row.as_bytes()[2..];
        let mut empty = 0;
        for c in 0..9 {
            let cell = cells.get(c * 3..c * 3 + 3).ok_or_else(|| format!("short diagram row P{}", r + 1))?;
            if cell[0] != b'+' && cell[0] != b'-' {
                empty += 1;
                continue;
            }
            let code = std::str::from_utf8(&cell[1..3]).map_err(|_| "bad diagram")?;
            let pt = CSA_PIECES.iter().find(|p| p.0 == code).map(|p| p.1).ok_or_else(|| format!("bad piece {code}"))?;
            if empty > 0 {
                board.push_str(&empty.to_string());
                empty = 0;
            }
            let mut s = String::new();
            if pt.is_promoted() {
                s.push('+');
            }
            let l = pt.unpromote().letter();
            s.push(if cell[0] == b'-' { l.to_ascii_lowercase() } else { l });
            board.push_str(&s);
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
        if r < 8 {
            board.push('/');
        }
    }
    let mut hand = String::new();
    for (i, h) in hands.iter().enumerate() {
        for cell in h.as_bytes().chunks(4) {
            let code = std::str::from_utf8(cell.get(2..4).unwrap_or(b"")).unwrap_or("");
            if let Some(p) = CSA_PIECES.iter().find(|p| p.0 == code) {
                let l = p.1.letter();
                hand.push(if i == 1 { l.to_ascii_lowercase() } else { l });
            }
        }
    }
    let hand = if hand.is_empty() { "-".to_string() } else { hand };
    let sfen = format!("{board} {side} {hand} 1");
    let pos = Position::from_sfen(&sfen).map_err(|e| format!("diagram: {e}"))?;
    Ok(pos.to_sfen())
}

/// Games from USI lines: `[position] startpos|sfen <4 fields> [moves ...]`.
pub fn parse_usi_lines(text: &str, name: &str) -> Result<Vec<Game>, String> {
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line = line.strip_prefix("position ").unwrap_or(line);
        games.push(parse_usi_game(line).map_err(|e| format!("{name}:{}: {e}", i + 1))?);
    }
    Ok(games)
}

/// One `startpos|sfen <board> <side> <hand> <ply> [moves ...]` line.
fn parse_usi_game(line: &str) -> Result<Game, String> {
    let (head, moves) = match line.split_once(" moves") {
        Some((h, m)) => (h.trim(), m),
        None => (line, ""),
    };
    let start = match head {
        "startpos" => START_SFEN.to_string(),
        _ => match head.strip_prefix("sfen ") {
            Some(s) => Position::from_sfen(s).map_err(|e| format!("bad sfen: {e}"))?.to_sfen(),
            None => return Err(format!("expected 'startpos' or 'sfen', got '{}'", clip(head))),
        },
    };
    let mut pos = Position::from_sfen(&start).map_err(|e| e.to_string())?;
    let mut list = Vec::new();
    for t in moves.split_whitespace() {
        let m = pos.parse_usi_move(t).ok_or_else(|| format!("illegal or malformed move '{}' in {}", clip(t), pos.to_sfen()))?;
        pos.do_move(m);
        list.push(m);
    }
    Ok(Game { start, moves: list, result: None })
}

/// Adds the first `max_plies` moves of `g` to the statistics.
pub fn add_game(stats: &mut Stats, g: &Game, max_plies: usize) -> Result<(), String> {
    let mut pos = Position::from_sfen(&g.start).map_err(|e| e.to_string())?;
    for &m in g.moves.iter().take(max_plies) {
        let sfen = pos.to_sfen();
        let k = PosKey::from_sfen(&sfen)?.hash(None);
        let (points, known) = match g.result {
            Some(Some(c)) if c == pos.side_to_move() => (2, 1),
            Some(Some(_)) => (0, 1),
            Some(None) => (1, 1),
            None => (0, 0),
        };
        let e = stats.entry(k).or_insert_with(|| (sfen, Vec::new()));
        match e.1.iter_mut().find(|x| x.0 == m) {
            Some(x) => {
                x.1 += 1;
                x.2 += points;
                x.3 += known;
            }
            None => e.1.push((m, 1, points, known)),
        }
        pos.do_move(m);
    }
    Ok(())
}

/// Centipawns of a smoothed score rate (600 per unit of log-odds, YaneuraOu's scale).
fn rate_to_cp(points2: u32, known: u32) -> i32 {
    let w = (points2 as f64 / 2.0 + 1.0) / (known as f64 + 2.0);
    (600.0 * (w / (1.0 - w)).ln()).round().clamp(-3000.0, 3000.0) as i32
}

/// The book moves of the statistics, with the most played reply as ponder.
pub fn to_positions(stats: &Stats, min_count: u32) -> Vec<(String, Vec<BookMove>)> {
    let mut out = Vec::with_capacity(stats.len());
    for (sfen, moves) in stats.values() {
        let Ok(pos) = Position::from_sfen(sfen) else { continue };
        let mut list = Vec::new();
        for &(m, played, points, known) in moves.iter().filter(|x| x.1 >= min_count) {
            let mut after = pos.clone();
            after.do_move(m);
            let reply = PosKey::from_sfen(&after.to_sfen())
                .ok()
                .and_then(|k| stats.get(&k.hash(None)))
                .and_then(|(_, r)| r.iter().max_by_key(|x| x.1))
                .map_or(Move::NONE, |x| x.0);
            list.push(BookMove { mv: m, ponder: reply, value: rate_to_cp(points, known), depth: 0, count: played });
        }
        list.sort_by_key(|b| std::cmp::Reverse((b.count, b.value)));
        out.push((sfen.clone(), list));
    }
    out
}

/// Reads the record files and writes the book; returns (games, positions).
pub fn run(files: &[String], out: &str, max_plies: usize, min_count: u32) -> Result<(usize, usize), String> {
    let mut stats = Stats::new();
    let mut n = 0;
    for f in files {
        let meta = std::fs::metadata(f).map_err(|e| format!("{f}: {e}"))?;
        if meta.len() > (1 << 30) {
            return Err(format!("{f}: larger than 1 GiB"));
        }
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        let is_csa = text.lines().any(|l| l.starts_with("PI") || l.starts_with("P1") || (l.len() == 7 && l.starts_with('+')));
        let games = if is_csa { parse_csa(&text, f)? } else { parse_usi_lines(&text, f)? };
        for g in &games {
            add_game(&mut stats, g, max_plies).map_err(|e| format!("{f}: {e}"))?;
        }
        n += games.len();
    }
    let mut positions = to_positions(&stats, min_count);
    positions.retain(|p| !p.1.is_empty());
    let comments = vec![format!("built by hisha makebook --from-records from {n} games: count = times played, value = mover's smoothed score rate in centipawns")];
    write_db(out, &comments, &mut positions).map_err(|e| format!("{out}: {e}"))?;
    Ok((n, positions.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csa_handicap_start_moves_and_result() {
        let text = "V2.2\nPI82HI\n-\n-5142OU,T3\n+7776FU\n'comment\n-4232OU\n%TORYO\n/\nPI\n+\n+2726FU\n%KACHI\n";
        let games = parse_csa(text, "t.csa").unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].start, "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
        let moves: Vec<String> = games[0].moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(moves, ["5a4b", "7g7f", "4b3b"]);
        // Black resigned at its turn: White won.
        assert_eq!(games[0].result, Some(Some(Color::White)));
        assert_eq!(games[1].start, START_SFEN);
        assert_eq!(games[1].result, Some(Some(Color::White)), "declared by the side to move (White)");
    }

    #[test]
    fn csa_promotion_is_read_from_the_piece_change() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/1B7/4K4 b - 1").unwrap();
        assert_eq!(csa_move(&pos, "+8833UM").unwrap().to_string(), "8h3c+");
        assert_eq!(csa_move(&pos, "+8833KA").unwrap().to_string(), "8h3c");
        assert!(csa_move(&pos, "+8832KA").is_err());
    }
}
