//! Reading PackedSfenValue files: size and content checks with clear errors (a
//! truncated file, a text or other foreign file), streaming records, and telling the
//! games in a file apart (for holding out whole games).

use super::record::{PackedSfenValue, RECORD_BYTES};
use std::fmt;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

/// Why a file cannot be read as PackedSfenValue records.
#[derive(Debug)]
pub enum PsvError {
    /// The file cannot be opened or read.
    Io(PathBuf, std::io::Error),
    /// The size is not a whole number of records.
    Truncated { path: PathBuf, len: u64 },
    /// The file holds no record.
    Empty(PathBuf),
    /// A record is not a PackedSfenValue.
    Foreign { path: PathBuf, record: u64, reason: String },
}

impl fmt::Display for PsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PsvError::Io(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            PsvError::Truncated { path, len } => write!(
                f,
                "{}: {len} bytes is not a whole number of {RECORD_BYTES}-byte PackedSfenValue records \
                 ({} whole, {} bytes left over): truncated or not a PSV file",
                path.display(),
                len / RECORD_BYTES as u64,
                len % RECORD_BYTES as u64
            ),
            PsvError::Empty(p) => write!(f, "{}: empty file, no PackedSfenValue record", p.display()),
            PsvError::Foreign { path, record, reason } => write!(
                f,
                "{}: record {record} (byte {}) is not a PackedSfenValue: {reason}",
                path.display(),
                record * RECORD_BYTES as u64
            ),
        }
    }
}

impl std::error::Error for PsvError {}

/// Streams the records of a file, after checking its size and first record.
pub struct PsvReader {
    path: PathBuf,
    input: BufReader<std::fs::File>,
    records: u64,
    next: u64,
}

impl PsvReader {
    /// Opens `path`: refuses a size that is not a multiple of 40, an empty file and a
    /// file whose first record does not decode (a text file, another format).
    pub fn open(path: &Path) -> Result<PsvReader, PsvError> {
        let io = |e| PsvError::Io(path.to_path_buf(), e);
        let file = std::fs::File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if len % RECORD_BYTES as u64 != 0 {
            return Err(PsvError::Truncated { path: path.to_path_buf(), len });
        }
        if len == 0 {
            return Err(PsvError::Empty(path.to_path_buf()));
        }
        let mut r = PsvReader { path: path.to_path_buf(), input: BufReader::with_capacity(1 << 20, file), records: len / RECORD_BYTES as u64, next: 0 };
        let mut first = [0u8; RECORD_BYTES];
        r.input.read_exact(&mut first).map_err(io)?;
        let rec = PackedSfenValue::from_bytes(&first);
        if let Err(e) = rec.decode() {
            let text = first.iter().all(|&b| b == b'\t' || b == b'\n' || b == b'\r' || (0x20..0x7f).contains(&b));
            let reason = if text { format!("{e} (it looks like text; PSV files are binary)") } else { e.0 };
            return Err(PsvError::Foreign { path: path.to_path_buf(), record: 0, reason });
        }
        // Re-open at the start so that `next` streams every record.
        let file = std::fs::File::open(path).map_err(io)?;
        r.input = BufReader::with_capacity(1 << 20, file);
        Ok(r)
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The same file from its first record again.
    pub fn reopen(&self) -> Result<PsvReader, PsvError> {
        PsvReader::open(&self.path)
    }

    /// Number of records in the file.
    pub fn len(&self) -> u64 {
        self.records
    }

    /// Whether the file has no record (never true for an opened reader).
    pub fn is_empty(&self) -> bool {
        self.records == 0
    }

    /// The error for record `record` failing with `reason`.
    pub fn foreign(&self, record: u64, reason: String) -> PsvError {
        PsvError::Foreign { path: self.path.clone(), record, reason }
    }
}

impl Iterator for PsvReader {
    type Item = Result<PackedSfenValue, PsvError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.records {
            return None;
        }
        let mut b = [0u8; RECORD_BYTES];
        if let Err(e) = self.input.read_exact(&mut b) {
            self.next = self.records;
            return Some(Err(PsvError::Io(self.path.clone(), e)));
        }
        self.next += 1;
        Some(Ok(PackedSfenValue::from_bytes(&b)))
    }
}

