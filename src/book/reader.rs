//! Reading YaneuraOu's text book format (`#YANEURAOU-DB2016 1.00`): comment lines
//! (`#`, `//`), `sfen <board> <side> <hand> [<ply>]` lines, each followed by move
//! lines `<move> [<ponder>|none] [<value> [<depth> [<count>]]]` (later fields such
//! as win and draw counts are ignored). Bad lines are reported with file and line
//! and skipped; the rest of the book is kept.

use super::key::{clip, parse_ply, PosKey};
use super::store::{Book, BookBuilder, BookMove};
use crate::core::types::Move;
use std::io::{BufRead, Read};

/// Longest line accepted (longer ones are errors and skipped).
pub const MAX_LINE: usize = 4096;
/// How many error messages a load keeps (the rest are only counted).
pub const MAX_ERRORS_KEPT: usize = 5;
/// Largest book file accepted.
pub const MAX_FILE_BYTES: u64 = 8 << 30;

/// What one line of the book holds.
pub enum Entry {
    /// A `sfen` line: the position and its move number, if written.
    Position(PosKey, Option<u32>),
    /// A move of the last position.
    Move(BookMove),
}

/// How a load went.
#[derive(Default, Debug)]
pub struct LoadReport {
    /// Lines read.
    pub lines: usize,
    /// Position lines accepted.
    pub positions: usize,
    /// The first error messages (`name:line: why`).
    pub errors: Vec<String>,
    /// All errors, including those not kept.
    pub error_count: usize,
    /// Whether the first line was the YaneuraOu header.
    pub header: bool,
}

impl LoadReport {
    fn error(&mut self, name: &str, line: usize, why: String) {
        self.error_count += 1;
        if self.errors.len() < MAX_ERRORS_KEPT {
            self.errors.push(format!("{name}:{line}: {why}"));
        }
    }
}

/// Where move lines go: nowhere yet, into the last position, or skipped after a bad position line.
#[derive(PartialEq)]
enum State {
    Start,
    InPosition,
    Skipping,
}

/// Reads a book, passing each entry to `sink`. Fails only on an I/O error.
pub fn read_db(input: impl BufRead, name: &str, sink: &mut dyn FnMut(Entry)) -> Result<LoadReport, String> {
    let mut input = input;
    let mut rep = LoadReport::default();
    let mut state = State::Start;
    let mut buf = Vec::with_capacity(256);
    loop {
        buf.clear();
        let n = (&mut input).take(MAX_LINE as u64 + 1).read_until(b'\n', &mut buf).map_err(|e| format!("{name}:{}: {e}", rep.lines + 1))?;
        if n == 0 {
            break;
        }
        rep.lines += 1;
        if buf.last() != Some(&b'\n') && buf.len() > MAX_LINE {
            rep.error(name, rep.lines, format!("line longer than {MAX_LINE} bytes"));
            skip_rest_of_line(&mut input).map_err(|e| format!("{name}:{}: {e}", rep.lines))?;
            continue;
        }
        let Ok(line) = std::str::from_utf8(&buf) else {
            rep.error(name, rep.lines, "not text (invalid UTF-8)".into());
            continue;
        };
        let line = line.trim().trim_start_matches('\u{feff}');
        if rep.lines == 1 && line.starts_with("#YANEURAOU-DB2016") {
            rep.header = true;
        }
        if line.is_empty() || line.starts_with('#') || line.starts_with("//") {
            continue;
        }
        if let Some(rest) = line.strip_prefix("sfen ") {
            match parse_position(rest) {
                Ok((key, ply)) => {
                    sink(Entry::Position(key, ply));
                    rep.positions += 1;
                    state = State::InPosition;
                }
                Err(e) => {
                    rep.error(name, rep.lines, format!("bad position: {e}"));
                    state = State::Skipping;
                }
            }
            continue;
        }
        match state {
            State::Skipping => continue,
            State::Start => {
                rep.error(name, rep.lines, format!("'{}' is neither a comment, a sfen line nor a move after one", clip(line)));
                continue;
            }
            State::InPosition => {}
        }
        match parse_move_line(line) {
            Ok(Some(m)) => sink(Entry::Move(m)),
            Ok(None) => {}
            Err(e) => rep.error(name, rep.lines, e),
        }
    }
    Ok(rep)
}

fn skip_rest_of_line(input: &mut impl BufRead) -> std::io::Result<()> {
    let mut sink = Vec::new();
    loop {
        sink.clear();
        let n = input.take(65536).read_until(b'\n', &mut sink)?;
        if n == 0 || sink.last() == Some(&b'\n') {
            return Ok(());
        }
    }
}

