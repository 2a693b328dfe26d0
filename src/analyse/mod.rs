//! `hisha analyse`: searches every position of game records (CSA, KIF, USI lines) and
//! reports each ply's scores, best move, PV and mark, per-game accuracy, as a table,
//! JSON lines, KIF with comments and an evaluation graph; `--from`, `--to` and `--skip`
//! choose the plies, `--reverse` searches from the end of the game to its start;
//! `--shard i/n` splits a batch across machines (see `scripts/ray_shards.py`).

pub mod engine;
pub mod game;
pub mod graph;
pub mod output;
pub mod plies;
pub mod score;

use crate::record::{self, GameRecord, RecordError};
use engine::{Analyser, Budget};
use output::GameRef;
use plies::{Plan, PlySelection};
use crate::shard::Shard;
use std::io::Write;
use std::process::ExitCode;

/// Nodes per position when no budget is given.
pub const DEFAULT_NODES: u64 = 200_000;

/// Options of `hisha analyse`.
#[derive(clap::Args, Debug, Clone)]
pub struct AnalyseArgs {
    /// Record files: .csa (V2.2/V3.0), .kif/.kifu (UTF-8 or Shift_JIS), .usi/.sfen or any
    /// file of USI `position ... moves ...` lines (one game a line).
    #[arg(required = true)]
    pub files: Vec<String>,
    /// Milliseconds per position.
    #[arg(long, conflicts_with_all = ["nodes", "depth"])]
    pub time: Option<u64>,
    /// Nodes per position (the default, 200000; with one thread the analysis is
    /// reproducible).
    #[arg(long, conflicts_with = "depth")]
    pub nodes: Option<u64>,
    /// Depth per position.
    #[arg(long)]
    pub depth: Option<i32>,
    /// Candidate lines per position (1..16).
    #[arg(long, default_value_t = 1)]
    pub multipv: usize,
    /// Search threads (1..256).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Hash size in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Write one JSON object per line (plies, game summaries, unreadable records).
    #[arg(long)]
    pub json: bool,
    /// Write the record with the analysis as KIF comments (`NAME-K.kif` for game K when
    /// the batch has several games); Shift_JIS for `.kif` as the GUIs expect, UTF-8 for
    /// `.kifu`.
    #[arg(long)]
    pub kif: Option<String>,
    /// Draw the evaluation graph as SVG (numbered per game like --kif).
    #[arg(long)]
    pub svg: Option<String>,
    /// Draw the evaluation graph as PNG (numbered per game like --kif).
    #[arg(long)]
    pub png: Option<String>,
    /// Analyse only shard i of n (games whose batch index k has k % n == i; the batch
    /// is the sorted list of files, each file's games in order).
    #[arg(long)]
    pub shard: Option<String>,
    /// First ply to analyse, numbered as the output numbers them (ply 1 is the first
    /// move; analysing ply k searches the positions before and after move k).
    #[arg(long, value_name = "PLY")]
    pub from: Option<usize>,
    /// Last ply to analyse (inclusive). Every game of the batch must be this long.
    #[arg(long, value_name = "PLY")]
    pub to: Option<usize>,
    /// Plies not to analyse: numbers and ranges, e.g. `--skip 1-10,37`; may be given
    /// several times.
    #[arg(long, value_name = "PLIES")]
    pub skip: Vec<String>,
    /// Search each game's positions from its end back to its start. The table is kept
    /// from position to position within a game, so the deep results of the end (mates,
    /// won endings) reach the earlier positions, as when a player reviews a game from its
    /// end. The output stays in game order, so that it reads like the game, a
    /// `--reverse` run and a plain one compare line by line, and shards merge as
    /// before; the table heading and the game's JSON (`"search_order":"reverse"`) say
    /// it was searched last to first.
    #[arg(long)]
    pub reverse: bool,
}

