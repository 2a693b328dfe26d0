//! Rules in search: mates, resign, entering-king declarations, repetition.
mod common;

use common::{last_score, Engine};
use hisha::position::Position;
use hisha::position::rules::{repetition, Repetition};

fn mate_score(sfen: &str, plies: i32) {
    let mut e = Engine::ready();
    e.send(&format!("position sfen {sfen}"));
    let (bm, _, lines) = e.go("depth 8");
    let (kind, n) = last_score(&lines).expect("a score");
    assert_eq!((kind.as_str(), n), ("mate", plies), "{sfen}: {lines:?}");
    assert!(Position::from_sfen(sfen).unwrap().parse_usi_move(&bm).is_some());
}

#[test]
fn finds_mate_in_1() {
    mate_score("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", 1);
}

#[test]
fn finds_mate_in_3() {
    mate_score("6s1k/6+P2/8n/6+P2/9/9/9/9/K8 b SNP2r2b4g2s2n4l15p 1", 3);
}

#[test]
fn finds_mate_in_5() {
    mate_score("5k3/9/9/3G1S3/9/9/9/9/K8 b 2GS2r2bg2s4n4l18p 1", 5);
}

#[test]
fn resigns_when_mated_and_reports_being_mated() {
    let mut e = Engine::ready();
    e.send("position sfen 4k4/9/9/9/9/9/8p/8g/8K b - 1");
    let (bm, _, _) = e.go("btime 0 wtime 0 byoyomi 200");
    assert_eq!(bm, "resign");
}

#[test]
fn entering_king_declarations() {
    let mut e = Engine::ready();
    let p28 = "RRBB1GGGG/4KSS2/9/9/9/9/9/9/4k4 b 2P 1";
    let p33 = "RRBB1GGGG/4KSS2/9/9/9/9/9/9/4k4 b 7P 1";
    let p9 = "RRBB1GGG1/4KSS2/9/9/9/9/9/9/4k4 b 9P 1";
    e.send("setoption name EnteringKingRule value CSARule27");
    e.send(&format!("position sfen {p28}"));
    assert_eq!(e.go("depth 2").0, "win");
    e.send(&format!("position sfen {p9}"));
    assert_ne!(e.go("depth 2").0, "win");
    e.send("setoption name EnteringKingRule value CSARule24");
    e.send(&format!("position sfen {p33}"));
    assert_eq!(e.go("depth 2").0, "win");
    e.send(&format!("position sfen {p28}"));
    assert_ne!(e.go("depth 2").0, "win");
    e.send("setoption name EnteringKingRule value NoEnteringKing");
    e.send(&format!("position sfen {p33}"));
    assert_ne!(e.go("depth 2").0, "win");
}

/// Two-piece handicap, White (the handicap giver) to move with its king in Black's camp,
/// ten pieces there and `n` pawns in hand: 14 + n points. cshogi (`is_nyugyoku` with
/// LAW_27 and LAW_24, which know no handicap rule) says no win for n = 2 and n = 3, as
/// Hisha's CSARule27 and CSARule24 do.
fn handicap_entry(n: u32) -> String {
    format!("4K4/9/9/9/9/9/+p+p+p+p+p+p3/1gs1k1sg1/9 w RB2G2S2N2L{}P2n2l{n}p 1", 12 - n)
}

#[test]
fn handicap_declarations_count_the_missing_pieces() {
    let mut e = Engine::ready();
    for (rule, pawns, wins) in [
        ("CSARule27H", 3, true),
        ("CSARule27H", 2, false),
        ("CSARule27", 3, false),
        ("CSARule24H", 3, false),
        ("CSARule24H", 7, true),
        ("CSARule24H", 6, false),
    ] {
        e.send(&format!("setoption name EnteringKingRule value {rule}"));
        e.send(&format!("position sfen {}", handicap_entry(pawns)));
        let bm = e.go("depth 2").0;
        assert_eq!(bm == "win", wins, "{rule} with {pawns} pawns in hand: bestmove {bm}");
    }
}

#[test]
fn the_try_rule_plays_the_king_onto_the_try_square() {
    let mut e = Engine::ready();
    e.send("setoption name EnteringKingRule value TryRule");
    e.send("position sfen 9/4K4/9/9/9/9/9/9/k8 b G 1");
    assert_eq!(e.go("depth 3").0, "5b5a");
    // The rook behind the king guards 5a once the king has left 5b: no try.
    e.send("position sfen 9/4K4/9/9/9/9/9/9/k3r4 b G 1");
    assert_ne!(e.go("depth 3").0, "5b5a");
    // One step short: the search finds the try a move later.
    e.send("position sfen 9/9/4K4/9/9/9/9/9/k8 b - 1");
    let (bm, _, lines) = e.go("depth 4");
    assert!(["5c5b", "5c4b", "5c6b"].contains(&bm.as_str()), "{bm}");
    assert_eq!(last_score(&lines), Some(("mate".to_string(), 3)), "{lines:?}");
    // Under the point rules the same position is no declaration.
    e.send("setoption name EnteringKingRule value CSARule27");
    e.send("position sfen 9/4K4/9/9/9/9/9/9/k8 b G 1");
    assert_ne!(e.go("depth 3").0, "win");
}

