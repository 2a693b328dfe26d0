//! USI edge cases a GUI or tournament runner really sends (issue 16): early ponder with
//! the clock given only at `ponderhit`, no `bestmove` before `ponderhit`/`stop`, a clock
//! for the other side only, `go perft` off the protocol thread, table sizes out of
//! range, a network file that is not a network, and very long move lists.
//!
//! The engine is driven over stdin/stdout as a GUI drives it. Time limits here are what
//! a GUI itself would tolerate (the clock it gave, plus a margin for this shared
//! machine), never tight measurements.
mod common;

use common::Engine;
use hisha::position::Position;
use std::process::Command;
use std::time::{Duration, Instant};

/// Margin over the clock for the test machine's scheduling noise.
const MARGIN: Duration = Duration::from_millis(1500);

fn bestmove_is_legal(pos: &Position, line: &str) -> bool {
    let mv = line.split_whitespace().nth(1).unwrap_or("");
    mv == "resign" || mv == "win" || pos.parse_usi_move(mv).is_some()
}

#[test]
fn early_ponder_takes_its_clock_from_ponderhit() {
    for hit in ["ponderhit btime 1000 wtime 5000 byoyomi 1000", "ponderhit btime 1000 wtime 5000 binc 500 winc 500"] {
        let mut e = Engine::ready();
        e.send("position startpos");
        e.send("go ponder");
        std::thread::sleep(Duration::from_millis(300));
        let hit_at = Instant::now();
        e.send(hit);
        let lines = e.expect(|l| l.starts_with("bestmove"));
        let took = hit_at.elapsed();
        // The clock given with ponderhit: 1 s of main time (+1 s byoyomi or 0.5 s increment).
        let clock = if hit.contains("byoyomi") { Duration::from_millis(2000) } else { Duration::from_millis(1500) };
        assert!(took < clock + MARGIN, "{hit}: bestmove {took:?} after ponderhit");
        assert!(bestmove_is_legal(&Position::startpos(), lines.last().unwrap()));
        eprintln!("{hit}: bestmove {} ms after ponderhit", took.as_millis());
    }
}

#[test]
fn node_limits_never_answer_before_ponderhit_or_stop() {
    for (setup, go, release) in [
        ("", "go ponder nodes 1", "stop"),
        ("", "go infinite nodes 100", "stop"),
        ("setoption name NodesLimit value 1000", "go ponder btime 0 wtime 0 byoyomi 1000", "ponderhit"),
        ("", "go ponder depth 1", "ponderhit"),
    ] {
        let mut e = Engine::ready();
        if !setup.is_empty() {
            e.send(setup);
        }
        e.send("position startpos");
        e.send(go);
        let early = e.drain(Duration::from_millis(700));
        assert!(!early.iter().any(|l| l.starts_with("bestmove")), "{go}: bestmove before {release}: {early:?}");
        e.send(release);
        let lines = e.expect(|l| l.starts_with("bestmove"));
        assert!(bestmove_is_legal(&Position::startpos(), lines.last().unwrap()), "{lines:?}");
    }
}

#[test]
fn a_clock_for_the_other_side_only_still_answers() {
    for (position, go) in [
        ("position startpos moves 7g7f", "go btime 1000"),
        ("position startpos moves 7g7f", "go btime 100 binc 100"),
        ("position startpos", "go wtime 1000"),
        ("position startpos", "go winc 100"),
    ] {
        let mut e = Engine::ready();
        e.send(position);
        let sent = Instant::now();
        let lines = e.go(go.trim_start_matches("go ")).2;
        eprintln!("{position} / {go}: bestmove after {} ms", sent.elapsed().as_millis());
        assert!(lines.last().unwrap().starts_with("bestmove"));
    }
}

