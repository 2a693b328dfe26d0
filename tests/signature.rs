//! The bench signature (as Stockfish's `tests/signature.sh`): the node count of the
//! built-in bench at a fixed depth is pinned, so that a change meant to keep the search
//! as it was (a refactor, a speed-up) proves it did. A change that is meant to alter the
//! search updates the numbers here and says so in its commit message.

mod common;

use hisha::engine::Engine;
use hisha::position::Position;
use hisha::search::{Config, Limits, Report, SearchResult, Sink};
use std::sync::Arc;

const BENCH_POSITIONS: &str = include_str!("../positions/bench.sfen");

/// Node count of `hisha bench --depth 7` (one thread, 64 MB hash).
const SIGNATURE_DEPTH_7: u64 = 62_500;
/// Node count of `hisha bench` (depth 11, one thread, 64 MB hash).
const SIGNATURE_DEPTH_11: u64 = 753_668;

/// Searches every bench position to `depth` as `hisha bench` does; the results in order.
fn bench(depth: i32) -> Vec<SearchResult> {
    hisha::init();
    let mut engine = Engine::new(Config { threads: 1, verbose: false, keep_history: false, ..Config::default() }, 64);
    let sink: Sink = Arc::new(|_: &Report| {});
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let mut out = Vec::new();
    for line in BENCH_POSITIONS.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let pos = Position::from_sfen(line).expect("bench positions are valid");
        engine.new_game();
        out.push(engine.search(&pos, &limits, sink.clone()));
    }
    out
}

#[test]
fn bench_signature_is_unchanged() {
    let nodes: u64 = bench(7).iter().map(|r| r.nodes).sum();
    assert_eq!(nodes, SIGNATURE_DEPTH_7, "the search changed: update the signature only if that was meant");
}

#[test]
#[ignore = "several seconds; run with `cargo test --release -- --ignored`"]
fn bench_signature_at_the_default_depth_is_unchanged() {
    let nodes: u64 = bench(11).iter().map(|r| r.nodes).sum();
    assert_eq!(nodes, SIGNATURE_DEPTH_11, "the search changed: update the signature only if that was meant");
}

#[test]
fn same_search_twice_gives_the_same_result() {
    let summary = |rs: &[SearchResult]| rs.iter().map(|r| (r.best.clone(), r.ponder, r.score, r.depth, r.nodes)).collect::<Vec<_>>();
    let first = summary(&bench(6));
    assert_eq!(first, summary(&bench(6)));
    assert!(first.iter().all(|r| r.3 == 6 && r.4 > 0), "every position searched to depth 6: {first:?}");
}

#[test]
fn reports_reach_the_sink_and_end_with_the_best_move() {
    hisha::init();
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    let sink: Sink = Arc::new(move |r: &Report| log.lock().unwrap().push(r.clone()));
    // Every iteration reported (`PvInterval` 0; the default 300 ms holds back all but the last).
    let mut engine = Engine::new(Config { pv_interval_ms: 0, ..Config::default() }, 64);
    let limits = Limits { depth: Some(4), ..Limits::default() };
    let r = engine.search(&Position::startpos(), &limits, sink);
    let reports = seen.lock().unwrap();
    let pvs: Vec<_> = reports.iter().filter_map(|r| if let Report::Pv(p) = r { Some(p.depth) } else { None }).collect();
    assert_eq!(pvs, vec![1, 2, 3, 4]);
    match reports.last() {
        Some(Report::BestMove { best, .. }) => assert_eq!(*best, r.best),
        other => panic!("last report {other:?}"),
    }
}

/// `hisha bench` with its arguments: the `Nodes searched` total, or the stderr of a
/// failed run.
fn bench_command(args: &[&str]) -> Result<u64, String> {
    bench_command_with(args, &[])
}

/// `bench_command` with environment variables set.
fn bench_command_with(args: &[&str], env: &[(&str, &str)]) -> Result<u64, String> {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hisha"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.arg("bench").args(args).output().expect("hisha runs");
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text.lines().find(|l| l.starts_with("Nodes searched")).expect("a Nodes searched line");
    Ok(line.rsplit(' ').next().and_then(|n| n.parse().ok()).expect("a node count"))
}

/// `HISHA_NO_AVX2` forces the portable code paths (a CPU without AVX2): the same
/// search, node for node, with Hisha's network and with a YaneuraOu one.
#[test]
fn the_portable_paths_search_as_the_avx2_ones() {
    let portable = bench_command_with(&["--depth", "7"], &[("HISHA_NO_AVX2", "1")]).unwrap();
    assert_eq!(portable, SIGNATURE_DEPTH_7);
    let dir = std::env::temp_dir().join(format!("hisha-portable-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("nn.bin");
    std::fs::write(&path, common::yaneuraou_kp_file()).unwrap();
    let args = ["--depth", "6", "--eval-file", path.to_str().unwrap()];
    let fast = bench_command(&args).unwrap();
    assert_eq!(bench_command_with(&args, &[("HISHA_NO_AVX2", "1")]).unwrap(), fast);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_with_an_eval_file_uses_that_network() {
    let embedded = bench_command(&["--depth", "7"]).unwrap();
    assert_eq!(embedded, SIGNATURE_DEPTH_7);
    // The embedded network's own file gives the same search.
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/src/eval/nnue/hisha.nnue");
    assert_eq!(bench_command(&["--depth", "7", "--eval-file", net]), Ok(embedded));
    // Another network (the output bias moved by about 20 centipawns) searches otherwise.
    let mut other = std::fs::read(net).unwrap();
    let n = other.len();
    let bias = i32::from_le_bytes(other[n - 4..].try_into().unwrap()) + 800;
    other[n - 4..].copy_from_slice(&bias.to_le_bytes());
    let path = std::env::temp_dir().join(format!("hisha-bench-{}.nnue", std::process::id()));
    std::fs::write(&path, &other).unwrap();
    let moved = bench_command(&["--depth", "7", "--eval-file", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert_ne!(moved.unwrap(), embedded);
    // A file that is not a network is refused before anything is searched.
    let not_a_network = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/bench.sfen");
    let err = bench_command(&["--depth", "7", "--eval-file", not_a_network]).unwrap_err();
    assert!(err.contains("error:") && err.contains("neither a Hisha network file nor a YaneuraOu NNUE file"), "{err}");
}
