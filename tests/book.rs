//! Opening-book tests, driven over USI as a GUI would: each book rule (ply limit,
//! value window and floors, depth limit, ignore rate, flipped lookup, illegal
//! moves, White-to-move entries, comments, missing fields, garbled files), the
//! `go` variants (ponder, infinite, mate, MultiPV) and `hisha makebook`.
mod common;

use common::Engine;
use hisha::position::Position;
use std::time::Duration;

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";

/// Writes a book into a fresh temporary directory; returns its path.
fn book_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("hisha-book-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("book.db");
    std::fs::write(&path, text).expect("write book");
    path.to_string_lossy().into_owned()
}

/// An engine with `BookFile` set to `path` and the other options given, after
/// `isready`; also returns the lines printed up to `readyok`.
fn engine_with(path: &str, opts: &[(&str, &str)]) -> (Engine, Vec<String>) {
    let mut e = Engine::start();
    e.send("usi");
    let usi = e.expect(|l| l == "usiok");
    assert!(!usi.iter().any(|l| l.contains("info string book")), "book read at usi: {usi:?}");
    e.send(&format!("setoption name BookFile value {path}"));
    for (n, v) in opts {
        e.send(&format!("setoption name {n} value {v}"));
    }
    // The book is read at isready, not when the option is set.
    e.send("d");
    let before = e.expect(|l| l.starts_with("SFEN:"));
    assert!(!before.iter().any(|l| l.contains("info string book")), "book read before isready: {before:?}");
    e.send("isready");
    let lines = e.expect(|l| l == "readyok");
    (e, lines)
}

/// Plays `go` at `position` and returns (bestmove, ponder, whether the book answered, lines).
fn probe(e: &mut Engine, position: &str) -> (String, Option<String>, bool, Vec<String>) {
    e.send(&format!("position {position}"));
    let (bm, ponder, lines) = e.go("nodes 3000");
    let from_book = lines.iter().any(|l| l.starts_with("info string book move"));
    (bm, ponder, from_book, lines)
}

fn book(entries: &str) -> String {
    format!("#YANEURAOU-DB2016 1.00\n{entries}")
}

#[test]
fn book_move_is_answered_at_once_with_ponder_line_and_value() {
    let text = book(&format!(
        "# a comment\n// another comment\nsfen {START} b - 1\n7g7f 3c3d 40 20 3\n\nsfen {START} b - 7\n2g2f none 0 0 1\n"
    ));
    let (mut e, ready) = engine_with(&book_file("basic", &text), &[]);
    assert!(ready.iter().any(|l| l.contains("2 positions")), "{ready:?}");
    assert!(!ready.iter().any(|l| l.contains("error")), "{ready:?}");
    let (bm, ponder, from_book, lines) = probe(&mut e, "startpos");
    assert!(from_book);
    assert_eq!((bm.as_str(), ponder.as_deref()), ("7g7f", Some("3c3d")));
    let info = lines.iter().find(|l| l.contains(" pv ")).expect("info pv line");
    assert!(info.contains("score cp 40") && info.ends_with("pv 7g7f 3c3d"), "{info}");
}

/// `USI_OwnBook false` (GUIs' book switch) keeps the book loaded but searches; `true`
/// answers from it again.
#[test]
fn usi_own_book_switches_the_book_off_and_on() {
    let text = book(&format!("sfen {START} b - 1\n7g7f 3c3d 40 20 3\n"));
    let (mut e, _) = engine_with(&book_file("ownbook", &text), &[("USI_OwnBook", "false")]);
    assert!(!probe(&mut e, "startpos").2, "answered from the book with USI_OwnBook false");
    e.send("setoption name USI_OwnBook value true");
    let (bm, _, from_book, _) = probe(&mut e, "startpos");
    assert!(from_book && bm == "7g7f");
    e.send("setoption name USI_OwnBook value maybe");
    let l = e.expect(|l| l.starts_with("info string error"));
    assert!(l.last().unwrap().contains("USI_OwnBook"), "{l:?}");
}

