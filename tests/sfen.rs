//! SFEN parsing and printing: exact round trip, and each malformed input refused
//! with an error naming the problem.

use hisha::position::Position;

mod common;

#[test]
fn round_trip_is_exact() {
    let text = include_str!("../positions/perft.txt");
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let sfen = line.split('|').nth(1).map(str::trim).unwrap_or("");
        let p = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        let out = p.to_sfen();
        // cshogi writes canonical SFEN for the random positions: identical text.
        if line.starts_with("random") {
            assert_eq!(out, sfen);
        }
        // Any input: printing is a fixed point of parse-then-print.
        let again = Position::from_sfen(&out).unwrap_or_else(|e| panic!("{out}: {e}"));
        assert_eq!(again.to_sfen(), out);
        assert_eq!(again.key(), p.key());
    }
    // Without a move number the default is 1.
    let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - ").expect("no move number");
    assert_eq!(p.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b - 1");
    // Hands come out in canonical order whatever order they came in.
    let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w p2PBr 7").expect("hands");
    assert_eq!(p.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 w B2Prp 7");
}

fn refused(sfen: &str, needle: &str) {
    match Position::from_sfen(sfen) {
        Ok(_) => panic!("accepted bad SFEN {sfen:?}"),
        Err(e) => assert!(e.message().contains(needle), "error for {sfen:?} was {e:?}, expected it to mention {needle:?}"),
    }
}

#[test]
fn malformed_sfens_are_refused_with_a_reason() {
    refused("", "fields");
    refused("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1", "8 ranks");
    refused("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL/9 b - 1", "10 ranks");
    refused("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R/LNSGKGSNL b - 1", "8 squares");
    refused("lnsgkgsnl/1r5b1/ppppppppp/9/9/91/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "wider");
    refused("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1", "unknown piece letter 'X'");
    refused("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG+KGSNL b - 1", "cannot be promoted");
    refused("9/9/9/9/9/9/9/9/9 b - 1", "neither side has a king");
    refused("lnsgkgsnl/1r5b1/ppppppppp/9/4K4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "Black has 2 kings");
    refused("4k3P/9/9/9/9/9/9/9/4K4 b - 1", "pawn on the last rank");
    refused("4k3L/9/9/9/9/9/9/9/4K4 b - 1", "lance on the last rank");
    refused("4k4/8N/9/9/9/9/9/9/4K4 b - 1", "knight on the last two ranks");
    refused("4k4/9/9/9/9/9/9/9/4K3p w - 1", "pawn on the last rank");
    refused("4k4/9/9/4P4/9/9/4P4/9/4K4 b - 1", "nifu");
    refused("4k4/9/9/9/9/9/9/9/4K4 b 3R 1", "too many 'R' in hand");
    refused("4k4/9/9/9/9/9/PPPPPPPPP/9/4K4 b 10P 1", "exceed the set");
    refused("4k4/9/9/9/9/9/9/9/4K4 b 2X 1", "unknown piece letter 'X' in hand");
    refused("4k4/9/9/9/9/9/9/9/4K4 b K 1", "king cannot be in hand");
    refused("4k4/9/9/9/9/9/9/9/4K4 b 2 1", "ends with a count");
    refused("4k4/9/9/9/9/9/9/9/4K4 b 19P 1", "too large");
    refused("4k4/9/9/9/9/9/9/9/4K4 x - 1", "side to move");
    refused("4k4/9/9/9/9/9/9/9/4K4 b - zero", "move number");
    refused("4k4/9/9/9/9/9/9/9/4K4 b - 1 extra", "fields");
    refused("4k4/4R4/9/9/9/9/9/9/4K4 b - 1", "not to move is in check");
}

#[test]
fn tsume_without_attacker_king_is_accepted() {
    let p = Position::from_sfen("1k7/9/+P1l6/2B6/9/9/9/9/9 b RGrb3g4s4n3l17p 1").expect("kingless tsume");
    assert!(!p.has_king(hisha::core::types::Color::Black) && p.has_king(hisha::core::types::Color::White));
    assert!(!p.in_check());
    // One king missing is fine for either side, but not both.
    assert!(Position::from_sfen("lnsg1gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1").is_ok());
}

#[test]
fn refused_sfen_leaves_previous_position_usable() {
    let mut e = common::Engine::ready();
    e.send("position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1");
    e.send("position sfen 4k4/9/9/9/9/9/9/9/4K4 b 2X 1");
    e.expect(|l| l.starts_with("info string error: bad sfen") && l.contains("'X'"));
    e.send("position startpos moves 7g7f 3c3c");
    e.expect(|l| l.starts_with("info string error: illegal or malformed move '3c3c'"));
    e.send("go perft 1");
    // The good position (king and a gold in hand against a bare king) is still current.
    let lines = e.expect(|l| l.starts_with("Nodes searched"));
    assert!(lines.iter().any(|l| l == "G*5b: 1"), "{lines:?}");
    e.send("quit");
}

#[test]
fn mutated_sfens_never_panic_and_accepted_ones_are_consistent() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let text = include_str!("../positions/perft.txt");
    let seeds: Vec<&str> = text.lines().filter_map(|l| l.split('|').nth(1).map(str::trim)).collect();
    let alphabet = b"0123456789+/ -bwPLNSGBRKplnsgbrkxX*";
    let mut accepted = 0;
    for i in 0..20000 {
        let mut s: Vec<u8> = seeds[i % seeds.len()].as_bytes().to_vec();
        for _ in 0..rng.gen_range(1..4) {
            let at = rng.gen_range(0..s.len());
            match rng.gen_range(0..3) {
                0 => s[at] = alphabet[rng.gen_range(0..alphabet.len())],
                1 => {
                    s.remove(at);
                }
                _ => s.insert(at, alphabet[rng.gen_range(0..alphabet.len())]),
            }
        }
        let Ok(text) = String::from_utf8(s) else { continue };
        if let Ok(p) = Position::from_sfen(&text) {
            accepted += 1;
            let again = Position::from_sfen(&p.to_sfen()).expect("printed SFEN parses");
            assert_eq!(again.to_sfen(), p.to_sfen());
            let mut q = p.clone();
            let n = hisha::movegen::perft(&mut q, 2);
            assert_eq!(q.to_sfen(), p.to_sfen());
            let _ = n;
        }
    }
    assert!(accepted > 100, "mutations too destructive to exercise the accepting path: {accepted}");
}

#[test]
fn refusals_name_the_field_at_fault() {
    hisha::init();
    use hisha::position::SfenError;
    let kind = |sfen: &str| match Position::from_sfen(sfen) {
        Err(SfenError::FieldCount(_)) => "fields",
        Err(SfenError::Board(_)) => "board",
        Err(SfenError::SideToMove(_)) => "side",
        Err(SfenError::MoveNumber(_)) => "number",
        Err(SfenError::Hand(_)) => "hand",
        Err(SfenError::Illegal(_)) => "illegal",
        Ok(_) => "ok",
    };
    assert_eq!(kind("4k4/9/9/9/9/9/9/9/4K4 b"), "fields");
    assert_eq!(kind("4k4/9/9/9/9/9/9/9/4K3 b - 1"), "board");
    assert_eq!(kind("4k4/9/9/9/9/9/9/9/4K4 x - 1"), "side");
    assert_eq!(kind("4k4/9/9/9/9/9/9/9/4K4 b - 0"), "number");
    assert_eq!(kind("4k4/9/9/9/9/9/9/9/4K4 b K 1"), "hand");
    assert_eq!(kind("4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1"), "illegal");
    assert_eq!(kind("4k4/9/9/9/9/9/9/9/4K4 b - 1"), "ok");
}
