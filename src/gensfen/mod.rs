//! `hisha gensfen`: self-play training data in YaneuraOu's PackedSfenValue format
//! (and `rescore`: new labels for such data).
//! `openings` (random starts, handicaps too), `multipv` (opening moves drawn among the
//! best lines), `game` (one game, reproducible from its seed), `output` (resuming and
//! the settings file), `run` here: one game per thread
//! (each with its own engine: hash and statistics), games written whole and in game
//! order, so that a seed, shard and settings give the same file whatever the thread
//! count and however often the run was stopped. Uses `engine`, `search`, `psv`,
//! `position`, `movegen` and `eval::nnue` (to load a network).

pub mod game;
pub mod multipv;
pub mod openings;
pub mod output;
mod progress;
pub mod rescore;

use crate::shard::Shard;
use game::{play, Game, GameRule};
use multipv::MultiPvRule;
use openings::{handicap_starts, OpeningRule};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Command-line options of `hisha gensfen`.
#[derive(clap::Args, Clone, Debug)]
pub struct GensfenArgs {
    /// Output file (PackedSfenValue records); appended to, so a stopped run resumes.
    #[arg(long)]
    pub out: PathBuf,
    /// Nodes per move (the default when no --depth is given is 5000).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth per move.
    #[arg(long)]
    pub depth: Option<i32>,
    /// Games in parallel, one per thread (default: all cores).
    #[arg(long, short)]
    pub threads: Option<usize>,
    /// Seed of the run: with the shard and settings it fixes every game.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// This run's share `i/n` of the seed's games: games i, i+n, i+2n, ...
    #[arg(long, default_value = "0/1")]
    pub shard: String,
    /// Stop when the file holds this many games (0: no limit).
    #[arg(long, default_value_t = 0)]
    pub games: u64,
    /// Stop after the game that brings the file to this many positions (0: no limit).
    #[arg(long, default_value_t = 0)]
    pub positions: u64,
    /// Fewest random plies at the start of a game.
    #[arg(long, default_value_t = 2)]
    pub random_min: u32,
    /// Most random plies at the start of a game.
    #[arg(long, default_value_t = 10)]
    pub random_max: u32,
    /// After the random plies, this many searched moves drawn at random among the best
    /// lines of a multi-PV search (opening diversity; handicap games: none).
    #[arg(long, default_value_t = 0)]
    pub multipv_plies: u32,
    /// Lines of those multi-PV searches.
    #[arg(long, default_value_t = 4)]
    pub multipv_lines: usize,
    /// How far below the best line (centipawns) a drawn line may score.
    #[arg(long, default_value_t = 100)]
    pub multipv_margin: i32,
    /// Share of games started from a handicap position (positions/handicaps.sfen).
    #[arg(long, default_value_t = 0.1)]
    pub handicap_rate: f64,
    /// Evaluation: a network file, `classical`, or nothing for the built-in network.
    #[arg(long, default_value = "")]
    pub eval: String,
    /// Transposition table per thread, MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// A search score this far from 0 ends the game for the side it favours (handicap
    /// games end only on a mate found: their start is worth more than any limit).
    #[arg(long, default_value_t = 3000)]
    pub adjudicate: i32,
    /// Positions scored further from 0 than this are not written (mate and
    /// declaration phases).
    #[arg(long, default_value_t = 3000)]
    pub max_score: i32,
    /// Also write positions whose best move captures or promotes.
    #[arg(long)]
    pub keep_captures: bool,
    /// Also write positions in check.
    #[arg(long)]
    pub keep_checks: bool,
    /// A game reaching this move number is a draw.
    #[arg(long, default_value_t = 320)]
    pub max_ply: u32,
    /// Seconds between progress lines on stderr.
    #[arg(long, default_value_t = 10)]
    pub progress: u64,
}

/// The node and depth limits of `--nodes` and `--depth`, checked; `default_nodes`
/// when neither is given.
pub(crate) fn search_limit(nodes: Option<u64>, depth: Option<i32>, default_nodes: u64) -> Result<(Option<u64>, Option<i32>), String> {
    if depth.is_some_and(|d| !(1..=60).contains(&d)) {
        return Err("--depth must be 1..60".into());
    }
    if nodes == Some(0) {
        return Err("--nodes must be at least 1".into());
    }
    Ok((if nodes.is_none() && depth.is_none() { Some(default_nodes) } else { nodes }, depth))
}

