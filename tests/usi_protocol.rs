//! Protocol tests: the binary driven over stdin/stdout like a GUI.
mod common;

use common::Engine;
use hisha::position::Position;
use std::time::Duration;

#[test]
fn handshake_and_options() {
    let mut e = Engine::start();
    e.send("usi");
    let lines = e.expect(|l| l == "usiok");
    assert!(lines.iter().any(|l| l.starts_with("id name Hisha")));
    assert!(lines.iter().any(|l| l.starts_with("id author")));
    for opt in [
        "USI_Hash", "USI_Ponder", "Threads", "MultiPV", "NetworkDelay", "NetworkDelay2", "MinimumThinkingTime",
        "SlowMover", "EnteringKingRule", "ResignValue", "MaxMovesToDraw", "DepthLimit", "NodesLimit",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {opt} type "))), "missing option {opt}");
    }
    e.send("setoption name usi_hash value 16");
    e.send("setoption name threads value 2");
    e.send("setoption name NoSuchOption value 1");
    let l = e.expect(|l| l.starts_with("info string"));
    assert!(l.last().unwrap().contains("unknown option"));
    e.send("setoption name MultiPV value 0");
    let l = e.expect(|l| l.starts_with("info string"));
    assert!(l.last().unwrap().contains("out of range"));
    e.send("isready");
    e.expect(|l| l == "readyok");
    e.send("position startpos");
    let (bm, _, _) = e.go("depth 4");
    assert!(Position::startpos().parse_usi_move(&bm).is_some(), "{bm}");
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(10)));
}

#[test]
fn self_play_game_all_moves_legal() {
    let mut e = Engine::ready();
    e.send("usinewgame");
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    let mut seen = std::collections::HashMap::new();
    for _ in 0..400 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let (bm, ponder, lines) = e.go("nodes 3000");
        for l in lines.iter().filter(|l| l.contains(" pv ")) {
            // Every pv must be legal from the current position.
            let pv: Vec<&str> = l.split(" pv ").nth(1).unwrap().split_whitespace().collect();
            let mut p = pos.clone();
            for m in pv {
                let mv = p.parse_usi_move(m).unwrap_or_else(|| panic!("illegal pv move {m} in {l}"));
                p.do_move(mv);
            }
        }
        if bm == "resign" {
            // With the default ResignValue the engine resigns only when it has no legal move.
            assert!(hisha::movegen::legal_moves(&pos).is_empty(), "resigned with legal moves at {}", pos.to_sfen());
            break;
        }
        if bm == "win" {
            break;
        }
        let m = pos.parse_usi_move(&bm).unwrap_or_else(|| panic!("illegal bestmove {bm} at {}", pos.to_sfen()));
        pos.do_move(m);
        if let Some(p) = ponder {
            assert!(pos.parse_usi_move(&p).is_some(), "illegal ponder move {p}");
        }
        moves.push(bm);
        let n = seen.entry(pos.key()).or_insert(0);
        *n += 1;
        if *n >= 4 || hisha::movegen::legal_moves(&pos).is_empty() {
            break;
        }
    }
    assert!(moves.len() > 10);
    e.send("gameover draw");
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(10)));
}

#[test]
fn ponder_then_ponderhit_and_ponder_then_stop() {
    let mut e = Engine::ready();
    e.send("setoption name USI_Ponder value true");
    e.send("position startpos moves 7g7f 3c3d 2g2f");
    e.send("go ponder btime 0 wtime 0 byoyomi 300");
    let early = e.drain(Duration::from_millis(400));
    assert!(!early.iter().any(|l| l.starts_with("bestmove")), "bestmove while pondering");
    e.send("ponderhit");
    let lines = e.expect(|l| l.starts_with("bestmove"));
    let bm = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    let pos = Position::startpos();
    let mut p = pos.clone();
    for m in ["7g7f", "3c3d", "2g2f"] {
        let mv = p.parse_usi_move(m).unwrap();
        p.do_move(mv);
    }
    assert!(p.parse_usi_move(&bm).is_some());

    // Ponder miss: stop, then a normal search.
    e.send("go ponder btime 0 wtime 0 byoyomi 300");
    let early = e.drain(Duration::from_millis(200));
    assert!(!early.iter().any(|l| l.starts_with("bestmove")));
    e.send("stop");
    e.expect(|l| l.starts_with("bestmove"));
    e.send("position startpos moves 7g7f 3c3d 6g6f");
    let (bm, _, _) = e.go("btime 0 wtime 0 byoyomi 200");
    assert_ne!(bm, "resign");
}

