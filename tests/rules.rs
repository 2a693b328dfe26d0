//! One test (or more) per rule of the game as the engine plays it (the shogi rules,
//! with the CSA entering-king declaration), both ways where a rule has two sides.

use hisha::movegen::{generate, legal_moves, GenType, MoveList};
use hisha::position::Position;
use hisha::core::types::Move;

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn legal(sfen: &str) -> Vec<String> {
    legal_moves(&pos(sfen)).iter().map(|m| m.to_string()).collect()
}

fn has(sfen: &str, m: &str) -> bool {
    legal(sfen).iter().any(|x| x == m)
}

#[test]
fn uchifuzume_is_illegal() {
    // P*1b would be mate: the king cannot take (knight protects), no escape.
    assert!(!has("7nk/7s1/9/7N1/9/9/9/9/4K4 b P 1", "P*1b"));
    // The other pawn drops on the file remain.
    assert!(has("7nk/7s1/9/7N1/9/9/9/9/4K4 b P 1", "P*1c"));
}

#[test]
fn answerable_pawn_drop_check_is_legal() {
    // King escapes to 2b.
    assert!(has("7nk/9/9/7N1/9/9/9/9/4K4 b P 1", "P*1b"));
    // A gold can take the pawn.
    assert!(has("7nk/7g1/9/7N1/9/9/9/9/4K4 b P 1", "P*1b"));
    // An unprotected pawn can be taken by the king.
    assert!(has("7nk/7s1/9/9/9/9/9/9/4K4 b P 1", "P*1b"));
}

#[test]
fn uchifuzume_when_only_capturer_is_pinned() {
    // The gold on 2b could take on 1b but is pinned by the bishop on 4d.
    assert!(!has("7nk/7g1/9/5B1N1/9/9/9/9/4K4 b P 1", "P*1b"));
}

#[test]
fn pawn_drop_unpins_a_capturer_so_it_is_not_mate() {
    // The gold on 1c is pinned by the lance on 1i until the pawn lands on 1b;
    // then it may take the pawn (still shielding its king), so the drop is legal.
    assert!(has("7nk/7s1/8g/7N1/9/9/9/9/4K3L b P 1", "P*1b"));
}

#[test]
fn mate_by_pawn_push_or_other_drop_is_legal() {
    let p = pos("7nk/7s1/8P/8L/9/9/9/9/4K4 b - 1");
    let m = p.parse_usi_move("1c1b").expect("pawn push mate is legal");
    let mut p2 = p.clone();
    p2.do_move(m);
    assert!(p2.in_check());
    assert!(legal_moves(&p2).is_empty(), "pawn push delivers mate");
    // Gold drop mate is legal.
    let g = "8k/9/8P/9/9/9/9/9/4K4 b G 1";
    assert!(has(g, "G*1b"));
    let mut p3 = pos(g);
    p3.do_move(Move::from_usi("G*1b").expect("usi"));
    assert!(legal_moves(&p3).is_empty());
}

#[test]
fn nifu_forbids_second_unpromoted_pawn() {
    let drops: Vec<String> =
        legal("4k4/9/9/9/9/9/PPPP1PPPP/9/4K4 b P 1").into_iter().filter(|m| m.starts_with("P*")).collect();
    assert!(!drops.is_empty());
    assert!(drops.iter().all(|m| m.as_bytes()[2] == b'5'), "{drops:?}");
}

#[test]
fn tokin_does_not_count_for_nifu() {
    let drops: Vec<String> =
        legal("4k4/9/4+P4/9/9/9/PPPP1PPPP/9/4K4 b P 1").into_iter().filter(|m| m.starts_with("P*")).collect();
    assert!(drops.iter().any(|m| m == "P*5e"));
    assert!(drops.iter().all(|m| m.as_bytes()[2] == b'5'));
}

#[test]
fn dead_drops_are_excluded() {
    let ms = legal("4k4/9/9/9/9/9/9/9/4K4 b NLP 1");
    for m in &ms {
        let rank = m.as_bytes()[3];
        match &m[..2] {
            "P*" | "L*" => assert_ne!(rank, b'a', "{m}"),
            "N*" => assert!(rank != b'a' && rank != b'b', "{m}"),
            _ => {}
        }
    }
    assert!(ms.contains(&"N*5c".to_string()) && ms.contains(&"L*5b".to_string()) && ms.contains(&"P*5b".to_string()));
    // White's last ranks are h and i.
    let ms = legal("4k4/9/9/9/9/9/9/9/4K4 w nlp 1");
    assert!(ms.iter().all(|m| !(m.starts_with("P*") || m.starts_with("L*")) || !m.ends_with('i')));
    assert!(ms.iter().all(|m| !m.starts_with("N*") || !(m.ends_with('i') || m.ends_with('h'))));
}

