//! USI position lines as records, one game a line: `position startpos moves ...`,
//! `position sfen SFEN moves ...`, or the same without the `position` word. Blank
//! lines and lines starting with `#` are skipped.

use super::{play, GameRecord, RecordError, MAX_MOVES, STARTPOS_SFEN};
use crate::position::Position;

/// Parses every game (line) in `text`.
pub fn parse(text: &str) -> Vec<Result<GameRecord, RecordError>> {
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        games.push(parse_line(line, i + 1));
    }
    if games.is_empty() {
        games.push(Err(RecordError::at(0, "no position line")));
    }
    games
}

/// Parses one `position` line found at line `no`.
pub fn parse_line(line: &str, no: usize) -> Result<GameRecord, RecordError> {
    let mut words = line.split_whitespace().peekable();
    if words.peek() == Some(&"position") {
        words.next();
    }
    let sfen = match words.next() {
        Some("startpos") => STARTPOS_SFEN.to_string(),
        Some("sfen") => {
            let fields: Vec<&str> = words.by_ref().take_while(|w| *w != "moves").collect();
            if !(3..=4).contains(&fields.len()) {
                return Err(RecordError::at(no, "sfen needs 3 or 4 fields"));
            }
            let mut s = fields.join(" ");
            if fields.len() == 3 {
                s.push_str(" 1");
            }
            // `take_while` consumed `moves` already; the rest are moves.
            return finish(&s, words, no);
        }
        _ => return Err(RecordError::at(no, "expected 'position startpos' or 'position sfen'")),
    };
    match words.next() {
        None | Some("moves") => finish(&sfen, words, no),
        Some(w) => Err(RecordError::at(no, format!("unexpected '{w}'"))),
    }
}

fn finish<'a>(sfen: &str, moves: impl Iterator<Item = &'a str>, no: usize) -> Result<GameRecord, RecordError> {
    let mut pos = Position::from_sfen(sfen).map_err(|e| RecordError::at(no, format!("bad sfen: {e}")))?;
    let start_sfen = pos.to_sfen();
    let mut out = Vec::new();
    for m in moves {
        if out.len() >= MAX_MOVES {
            return Err(RecordError::at(no, format!("more than {MAX_MOVES} moves")));
        }
        out.push(play(&mut pos, m, no)?);
    }
    Ok(GameRecord { start_sfen, moves: out, black: None, white: None, result: None })
}