#[test]
fn stop_during_infinite_and_isready_mid_search() {
    let mut e = Engine::ready();
    e.send("position startpos");
    e.send("go infinite");
    let early = e.drain(Duration::from_millis(300));
    assert!(!early.iter().any(|l| l.starts_with("bestmove")));
    e.send("isready");
    e.expect(|l| l == "readyok");
    e.send("stop");
    let lines = e.expect(|l| l.starts_with("bestmove"));
    let bm = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    assert!(Position::startpos().parse_usi_move(&bm).is_some());
}

/// Nodes of the last `info ... pv` line of a search.
fn final_nodes(lines: &[String]) -> u64 {
    let info = lines.iter().rev().find(|l| l.contains(" pv ")).expect("a pv line");
    let t: Vec<&str> = info.split_whitespace().collect();
    let i = t.iter().position(|&w| w == "nodes").expect("nodes field");
    t[i + 1].parse().expect("nodes count")
}

#[test]
fn clear_hash_button_makes_the_next_search_start_afresh() {
    let mut e = Engine::ready();
    e.send("usi");
    let lines = e.expect(|l| l == "usiok");
    assert!(lines.iter().any(|l| l == "option name Clear_Hash type button"));
    e.send("usinewgame");
    e.send("position startpos moves 7g7f 3c3d");
    let fresh = final_nodes(&e.go("depth 9").2);
    // The same search again finds its own entries and move statistics...
    let warm = final_nodes(&e.go("depth 9").2);
    assert_ne!(warm, fresh);
    // ... and after the button it retraces the first one node for node.
    e.send("setoption name Clear_Hash");
    assert_eq!(final_nodes(&e.go("depth 9").2), fresh);
    // Refused while searching: the running search keeps its table.
    e.send("go infinite");
    e.send("setoption name clear hash");
    let l = e.expect(|l| l.starts_with("info string error"));
    assert!(l.last().unwrap().contains("Clear_Hash"), "{l:?}");
    e.send("stop");
    e.expect(|l| l.starts_with("bestmove"));
}

#[test]
fn gameover_then_new_game() {
    let mut e = Engine::ready();
    e.send("usinewgame");
    e.send("position startpos moves 7g7f");
    e.go("btime 0 wtime 0 byoyomi 100");
    for r in ["win", "lose", "draw"] {
        e.send(&format!("gameover {r}"));
    }
    e.send("isready");
    e.expect(|l| l == "readyok");
    e.send("usinewgame");
    e.send("position startpos");
    let (bm, _, _) = e.go("btime 1000 wtime 1000 binc 100 winc 100");
    assert!(Position::startpos().parse_usi_move(&bm).is_some());
}

#[test]
fn bad_input_then_normal_search() {
    let mut e = Engine::ready();
    // go before any position searches the start position.
    let (bm, _, _) = e.go("depth 2");
    assert!(Position::startpos().parse_usi_move(&bm).is_some());
    e.send("position startpos moves 7g7f");
    for bad in [
        "hello world",
        "position",
        "position sfen",
        "position sfen xyz w - 1",
        "position startpos moves 7g7f 7g7f",
        "position startpos moves 3c3d 2h2a",
        "setoption name Threads value -5",
        "setoption name USI_Hash value 99999999999999999999",
        "go depth -3 nodes 99999999999999999999999",
    ] {
        e.send(bad);
        if bad.starts_with("go") {
            e.expect(|l| l.starts_with("bestmove"));
        } else {
            let l = e.expect(|l| l.starts_with("info string"));
            assert!(l.last().unwrap().contains("error"), "{bad}: {l:?}");
        }
    }
    // The last good position (after 7g7f) is kept: White to move.
    let (bm, _, _) = e.go("depth 3");
    let mut p = Position::startpos();
    let m = p.parse_usi_move("7g7f").unwrap();
    p.do_move(m);
    assert!(p.parse_usi_move(&bm).is_some(), "{bm}");
}