#[test]
fn white_to_move_entries_and_missing_fields() {
    let after = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL";
    let text = book(&format!("sfen {after} w - 2\n3c3d\nsfen {START} b - 1\n2g2f 8c8d\n"));
    let (mut e, ready) = engine_with(&book_file("missing", &text), &[]);
    assert!(!ready.iter().any(|l| l.contains("error")), "{ready:?}");
    let (bm, ponder, from_book, _) = probe(&mut e, "startpos moves 7g7f");
    assert!(from_book);
    assert_eq!((bm.as_str(), ponder), ("3c3d", None));
    let (bm, ponder, from_book, _) = probe(&mut e, "startpos");
    assert!(from_book);
    assert_eq!((bm.as_str(), ponder.as_deref()), ("2g2f", Some("8c8d")));
}

#[test]
fn book_moves_limits_the_game_ply() {
    let after = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL";
    let text = book(&format!("sfen {START} b - 1\n7g7f none 0 0 1\nsfen {after} b - 3\n2g2f none 0 0 1\n"));
    let path = book_file("plies", &text);
    let (mut e, _) = engine_with(&path, &[("BookMoves", "2")]);
    assert!(probe(&mut e, "startpos").2);
    assert!(!probe(&mut e, "startpos moves 7g7f 3c3d").2, "ply 3 used the book with BookMoves 2");
    let (mut e, _) = engine_with(&path, &[("BookMoves", "3")]);
    assert!(probe(&mut e, "startpos moves 7g7f 3c3d").2);
}

#[test]
fn eval_diff_depth_limit_and_side_floors() {
    let text = book(&format!("sfen {START} b - 1\n7g7f none 100 5 1\n2g2f none 80 20 1\n5g5f none 60 20 1\n"));
    let path = book_file("diff", &text);
    let (mut e, _) = engine_with(&path, &[("BookEvalDiff", "0")]);
    for _ in 0..8 {
        assert_eq!(probe(&mut e, "startpos").0, "7g7f");
    }
    let (mut e, _) = engine_with(&path, &[("BookEvalDiff", "30")]);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..40 {
        seen.insert(probe(&mut e, "startpos").0);
    }
    assert!(!seen.contains("5g5f") && seen.contains("7g7f") && seen.contains("2g2f"), "{seen:?}");
    // The depth limit drops 7g7f (depth 5); the best of the rest is 2g2f.
    let (mut e, _) = engine_with(&path, &[("BookDepthLimit", "10"), ("BookEvalDiff", "0")]);
    assert_eq!(probe(&mut e, "startpos").0, "2g2f");
    // Black's floor above every value: no book move.
    let (mut e, _) = engine_with(&path, &[("BookEvalBlackLimit", "150")]);
    assert!(!probe(&mut e, "startpos").2);
    let (mut e, _) = engine_with(&path, &[("BookEvalBlackLimit", "90"), ("BookEvalDiff", "1000")]);
    assert_eq!(probe(&mut e, "startpos").0, "7g7f");
}

#[test]
fn white_floor_applies_to_white_only() {
    let after = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL";
    let text = book(&format!("sfen {after} w - 2\n3c3d none -100 20 1\nsfen {START} b - 1\n7g7f none -100 20 1\n"));
    let path = book_file("white", &text);
    // YaneuraOu's defaults: Black's floor 0, White's -140.
    let (mut e, _) = engine_with(&path, &[]);
    assert!(!probe(&mut e, "startpos").2, "Black played a -100 move with floor 0");
    assert!(probe(&mut e, "startpos moves 7g7f").2, "White's floor -140 admits -100");
    let (mut e, _) = engine_with(&path, &[("BookEvalWhiteLimit", "-50"), ("BookEvalBlackLimit", "-200")]);
    assert!(!probe(&mut e, "startpos moves 7g7f").2, "White played a move below its floor");
    assert!(probe(&mut e, "startpos").2, "Black's floor is -200");
    let (mut e, _) = engine_with(&path, &[("BookEvalWhiteLimit", "-150")]);
    assert!(probe(&mut e, "startpos moves 7g7f").2);
}

