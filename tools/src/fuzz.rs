//! `hisha-tools fuzz`: a fuzzer that runs on the stable toolchain. It feeds generated
//! and mutated input to the USI loop (`usi`: whole command lines, searches included)
//! or to the `position` parser with long move lists (`position`), in process, and
//! stops at the first panic with the input that caused it. Inputs mix a USI grammar
//! (real commands, legal and illegal moves, numbers at the edges) with byte-level
//! mutations of those lines. The same two entry points serve the cargo-fuzz targets
//! in `fuzz/` where a nightly toolchain is at hand.

use hisha::movegen::legal_moves;
use hisha::position::Position;
use hisha::usi::{parse_position, Usi};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// What to fuzz.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Target {
    /// USI command lines through the whole loop (searches run and are stopped).
    Usi,
    /// `position` arguments through the parser, with long legal and broken move lists.
    Position,
}

/// Command-line arguments of `fuzz`.
#[derive(clap::Args)]
pub struct Args {
    /// What to fuzz.
    #[arg(long, value_enum, default_value = "usi")]
    target: Target,
    /// How long to run, in seconds.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// Seed of the input generator (same seed, same inputs).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

const COMMANDS: &[&str] = &[
    "usi", "isready", "usinewgame", "setoption", "position", "go", "stop", "ponderhit", "gameover", "quit", "d", "eval",
];
const GO_WORDS: &[&str] = &[
    "btime", "wtime", "binc", "winc", "byoyomi", "movetime", "depth", "nodes", "infinite", "ponder", "searchmoves",
    "mate", "perft",
];
const OPTIONS: &[&str] = &[
    "USI_Hash", "Threads", "MultiPV", "NetworkDelay", "NetworkDelay2", "MinimumThinkingTime", "SlowMover",
    "EnteringKingRule", "ResignValue", "MaxMovesToDraw", "DepthLimit", "NodesLimit", "UseNNUE", "EvalFile", "Hash",
];
const NUMBERS: &[&str] =
    &["0", "1", "2", "-1", "10", "100", "1000", "65536", "4294967296", "99999999999999999999", "1e3", "", "x"];
const SFENS: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    "8k/9/9/9/9/9/9/9/K8 b - 1",
];

/// Runs the fuzzer; an error carries the input of the first panic.
pub fn run(a: Args) -> Result<(), String> {
    hisha::usi::set_quiet(true);
    // Panics are caught and reported with their input; the default hook's message
    // would only repeat it.
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = SmallRng::seed_from_u64(a.seed);
    let deadline = Instant::now() + Duration::from_secs(a.seconds);
    let mut usi = Usi::new();
    let (mut inputs, mut bytes) = (0u64, 0u64);
    while Instant::now() < deadline {
        let input = match a.target {
            Target::Usi => usi_line(&mut rng),
            Target::Position => position_args(&mut rng),
        };
        let input = mutate(&mut rng, input);
        inputs += 1;
        bytes += input.len() as u64;
        let ok = match a.target {
            Target::Usi => catch_unwind(AssertUnwindSafe(|| feed_usi(&mut usi, &input))).is_ok(),
            Target::Position => catch_unwind(|| check_position(&input)).is_ok(),
        };
        if !ok {
            usi.finish_search();
            return Err(format!("panic after {inputs} inputs on: {input:?}"));
        }
    }
    usi.finish_search();
    eprintln!("fuzz {:?}: {inputs} inputs ({bytes} bytes) in {} s, no panic", a.target, a.seconds);
    Ok(())
}

/// One line through the USI loop; `quit` starts a fresh engine (as a GUI restarts it).
pub fn feed_usi(usi: &mut Usi, line: &str) {
    if !usi.handle(line) {
        *usi = Usi::new();
    }
}

/// `position` arguments through the parser; an accepted position must be consistent.
pub fn check_position(args: &str) {
    let words: Vec<&str> = args.split_whitespace().collect();
    if let Ok(pos) = parse_position(&words) {
        let sfen = pos.to_sfen();
        let again = Position::from_sfen(&sfen).unwrap_or_else(|e| panic!("own SFEN refused: {sfen}: {e}"));
        assert_eq!(again.to_sfen(), sfen, "SFEN round trip");
        let _ = legal_moves(&pos);
    }
}

fn pick<'a>(rng: &mut SmallRng, words: &[&'a str]) -> &'a str {
    words[rng.gen_range(0..words.len())]
}

/// A USI command line from the grammar, with plausible and edge-case arguments.
fn usi_line(rng: &mut SmallRng) -> String {
    let cmd = pick(rng, COMMANDS);
    let mut line = cmd.to_string();
    match cmd {
        "position" => {
            line.push(' ');
            line.push_str(&position_args(rng));
        }
        "go" | "ponderhit" => {
            for _ in 0..rng.gen_range(0..5) {
                line.push(' ');
                line.push_str(pick(rng, GO_WORDS));
                if rng.gen_bool(0.7) {
                    line.push(' ');
                    line.push_str(pick(rng, NUMBERS));
                }
            }
            // Keep most searches short so that the fuzzer gets through many lines.
            if cmd == "go" && rng.gen_bool(0.8) {
                line.push_str(" nodes 2000");
            }
        }
        "setoption" => {
            line.push_str(" name ");
            line.push_str(pick(rng, OPTIONS));
            if rng.gen_bool(0.9) {
                line.push_str(" value ");
                line.push_str(pick(rng, NUMBERS));
            }
        }
        "gameover" => line.push_str(pick(rng, &[" win", " lose", " draw", "", " x"])),
        _ => {}
    }
    line
}

/// `position` arguments: a start, then legal moves with an occasional broken one.
fn position_args(rng: &mut SmallRng) -> String {
    let sfen = pick(rng, SFENS);
    let mut pos = Position::from_sfen(sfen).unwrap_or_default();
    let mut s = if rng.gen_bool(0.5) && sfen == SFENS[0] { "startpos".to_string() } else { format!("sfen {sfen}") };
    let plies = if rng.gen_bool(0.05) { rng.gen_range(0..2000) } else { rng.gen_range(0..40) };
    if plies > 0 {
        s.push_str(" moves");
    }
    for _ in 0..plies {
        let list = legal_moves(&pos);
        if list.is_empty() || rng.gen_bool(0.01) {
            s.push_str(pick(rng, &[" 7g7f", " P*5e", " 1a1b+", " 0z9y", " resign", " "]));
            break;
        }
        let m = list.as_slice()[rng.gen_range(0..list.len())];
        pos.do_move(m);
        s.push(' ');
        s.push_str(&m.to_string());
    }
    s
}

/// Byte-level damage to a generated line now and then: flipped, inserted, deleted or
/// repeated bytes (kept valid UTF-8 by lossy decoding, as the loop reads stdin).
fn mutate(rng: &mut SmallRng, line: String) -> String {
    if !rng.gen_bool(0.3) || line.is_empty() {
        return line;
    }
    let mut b = line.into_bytes();
    for _ in 0..rng.gen_range(1..4) {
        let i = rng.gen_range(0..b.len().max(1));
        match rng.gen_range(0..4) {
            0 if i < b.len() => b[i] ^= 1 << rng.gen_range(0..8),
            1 => b.insert(i.min(b.len()), rng.gen()),
            2 if i < b.len() => {
                b.remove(i);
            }
            _ => {
                let end = (i + rng.gen_range(1..16)).min(b.len());
                let chunk = b[i.min(end)..end].to_vec();
                b.splice(end..end, chunk);
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}