/// The game rule of the options, checked.
fn rule_of(a: &GensfenArgs) -> Result<GameRule, String> {
    let (nodes, depth) = search_limit(a.nodes, a.depth, 5000)?;
    if a.random_min > a.random_max || a.random_max > 200 {
        return Err("--random-min must not exceed --random-max (at most 200)".into());
    }
    if a.multipv_plies > 200 || !(1..=64).contains(&a.multipv_lines) || !(0..=3000).contains(&a.multipv_margin) {
        return Err("--multipv-plies must be at most 200, --multipv-lines 1..64, --multipv-margin 0..3000".into());
    }
    if !(0.0..=1.0).contains(&a.handicap_rate) {
        return Err("--handicap-rate must be within 0..1".into());
    }
    Ok(GameRule {
        nodes,
        depth,
        opening: OpeningRule { min_plies: a.random_min, max_plies: a.random_max, handicap_rate: a.handicap_rate },
        multipv: MultiPvRule { plies: a.multipv_plies, lines: a.multipv_lines, margin: a.multipv_margin },
        adjudicate: a.adjudicate.max(1),
        max_score: a.max_score,
        keep_captures: a.keep_captures,
        keep_checks: a.keep_checks,
        max_ply: a.max_ply.max(2),
        use_nnue: a.eval != "classical",
    })
}

/// The settings that decide the games (not the thread count or the stopping point).
fn settings_line(a: &GensfenArgs, r: &GameRule, shard: (u64, u64)) -> String {
    let f = |v: Option<i64>| v.map_or("-".to_string(), |x| x.to_string());
    format!(
        "hisha gensfen v1 seed={} shard={}/{} nodes={} depth={} random={}-{} handicap-rate={} eval={} hash={} \
         adjudicate={} max-score={} keep-captures={} keep-checks={} max-ply={}",
        a.seed,
        shard.0,
        shard.1,
        f(r.nodes.map(|n| n as i64)),
        f(r.depth.map(i64::from)),
        r.opening.min_plies,
        r.opening.max_plies,
        r.opening.handicap_rate,
        if a.eval.is_empty() { "built-in" } else { &a.eval },
        a.hash,
        r.adjudicate,
        r.max_score,
        r.keep_captures,
        r.keep_checks,
        r.max_ply
    ) + &multipv_setting(&r.multipv)
}

/// The multi-PV opening moves in the settings line; nothing when off, so that files
/// written before the option existed still resume.
fn multipv_setting(m: &MultiPvRule) -> String {
    if m.plies == 0 {
        String::new()
    } else {
        format!(" multipv={}x{}/{}", m.plies, m.lines, m.margin)
    }
}

/// Runs `hisha gensfen`; errors are messages for stderr.
pub fn run(a: &GensfenArgs) -> Result<(), String> {
    let shard = Shard::parse(&a.shard).map(|s| (s.index as u64, s.count as u64))?;
    let rule = rule_of(a)?;
    if rule.use_nnue {
        crate::eval::nnue::load(&a.eval).map_err(|e| e.to_string())?;
    }
    if a.hash == 0 || a.hash > 4096 {
        return Err("--hash must be 1..4096 MiB".into());
    }
    let threads = a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).clamp(1, 256);
    let settings = settings_line(a, &rule, shard);
    let (mut file, resume) = output::prepare(&a.out)?;
    output::check_settings(&a.out, &settings)?;
    eprintln!("gensfen: {settings} threads={threads}");
    if resume.games > 0 {
        eprintln!(
            "gensfen: resuming {}: {} games, {} positions already there{}",
            a.out.display(),
            resume.games,
            resume.positions,
            if resume.dropped > 0 { format!(" ({} bytes of an unfinished game dropped)", resume.dropped) } else { String::new() }
        );
    }
    let target = Target { games: a.games, positions: a.positions };
    if target.reached(resume.games, resume.positions) {
        eprintln!("gensfen: the file already holds what was asked");
        return Ok(());
    }
    let handicaps = handicap_starts();
    let writer = Writer { next: resume.games, games: resume.games, positions: resume.positions, pending: BTreeMap::new() };
    generate(a, &rule, shard, threads, &handicaps, &mut file, writer, target)
}