#[test]
fn forced_promotion_of_pawn_lance_knight() {
    let ms = legal("k8/7P1/6L2/5N3/3N5/9/9/9/4K4 b - 1");
    // Pawn 2b-2a, lance 3c-3a, knight 4d-3b/5b: only promoting versions.
    for m in ["2b2a+", "3c3a+", "4d3b+", "4d5b+"] {
        assert!(ms.contains(&m.to_string()), "{m} missing");
        assert!(!ms.contains(&m[..4].to_string()), "{} must not be generated", &m[..4]);
    }
    // Lance to 3b and knight to rank c may choose.
    for m in ["3c3b", "3c3b+", "6e5c", "6e5c+", "6e7c", "6e7c+"] {
        assert!(ms.contains(&m.to_string()), "{m} missing");
    }
}

#[test]
fn optional_promotion_offers_both() {
    let ms = legal("4k4/8R/6S2/9/9/9/9/1B7/4K4 b - 1");
    for m in ["1b1a", "1b1a+", "3c2d", "3c2d+", "3c3b", "3c3b+", "1b1i", "1b1i+"] {
        assert!(ms.contains(&m.to_string()), "{m} missing");
    }
    let bishop = legal("4k4/9/9/9/9/9/9/1B7/4K4 b - 1");
    for m in ["8h2b", "8h2b+", "8h1a", "8h1a+", "8h3c", "8h3c+"] {
        assert!(bishop.contains(&m.to_string()), "{m} missing");
    }
    assert!(!bishop.contains(&"8h4d+".to_string()));
    // Moves wholly outside the zone never promote.
    assert!(!ms.contains(&"8h7g+".to_string()) && ms.contains(&"8h7g".to_string()));
    // Gold and king never promote.
    assert!(legal("4k4/9/4G4/9/9/9/9/9/4K4 b - 1").iter().all(|m| !m.ends_with('+')));
}

#[test]
fn dropped_piece_is_unpromoted_and_may_promote_later() {
    let mut p = pos("4k4/9/9/9/9/9/9/9/4K4 b S 1");
    assert!(!legal_moves(&p).iter().any(|m| m.is_drop() && m.is_promotion()));
    p.do_move(Move::from_usi("S*3b").expect("usi"));
    p.do_move(Move::from_usi("5a6a").expect("usi"));
    let ms: Vec<String> = legal_moves(&p).iter().map(|m| m.to_string()).collect();
    assert!(ms.contains(&"3b3a+".to_string()) && ms.contains(&"3b2c+".to_string()));
}

#[test]
fn drops_and_moves_block_a_check() {
    let ms = legal("4k4/9/9/9/4l4/9/9/9/4K4 b GSNLP 1");
    for m in ["P*5f", "L*5g", "N*5h", "G*5h", "S*5f"] {
        assert!(ms.contains(&m.to_string()), "{m} missing");
    }
    assert!(ms.iter().filter(|m| m.contains('*')).all(|m| matches!(&m[2..], "5f" | "5g" | "5h")));
    // A knight check cannot be blocked: no drops at all.
    assert!(legal("4k4/9/9/9/9/9/5n3/9/4K4 b GSP 1").iter().all(|m| !m.contains('*')));
}

#[test]
fn double_check_allows_king_moves_only() {
    let ms = legal("4k4/9/9/9/4r4/9/5n3/9/4K4 b G 1");
    assert!(!ms.is_empty());
    assert!(ms.iter().all(|m| m.starts_with("5i")), "{ms:?}");
}

#[test]
fn king_never_steps_into_attack() {
    // Kings facing each other across 5f: neither may step there.
    let ms = legal("9/9/9/9/4k4/9/4K4/9/9 b - 1");
    assert!(!ms.iter().any(|m| m.ends_with("5f") || m.ends_with("4f") || m.ends_with("6f")));
    // Stepping back along the line of a checking rook is illegal.
    let ms = legal("4k4/9/9/9/4r4/9/9/9/4K4 b - 1");
    assert!(!ms.contains(&"5i5h".to_string()));
    assert!(ms.contains(&"5i4i".to_string()));
}