#[test]
fn quit_mid_search_and_eof() {
    let mut e = Engine::ready();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)), "did not exit after quit");

    let mut e = Engine::ready();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.close_stdin();
    assert!(e.wait_exit(Duration::from_secs(5)), "did not exit on EOF");
}

#[test]
fn multipv_and_go_perft() {
    let mut e = Engine::ready();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    let (_, _, lines) = e.go("depth 4");
    for k in 1..=3 {
        assert!(lines.iter().any(|l| l.contains(&format!("multipv {k} "))), "no multipv {k}");
    }
    e.send("go perft 3");
    let l = e.expect(|l| l.starts_with("Nodes searched"));
    assert_eq!(l.last().unwrap(), "Nodes searched: 25470");
    e.send("go mate 1000");
    e.expect(|l| l.starts_with("checkmate"));
}

#[test]
fn evaluation_options_switch_and_refuse_bad_networks() {
    let mut e = Engine::start();
    e.send("usi");
    let lines = e.expect(|l| l == "usiok");
    assert!(lines.iter().any(|l| l == "option name UseNNUE type check default true"));
    assert!(lines.iter().any(|l| l == "option name EvalFile type filename default <embedded>"));
    e.send("isready");
    e.expect(|l| l == "readyok");
    e.send("position sfen lnsgk1snl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b G 1");
    e.send("eval");
    let before = e.expect(|l| l.starts_with("info string eval nnue")).pop().unwrap();
    // A file that does not exist and a file that is not a network are refused; the
    // network in use stays and the engine keeps serving.
    let dir = std::env::temp_dir().join(format!("hisha-evalfile-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let junk = dir.join("junk.nnue");
    std::fs::write(&junk, b"not a network at all").unwrap();
    for path in [dir.join("missing.nnue"), junk] {
        e.send(&format!("setoption name EvalFile value {}", path.display()));
        let l = e.expect(|l| l.starts_with("info string"));
        assert!(l.last().unwrap().contains("error"), "{l:?}");
    }
    e.send("eval");
    assert_eq!(e.expect(|l| l.starts_with("info string eval nnue")).pop().unwrap(), before);
    // White's gold is in Black's hand: both evaluations favour Black.
    let nnue: i32 = before.split_whitespace().nth(4).unwrap().parse().unwrap();
    let classical: i32 = before.split_whitespace().nth(6).unwrap().parse().unwrap();
    assert!(nnue > 300 && classical > 300, "{before}");
    for use_nnue in ["false", "true"] {
        e.send(&format!("setoption name UseNNUE value {use_nnue}"));
        e.send("isready");
        e.expect(|l| l == "readyok");
        let (bm, _, lines) = e.go("depth 6");
        assert!(Position::from_sfen("lnsgk1snl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b G 1").unwrap().parse_usi_move(&bm).is_some());
        let (_, score) = common::last_score(&lines).unwrap();
        assert!(score > 200, "UseNNUE {use_nnue}: score {score}");
    }
    e.send("setoption name EvalFile value <embedded>");
    let l = e.expect(|l| l.starts_with("info string"));
    assert!(l.last().unwrap().contains("EvalFile: <embedded>"), "{l:?}");
    let _ = std::fs::remove_dir_all(&dir);
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(10)));
}

/// A K+P network in YaneuraOu's format (`common::yaneuraou_kp_file`), as `dir/nn.bin`.
fn write_yaneuraou_kp(dir: &std::path::Path) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("nn.bin");
    std::fs::write(&path, common::yaneuraou_kp_file()).unwrap();
    path
}

