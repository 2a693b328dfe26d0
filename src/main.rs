//! The `hisha` binary: USI engine by default, plus command-line tools.
//! This file holds the command line's shape (clap) and hands each subcommand to the
//! library or to its module in `cli/`.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod cli;

#[derive(Parser)]
#[command(
    name = "hisha",
    version,
    about = "Hisha, a USI shogi engine. With no subcommand it speaks USI on stdin/stdout.",
    long_about = "Hisha, a USI shogi engine.\n\n\
        With no subcommand it speaks USI on stdin/stdout until `quit` or end of input: \
        register the binary in a GUI (ShogiGUI, Shogidokoro, ShogiHome) or a tournament \
        runner (shogiarena, cshogi). The subcommands are tools for the command line. \
        README.md lists every USI option and how to set Hisha up in each GUI.",
    after_help = "Examples:\n  \
        hisha                                 start the USI engine (what a GUI runs)\n  \
        hisha perft --depth 5                 leaf count from the start position\n  \
        hisha bench                           fixed-depth search of the bench positions: nodes/s\n  \
        hisha gensfen --out g.bin --games 100 self-play training data (PackedSfenValue)\n  \
        hisha mate --sfen \"<sfen>\"            solve one tsume"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf nodes of the legal move tree (move generator check and benchmark).
    #[command(after_help = "Examples:\n  \
        hisha perft --depth 5\n  \
        hisha perft --depth 6 --threads 2\n  \
        hisha perft --depth 2 --divide --sfen \"l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1\"\n\n\
        Output: with --divide, one `<usi move>: <count>` line per legal move and a blank line; then\n\
        `Nodes searched: <total>` and `Time: <s> s (<M> M nodes/s, <n> thread(s))`.")]
    Perft {
        /// Depth in plies (1-20).
        #[arg(long, short)]
        depth: u32,
        /// Position as SFEN (default: the start position).
        #[arg(long)]
        sfen: Option<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Worker threads splitting the root moves (1-1024).
        #[arg(long, short, default_value_t = 1)]
        threads: usize,
    },
    /// Search the positions of a bench file to a fixed depth and print nodes, time and nodes/s.
    #[command(after_help = "Examples:\n  \
        hisha bench                           depth 11, one thread: 753,668 nodes\n  \
        hisha bench --threads 2 --depth 13    Lazy SMP time to depth\n  \
        hisha bench --eval-file new.nnue      the same positions with another network\n  \
        hisha bench --movetime 3000           3 s a position instead of a depth (speed side by side\n  \
                                              with engines whose trees differ)\n\n\
        Output: one `position <n>: bestmove <move> score <score> depth <d> nodes <n> time <ms> ms`\n\
        line per position, then the totals (Positions, Depth, Threads, Total time (ms),\n\
        Nodes searched, Nodes/second). The node count changes only when the search or the\n\
        evaluation does.")]
    Bench {
        /// Depth per position (1-60).
        #[arg(long, short, default_value_t = 11)]
        depth: i32,
        /// Search threads (1-256).
        #[arg(long, short, default_value_t = 1)]
        threads: usize,
        /// Hash size in MB (1-65536).
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// File of SFEN lines (default: the built-in copy of positions/bench.sfen).
        #[arg(long)]
        file: Option<String>,
        /// Evaluate with this network file instead of the built-in one.
        #[arg(long)]
        eval_file: Option<String>,
        /// Search each position for this many milliseconds instead of to a depth.
        #[arg(long)]
        movetime: Option<u64>,
        /// Print the info lines of each search.
        #[arg(long)]
        verbose: bool,
    },
    /// Self-play training data in YaneuraOu's PackedSfenValue format (resumable).
    #[command(after_help = "Examples:\n  \
        hisha gensfen --out g.bin --nodes 5000 --positions 1000000 --seed 1\n  \
        hisha gensfen --out g.bin --nodes 5000 --positions 1000000 --seed 1 --shard 1/4   one of four machines\n  \
        hisha gensfen --out r0.bin --eval classical --games 100   data from the hand-made evaluation\n\n\
        Output: the records in --out; a settings line, progress lines and a summary on stderr.\n\
        Run the same command again to resume a stopped run.")]
    Gensfen(hisha::gensfen::GensfenArgs),
    /// Search the positions of a PackedSfenValue file again and write them with the new
    /// scores and best moves (resumable).
    #[command(after_help = "Examples:\n  \
        hisha rescore --in r7.bin --out r7-20k.bin --nodes 20000   deeper labels, built-in network\n  \
        hisha rescore --in r7.bin --out r7-d9.bin --depth 9 --positions 100000\n\n\
        Output: the records in --out, in the input's order, each with a new score and move\n\
        (position, move number, result and game marker kept); progress lines on stderr.\n\
        Run the same command again to resume a stopped run.")]
    Rescore(hisha::gensfen::rescore::RescoreArgs),
    /// Print the records of a PackedSfenValue file as text: SFEN, move, score, result, game.
    #[command(after_help = "Example:\n  \
        hisha psv-dump g.bin --limit 2\n\n\
        Output: one `SFEN<TAB>move<TAB>score<TAB>result<TAB>game` line per record (score and\n\
        result from the side to move's view).")]
    PsvDump {
        /// The file.
        file: std::path::PathBuf,
        /// Records to print (0: all).
        #[arg(long, default_value_t = 0)]
        limit: u64,
    },
    /// Solve tsume (mate problems) with the df-pn solver.
    #[command(after_help = "Examples:\n  \
        hisha mate --sfen \"6s1k/6+P2/8n/6+P2/9/9/9/9/9 b SNP2r2b4g2s2n4l15p 1\"\n  \
        hisha mate --file positions/mate/mate_long.txt --time 10000\n\n\
        Output: one line per problem (label, verdict, time, nodes, the USI answer\n\
        `checkmate <moves>`, `checkmate nomate` or `checkmate timeout`), then a summary line. The exit status is 0\n\
        only when every problem is solved as expected.")]
    Mate {
        /// One problem as SFEN (the side to move attacks; in check, it defends).
        #[arg(long, conflicts_with = "file")]
        sfen: Option<String>,
        /// A file of problems: `SFEN | plies | solution | label` lines (or bare SFENs);
        /// plies 0 means "no mate", '#' starts a comment.
        #[arg(long)]
        file: Option<String>,
        /// Time limit per problem in milliseconds (0 = no limit).
        #[arg(long, default_value_t = 10_000)]
        time: u64,
        /// Hash size in MiB (1 to 16384; less is used when memory is short).
        #[arg(long, default_value_t = 256, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=16384))]
        hash: usize,
        /// Solve only shard i of n of the file's problems (problem k when k % n == i).
        #[arg(long)]
        shard: Option<String>,
        /// One JSON object per problem (mergeable across shards) instead of the table.
        #[arg(long)]
        json: bool,
        /// Composers' conventions (futile interpositions are no defence and are not
        /// counted): on, off, or auto (on when the attacker has no king, as in tsume).
        #[arg(long, value_enum, default_value_t = hisha::mate::Conventions::Auto)]
        conventions: hisha::mate::Conventions,
        /// After each mate, look for alternative mates (余詰): another mating check at
        /// an attacker ply of the main line within its remaining length. The pass gets
        /// its own --time; a check left open is reported as undecided.
        #[arg(long)]
        alt: bool,
        /// Nodes per alternative-mate question (with --alt).
        #[arg(long, default_value_t = hisha::mate::alt_text::DEFAULT_NODES_PER_CHECK, requires = "alt")]
        alt_nodes: u64,
        /// With --alt, also look for longer mates (a flaw unless they come back to the
        /// main line, a detour); several times slower. A file's `; longer ...` status
        /// turns them on for its line anyway.
        #[arg(long, requires = "alt")]
        alt_longer: bool,
    },
    /// Analyse game records (CSA, KIF, USI): scores, best moves, marks, accuracy.
    Analyse(hisha::analyse::AnalyseArgs),
    /// Builds an opening book (YaneuraOu format) by Hisha's own search, or from game records.
    Makebook(cli::makebook::MakebookArgs),
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
        Some(Command::Perft { depth, sfen, divide, threads }) => cli::perft::run(depth, sfen, divide, threads),
        Some(Command::Bench { depth, threads, hash, file, eval_file, movetime, verbose }) => {
            cli::bench::run(cli::bench::BenchSettings { depth, threads, hash, file, eval_file, movetime, verbose })
        },
        Some(Command::Mate { sfen, file, time, hash, shard, json, conventions, alt, alt_nodes, alt_longer }) => {
            let shard = match shard.as_deref().map(hisha::shard::Shard::parse).transpose() {
                Ok(s) => s.unwrap_or(hisha::shard::Shard::ALL),
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let alt = alt.then(|| cli::mate_alt::AltSettings { nodes: alt_nodes, longer: alt_longer, time: (time > 0).then(|| std::time::Duration::from_millis(time)) });
            cli::mate::run(sfen, file, cli::mate::MateSettings { time, hash, shard, json, conventions, alt })
        }
        Some(Command::Analyse(args)) => hisha::analyse::run(&args),
        Some(Command::Gensfen(args)) => report(hisha::gensfen::run(&args)),
        Some(Command::Rescore(args)) => report(hisha::gensfen::rescore::run(&args)),
        Some(Command::PsvDump { file, limit }) => {
            report(hisha::psv::dump::dump(&file, limit, &mut std::io::BufWriter::new(std::io::stdout().lock())).map_err(|e| e.to_string()))
        }
        Some(Command::Makebook(args)) => cli::makebook::run(args),
    }
}

/// Exit status of a tool: an error goes to stderr.
fn report(r: Result<(), String>) -> ExitCode {
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
