//! Game records read from files: CSA (`.csa`, V2.2 and V3.0), KIF (`.kif`/`.kifu`,
//! UTF-8 or Shift_JIS) and USI `position` lines, turned into a start SFEN plus legal
//! USI moves; and KIF written back with comments (`kif_write`).

pub mod csa;
pub mod kif;
pub mod kif_write;
pub mod setup;
pub mod usi;

use crate::position::Position;

/// Largest record file read (bytes); bigger files are refused rather than loaded.
pub const MAX_FILE_BYTES: u64 = 64 << 20;
/// Most moves kept from one game (longer games are refused as malformed).
pub const MAX_MOVES: usize = 4096;

/// One move of a record with the line it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The move in USI notation (checked legal where it was played).
    pub usi: String,
    /// 1-based line in the file (0 when not known).
    pub line: usize,
}

/// One game read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Start position as SFEN.
    pub start_sfen: String,
    /// Moves played, all legal.
    pub moves: Vec<RecordMove>,
    /// Black's (sente's, or shitate's in handicap games) name, if given.
    pub black: Option<String>,
    /// White's name, if given.
    pub white: Option<String>,
    /// How the game ended as written in the record (e.g. `%TORYO`, `投了`), if given.
    pub result: Option<String>,
}

/// A record that could not be read: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// 1-based line of the problem (0 when the file as a whole is at fault).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl RecordError {
    /// An error at `line`.
    pub fn at(line: usize, message: impl Into<String>) -> RecordError {
        RecordError { line, message: message.into() }
    }
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: {}", self.line, self.message)
        } else {
            write!(f, "{}", self.message)
        }
    }
}

/// Record formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// CSA standard record.
    Csa,
    /// Kakinoki KIF.
    Kif,
    /// USI `position` lines, one game a line.
    Usi,
}

/// The format of a file, by extension first and then by content.
pub fn detect_format(path: &str, text: &str) -> Format {
    let lower = path.to_ascii_lowercase();
    if lower.ends_with(".csa") {
        return Format::Csa;
    }
    if lower.ends_with(".kif") || lower.ends_with(".kifu") {
        return Format::Kif;
    }
    if lower.ends_with(".usi") || lower.ends_with(".sfen") {
        return Format::Usi;
    }
    let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('\'') && !l.starts_with('#'));
    match first {
        Some(l) if l.starts_with("position") || l.starts_with("startpos") || l.starts_with("sfen") => Format::Usi,
        Some(l) if l.starts_with('V') || l.starts_with("N+") || l.starts_with("P") || l.starts_with('$') => Format::Csa,
        _ => Format::Kif,
    }
}

/// Text of a record file: UTF-8 (a BOM is dropped) or, failing that, Shift_JIS.
pub fn decode(bytes: &[u8]) -> Result<String, RecordError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Ok(s.to_string());
    }
    let (text, _, had_errors) = encoding_rs::SHIFT_JIS.decode(bytes);
    if had_errors {
        return Err(RecordError::at(0, "neither UTF-8 nor Shift_JIS text"));
    }
    Ok(text.into_owned())
}

/// Reads every game of a file. The outer error is a file that cannot be read at all;
/// each game is `Ok` or the error that made it unreadable.
pub fn read_file(path: &str) -> Result<Vec<Result<GameRecord, RecordError>>, RecordError> {
    let meta = std::fs::metadata(path).map_err(|e| RecordError::at(0, format!("cannot read: {e}")))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(RecordError::at(0, format!("file larger than {MAX_FILE_BYTES} bytes")));
    }
    let bytes = std::fs::read(path).map_err(|e| RecordError::at(0, format!("cannot read: {e}")))?;
    let text = decode(&bytes)?;
    Ok(parse_text(path, &text))
}

/// Parses the games of `text` (a file named `path`, for its format).
pub fn parse_text(path: &str, text: &str) -> Vec<Result<GameRecord, RecordError>> {
    match detect_format(path, text) {
        Format::Csa => csa::parse(text),
        Format::Kif => vec![kif::parse(text)],
        Format::Usi => usi::parse(text),
    }
}

/// Plays `usi` on `pos` if it is legal there.
pub(crate) fn play(pos: &mut Position, usi: &str, line: usize) -> Result<RecordMove, RecordError> {
    match pos.parse_usi_move(usi) {
        Some(m) => {
            pos.do_move(m);
            Ok(RecordMove { usi: m.to_string(), line })
        }
        None => Err(RecordError::at(line, format!("illegal move {usi} in position {}", pos.to_sfen()))),
    }
}

/// SFEN of the even start position.
pub const STARTPOS_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