#[test]
fn pinned_pieces_move_only_along_the_pin() {
    // Silver 6i pinned by the rook on 9i along rank i; bishop 4h pinned by the bishop
    // on 1e; rook 5e pinned by the lance on 5a.
    let ms = legal("k3l4/9/9/9/4R3b/9/9/5B3/r2SK4 b G 1");
    assert!(!ms.iter().any(|m| m.starts_with("6i")), "pinned silver moved");
    assert!(ms.iter().filter(|m| m.starts_with("4h")).all(|m| matches!(&m[2..4], "3g" | "2f" | "1e")));
    assert!(ms.iter().filter(|m| m.starts_with("5e")).all(|m| &m[2..3] == "5"));
    assert!(ms.contains(&"5e5a+".to_string()) && ms.contains(&"4h1e".to_string()) && !ms.contains(&"4h1e+".to_string()));
}

#[test]
fn capture_goes_to_hand_unpromoted() {
    let mut p = pos("4k4/9/9/9/4+r4/9/9/4R4/4K4 b - 1");
    p.do_move(Move::from_usi("5h5e").expect("usi"));
    assert_eq!(p.hand(hisha::core::types::Color::Black).count(hisha::core::types::PieceType::Rook), 1);
    assert!(p.to_sfen().contains(" R "), "{}", p.to_sfen());
}

#[test]
fn checkmated_side_has_no_moves() {
    let p = pos("4k4/9/9/9/9/9/8p/8g/8K b - 1");
    assert!(p.in_check());
    assert!(legal_moves(&p).is_empty());
}

#[test]
fn staged_generators_partition_the_legal_moves() {
    let text = include_str!("../positions/perft.txt");
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let sfen = line.split('|').nth(1).map(str::trim).unwrap_or("");
        let p = pos(sfen);
        let mut all = MoveList::new();
        generate(&p, GenType::Legal, true, &mut all);
        let mut staged: Vec<Move> = Vec::new();
        let mut l = MoveList::new();
        if p.in_check() {
            generate(&p, GenType::Evasions, true, &mut l);
            staged.extend(l.iter());
        } else {
            generate(&p, GenType::CapturesPromotions, true, &mut l);
            for &m in l.iter() {
                assert!(p.is_capture(m) || (m.is_promotion() && p.moved_piece(m).kind() == hisha::core::types::PieceType::Pawn));
            }
            staged.extend(l.iter());
            l.clear();
            generate(&p, GenType::Quiets, true, &mut l);
            for &m in l.iter() {
                assert!(!p.is_capture(m), "{m} is a capture in quiets");
            }
            staged.extend(l.iter());
        }
        let mut a: Vec<u16> = all.iter().map(|m| m.raw()).collect();
        let mut b: Vec<u16> = staged.iter().map(|m| m.raw()).collect();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "staged generators differ from legal in {sfen}");

        // Quiet checks: exactly the quiet moves that give check.
        if !p.in_check() {
            let mut checks = MoveList::new();
            generate(&p, GenType::QuietChecks, true, &mut checks);
            let mut quiets = MoveList::new();
            generate(&p, GenType::Quiets, true, &mut quiets);
            for &m in quiets.iter() {
                let mut q = p.clone();
                q.do_move(m);
                assert_eq!(q.in_check(), checks.contains(m), "gives_check wrong for {m} in {sfen}");
            }
        }
    }
}

#[test]
fn do_undo_restores_everything_and_keys_are_incremental() {
    let text = include_str!("../positions/perft.txt");
    for line in text.lines().filter(|l| !l.trim().is_empty()).take(60) {
        let sfen = line.split('|').nth(1).map(str::trim).unwrap_or("");
        let mut p = pos(sfen);
        let before = (p.to_sfen(), p.key());
        for &m in legal_moves(&p).iter() {
            p.do_move(m);
            let fresh = pos(&p.to_sfen());
            assert_eq!(fresh.key(), p.key(), "incremental key after {m} in {sfen}");
            assert_eq!(fresh.state().class_keys, p.state().class_keys, "part keys after {m} in {sfen}");
            assert_eq!(fresh.checkers(), p.checkers());
            assert_eq!(fresh.pinned(), p.pinned());
            p.undo_move(m);
            assert_eq!((p.to_sfen(), p.key()), before, "undo of {m} in {sfen}");
        }
    }
}
