//! `hisha bench`: a fixed-depth search of each bench position from an empty table,
//! then the totals. Its node count is the search's signature (tests/signature.rs); its
//! nodes per second, the speed measurement.

use hisha::engine::Engine;
use hisha::position::Position;
use hisha::search::{Config, Limits, Report, Sink};
use hisha::usi::info::{report_line, score_text};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

const BENCH_POSITIONS: &str = include_str!("../../positions/bench.sfen");

/// The flags of `hisha bench`.
pub struct BenchSettings {
    pub depth: i32,
    pub threads: usize,
    pub hash: usize,
    pub file: Option<String>,
    pub eval_file: Option<String>,
    /// Milliseconds a position instead of the depth (`None`: to the depth).
    pub movetime: Option<u64>,
    pub verbose: bool,
}

pub fn run(settings: BenchSettings) -> ExitCode {
    match bench(settings) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn bench(settings: BenchSettings) -> Result<(), String> {
    let BenchSettings { depth, threads, hash, file, eval_file, movetime, verbose } = settings;
    if !(1..=60).contains(&depth) || !(1..=256).contains(&threads) || !(1..=65536).contains(&hash) {
        return Err("depth 1..60, threads 1..256, hash 1..65536".to_string());
    }
    if movetime.is_some_and(|ms| !(1..=3_600_000).contains(&ms)) {
        return Err("movetime 1..3600000 ms".to_string());
    }
    let positions = read_positions(file)?;
    if let Some(path) = eval_file {
        hisha::eval::nnue::load(&path).map_err(|e| e.to_string())?;
    }
    // Each bench position is searched from scratch, as the first move of a new game: no
    // table entries, move-ordering statistics or mate-table entries from the one before
    // (the mate tables once carried over, and one position's nodes moved tenfold with
    // the positions searched before it).
    let mut engine = Engine::new(Config { threads, verbose, keep_history: false, ..Config::default() }, hash);
    let sink: Sink = if verbose { Arc::new(|r: &Report| println!("{}", report_line(r))) } else { Arc::new(|_: &Report| {}) };
    let limits = match movetime {
        Some(ms) => {
            let mut l = Limits::default();
            l.clock.movetime = Some(ms);
            l
        }
        None => Limits { depth: Some(depth), ..Limits::default() },
    };
    let mut total_nodes = 0u64;
    let mut probe_ms = 0u64;
    let start = Instant::now();
    for (n, pos) in positions.iter().enumerate() {
        engine.new_game();
        let t0 = Instant::now();
        let r = engine.search(pos, &limits, sink.clone());
        total_nodes += r.nodes;
        probe_ms += r.root_probe_ms;
        println!(
            "position {}: bestmove {} score {} depth {} nodes {} time {} ms",
            n + 1,
            r.best,
            score_text(r.score),
            r.depth,
            r.nodes,
            t0.elapsed().as_millis()
        );
    }
    let limit = match movetime {
        Some(ms) => format!("Movetime (ms)  : {ms}"),
        None => format!("Depth          : {depth}"),
    };
    print_totals(positions.len(), &limit, threads, total_nodes, start.elapsed().as_secs_f64(), probe_ms);
    Ok(())
}

/// The positions of `file` (one SFEN a line; blank lines and `#` comments skipped), or
/// the built-in copy of positions/bench.sfen.
fn read_positions(file: Option<String>) -> Result<Vec<Position>, String> {
    let text = match file {
        Some(f) => std::fs::read_to_string(&f).map_err(|e| format!("cannot read {f}: {e}"))?,
        None => BENCH_POSITIONS.to_string(),
    };
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| Position::from_sfen(line).map_err(|e| format!("bad sfen '{line}': {e}")))
        .collect()
}

/// The totals; `probe_ms` is the time of the df-pn probes at the roots, whose nodes the
/// count leaves out, so the last line gives the alpha-beta search's own speed.
fn print_totals(positions: usize, limit: &str, threads: usize, nodes: u64, secs: f64, probe_ms: u64) {
    println!("===========================");
    println!("Positions      : {positions}");
    println!("{limit}");
    println!("Threads        : {threads}");
    println!("Total time (ms): {}", (secs * 1000.0) as u64);
    println!("Nodes searched : {nodes}");
    println!("Nodes/second   : {}", (nodes as f64 / secs.max(1e-9)) as u64);
    let search_secs = (secs - probe_ms as f64 / 1000.0).max(1e-9);
    println!("Root mate probes (ms): {probe_ms}");
    println!("Search nodes/second  : {}", (nodes as f64 / search_secs) as u64);
}
