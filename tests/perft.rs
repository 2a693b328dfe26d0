//! Perft: known counts from the literature and counts computed by cshogi
//! (`positions/perft.txt`, built by `scripts/make_perft_suite.py`).

use hisha::movegen::{perft, perft_divide};
use hisha::position::Position;

fn check(sfen: &str, expected: &[u64]) {
    let mut pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    for (i, &want) in expected.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(perft(&mut pos, depth), want, "perft {depth} of {sfen}");
    }
    assert_eq!(pos.to_sfen(), Position::from_sfen(sfen).map(|p| p.to_sfen()).unwrap_or_default());
}

#[test]
fn startpos_depths_1_to_5() {
    check(hisha::position::START_SFEN, &[30, 900, 25470, 719731, 19861490]);
}

#[test]
fn matsuri_depths_1_to_3() {
    check("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1", &[207, 28684, 4809015]);
}

#[test]
fn max_moves_position_depths_1_to_2() {
    check("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", &[593, 105677]);
}

#[test]
fn cshogi_suite_matches() {
    let text = include_str!("../positions/perft.txt");
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(parts.len(), 3, "malformed suite line: {line}");
        let counts: Vec<u64> = parts[2].split_whitespace().map(|c| c.parse().expect("count")).collect();
        check(parts[1], &counts);
        n += 1;
    }
    assert!(n >= 200, "suite too small: {n}");
}

#[test]
fn divide_sums_to_perft_and_threads_agree() {
    let pos = Position::from_sfen("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1")
        .expect("matsuri");
    let one = perft_divide(&pos, 3, 1);
    let two = perft_divide(&pos, 3, 2);
    assert_eq!(one.len(), 207);
    assert_eq!(one, two);
    assert_eq!(one.iter().map(|(_, n)| n).sum::<u64>(), 4809015);
}

/// The positions of the perft suite (`positions/perft.txt`).
fn suite_positions() -> Vec<Position> {
    hisha::init();
    let text = include_str!("../positions/perft.txt");
    text.lines().filter_map(|l| l.split('|').nth(1)).filter_map(|s| Position::from_sfen(s.trim()).ok()).collect()
}

/// `is_legal` (which generates only the moves that could be the one asked) agrees with
/// the full legal move list on every suite position, for every move legal in any of
/// them or one ply later (captures, drops, promotions, king moves, evasions, pins).
#[test]
fn is_legal_agrees_with_the_legal_move_list() {
    use hisha::core::types::Move;
    use hisha::movegen::{is_legal, legal_moves};
    let positions = suite_positions();
    assert!(positions.len() > 200, "{} positions", positions.len());
    let mut candidates = std::collections::BTreeSet::new();
    for pos in &positions {
        for &m in legal_moves(pos).iter() {
            candidates.insert(m.raw());
            let mut p = pos.clone();
            p.do_move(m);
            candidates.extend(legal_moves(&p).iter().map(|m| m.raw()));
        }
    }
    candidates.insert(Move::NONE.raw());
    for pos in &positions {
        let legal = legal_moves(pos);
        for &raw in &candidates {
            let m = Move::from_raw(raw);
            assert_eq!(is_legal(pos, m), legal.contains(m), "{m} in {}", pos.to_sfen());
        }
    }
}

/// `has_evasion` (the early-exit mate test) agrees with the legal move list on every
/// position in check one or two plies below the suite positions, mates included.
#[test]
fn has_evasion_agrees_with_the_legal_move_list() {
    use hisha::movegen::{has_evasion, legal_moves};
    let positions = suite_positions();
    let (mut checks, mut mates) = (0, 0);
    let mut compare = |p: &Position| {
        let any = !legal_moves(p).is_empty();
        assert_eq!(has_evasion(p), any, "{}", p.to_sfen());
        if p.in_check() {
            checks += 1;
            mates += !any as u32;
        }
    };
    for pos in &positions {
        compare(pos);
        for &m in legal_moves(pos).iter() {
            let mut child = pos.clone();
            child.do_move(m);
            if child.in_check() {
                compare(&child);
                continue;
            }
            for &reply in legal_moves(&child).iter() {
                let mut grandchild = child.clone();
                grandchild.do_move(reply);
                if grandchild.in_check() {
                    compare(&grandchild);
                }
            }
        }
    }
    assert!(checks > 10_000 && mates > 100, "{checks} positions in check, {mates} mates");
}