#[test]
fn ignore_rate_zero_and_hundred() {
    let text = book(&format!("sfen {START} b - 1\n7g7f none 0 0 1\n"));
    let path = book_file("rate", &text);
    let (mut e, _) = engine_with(&path, &[("BookIgnoreRate", "100")]);
    for _ in 0..5 {
        assert!(!probe(&mut e, "startpos").2);
    }
    let (mut e, _) = engine_with(&path, &[("BookIgnoreRate", "0")]);
    for _ in 0..5 {
        assert!(probe(&mut e, "startpos").2);
    }
}

#[test]
fn flipped_lookup_turns_the_moves_round() {
    // Only Black's entry exists; the start position with White to move is its flip.
    let text = book(&format!("sfen {START} b - 1\n7g7f 3c3d 20 20 1\n"));
    let path = book_file("flip", &text);
    let (mut e, _) = engine_with(&path, &[("FlippedBook", "true")]);
    let (bm, ponder, from_book, lines) = probe(&mut e, &format!("sfen {START} w - 1"));
    assert!(from_book, "{lines:?}");
    assert_eq!((bm.as_str(), ponder.as_deref()), ("3c3d", Some("7g7f")));
    let (mut e, _) = engine_with(&path, &[("FlippedBook", "false")]);
    assert!(!probe(&mut e, &format!("sfen {START} w - 1")).2);
}

#[test]
fn illegal_book_moves_are_skipped() {
    let text = book(&format!("sfen {START} b - 1\n7g7e none 500 20 9\n5i5g none 400 20 9\n2g2f 1a2b 10 20 1\nsfen {START} b - 3\n8h2b+ none 0 20 1\n"));
    let path = book_file("illegal", &text);
    let (mut e, _) = engine_with(&path, &[("BookEvalDiff", "1000")]);
    for _ in 0..5 {
        let (bm, ponder, from_book, _) = probe(&mut e, "startpos");
        assert!(from_book);
        assert_eq!((bm.as_str(), ponder), ("2g2f", None), "illegal reply 1a2b must not be sent as ponder");
    }
    // Only an illegal move recorded: the engine searches and plays a legal move.
    let (bm, _, from_book, _) = probe(&mut e, &format!("sfen {START} b - 3"));
    assert!(!from_book);
    assert!(Position::startpos().parse_usi_move(&bm).is_some(), "{bm}");
}

#[test]
fn ignore_book_ply_controls_move_number_matching() {
    let text = book(&format!("sfen {START} b - 1\n7g7f none 0 0 1\n"));
    let path = book_file("ply", &text);
    let (mut e, _) = engine_with(&path, &[]);
    assert!(!probe(&mut e, &format!("sfen {START} b - 9")).2, "default IgnoreBookPly false matches the ply");
    let (mut e, _) = engine_with(&path, &[("IgnoreBookPly", "true")]);
    assert!(probe(&mut e, &format!("sfen {START} b - 9")).2);
}

