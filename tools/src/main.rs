//! `hisha-tools`: the programs that make and check Hisha's evaluation, as subcommands
//! of one binary with one argument style. They use the `hisha` library only through
//! its public API; `data` reads the data files they share.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod data;
mod evalterms;
mod fuzz;
mod gensfen;
mod leaf;
mod mirror;
mod npy;
mod perturb;
mod train_data;
mod train_mlp;
mod train_nnue;
mod train_samples;
mod train_yaneuraou;
mod tune;

#[derive(Parser)]
#[command(name = "hisha-tools", version, about = "Hisha's data generation, training and tuning tools")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Self-play data: fixed-node games from random openings, one line per quiet position.
    Gensfen(gensfen::Args),
    /// Distillation data: random walks from data positions, labelled by the hand-made evaluation.
    Perturb(perturb::Args),
    /// Trains the network on data files and writes a network file.
    TrainNnue(train_nnue::Args),
    /// Trains a network in YaneuraOu's NNUE format (halfkp_256x2-32-32, k_p_256x2-32-32).
    TrainYaneuraou(train_yaneuraou::Args),
    /// Fits the hand-made evaluation's weights and writes them as Rust source.
    Tune(tune::Args),
    /// Prints the hand-made evaluation of positions split by weight group.
    Evalterms(evalterms::Args),
    /// Fuzzes the USI loop or the `position` parser in process (stable toolchain).
    Fuzz(fuzz::Args),
}

fn main() -> ExitCode {
    hisha::init();
    let r = match Cli::parse().command {
        Command::Gensfen(a) => gensfen::run(a),
        Command::Perturb(a) => perturb::run(a),
        Command::TrainNnue(a) => train_nnue::run(a),
        Command::TrainYaneuraou(a) => train_yaneuraou::run(a),
        Command::Tune(a) => tune::run(a),
        Command::Evalterms(a) => evalterms::run(a),
        Command::Fuzz(a) => fuzz::run(a),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
