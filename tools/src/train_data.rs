//! The trainer's input files, in either format: `SFEN<TAB>score<TAB>result` text lines
//! (score and result from Black's view; the older `gensfen` output) or PackedSfenValue
//! records (`hisha gensfen`, YaneuraOu, cshogi; side to move's view). Each position
//! comes with the file it is from and its group: a game for PSV files (Hisha's game
//! markers, else where the game ply restarts), a block of consecutive lines for text.
//! Validation holds out whole groups, so no game is split between the two sets. A
//! group is named by a hash of its first position (or line), so whether a game is held
//! out depends on the game alone: not on the files before it, nor on its scores (a
//! rescored copy of a file holds out the same games).

use hisha::core::types::Color;
use hisha::position::Position;
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
    /// Its game or block: the hash of that group's first position or line.
    pub group: u64,
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

/// A well-mixed 64-bit hash of `bytes` (FNV-1a, then a SplitMix64 finaliser so that
/// the low bits, which pick the held-out games, depend on every byte).
fn content_hash(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// The group key of a game starting with `first`: its position and move number, not
/// its score or result.
fn game_key(first: &PackedSfenValue) -> u64 {
    let mut bytes = [0u8; 34];
    bytes[..32].copy_from_slice(&first.sfen);
    bytes[32..].copy_from_slice(&first.game_ply.to_le_bytes());
    content_hash(&bytes)
}

/// Every position of `files`, in order, each file read in its own format.
pub fn read_inputs(files: &[String]) -> Result<Vec<Input>, String> {
    let mut out = Vec::new();
    for (file, path) in files.iter().enumerate() {
        if is_text(path)? {
            let f = std::fs::File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
            let mut group = 0;
            for (i, line) in std::io::BufReader::new(f).lines().enumerate() {
                let line = line.map_err(|e| format!("cannot read {path}: {e}"))?;
                if i % TEXT_BLOCK == 0 {
                    group = content_hash(line.as_bytes());
                }
                out.push(Input { record: Record::Line(line), file, group });
            }
        } else {
            let records = read_all(Path::new(path), MAX_PSV_RECORDS).map_err(|e| e.to_string())?;
            let games = game_numbers(&records);
            let mut group = (u32::MAX, 0);
            for (i, (rec, g)) in records.into_iter().zip(games).enumerate() {
                if g != group.0 {
                    group = (g, game_key(&rec));
                }
                out.push(Input { record: Record::Psv(rec, i as u64), file, group: group.1 });
            }
        }
    }
    Ok(out)
}

/// Position, score and result (side to move's view) of a text line (which gives them
/// from Black's view); `None` for a line that does not parse or is scored beyond
/// `max_score`.
fn parse_line(line: &str, max_score: i32) -> Option<(Position, i32, f32)> {
    let mut it = line.split('\t');
    let sfen = it.next()?;
    let score: i32 = it.next()?.trim().parse().ok()?;
    let result: f32 = it.next()?.trim().parse().ok()?;
    if score.abs() > max_score {
        return None;
    }
    let pos = Position::from_sfen(sfen).ok()?;
    let stm = pos.side_to_move();
    let (score, result) = match (stm, result < 0.0) {
        (_, true) => (if stm == Color::Black { score } else { -score }, -1.0),
        (Color::Black, false) => (score, result),
        (Color::White, false) => (-score, 1.0 - result),
    };
    Some((pos, score, result))
}

/// Position, score and result (side to move's view) of one input; an error for a PSV
/// record that does not decode.
pub fn parse_input(input: &Input, files: &[String], max_score: i32) -> Result<Option<(Position, i32, f32)>, String> {
    match &input.record {
        Record::Line(line) => Ok(parse_line(line, max_score)),
        Record::Psv(rec, index) => {
            let (pos, _) = rec.decode().map_err(|e| format!("{}: record {index} is not a PackedSfenValue: {e}", files[input.file]))?;
            if i32::from(rec.score).abs() > max_score {
                return Ok(None);
            }
            Ok(Some((pos, i32::from(rec.score), (f32::from(rec.game_result) + 1.0) / 2.0)))
        }
    }
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
        let groups: Vec<u64> = inputs.iter().map(|i| i.group).collect();
        assert!(groups[1] == groups[2] && groups[2] != groups[3] && groups[0] != groups[1], "{groups:?}");
        assert!(matches!(inputs[0].record, Record::Line(_)) && matches!(inputs[3].record, Record::Psv(_, 2)));
        // A game's key is the same whatever file comes before it and whatever its scores.
        let rescored: Vec<u8> = std::fs::read(&bin).unwrap().chunks(40).flat_map(|r| {
            let mut r = PackedSfenValue::from_bytes(r.try_into().unwrap());
            r.score = r.score.wrapping_add(77);
            r.to_bytes()
        }).collect();
        let rescored = temp("rescored.bin", &rescored);
        let alone = read_inputs(&[rescored, text.clone()]).unwrap();
        assert_eq!(alone.iter().map(|i| i.group).collect::<Vec<_>>()[..3], groups[1..]);
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