fn play(sfen: &str, moves: &[&str]) -> Position {
    hisha::init();
    let mut pos = Position::from_sfen(sfen).unwrap();
    for m in moves {
        let mv = pos.parse_usi_move(m).unwrap_or_else(|| panic!("{m}"));
        pos.do_move(mv);
    }
    pos
}

#[test]
fn repetition_draw_and_perpetual_check() {
    let pos = play(hisha::position::START_SFEN, &["5i4h", "5a4b", "4h5i", "4b5a"]);
    assert_eq!(repetition(&pos), Repetition::Draw);
    // Black checks with the rook on every move: Black is the perpetual checker.
    let sfen = "8k/9/9/9/9/9/9/9/K6R1 b - 1";
    let pos = play(sfen, &["2i1i", "1a2a", "1i2i", "2a1a"]);
    assert_eq!(repetition(&pos), Repetition::Lose);
    let pos = play(sfen, &["2i1i", "1a2a", "1i2i", "2a1a", "2i1i"]);
    assert_eq!(repetition(&pos), Repetition::Win);
}

#[test]
fn search_avoids_losing_perpetual_and_takes_draw() {
    // After the cycle, repeating the check again would lose by perpetual check; the
    // search must not score that line as a draw.
    let mut e = Engine::ready();
    e.send("position sfen 8k/9/9/9/9/9/9/9/K6R1 b - 1 moves 2i1i 1a2a 1i2i 2a1a");
    let (bm, _, lines) = e.go("depth 6");
    assert_ne!(bm, "resign");
    assert!(last_score(&lines).is_some());
}

/// A mate far beyond a 2-ply alpha-beta search: the root df-pn probe finds it and
/// reports the whole line.
#[test]
fn root_mate_probe_finds_mate_in_11_at_depth_2() {
    let sfen = "2s1k1s2/2ppn4/1b3S3/3G5/1+R5G1/9/9/9/K8 b RB2gs3n4l16p 1";
    let mut e = Engine::ready();
    e.send(&format!("position sfen {sfen}"));
    let (bm, _, lines) = e.go("depth 2");
    assert_eq!(last_score(&lines), Some(("mate".to_string(), 11)), "{lines:?}");
    assert_eq!(bm, "4c5b+");
    let pv_line = lines.iter().rev().find(|l| l.contains(" pv ")).expect("a pv");
    let mut pos = Position::from_sfen(sfen).unwrap();
    let pv: Vec<&str> = pv_line.split(" pv ").nth(1).unwrap().split_whitespace().collect();
    assert_eq!(pv.len(), 11);
    for m in pv {
        let mv = pos.parse_usi_move(m).expect("legal pv move");
        pos.do_move(mv);
    }
    assert!(pos.in_check() && hisha::movegen::legal_moves(&pos).is_empty());
}

/// Issue 45: the position after 7f7e occurred once before the root; going back to it
/// (7g6h) is not a draw but leaves the bishop on 8h to 2b8h+. A search that takes the
/// repeat for a draw plays 7g6h with `score cp 0` and a one-move PV.
#[test]
fn a_position_seen_once_before_the_root_is_not_a_draw() {
    let game = "7g7f 8c8d 6g6f 3c3d 6f6e 7a6b 7i6h 5a4b 7f7e 8b8c 6h7g 8c8b";
    let mut e = Engine::ready();
    e.send(&format!("position startpos moves {game}"));
    let (bm, _, lines) = e.go("depth 8");
    assert_ne!(bm, "7g6h", "{lines:?}");
    // 7g6h searched alone: it loses material, so it must not come back as 0.
    e.send(&format!("position startpos moves {game}"));
    let (bm, _, lines) = e.go("depth 6 searchmoves 7g6h");
    assert_eq!(bm, "7g6h");
    let (kind, score) = last_score(&lines).expect("a score");
    assert!(kind == "cp" && score < -300, "7g6h scored {kind} {score}: {lines:?}");
}

/// `DrawValueBlack` / `DrawValueWhite` (YaneuraOu's names): a draw is worth the value of
/// the colour the engine plays at the root, and minus that to the opponent. With the game
/// length at its limit every move draws, so the root's score is that value.
#[test]
fn draw_values_score_draws_for_the_root_side() {
    let mut e = Engine::ready();
    e.send("setoption name DrawValueBlack value 300");
    e.send("setoption name DrawValueWhite value -150");
    e.send("setoption name MaxMovesToDraw value 1");
    e.send("position startpos");
    let (_, _, lines) = e.go("depth 3");
    assert_eq!(last_score(&lines), Some(("cp".to_string(), 300)), "{lines:?}");
    e.send("setoption name MaxMovesToDraw value 2");
    e.send("position startpos moves 7g7f");
    let (_, _, lines) = e.go("depth 3");
    assert_eq!(last_score(&lines), Some(("cp".to_string(), -150)), "{lines:?}");
    e.send("setoption name DrawValueWhite value 40000");
    let l = e.expect(|l| l.starts_with("info string error"));
    assert!(l.last().unwrap().contains("DrawValueWhite"), "{l:?}");
}
