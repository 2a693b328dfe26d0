//! The `hisha` binary: USI engine by default, plus command-line tools.

use clap::{Parser, Subcommand};
use hisha::position::Position;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "hisha", version, about = "Hisha, a USI shogi engine. With no subcommand it speaks USI on stdin/stdout.")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf nodes of the legal move tree (move generator check and benchmark).
    Perft {
        /// Depth in plies.
        #[arg(long, short)]
        depth: u32,
        /// Position as SFEN (default: the start position).
        #[arg(long)]
        sfen: Option<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Worker threads splitting the root moves.
        #[arg(long, short, default_value_t = 1)]
        threads: usize,
    },
}

fn main() -> ExitCode {
    hisha::init();
    let cli = Cli::parse();
    match cli.command {
        None => match hisha::usi::run() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Command::Perft { depth, sfen, divide, threads }) => run_perft(depth, sfen, divide, threads),
    }
}

fn run_perft(depth: u32, sfen: Option<String>, divide: bool, threads: usize) -> ExitCode {
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