#[test]
fn yaneuraou_networks_load_from_evaldir_and_scale_with_fv_scale() {
    let mut e = Engine::start();
    e.send("usi");
    let lines = e.expect(|l| l == "usiok");
    assert!(lines.iter().any(|l| l == "option name EvalDir type string default <embedded>"));
    assert!(lines.iter().any(|l| l == "option name FV_SCALE type spin default 16 min 1 max 128"));
    e.send("isready");
    e.expect(|l| l == "readyok");
    let sfen = "lnsgk1snl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b G 1";
    let eval = |e: &mut Engine| -> i32 {
        e.send(&format!("position sfen {sfen}"));
        e.send("eval");
        let l = e.expect(|l| l.starts_with("info string eval nnue")).pop().unwrap();
        l.split_whitespace().nth(4).unwrap().parse().unwrap()
    };
    let embedded = eval(&mut e);
    let root = std::env::temp_dir().join(format!("hisha-evaldir-test-{}", std::process::id()));
    let good = root.join("kp");
    write_yaneuraou_kp(&good);
    e.send(&format!("setoption name EvalDir value {}", good.display()));
    let l = e.expect(|l| l.starts_with("info string"));
    assert!(l.last().unwrap().contains("YaneuraOu k_p_256x2-32-32"), "{l:?}");
    let at16 = eval(&mut e);
    assert_ne!(at16, embedded);
    e.send("setoption name FV_SCALE value 32");
    assert_eq!(eval(&mut e), at16 / 2);
    e.send("setoption name FV_SCALE value 16");
    // GUIs send every option: EvalFile's default after EvalDir keeps EvalDir's network.
    e.send("setoption name EvalFile value <embedded>");
    e.expect(|l| l.starts_with("info string"));
    assert_eq!(eval(&mut e), at16);
    // The search plays with it.
    e.send(&format!("position sfen {sfen}"));
    let (bm, _, _) = e.go("depth 5");
    assert!(Position::from_sfen(sfen).unwrap().parse_usi_move(&bm).is_some());
    // A truncated file is refused with what is wrong; the network in use stays.
    let bad = root.join("truncated");
    let bytes = std::fs::read(good.join("nn.bin")).unwrap();
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("nn.bin"), &bytes[..bytes.len() / 2]).unwrap();
    e.send(&format!("setoption name EvalDir value {}", bad.display()));
    let l = e.expect(|l| l.starts_with("info string"));
    assert!(l.last().unwrap().contains("error") && l.last().unwrap().contains("truncated"), "{l:?}");
    assert_eq!(eval(&mut e), at16);
    e.send("setoption name EvalDir value <embedded>");
    e.expect(|l| l.starts_with("info string"));
    assert_eq!(eval(&mut e), embedded);
    let _ = std::fs::remove_dir_all(&root);
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(10)));
}

/// `go` with several limits (analysis clients send `movetime` with `depth` or `nodes`)
/// stops at whichever comes first.
#[test]
fn go_with_several_limits_stops_at_the_first() {
    let mut e = Engine::ready();
    let depth_of = |lines: &[String]| -> i32 {
        let l = lines.iter().rev().find(|l| l.starts_with("info depth")).expect("an info depth line");
        l.split_whitespace().nth(2).unwrap().parse().unwrap()
    };
    e.send("position startpos");
    let (_, _, lines) = e.go("movetime 600000 depth 4");
    assert_eq!(depth_of(&lines), 4, "{lines:?}");
    e.send("position startpos");
    let (_, _, lines) = e.go("movetime 600000 nodes 3000");
    assert!(final_nodes(&lines) <= 3000 + 1024, "{lines:?}");
    e.send("position startpos");
    let (bm, _, _) = e.go("movetime 100 nodes 1000000000000 depth 60");
    assert!(Position::startpos().parse_usi_move(&bm).is_some(), "{bm}");
    // A search of over three seconds prints no `currmove` lines (ShogiHome would take
    // one for a PV).
    e.send("position startpos moves 7g7f 3c3d");
    let (_, _, lines) = e.go("movetime 3400");
    assert!(!lines.iter().any(|l| l.contains("currmove")), "{lines:?}");
}
