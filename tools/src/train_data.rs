//! The trainer's input files, in either format: `SFEN<TAB>score<TAB>result` text lines
//! (score and result from Black's view; the older `gensfen` output) or PackedSfenValue
//! records (`hisha gensfen`, YaneuraOu, cshogi; side to move's view). Each position
//! comes with the file it is from and its group: a game for PSV files (Hisha's game
//! markers, else where the game ply restarts), a block of consecutive lines for text.
//! Validation holds out whole groups, so no game is split between the two sets.

use hisha::psv::{game_numbers, read_all, PackedSfenValue};
use std::io::{BufRead, Read};
use std::path::Path;

/// Consecutive text lines per group (text files carry no game boundaries).
pub const TEXT_BLOCK: usize = 4096;

/// Most records read from one PSV file (40 bytes each: 16 GB).
const MAX_PSV_RECORDS: u64 = 400_000_000;

/// One position as stored.
pub enum Record {
    /// A text line.
    Line(String),
    /// A PackedSfenValue record and its index in the file.
    Psv(PackedSfenValue, u64),
}

/// A position with where it came from.
pub struct Input {
    /// The position as stored.
    pub record: Record,
    /// Index of its file in the list.
    pub file: usize,
    /// Its game or block, numbered across all files.
    pub group: u32,
}

/// Whether `path` holds text (the old format) rather than PSV records: its first 4 KiB
/// are printable ASCII. An empty file counts as PSV, whose reader reports it.
pub fn is_text(path: &str) -> Result<bool, String> {
    let mut head = Vec::with_capacity(4096);
    std::fs::File::open(path)
        .and_then(|f| f.take(4096).read_to_end(&mut head))
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    Ok(!head.is_empty() && head.iter().all(|&b| b == b'\t' || b == b'\n' || b == b'\r' || (0x20..0x7f).contains(&b)))
}

/// Every position of `files`, in order, each file read in its own format.
pub fn read_inputs(files: &[String]) -> Result<Vec<Input>, String> {
    let mut out = Vec::new();
    let mut group_base = 0u32;
    for (file, path) in files.iter().enumerate() {
        let before = out.len();
        if is_text(path)? {
            let f = std::fs::File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
            for (i, line) in std::io::BufReader::new(f).lines().enumerate() {
                let line = line.map_err(|e| format!("cannot read {path}: {e}"))?;
                out.push(Input { record: Record::Line(line), file, group: group_base + (i / TEXT_BLOCK) as u32 });
            }
        } else {
            let records = read_all(Path::new(path), MAX_PSV_RECORDS).map_err(|e| e.to_string())?;
            let games = game_numbers(&records);
            for (i, (rec, g)) in records.into_iter().zip(games).enumerate() {
                out.push(Input { record: Record::Psv(rec, i as u64), file, group: group_base + g });
            }
        }
        group_base = out[before..].last().map_or(group_base, |x| x.group + 1);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hisha::position::Position;

    fn temp(name: &str, bytes: &[u8]) -> String {
        let p = std::env::temp_dir().join(format!("hisha-train-data-{}-{name}", std::process::id()));
        std::fs::write(&p, bytes).unwrap();
        p.to_string_lossy().into_owned()
    }

    fn psv(moves: &[&str], game: u64, last: bool) -> [u8; 40] {
        let mut pos = Position::startpos();
        for m in moves {
            let mv = pos.parse_usi_move(m).unwrap();
            pos.do_move(mv);
        }
        let best = hisha::movegen::legal_moves(&pos).as_slice()[0];
        let mut r = PackedSfenValue::new(&pos, 0, best, 1).unwrap();
        r.mark(game, last);
        r.to_bytes()
    }

    #[test]
    fn both_formats_with_groups_and_clear_errors() {
        hisha::init();
        let text = temp("text.txt", b"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\t0\t0.5\n");
        let bin = temp("games.bin", &[psv(&[], 0, false), psv(&["7g7f"], 0, true), psv(&["2g2f"], 1, true)].concat());
        let inputs = read_inputs(&[text.clone(), bin.clone()]).unwrap();
        let groups: Vec<u32> = inputs.iter().map(|i| i.group).collect();
        assert_eq!(groups, vec![0, 1, 1, 2]);
        assert!(matches!(inputs[0].record, Record::Line(_)) && matches!(inputs[3].record, Record::Psv(_, 2)));
        let bytes = std::fs::read(&bin).unwrap();
        let cut = temp("cut.bin", &bytes[..bytes.len() - 1]);
        let e = read_inputs(&[cut]).err().unwrap();
        assert!(e.contains("119 bytes") && e.contains("truncated"), "{e}");
        let foreign = temp("foreign.bin", &[0xffu8; 80]);
        let e = read_inputs(&[foreign]).err().unwrap();
        assert!(e.contains("record 0") && e.contains("not a PackedSfenValue"), "{e}");
        let empty = temp("empty.bin", b"");
        assert!(read_inputs(&[empty]).err().unwrap().contains("empty"));
    }
}
