//! The output file of `gensfen`: resuming (drop a torn record and an unfinished game,
//! count the whole games already there) and the settings file beside it that stops a
//! run from appending games made with other settings.

use crate::psv::{PackedSfenValue, GAME_END, RECORD_BYTES};
use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// What an existing output file holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resume {
    /// Whole games (the next game to play has this number).
    pub games: u64,
    /// Records of those games.
    pub positions: u64,
    /// Bytes dropped from the end (a torn record or an unfinished game).
    pub dropped: u64,
}

/// Scans the game markers of `file` (`len` bytes): the number of whole games, their
/// records, and the byte length they end at. Game numbers are recovered from the
/// markers' low 7 bits, so games without a record (all filtered out) count too.
fn scan(file: &File, len: u64) -> std::io::Result<(u64, u64, u64)> {
    let mut input = BufReader::with_capacity(1 << 20, file);
    let (mut games, mut positions, mut end) = (0u64, 0u64, 0u64);
    let mut rec = [0u8; RECORD_BYTES];
    for i in 0..len / RECORD_BYTES as u64 {
        input.read_exact(&mut rec)?;
        let pad = rec[RECORD_BYTES - 1];
        if pad & GAME_END != 0 {
            // This game's number is the first one at or after `games` with these low bits.
            let number = games + ((pad as u64 & 0x7f).wrapping_sub(games) & 0x7f);
            games = number + 1;
            positions = i + 1;
            end = (i + 1) * RECORD_BYTES as u64;
        }
    }
    Ok((games, positions, end))
}

/// Prepares `path` for appending: creates it if missing; otherwise checks that it is a
/// `gensfen` file, cuts what follows its last whole game, and counts its games.
pub fn prepare(path: &Path) -> Result<(File, Resume), String> {
    let file = OpenOptions::new().read(true).append(true).create(true).open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let len = file.metadata().map_err(|e| format!("cannot read {}: {e}", path.display()))?.len();
    if len == 0 {
        return Ok((file, Resume::default()));
    }
    if len >= RECORD_BYTES as u64 {
        let mut first = [0u8; RECORD_BYTES];
        (&file).seek(SeekFrom::Start(0)).and_then(|_| (&file).read_exact(&mut first)).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if let Err(e) = PackedSfenValue::from_bytes(&first).decode() {
            return Err(format!("{} is not a PackedSfenValue file ({e}); refusing to append to it", path.display()));
        }
    }
    (&file).seek(SeekFrom::Start(0)).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let (games, positions, end) = scan(&file, len).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if games == 0 {
        return Err(format!(
            "{} holds {len} bytes but no whole game marked by hisha gensfen; refusing to append to it \
             (if it is a torn first game of gensfen, delete the file)",
            path.display()
        ));
    }
    if end < len {
        file.set_len(end).map_err(|e| format!("cannot truncate {}: {e}", path.display()))?;
    }
    Ok((file, Resume { games, positions, dropped: len - end }))
}

/// The settings file kept beside `out`.
pub fn settings_path(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".settings");
    PathBuf::from(s)
}

/// Checks `settings` against the file beside `out` (writing it if missing); refuses
/// to go on when an earlier run wrote different ones.
pub fn check_settings(out: &Path, settings: &str) -> Result<(), String> {
    let p = settings_path(out);
    match std::fs::read_to_string(&p) {
        Ok(old) if old.trim() == settings.trim() => Ok(()),
        Ok(old) => Err(format!(
            "{} was made with other settings:\n  {}\nnow:\n  {}\nuse the same settings to resume, or another --out",
            out.display(),
            old.trim(),
            settings.trim()
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::write(&p, format!("{}\n", settings.trim())).map_err(|e| format!("cannot write {}: {e}", p.display()))
        }
        Err(e) => Err(format!("cannot read {}: {e}", p.display())),
    }
}