/// When to stop.
#[derive(Copy, Clone, Debug)]
struct Target {
    games: u64,
    positions: u64,
}

impl Target {
    fn reached(&self, games: u64, positions: u64) -> bool {
        (self.games > 0 && games >= self.games) || (self.positions > 0 && positions >= self.positions)
    }
}

/// Games waiting for their turn to be written, and what the file holds.
struct Writer {
    next: u64,
    games: u64,
    positions: u64,
    pending: BTreeMap<u64, Game>,
}

impl Writer {
    /// Writes every game whose turn has come, each in one write, until `target`.
    fn drain(&mut self, file: &mut std::fs::File, target: Target, stats: &mut progress::Stats) -> Result<(), String> {
        while let Some(mut g) = self.pending.remove(&self.next) {
            let n = g.records.len();
            let mut bytes = Vec::with_capacity(n * crate::psv::RECORD_BYTES);
            for (i, r) in g.records.iter_mut().enumerate() {
                r.mark(self.next, i + 1 == n);
                bytes.extend_from_slice(&r.to_bytes());
            }
            file.write_all(&bytes).map_err(|e| format!("write failed: {e}"))?;
            stats.add(&g);
            self.next += 1;
            self.games += 1;
            self.positions += n as u64;
            if target.reached(self.games, self.positions) {
                break;
            }
        }
        Ok(())
    }
}

#[allow(clippy::too_many_arguments)]
fn generate(
    a: &GensfenArgs,
    rule: &GameRule,
    shard: (u64, u64),
    threads: usize,
    handicaps: &[crate::position::Position],
    file: &mut std::fs::File,
    mut w: Writer,
    target: Target,
) -> Result<(), String> {
    let claim = AtomicU64::new(w.next);
    let written = AtomicU64::new(w.next);
    let stop = AtomicBool::new(false);
    let window = 2 * threads as u64 + 2;
    let (tx, rx) = mpsc::channel::<(u64, Game)>();
    let mut stats = progress::Stats::new(w.games, w.positions, target.games, target.positions);
    let start = Instant::now();
    let result = std::thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (claim, written, stop) = (&claim, &written, &stop);
            let spawned = std::thread::Builder::new().stack_size(64 << 20).spawn_scoped(s, move || {
                let mut engine = game::engine(rule, a.hash);
                loop {
                    let k = claim.fetch_add(1, Ordering::Relaxed);
                    // Keep within a few games of the writer: bounded memory.
                    while k >= written.load(Ordering::Relaxed) + window && !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    if stop.load(Ordering::Relaxed) || (target.games > 0 && k >= target.games) {
                        break;
                    }
                    let g = play(a.seed, shard.0 + k * shard.1, rule, handicaps, &mut engine);
                    if tx.send((k, g)).is_err() {
                        break;
                    }
                }
            });
            if let Err(e) = spawned {
                stop.store(true, Ordering::Relaxed);
                return Err(format!("cannot start a thread: {e}"));
            }
        }
        drop(tx);
        let mut last = Instant::now();
        let every = Duration::from_secs(a.progress.max(1));
        let r = loop {
            match rx.recv_timeout(every.min(Duration::from_millis(500))) {
                Ok((k, g)) => {
                    w.pending.insert(k, g);
                    if let Err(e) = w.drain(file, target, &mut stats) {
                        break Err(e);
                    }
                    written.store(w.next, Ordering::Relaxed);
                    if target.reached(w.games, w.positions) {
                        break Ok(());
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break Ok(()),
            }
            if last.elapsed() >= every {
                eprintln!("{}", stats.line(start.elapsed()));
                last = Instant::now();
            }
        };
        stop.store(true, Ordering::Relaxed);
        r
    });
    eprintln!("{}", stats.line(start.elapsed()));
    eprintln!("gensfen: {} holds {} games, {} positions", a.out.display(), w.games, w.positions);
    result
}
