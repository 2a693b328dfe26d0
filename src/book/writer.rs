//! Writing books in YaneuraOu's text format: the header, comment lines, and each
//! position (sorted by SFEN) with its moves as `move ponder value depth count`.
//! The file is written beside its final name and renamed into place, so a reader
//! never sees half a book.

use super::store::BookMove;
use crate::core::types::Move;
use std::io::Write;

/// The first line of every book.
pub const HEADER: &str = "#YANEURAOU-DB2016 1.00";

/// Writes `positions` (full SFEN with move number, moves) to `path`; positions
/// without moves are left out. `comments` become `//` lines after the header.
pub fn write_db(path: &str, comments: &[String], positions: &mut [(String, Vec<BookMove>)]) -> std::io::Result<()> {
    positions.sort_by(|a, b| a.0.cmp(&b.0));
    let tmp = format!("{path}.tmp");
    {
        let f = std::fs::File::create(&tmp)?;
        let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
        writeln!(w, "{HEADER}")?;
        for c in comments {
            writeln!(w, "// {c}")?;
        }
        for (sfen, moves) in positions.iter() {
            if moves.is_empty() {
                continue;
            }
            writeln!(w, "sfen {sfen}")?;
            for m in moves {
                writeln!(w, "{}", move_line(m))?;
            }
        }
        w.flush()?;
    }
    std::fs::rename(&tmp, path)
}

/// One move line.
pub fn move_line(m: &BookMove) -> String {
    let ponder = if m.ponder == Move::NONE { "none".to_string() } else { m.ponder.to_string() };
    format!("{} {ponder} {} {} {}", m.mv, m.value, m.depth, m.count)
}
