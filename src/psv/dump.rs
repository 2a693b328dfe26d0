//! `hisha psv-dump`: PackedSfenValue records as text, one a line:
//! `SFEN<TAB>move<TAB>score<TAB>result<TAB>game`, for checking data by eye and
//! against other tools (scripts/psv_roundtrip.py compares it with cshogi).

use super::file::{game_numbers, PsvError, PsvReader};
use std::io::Write;
use std::path::Path;

/// Writes the first `limit` records of `path` (0: all) as text lines to `out`.
pub fn dump(path: &Path, limit: u64, out: &mut impl Write) -> Result<(), PsvError> {
    let reader = PsvReader::open(path)?;
    let take = if limit == 0 { reader.len() } else { limit.min(reader.len()) };
    let io = |e| PsvError::Io(path.to_path_buf(), e);
    // Batches bound the memory whatever the file size; game numbers restart per batch
    // only in their base, which is carried over.
    let mut batch = Vec::with_capacity(1 << 16);
    let (mut index, mut game_base) = (0u64, 0u32);
    let mut records = reader.take(take as usize).peekable();
    while records.peek().is_some() {
        batch.clear();
        for r in records.by_ref().take(1 << 16) {
            batch.push(r?);
        }
        let games = game_numbers(&batch);
        for (rec, g) in batch.iter().zip(&games) {
            let (pos, m) = rec.decode().map_err(|e| PsvError::Foreign { path: path.to_path_buf(), record: index, reason: e.0 })?;
            let mv = m.map_or("none".to_string(), |m| m.to_string());
            writeln!(out, "{}\t{mv}\t{}\t{}\t{}", pos.to_sfen(), rec.score, rec.game_result, game_base + g).map_err(io)?;
            index += 1;
        }
        game_base += games.last().map_or(0, |g| g + 1);
    }
    out.flush().map_err(io)
}