impl AnalyseArgs {
    fn budget(&self) -> Result<Budget, String> {
        match (self.time, self.nodes, self.depth) {
            (Some(t), _, _) if (1..=3_600_000).contains(&t) => Ok(Budget::Time(t)),
            (Some(_), _, _) => Err("--time must be 1..3600000 ms".into()),
            (_, Some(n), _) if (1..=10_000_000_000).contains(&n) => Ok(Budget::Nodes(n)),
            (_, Some(_), _) => Err("--nodes must be 1..10000000000".into()),
            (_, _, Some(d)) if (1..=60).contains(&d) => Ok(Budget::Depth(d)),
            (_, _, Some(_)) => Err("--depth must be 1..60".into()),
            _ => Ok(Budget::Nodes(DEFAULT_NODES)),
        }
    }

    fn selection(&self) -> Result<PlySelection, String> {
        PlySelection::new(self.from, self.to, &self.skip, self.reverse)
    }
}

/// One entry of the batch: a game, or a record that could not be read.
struct Item {
    at: GameRef,
    game: Result<GameRecord, RecordError>,
}

/// Reads all files (sorted, duplicates dropped) into the batch, in order.
fn load_batch(files: &[String]) -> Vec<Item> {
    let mut files = files.to_vec();
    files.sort();
    files.dedup();
    let mut items = Vec::new();
    for f in files {
        let games = match record::read_file(&f) {
            Ok(g) => g,
            Err(e) => vec![Err(e)],
        };
        for (j, game) in games.into_iter().enumerate() {
            let at = GameRef { id: items.len(), file: f.clone(), index_in_file: j };
            items.push(Item { at, game });
        }
    }
    items
}

/// Each entry's plan (`None` for an unreadable record), or, when the ply selection does
/// not fit some games, one message per such game. Every game of the batch is checked, not
/// only this shard's, so that all shards refuse alike and before searching anything.
fn plan_batch(items: &[Item], selection: &PlySelection) -> Result<Vec<Option<Plan>>, Vec<String>> {
    let mut plans = Vec::with_capacity(items.len());
    let mut refused = Vec::new();
    for it in items {
        let Ok(game) = &it.game else {
            plans.push(None);
            continue;
        };
        match selection.plan(game.moves.len()) {
            Ok(p) => plans.push(Some(p)),
            Err(e) => {
                refused.push(format!("{} (game {} of the file, {} plies): {e}", it.at.file, it.at.index_in_file + 1, game.moves.len()));
                plans.push(None);
            }
        }
    }
    if refused.is_empty() {
        Ok(plans)
    } else {
        Err(refused)
    }
}

/// `base` for the only game, `stem-K.ext` for game K of several.
fn numbered(base: &str, id: usize, several: bool) -> String {
    if !several {
        return base.to_string();
    }
    match base.rfind('.').filter(|&i| i > base.rfind('/').map_or(0, |s| s + 1)) {
        Some(i) => format!("{}-{}{}", &base[..i], id + 1, &base[i..]),
        None => format!("{base}-{}", id + 1),
    }
}

