//! The mate-by-contact-check shortcut (`movegen::contact_check_mates`) against the
//! slow truth: make the move and look for an evasion. Positions: the tsume files (full
//! of contact mates), the perft suite, and random walks from both.

use hisha::core::attacks::king_attacks;
use hisha::core::bitboard::Bitboard;
use hisha::core::types::PieceType;
use hisha::movegen::{contact_check_mates, contact_mate_in_one, generate, has_evasion, CheckInfo, GenType, MoveList};
use hisha::position::Position;
use rand::{Rng, SeedableRng};

/// The SFEN field of every problem or perft line in the files.
fn sfens() -> Vec<String> {
    let files = [
        include_str!("../positions/mate/classics.txt"),
        include_str!("../positions/mate/alt.txt"),
        include_str!("../positions/mate/mate_short.txt"),
        include_str!("../positions/mate/mate_long.txt"),
        include_str!("../positions/mate/special.txt"),
        include_str!("../positions/mate/nomate.txt"),
    ];
    let mut out: Vec<String> = files
        .iter()
        .flat_map(|t| t.lines())
        .filter(|l| !l.starts_with('#') && l.contains('|'))
        .filter_map(|l| l.split('|').next().map(|s| s.trim().to_string()))
        .collect();
    let perft = include_str!("../positions/perft.txt");
    out.extend(perft.lines().filter(|l| !l.starts_with('#')).filter_map(|l| l.split('|').nth(1).map(|s| s.trim().to_string())));
    out
}

/// Plays a random legal move of `pos`; false when there is none.
fn random_step(pos: &mut Position, rng: &mut impl Rng) -> bool {
    let mut list = MoveList::new();
    generate(pos, GenType::Legal, false, &mut list);
    if list.is_empty() {
        return false;
    }
    pos.do_move(list.as_slice()[rng.gen_range(0..list.len())]);
    true
}

/// Counts of (shortcut said mate, said no mate, left it to the slow way).
#[derive(Default)]
struct Tally {
    mates: usize,
    escapes: usize,
    undecided: usize,
}

/// Every check of `pos`: the shortcut, where it answers, agrees with the slow truth.
fn compare_checks(pos: &mut Position, tally: &mut Tally) {
    if pos.in_check() || !pos.has_king(pos.side_to_move().flip()) {
        return;
    }
    let ci = CheckInfo::new(pos);
    let mut list = MoveList::new();
    generate(pos, GenType::Legal, false, &mut list);
    for &m in list.iter() {
        if !ci.gives_check(pos, m) {
            continue;
        }
        let fast = contact_check_mates(pos, m);
        pos.do_move(m);
        let mated = !has_evasion(pos);
        pos.undo_move(m);
        match fast {
            Some(f) => {
                assert_eq!(f, mated, "{} after {}", pos.to_sfen(), m);
                if f {
                    tally.mates += 1;
                } else {
                    tally.escapes += 1;
                }
            }
            None => tally.undecided += 1,
        }
    }
}

#[test]
fn contact_mates_agree_with_making_the_move() {
    hisha::init();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut tally = Tally::default();
    for sfen in sfens() {
        let Ok(start) = Position::from_sfen(&sfen) else { panic!("bad sfen in the suite: {sfen}") };
        for _walk in 0..4 {
            let mut pos = start.clone();
            for _ply in 0..12 {
                compare_checks(&mut pos, &mut tally);
                if !random_step(&mut pos, &mut rng) {
                    break;
                }
            }
        }
    }
    // The files must exercise every answer, or the comparison proves little.
    assert!(tally.mates > 200, "{} mates", tally.mates);
    assert!(tally.escapes > 5000, "{} escapes", tally.escapes);
    assert!(tally.undecided > 100, "{} undecided", tally.undecided);
}

/// Whether some legal move of `pos` checks from next to the king (or as a knight),
/// uncovers no other check, and mates: found the slow way.
fn has_contact_mate(pos: &mut Position) -> bool {
    let ksq = pos.king_square(pos.side_to_move().flip());
    let mut list = MoveList::new();
    generate(pos, GenType::Legal, false, &mut list);
    list.iter().any(|&m| {
        pos.do_move(m);
        let checkers = pos.checkers();
        let contact = checkers == Bitboard::from_square(m.to())
            && (king_attacks(ksq).has(m.to()) || pos.piece_on(m.to()).kind() == PieceType::Knight);
        let mated = contact && !has_evasion(pos);
        pos.undo_move(m);
        mated
    })
}

#[test]
fn contact_mate_in_one_finds_exactly_the_contact_mates() {
    hisha::init();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
    let (mut found, mut none) = (0, 0);
    for sfen in sfens() {
        let Ok(start) = Position::from_sfen(&sfen) else { panic!("bad sfen in the suite: {sfen}") };
        for _walk in 0..3 {
            let mut pos = start.clone();
            for _ply in 0..10 {
                if !pos.in_check() && pos.has_king(pos.side_to_move().flip()) {
                    let ci = CheckInfo::new(&pos);
                    let fast = contact_mate_in_one(&pos, &ci);
                    assert_eq!(fast.is_some(), has_contact_mate(&mut pos), "{}", pos.to_sfen());
                    if let Some(m) = fast {
                        let mut legal = MoveList::new();
                        generate(&pos, GenType::Legal, false, &mut legal);
                        assert!(legal.iter().any(|&l| l == m), "{} {m} not legal", pos.to_sfen());
                        pos.do_move(m);
                        assert!(!has_evasion(&pos), "{} not mated", pos.to_sfen());
                        pos.undo_move(m);
                        found += 1;
                    } else {
                        none += 1;
                    }
                }
                if !random_step(&mut pos, &mut rng) {
                    break;
                }
            }
        }
    }
    assert!(found > 100 && none > 1000, "found {found}, none {none}");
}
