//! The `hisha` binary: USI engine by default, plus command-line tools.
//! Uses the library's public API (`engine`, `usi`, `movegen`, `mate`).

use clap::{Parser, Subcommand};
use hisha::position::Position;
use std::process::ExitCode;

mod makebook_cli;

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
        hisha bench                           depth 11, one thread: 1,686,258 nodes\n  \
        hisha bench --threads 2 --depth 13    Lazy SMP time to depth\n  \
        hisha bench --eval-file new.nnue      the same positions with another network\n\n\
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
        /// One problem as SFEN (attacker to move).
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
    },
    /// Analyse game records (CSA, KIF, USI): scores, best moves, marks, accuracy.
    Analyse(hisha::analyse::AnalyseArgs),
    /// Builds an opening book (YaneuraOu format) by Hisha's own search, or from game records.
    Makebook(makebook_cli::MakebookArgs),
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
        Some(Command::Bench { depth, threads, hash, file, eval_file, verbose }) => run_bench(depth, threads, hash, file, eval_file, verbose),
        Some(Command::Mate { sfen, file, time, hash, shard, json, conventions }) => {
            let shard = match shard.as_deref().map(hisha::shard::Shard::parse).transpose() {
                Ok(s) => s.unwrap_or(hisha::shard::Shard::ALL),
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            };
            run_mate(sfen, file, MateSettings { time, hash, shard, json, conventions })
        }
        Some(Command::Analyse(args)) => hisha::analyse::run(&args),
        Some(Command::Gensfen(args)) => report(hisha::gensfen::run(&args)),
        Some(Command::Rescore(args)) => report(hisha::gensfen::rescore::run(&args)),
        Some(Command::PsvDump { file, limit }) => {
            report(hisha::psv::dump::dump(&file, limit, &mut std::io::BufWriter::new(std::io::stdout().lock())).map_err(|e| e.to_string()))
        }
        Some(Command::Makebook(args)) => makebook_cli::run(args),
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

const BENCH_POSITIONS: &str = include_str!("../positions/bench.sfen");

fn run_bench(depth: i32, threads: usize, hash: usize, file: Option<String>, eval_file: Option<String>, verbose: bool) -> ExitCode {
    use hisha::engine::Engine;
    use hisha::search::{Config, Limits, Report, Sink};
    use hisha::usi::info::{report_line, score_text};
    use std::sync::Arc;
    if !(1..=60).contains(&depth) || !(1..=256).contains(&threads) || !(1..=65536).contains(&hash) {
        eprintln!("error: depth 1..60, threads 1..256, hash 1..65536");
        return ExitCode::FAILURE;
    }
    let text = match file {
        Some(f) => match std::fs::read_to_string(&f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: cannot read {f}: {e}");
                return ExitCode::FAILURE;
            }
        },
        None => BENCH_POSITIONS.to_string(),
    };
    if let Some(path) = eval_file {
        if let Err(e) = hisha::eval::nnue::load(&path) {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    // Each bench position is searched from scratch: no table entries or move-ordering
    // statistics from the one before.
    let mut engine = Engine::new(Config { threads, verbose, keep_history: false, ..Config::default() }, hash);
    let sink: Sink = if verbose { Arc::new(|r: &Report| println!("{}", report_line(r))) } else { Arc::new(|_: &Report| {}) };
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let mut total_nodes = 0u64;
    let start = std::time::Instant::now();
    let mut n = 0;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = match Position::from_sfen(line) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: bad sfen '{line}': {e}");
                return ExitCode::FAILURE;
            }
        };
        engine.clear_hash();
        let t0 = std::time::Instant::now();
        let r = engine.search(&pos, &limits, sink.clone());
        n += 1;
        total_nodes += r.nodes;
        println!(
            "position {n}: bestmove {} score {} depth {} nodes {} time {} ms",
            r.best,
            score_text(r.score),
            r.depth,
            r.nodes,
            t0.elapsed().as_millis()
        );
    }
    let secs = start.elapsed().as_secs_f64();
    println!("===========================");
    println!("Positions      : {n}");
    println!("Depth          : {depth}");
    println!("Threads        : {threads}");
    println!("Total time (ms): {}", (secs * 1000.0) as u64);
    println!("Nodes searched : {total_nodes}");
    println!("Nodes/second   : {}", (total_nodes as f64 / secs.max(1e-9)) as u64);
    ExitCode::SUCCESS
}

