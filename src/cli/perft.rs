//! `hisha perft`: the leaf count of the legal move tree, with the count below each root
//! move on request (the move generator's check against cshogi, and its benchmark).

use hisha::position::Position;
use std::process::ExitCode;

pub fn run(depth: u32, sfen: Option<String>, divide: bool, threads: usize) -> ExitCode {
    if !(1..=20).contains(&depth) {
        eprintln!("error: --depth must be from 1 to 20");
        return ExitCode::FAILURE;
    }
    if !(1..=1024).contains(&threads) {
        eprintln!("error: --threads must be from 1 to 1024");
        return ExitCode::FAILURE;
    }
    let pos = match sfen.as_deref().map(Position::from_sfen).unwrap_or_else(|| Ok(Position::startpos())) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: bad sfen: {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = std::time::Instant::now();
    let div = hisha::movegen::perft_divide(&pos, depth, threads);
    let secs = start.elapsed().as_secs_f64();
    let total: u64 = div.iter().map(|(_, n)| n).sum();
    if divide {
        for (m, n) in &div {
            println!("{m}: {n}");
        }
        println!();
    }
    println!("Nodes searched: {total}");
    println!("Time: {:.3} s ({:.1} M nodes/s, {} thread(s))", secs, total as f64 / secs.max(1e-9) / 1e6, threads);
    ExitCode::SUCCESS
}