#[test]
fn go_perft_leaves_the_protocol_free() {
    let mut e = Engine::ready();
    e.send("position startpos");
    e.send("go perft 7");
    e.send("isready");
    let lines = e.expect(|l| l == "readyok");
    assert!(!lines.iter().any(|l| l.starts_with("Nodes searched")), "perft 7 finished before isready: {lines:?}");
    e.send("stop");
    e.send("isready");
    let lines = e.expect(|l| l == "readyok");
    assert!(!lines.iter().any(|l| l.starts_with("Nodes searched")), "stopped perft printed a total: {lines:?}");
    // The engine still works, and a small perft still completes with the right count.
    e.send("go perft 3");
    let lines = e.expect(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 25470");
    // quit during a long perft exits promptly.
    e.send("go perft 7");
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(10)), "quit did not end go perft 7");
}

#[test]
fn eof_during_perft_exits() {
    let mut e = Engine::ready();
    e.send("go perft 7");
    e.close_stdin();
    assert!(e.wait_exit(Duration::from_secs(10)), "EOF did not end go perft 7");
}

#[test]
fn mate_hash_out_of_range_is_an_error_not_a_crash() {
    for hash in ["30000", "9999999999999", "0", "-5"] {
        let out = Command::new(env!("CARGO_BIN_EXE_hisha"))
            .args(["mate", &format!("--hash={hash}"), "--sfen", "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"])
            .output()
            .expect("run hisha mate");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--hash {hash}: {stderr}");
        assert!(stderr.contains("hash"), "--hash {hash}: {stderr}");
        assert!(!stderr.contains("panicked"), "--hash {hash}: {stderr}");
    }
}

/// Under an address-space limit a huge USI_Hash falls back to a smaller table, and
/// `go mate` (which sizes its own table from USI_Hash) falls back too instead of
/// aborting.
#[test]
fn go_mate_survives_a_hash_it_cannot_allocate() {
    let bin = env!("CARGO_BIN_EXE_hisha");
    let script = format!(
        "ulimit -v 3000000; {{ printf 'usi\\nsetoption name USI_Hash value 16384\\nisready\\nposition sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1\\ngo mate 5000\\nisready\\n'; sleep 3; printf 'quit\\n'; }} | {bin}"
    );
    let out = Command::new("sh").args(["-c", &script]).output().expect("run sh");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "exit {:?}\n{stdout}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    assert!(stdout.lines().any(|l| l.starts_with("checkmate G*5b")), "{stdout}");
    assert_eq!(stdout.lines().filter(|l| *l == "readyok").count(), 2, "{stdout}");
}

#[test]
fn eval_file_that_is_not_a_network_is_refused_quickly() {
    for path in ["/dev/zero", "/dev/urandom"] {
        let mut e = Engine::ready();
        e.send(&format!("setoption name EvalFile value {path}"));
        e.send("isready");
        let lines = e.expect(|l| l == "readyok");
        assert!(lines.iter().any(|l| l.starts_with("info string error") && l.contains("EvalFile")), "{path}: {lines:?}");
        // The embedded network stays and the engine plays.
        e.send("position startpos");
        let (bm, _, _) = e.go("depth 3");
        assert!(Position::startpos().parse_usi_move(&bm).is_some(), "{bm}");
    }
}

#[test]
fn a_very_long_move_list_does_not_slow_the_answer() {
    // Kings walking to and fro: 4 plies a cycle; 400,000 plies in all (2 MB of text).
    let cycle = ["5i4h", "5a6b", "4h5i", "6b5a"];
    let mut line = String::from("position startpos moves");
    for i in 0..400_000 {
        line.push(' ');
        line.push_str(cycle[i % 4]);
    }
    let mut e = Engine::ready();
    e.send(&line);
    e.send("isready");
    e.expect(|l| l == "readyok");
    let sent = Instant::now();
    let (bm, _, _) = e.go("btime 0 wtime 0 byoyomi 1000");
    let took = sent.elapsed();
    eprintln!("byoyomi 1000 after 400,000 plies: bestmove {bm} after {} ms", took.as_millis());
    assert!(took < Duration::from_millis(1000) + MARGIN, "bestmove after {took:?}");
    assert!(Position::startpos().parse_usi_move(&bm).is_some(), "{bm}");
}