struct MateProblem {
    /// 0-based index among the file's problems (the shard key and the JSON id).
    id: usize,
    sfen: String,
    plies: Option<usize>,
    label: String,
    /// The published solution (USI moves), when the file gives one.
    solution: Option<String>,
}

fn read_mate_problems(sfen: Option<String>, file: Option<String>) -> Result<Vec<MateProblem>, String> {
    if let Some(s) = sfen {
        return Ok(vec![MateProblem { id: 0, sfen: s, plies: None, label: "sfen".to_string(), solution: None }]);
    }
    let Some(path) = file else { return Err("give --sfen or --file".to_string()) };
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    for (no, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        let plies = match parts.get(1) {
            Some(t) if !t.is_empty() => Some(t.parse::<usize>().map_err(|_| format!("{path}:{}: bad ply count '{t}'", no + 1))?),
            _ => None,
        };
        let label = parts.get(3).filter(|l| !l.is_empty()).map(|l| l.to_string()).unwrap_or_else(|| format!("line{}", no + 1));
        let solution = parts.get(2).filter(|t| !t.is_empty() && **t != "-").map(|t| t.to_string());
        out.push(MateProblem { id: out.len(), sfen: parts[0].to_string(), plies, label, solution });
    }
    Ok(out)
}

/// Where Hisha's `line` first departs from a `published` solution (USI moves), said
/// so that a reader can tell a convention from a flaw: the ply, both moves, and whose
/// move it is.
fn first_difference(published: &str, line: &[hisha::core::types::Move]) -> Option<String> {
    let ours: Vec<String> = line.iter().map(|m| m.to_string()).collect();
    let theirs: Vec<&str> = published.split_whitespace().collect();
    let k = ours.iter().zip(&theirs).take_while(|(a, b)| a == *b).count();
    let side = if k % 2 == 0 { "attacker" } else { "defence" };
    match (ours.get(k), theirs.get(k)) {
        (Some(a), Some(b)) => Some(format!("first difference at ply {}: published {b}, Hisha's {side} {a}", k + 1)),
        (Some(a), None) => Some(format!("Hisha's line goes on after the published one ends, at ply {}: {a}", k + 1)),
        (None, Some(b)) => Some(format!("Hisha's line ends at ply {k}, the published one goes on with {b}")),
        (None, None) => None,
    }
}

/// The flags of `hisha mate` besides the problems.
struct MateSettings {
    time: u64,
    hash: usize,
    shard: hisha::shard::Shard,
    json: bool,
    conventions: hisha::mate::Conventions,
}

/// How often `hisha mate` prints how a long solve stands (stderr).
const MATE_CLI_PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

