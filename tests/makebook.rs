//! `hisha makebook` end to end: a small book by search (values backed up by
//! negamax, resumable, usable by the engine) and books from game records.
mod common;

use hisha::book::key::PosKey;
use hisha::book::reader::{read_db, Entry};
use hisha::book::BookMove;
use hisha::position::Position;
use std::collections::HashMap;
use std::process::Command;

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("hisha-makebook-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Positions of a book file: hash -> (SFEN, moves).
fn read_book(path: &std::path::Path) -> HashMap<u64, (String, Vec<BookMove>)> {
    let f = std::fs::File::open(path).expect("book written");
    let mut out: HashMap<u64, (String, Vec<BookMove>)> = HashMap::new();
    let mut last = 0;
    let rep = read_db(std::io::BufReader::new(f), "book", &mut |e| match e {
        Entry::Position(k, ply) => {
            last = k.hash(None);
            out.insert(last, (k.to_sfen(ply.unwrap_or(1)), Vec::new()));
        }
        Entry::Move(m) => out.get_mut(&last).unwrap().1.push(m),
    })
    .expect("readable");
    assert!(rep.header && rep.error_count == 0, "{rep:?}");
    out
}

fn makebook(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hisha")).arg("makebook").args(args).output().expect("run makebook");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    err
}

#[test]
fn search_book_backs_values_up_and_resumes() {
    let d = temp_dir("search");
    let starts = d.join("starts.sfen");
    std::fs::write(&starts, "# even game only\neven | startpos\n").unwrap();
    let book = d.join("book.db");
    let (b, s) = (book.to_str().unwrap(), starts.to_str().unwrap());
    let log = makebook(&["--out", b, "--start", s, "--nodes", "1500", "--positions", "12"]);
    assert!(log.contains("positions") && log.contains("wrote"), "{log}");
    let first = read_book(&book);
    assert!((2..=13).contains(&first.len()), "{} positions", first.len());
    // Every move into a book position carries minus that position's best value.
    let mut checked = 0;
    for (sfen, moves) in first.values() {
        let pos = Position::from_sfen(sfen).unwrap();
        for m in moves {
            let mut p = pos.clone();
            p.do_move(m.mv);
            let k = PosKey::from_sfen(&p.to_sfen()).unwrap().hash(None);
            if let Some((_, child)) = first.get(&k) {
                let best = child.iter().map(|c| c.value).max().unwrap();
                assert_eq!(m.value, -best, "{sfen} {}", m.mv);
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
    let log = makebook(&["--out", b, "--start", s, "--nodes", "1500", "--positions", "20"]);
    assert!(log.contains("resuming"), "{log}");
    let second = read_book(&book);
    assert!(second.len() > first.len());
    assert!(first.keys().all(|k| second.contains_key(k)), "resume lost positions");
}

#[test]
fn records_book_counts_games_and_scores_results() {
    let d = temp_dir("records");
    let usi = d.join("games.txt");
    std::fs::write(&usi, "position startpos moves 7g7f 3c3d\nstartpos moves 7g7f 8c8d\nstartpos moves 2g2f\n").unwrap();
    let csa = d.join("game.csa");
    std::fs::write(&csa, "V2.2\nN+a\nN-b\nPI\n+\n+7776FU\nT1\n-3334FU\n%TORYO\n").unwrap();
    let book = d.join("rec.db");
    makebook(&["--out", book.to_str().unwrap(), "--from-records", usi.to_str().unwrap(), csa.to_str().unwrap()]);
    let b = read_book(&book);
    let start = PosKey::from_sfen(hisha::position::START_SFEN).unwrap().hash(None);
    let moves = &b[&start].1;
    let get = |ms: &Vec<BookMove>, s: &str| *ms.iter().find(|m| m.mv.to_string() == s).unwrap_or_else(|| panic!("{s} missing"));
    assert_eq!(get(moves, "7g7f").count, 3);
    assert_eq!(get(moves, "2g2f").count, 1);
    // Black resigned the CSA game: 7g7f scored 0 of 1 known result, 2g2f has none.
    assert!(get(moves, "7g7f").value < get(moves, "2g2f").value);
    let mut p = Position::startpos();
    p.do_move(p.parse_usi_move("7g7f").unwrap());
    let after = &b[&PosKey::from_sfen(&p.to_sfen()).unwrap().hash(None)].1;
    assert_eq!(get(after, "3c3d").count, 2);
    assert!(get(after, "3c3d").value > 0, "White won with 3c3d");
}