/// Parses `<board> <side> <hand> [<ply>]`.
pub fn parse_position(text: &str) -> Result<(PosKey, Option<u32>), String> {
    let mut f = [""; 4];
    let mut n = 0;
    for t in text.split_ascii_whitespace() {
        if n == 4 {
            return Err("more than 4 fields (board, side, hand, move number)".into());
        }
        f[n] = t;
        n += 1;
    }
    if n < 3 {
        return Err(format!("expected board, side, hand and move number, got {n} field(s)"));
    }
    let key = PosKey::parse(f[0], f[1], f[2])?;
    let ply = if n == 4 { Some(parse_ply(f[3])?) } else { None };
    Ok((key, ply))
}

/// Parses a move line; `Ok(None)` for a recorded non-move (`none`, `resign`, `win`).
pub fn parse_move_line(line: &str) -> Result<Option<BookMove>, String> {
    let mut t = line.split_ascii_whitespace();
    let mv_text = t.next().unwrap_or("");
    if matches!(mv_text, "none" | "resign" | "win") {
        return Ok(None);
    }
    let mv = Move::from_usi(mv_text).ok_or_else(|| format!("bad move '{}'", clip(mv_text)))?;
    let ponder = match t.next() {
        None | Some("none") | Some("resign") | Some("win") => Move::NONE,
        Some(p) => Move::from_usi(p).ok_or_else(|| format!("bad reply move '{}'", clip(p)))?,
    };
    let value = number(t.next(), "value")?.unwrap_or(0).clamp(-1_000_000, 1_000_000) as i32;
    let depth = number(t.next(), "depth")?.unwrap_or(0).clamp(-1_000_000, 1_000_000) as i32;
    let count = number(t.next(), "count")?.unwrap_or(1).clamp(0, u32::MAX as i64) as u32;
    Ok(Some(BookMove { mv, ponder, value, depth, count }))
}

fn number(tok: Option<&str>, what: &str) -> Result<Option<i64>, String> {
    match tok {
        None => Ok(None),
        Some(t) => match t.parse::<i64>() {
            Ok(v) => Ok(Some(v)),
            Err(_) => Err(format!("{what} '{}' is not an integer", clip(t))),
        },
    }
}

/// Builds a [`Book`] from a reader.
pub fn load(input: impl BufRead, name: &str, ignore_ply: bool) -> Result<(Book, LoadReport), String> {
    let mut b = BookBuilder::new(ignore_ply);
    let rep = read_db(input, name, &mut |e| match e {
        Entry::Position(k, ply) => b.add_position(&k, ply),
        Entry::Move(m) => b.add_move(m),
    })?;
    if rep.positions == 0 && rep.error_count > 0 && !rep.header {
        let first = rep.errors.first().cloned().unwrap_or_default();
        return Err(format!("{first} (not a YaneuraOu book: no header and no valid position)"));
    }
    Ok((b.finish(), rep))
}

/// Loads a book file.
pub fn load_file(path: &str, ignore_ply: bool) -> Result<(Book, LoadReport), String> {
    let f = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let meta = f.metadata().map_err(|e| format!("{path}: {e}"))?;
    if meta.is_dir() {
        return Err(format!("{path}: is a directory"));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!("{path}: {} bytes, more than the {} accepted", meta.len(), MAX_FILE_BYTES));
    }
    load(std::io::BufReader::with_capacity(1 << 20, f), path, ignore_ply)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_may_be_missing() {
        let m = parse_move_line("7g7f").unwrap().unwrap();
        assert_eq!((m.ponder, m.value, m.depth, m.count), (Move::NONE, 0, 0, 1));
        let m = parse_move_line("2g2f 8c8d 35 20 7 3 1").unwrap().unwrap();
        assert_eq!((m.ponder.to_string().as_str(), m.value, m.depth, m.count), ("8c8d", 35, 20, 7));
        assert!(parse_move_line("7g7f 3c3d x").is_err());
        assert!(parse_move_line("7z7f").is_err());
        assert_eq!(parse_move_line("none none 0 0 1").unwrap(), None);
    }

    #[test]
    fn garbled_lines_are_reported_with_their_line() {
        let text = "#YANEURAOU-DB2016 1.00\nhello\nsfen 9/9/9 b - 1\n7g7f\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none 10 5 3\n";
        let (book, rep) = load(text.as_bytes(), "t.db", false).unwrap();
        assert_eq!(book.len(), 1);
        assert_eq!(rep.error_count, 2);
        assert!(rep.errors[0].starts_with("t.db:2:"), "{:?}", rep.errors);
        assert!(rep.errors[1].starts_with("t.db:3:"), "{:?}", rep.errors);
    }
}