/// Every record of `path` (checked as `PsvReader::open` does; each record is decoded
/// by the caller), at most `max_records` of them: a larger file is an error rather
/// than an allocation the machine cannot hold.
pub fn read_all(path: &Path, max_records: u64) -> Result<Vec<PackedSfenValue>, PsvError> {
    let reader = PsvReader::open(path)?;
    if reader.len() > max_records {
        return Err(reader.foreign(max_records, format!("the file holds {} records, more than the limit of {max_records}", reader.len())));
    }
    let mut out = Vec::with_capacity(reader.len() as usize);
    for r in reader {
        out.push(r?);
    }
    Ok(out)
}

/// A game number for each record, counting from 0: by Hisha's game markers where
/// the records carry them, otherwise a new game wherever the game ply does not grow
/// (YaneuraOu writes a game's positions in order).
pub fn game_numbers(records: &[PackedSfenValue]) -> Vec<u32> {
    let marked = records.iter().any(|r| r.ends_game());
    let mut game = 0u32;
    let mut out = Vec::with_capacity(records.len());
    for (i, r) in records.iter().enumerate() {
        if !marked && i > 0 && r.game_ply <= records[i - 1].game_ply {
            game += 1;
        }
        out.push(game);
        if marked && r.ends_game() {
            game += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn temp(name: &str, bytes: &[u8]) -> PathBuf {
        let p = std::env::temp_dir().join(format!("hisha-psv-{}-{name}", std::process::id()));
        std::fs::write(&p, bytes).unwrap();
        p
    }

    fn record(ply_moves: &[&str]) -> PackedSfenValue {
        let mut pos = Position::startpos();
        for m in ply_moves {
            let mv = pos.parse_usi_move(m).unwrap();
            pos.do_move(mv);
        }
        let best = crate::movegen::legal_moves(&pos).as_slice()[0];
        PackedSfenValue::new(&pos, 10, best, 0).unwrap()
    }

    #[test]
    fn bad_files_get_clear_errors() {
        crate::init();
        let good = record(&[]).to_bytes();
        let p = temp("trunc", &[&good[..], &good[..17]].concat());
        let e = PsvReader::open(&p).err().unwrap().to_string();
        assert!(e.contains("57 bytes") && e.contains("truncated"), "{e}");
        let p = temp("text", b"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\t0\t1\n123456789012");
        let e = PsvReader::open(&p).err().unwrap().to_string();
        assert!(e.contains("record 0") && e.contains("looks like text"), "{e}");
        let p = temp("empty", b"");
        assert!(matches!(PsvReader::open(&p), Err(PsvError::Empty(_))));
        assert!(matches!(PsvReader::open(Path::new("/nonexistent/x.bin")), Err(PsvError::Io(..))));
        let p = temp("good", &[good, good].concat());
        let r = PsvReader::open(&p).unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r.map(|x| x.unwrap()).collect::<Vec<_>>().len(), 2);
        assert_eq!(read_all(&p, 2).unwrap().len(), 2);
        assert!(read_all(&p, 1).is_err());
    }

    #[test]
    fn games_by_marker_or_by_ply() {
        crate::init();
        let mut recs = vec![record(&[]), record(&["7g7f"]), record(&["7g7f", "3c3d"]), record(&["2g2f"])];
        assert_eq!(game_numbers(&recs), vec![0, 0, 0, 1]);
        recs[0].mark(0, true);
        recs[1].mark(1, false);
        recs[2].mark(1, true);
        recs[3].mark(2, true);
        assert_eq!(game_numbers(&recs), vec![0, 1, 1, 2]);
    }
}
