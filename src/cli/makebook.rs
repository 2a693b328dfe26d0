//! Command-line arguments of `hisha makebook` and their checks; the work is done
//! by `hisha::book::makebook` (by search) and `hisha::book::records` (from games).

use clap::Args;
use hisha::book::makebook::{parse_starts, MakebookConfig, HANDICAPS};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Args)]
pub struct MakebookArgs {
    /// Output book; an existing book there is read back and extended (resume).
    #[arg(long, short)]
    out: String,
    /// Build from game records instead: CSA files or files of USI `position` lines.
    #[arg(long = "from-records", num_args = 1..)]
    from_records: Vec<String>,
    /// Start-position files (`startpos`, SFEN or `label | SFEN` lines); default: the
    /// even start, then the handicap starts of positions/handicaps.sfen.
    #[arg(long)]
    start: Vec<String>,
    /// Nodes per search.
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Deepest book position, in plies from its start (records: plies used per game).
    #[arg(long, default_value_t = 24)]
    max_plies: u32,
    /// Stop at this many positions.
    #[arg(long, default_value_t = 10_000)]
    positions: usize,
    /// Stop after this many seconds (0 = no limit).
    #[arg(long, default_value_t = 0)]
    time: u64,
    /// Moves more than this many centipawns below the best are never expanded.
    #[arg(long, default_value_t = 30)]
    window: i32,
    /// Extra cost of lines from every start after the first (centipawns).
    #[arg(long, default_value_t = 60)]
    other_start_cost: i32,
    /// Cost of one ply of depth in centipawns given up: lower grows deeper lines.
    #[arg(long, default_value_t = 5)]
    ply_cost: i32,
    /// Hash size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Records: leave out moves played fewer times than this.
    #[arg(long, default_value_t = 1)]
    min_count: u32,
}

fn starts(files: &[String]) -> Result<Vec<(String, String)>, String> {
    if files.is_empty() {
        let mut v = vec![("startpos".to_string(), hisha::position::START_SFEN.to_string())];
        v.extend(parse_starts(HANDICAPS, "positions/handicaps.sfen")?);
        return Ok(v);
    }
    let mut v = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        v.extend(parse_starts(&text, f)?);
    }
    if v.is_empty() {
        return Err("no start position given".into());
    }
    Ok(v)
}

/// Runs the subcommand.
pub fn run(a: MakebookArgs) -> ExitCode {
    if !(1..=100_000_000).contains(&a.nodes) || !(1..=1000).contains(&a.max_plies) || !(1..=65536).contains(&a.hash) || !(0..=100_000).contains(&a.window) || !(0..=10_000).contains(&a.ply_cost) || !(0..=100_000).contains(&a.other_start_cost) {
        eprintln!("error: --nodes 1..100000000, --max-plies 1..1000, --hash 1..65536, --window 0..100000, --ply-cost 0..10000, --other-start-cost 0..100000");
        return ExitCode::FAILURE;
    }
    let result = if !a.from_records.is_empty() {
        hisha::book::records::run(&a.from_records, &a.out, a.max_plies as usize, a.min_count)
            .map(|(g, p)| eprintln!("makebook: {g} games, {p} positions written to {}", a.out))
    } else {
        starts(&a.start).and_then(|starts| {
            let cfg = MakebookConfig {
                out: a.out.clone(),
                starts,
                nodes: a.nodes,
                max_plies: a.max_plies,
                max_positions: a.positions,
                time_limit: (a.time > 0).then(|| Duration::from_secs(a.time)),
                window: a.window,
                other_start_cost: a.other_start_cost,
                ply_cost: a.ply_cost,
                hash_mb: a.hash,
            };
            hisha::book::makebook::run(&cfg)
        })
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