/// Runs `hisha analyse`.
pub fn run(args: &AnalyseArgs) -> ExitCode {
    let checked = (|| -> Result<(Budget, Shard, PlySelection), String> {
        if !(1..=16).contains(&args.multipv) || !(1..=256).contains(&args.threads) || !(1..=65536).contains(&args.hash) {
            return Err("--multipv 1..16, --threads 1..256, --hash 1..65536".into());
        }
        let shard = args.shard.as_deref().map(Shard::parse).transpose()?.unwrap_or(Shard::ALL);
        Ok((args.budget()?, shard, args.selection()?))
    })();
    let (budget, shard, selection) = match checked {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let items = load_batch(&args.files);
    let plans = match plan_batch(&items, &selection) {
        Ok(p) => p,
        Err(refused) => {
            for e in refused {
                eprintln!("error: {e}");
            }
            eprintln!("error: nothing analysed: --from, --to and --skip must name plies of every game in the batch");
            return ExitCode::FAILURE;
        }
    };
    let several = items.len() > 1;
    let mine: Vec<(&Item, Option<&Plan>)> = items.iter().zip(&plans).filter(|(it, _)| shard.owns(it.at.id)).map(|(it, p)| (it, p.as_ref())).collect();
    let total: u64 = mine.iter().map(|(_, p)| p.map_or(0, |p| p.positions.len() as u64)).sum();
    let bar = progress_bar(total);
    let mut engine = Analyser::new(budget, args.threads, args.multipv, args.hash);
    let start = std::time::Instant::now();
    let (mut done, mut skipped, mut positions, mut failed_outputs) = (0usize, 0usize, 0usize, 0usize);
    let stdout = std::io::stdout();
    for (n, &(it, plan)) in mine.iter().enumerate() {
        bar.set_message(format!("games done {n}/{}", mine.len()));
        let (game, plan) = match (&it.game, plan) {
            (Ok(g), Some(p)) => (g, p),
            (Err(e), _) => {
                skipped += 1;
                report_error(&bar, args.json, &it.at, e);
                continue;
            }
            (Ok(_), None) => continue, // not reached: plan_batch refuses such a batch
        };
        let a = match game::analyse_game(&mut engine, game, plan, || bar.inc(1)) {
            Ok(a) => a,
            Err(e) => {
                skipped += 1;
                report_error(&bar, args.json, &it.at, &RecordError::at(0, e));
                continue;
            }
        };
        done += 1;
        positions += a.positions;
        let text = if args.json {
            let mut s = String::new();
            for p in &a.plies {
                s.push_str(&output::ply_json(&it.at, p).to_string());
                s.push('\n');
            }
            s.push_str(&output::game_json(&it.at, game, &a).to_string());
            s.push('\n');
            s
        } else {
            output::table(&it.at, game, &a) + "\n"
        };
        bar.suspend(|| {
            let mut out = stdout.lock();
            let _ = out.write_all(text.as_bytes());
            let _ = out.flush();
        });
        failed_outputs += write_files(args, &it.at, game, &a, several, &bar);
    }
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "analysed {done} game(s), skipped {skipped} unreadable; {positions} positions in {secs:.1} s ({:.1} positions/s){}",
        positions as f64 / secs.max(1e-9),
        if shard.count > 1 { format!(", shard {}/{}", shard.index, shard.count) } else { String::new() }
    );
    if failed_outputs > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn progress_bar(total: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::with_draw_target(Some(total), indicatif::ProgressDrawTarget::stderr());
    if let Ok(style) = indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} positions, {rate} positions/s, ETA {eta}") {
        let rate = |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.1}", s.per_sec());
        };
        bar.set_style(style.with_key("rate", rate).progress_chars("=> "));
    }
    bar
}

fn report_error(bar: &indicatif::ProgressBar, json: bool, at: &GameRef, e: &RecordError) {
    let where_ = if e.line > 0 { format!("{}:{}", at.file, e.line) } else { at.file.clone() };
    bar.suspend(|| {
        eprintln!("error: {where_}: {} (game {} of the file skipped)", e.message, at.index_in_file + 1);
        if json {
            println!("{}", output::error_json(at, e.line, &e.message));
        }
    });
}

/// Writes the KIF and graph files asked for; returns how many failed.
fn write_files(args: &AnalyseArgs, at: &GameRef, game: &GameRecord, a: &game::GameAnalysis, several: bool, bar: &indicatif::ProgressBar) -> usize {
    let mut failed = 0;
    let mut fail = |msg: String| {
        failed += 1;
        bar.suspend(|| eprintln!("error: {msg}"));
    };
    if let Some(base) = &args.kif {
        let path = numbered(base, at.id, several);
        let comments = output::kif_comments(game, a);
        match record::kif_write::write(game, &comments) {
            Ok(text) => {
                if let Err(e) = std::fs::write(&path, record::kif_write::encode_for(&path, &text)) {
                    fail(format!("{path}: {e}"));
                }
            }
            Err(e) => fail(format!("{path}: {e}")),
        }
    }
    let title = format!(
        "{} vs {} ({} #{})",
        game.black.as_deref().unwrap_or("Black"),
        game.white.as_deref().unwrap_or("White"),
        at.file.rsplit('/').next().unwrap_or(&at.file),
        at.index_in_file + 1
    );
    for base in [&args.svg, &args.png].into_iter().flatten() {
        let path = numbered(base, at.id, several);
        if let Err(e) = graph::draw(&path, &title, a) {
            fail(format!("{path}: {e}"));
        }
    }
    failed
}