fn run_mate(sfen: Option<String>, file: Option<String>, settings: MateSettings) -> ExitCode {
    let MateSettings { time, hash, shard, json, conventions } = settings;
    let probs = match read_mate_problems(sfen, file) {
        Ok(p) => p.into_iter().filter(|p| shard.owns(p.id)).collect::<Vec<_>>(),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let limit = if time == 0 { None } else { Some(std::time::Duration::from_millis(time)) };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (mut ok, mut wrong, mut undecided, mut bounds) = (0usize, 0usize, 0usize, 0usize);
    let (mut nodes, mut secs) = (0u64, 0f64);
    let total = probs.len();
    let start = std::time::Instant::now();
    for (i, p) in probs.iter().enumerate() {
        let pos = match Position::from_sfen(&p.sfen) {
            Ok(pos) => pos,
            Err(e) => {
                if json {
                    println!("{}", serde_json::json!({ "type": "problem", "problem": p.id, "label": p.label, "verdict": "bad sfen", "error": e.to_string() }));
                } else {
                    println!("{:<20} bad sfen: {e}", p.label);
                }
                wrong += 1;
                continue;
            }
        };
        // A fresh table for each problem: its answer and node count then depend on the
        // problem alone, not on which problems a run (or a shard) solved before it.
        let mut solver = hisha::mate::Solver::new(hash);
        solver.set_progress(Box::new(|p| eprintln!("  {}", hisha::usi::info::mate_progress_text(p))), MATE_CLI_PROGRESS_EVERY);
        solver.set_conventions(conventions.applies_to(&pos));
        let r = solver.solve_deep(&pos, limit, &stop);
        let st = solver.stats;
        nodes += st.nodes;
        secs += st.seconds;
        let got = match &r {
            hisha::mate::MateResult::Mate(_) => Some(st.length as usize),
            hisha::mate::MateResult::NoMate => Some(0),
            hisha::mate::MateResult::Timeout => None,
        };
        let verdict = match (got, p.plies) {
            (None, _) => {
                undecided += 1;
                "UNDECIDED"
            }
            (Some(g), Some(e)) if g == e => {
                ok += 1;
                "ok"
            }
            // A bound that differs from the expected length is not (yet) an error.
            (Some(_), Some(_)) if matches!(r, hisha::mate::MateResult::Mate(_)) && !st.exact => {
                undecided += 1;
                "BOUND"
            }
            (Some(_), Some(_)) => {
                wrong += 1;
                "WRONG"
            }
            (Some(_), None) => {
                ok += 1;
                "solved"
            }
        };
        let mut expect = p.plies.map(|e| format!(" (expected {e})")).unwrap_or_default();
        if matches!(r, hisha::mate::MateResult::Mate(_)) && !st.exact {
            bounds += 1;
            expect.push_str(&format!(
                " [upper bound: not proved shortest ({}), mate proved within {} plies]",
                st.bound_reason.unwrap_or("out of time"),
                st.mate_within
            ));
        }
        if let hisha::mate::MateResult::Mate(line) = &r {
            if st.conventions && line.len() != st.length as usize {
                expect.push_str(&format!(" [{} plies by the composers' conventions: the line shows {} futile interpositions taken]", st.length, (line.len() - st.length as usize) / 2));
            }
        }
        let mut difference = None;
        if let (hisha::mate::MateResult::Mate(line), Some(published), Some(e)) = (&r, &p.solution, p.plies) {
            if e != st.length as usize {
                difference = first_difference(published, line);
                if let Some(d) = &difference {
                    expect.push_str(&format!(" [{d}]"));
                }
            }
        }
        let answer = hisha::usi::info::checkmate_line(&r);
        if json {
            let v = serde_json::json!({ "type": "problem", "problem": p.id, "label": p.label, "verdict": verdict,
                "answer": answer, "expected_plies": p.plies, "exact": st.exact,
                "mate_within": st.mate_within, "bound_reason": st.bound_reason,
                "conventions": st.conventions, "counted_plies": st.length, "difference": difference,
                "seconds": st.seconds, "nodes": st.nodes, "proof_nodes": st.proof_nodes });
            println!("{v}");
        } else {
            println!(
                "{:<20} {:<9} {:>7.3}s {:>10} nodes ({:>9} to prove)  {}{}",
                p.label, verdict, st.seconds, st.nodes, st.proof_nodes, answer, expect
            );
        }
        if total > 1 {
            eprintln!("[{}/{}] {:.1}s elapsed", i + 1, total, start.elapsed().as_secs_f64());
        }
    }
    let summary = format!(
        "summary: {} problems, {} ok, {} wrong, {} undecided, {} lengths not proved shortest (upper bounds); {:.2} s solving, {} nodes, {:.0} nodes/s",
        total,
        ok,
        wrong,
        undecided,
        bounds,
        secs,
        nodes,
        nodes as f64 / secs.max(1e-9)
    );
    if json {
        eprintln!("{summary}");
    } else {
        println!("{summary}");
    }
    if wrong == 0 && undecided == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
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