#[test]
fn garbled_and_missing_books_are_reported_and_search_goes_on() {
    let text = book(&format!("sfen {START} b - 1\n7g7f none abc 1 1\nsfen 9/9/9 b - 1\n7g7f\nsfen {START} b - 1\n2g2f none 5 1 1\n"));
    let path = book_file("garbled", &text);
    let (mut e, ready) = engine_with(&path, &[]);
    let errors: Vec<&String> = ready.iter().filter(|l| l.starts_with("info string error")).collect();
    assert!(errors.iter().any(|l| l.contains(&format!("{path}:3:"))), "{ready:?}");
    assert!(errors.iter().any(|l| l.contains(&format!("{path}:4:"))), "{ready:?}");
    assert_eq!(probe(&mut e, "startpos").0, "2g2f");

    let missing = format!("{path}.does-not-exist");
    let (mut e, ready) = engine_with(&missing, &[]);
    assert!(ready.iter().any(|l| l.starts_with("info string error") && l.contains(&missing)), "{ready:?}");
    let (bm, _, from_book, _) = probe(&mut e, "startpos");
    assert!(!from_book && Position::startpos().parse_usi_move(&bm).is_some());

    let binary = book_file("binary", "\u{0}\u{1}garbage\nmore garbage\n");
    let (mut e, ready) = engine_with(&binary, &[]);
    assert!(ready.iter().any(|l| l.starts_with("info string error") && l.contains(&format!("{binary}:1"))), "{ready:?}");
    assert!(!probe(&mut e, "startpos").2);
}

#[test]
fn ponder_infinite_mate_and_multipv() {
    let text = book(&format!("sfen {START} b - 1\n7g7f 3c3d 40 20 1\n2g2f 8c8d 30 20 1\n5g5f none -50 20 1\n"));
    let path = book_file("go", &text);
    let (mut e, _) = engine_with(&path, &[("BookEvalDiff", "0")]);
    e.send("position startpos");
    e.send("go ponder btime 1000 wtime 1000 byoyomi 100");
    let early = e.drain(Duration::from_millis(300));
    assert!(!early.iter().any(|l| l.starts_with("bestmove")), "bestmove before ponderhit: {early:?}");
    e.send("ponderhit");
    let lines = e.expect(|l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove 7g7f ponder 3c3d");
    e.send("go ponder btime 1000 wtime 1000 byoyomi 100");
    let early = e.drain(Duration::from_millis(200));
    assert!(!early.iter().any(|l| l.starts_with("bestmove")));
    e.send("stop");
    e.expect(|l| l.starts_with("bestmove"));

    // Analysis searches: no book line, bestmove only after stop.
    e.send("go infinite");
    let early = e.drain(Duration::from_millis(300));
    assert!(!early.iter().any(|l| l.starts_with("bestmove") || l.contains("book move")), "{early:?}");
    e.send("stop");
    e.expect(|l| l.starts_with("bestmove"));

    e.send("go mate 1000");
    let lines = e.expect(|l| l.starts_with("checkmate"));
    assert!(!lines.iter().any(|l| l.contains("book move")));

    e.send("setoption name MultiPV value 3");
    let (bm, _, lines) = e.go("nodes 3000");
    assert_eq!(bm, "7g7f");
    for k in 1..=3 {
        assert!(lines.iter().any(|l| l.contains(&format!(" multipv {k} "))), "multipv {k} missing: {lines:?}");
    }
    let first = lines.iter().find(|l| l.contains(" multipv 1 ")).unwrap();
    assert!(first.contains("pv 7g7f"), "{first}");
}

#[test]
fn embedded_book_plays_a_legal_move() {
    let (mut e, ready) = engine_with("<embedded>", &[("BookEvalDiff", "1000"), ("BookEvalBlackLimit", "-99999")]);
    assert!(ready.iter().any(|l| l.starts_with("info string book <embedded>")), "{ready:?}");
    assert!(!ready.iter().any(|l| l.contains("error")), "{ready:?}");
    let (bm, _, from_book, _) = probe(&mut e, "startpos");
    assert!(from_book, "the embedded book has the start position");
    assert!(Position::startpos().parse_usi_move(&bm).is_some());
}

#[test]
fn bad_book_option_values_are_refused() {
    let mut e = Engine::ready();
    e.send("setoption name BookMoves value -1");
    let l = e.expect(|l| l.starts_with("info string"));
    assert!(l.last().unwrap().contains("out of range"));
    e.send("setoption name FlippedBook value maybe");
    let l = e.expect(|l| l.starts_with("info string"));
    assert!(l.last().unwrap().contains("not true or false"));
}
