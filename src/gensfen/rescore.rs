//! `hisha rescore`: new labels for old training data. Every record of a PackedSfenValue
//! file is searched again (with the network in use and a deeper limit, as a rule) and
//! written with the new score and best move; the position, move number, game result
//! and game marker stay. Records go by units: a game (up to its end marker) or, in
//! files without markers, `UNIT_MAX` records. A unit is rescored by one engine from a
//! new game, so the output depends only on the input and the settings, never on the
//! thread count; a stopped run resumes at its last whole unit. Uses `engine`, `search`,
//! `psv`, `position`, `movegen` and `gensfen::output` (the settings file).

use super::output::{check_settings, settings_path};
use super::progress::clock;
use crate::engine::Engine;
use crate::movegen::legal_moves;
use crate::psv::{move16::to_move16, PackedSfenValue, PsvReader, GAME_END, RECORD_BYTES};
use crate::search::{Config, Limits, Report, Sink};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The most records in one unit (a game longer than this is split).
pub const UNIT_MAX: usize = 1024;
/// Units rescored between two writes of the output (bounds memory and lost work).
const BATCH_UNITS: usize = 64;

/// Command-line options of `hisha rescore`.
#[derive(clap::Args, Clone, Debug)]
pub struct RescoreArgs {
    /// The records to rescore (PackedSfenValue).
    #[arg(long = "in")]
    pub input: PathBuf,
    /// Output file; a stopped run resumes it.
    #[arg(long)]
    pub out: PathBuf,
    /// Nodes per position (the default when no --depth is given is 20000).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth per position.
    #[arg(long)]
    pub depth: Option<i32>,
    /// Games rescored in parallel, one per thread (default: all cores).
    #[arg(long, short)]
    pub threads: Option<usize>,
    /// Evaluation: a network file, or nothing for the built-in network.
    #[arg(long, default_value = "")]
    pub eval: String,
    /// Transposition table per thread, MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Stop at the first whole game that brings the output to this many records (0: the
    /// whole input).
    #[arg(long, default_value_t = 0)]
    pub positions: u64,
    /// Seconds between progress lines on stderr.
    #[arg(long, default_value_t = 10)]
    pub progress: u64,
}

/// The search limit of the options, checked.
fn limits_of(a: &RescoreArgs) -> Result<Limits, String> {
    let (nodes, depth) = super::search_limit(a.nodes, a.depth, 20_000)?;
    if a.hash == 0 || a.hash > 4096 {
        return Err("--hash must be 1..4096 MiB".into());
    }
    Ok(Limits { nodes, depth, ..Limits::default() })
}

/// The settings that decide the output.
fn settings_line(a: &RescoreArgs, limits: &Limits) -> String {
    let f = |v: Option<i64>| v.map_or("-".to_string(), |x| x.to_string());
    format!(
        "hisha rescore v1 in={} nodes={} depth={} eval={} hash={}",
        a.input.display(),
        f(limits.nodes.map(|n| n as i64)),
        f(limits.depth.map(i64::from)),
        if a.eval.is_empty() { "built-in" } else { &a.eval },
        a.hash
    )
}

/// Reads the next unit of `input`: records up to and including a game's last one, at
/// most `UNIT_MAX`. Empty at the end of the file.
fn next_unit(input: &mut PsvReader) -> Result<Vec<PackedSfenValue>, String> {
    let mut unit = Vec::new();
    while unit.len() < UNIT_MAX {
        match input.next() {
            None => break,
            Some(Err(e)) => return Err(e.to_string()),
            Some(Ok(rec)) => {
                let last = rec.padding & GAME_END != 0;
                unit.push(rec);
                if last {
                    break;
                }
            }
        }
    }
    Ok(unit)
}

/// The record with the score and best move of a new search of its position; the record
/// as it was if its position has no move to search or does not decode.
fn rescore_record(rec: &PackedSfenValue, engine: &mut Engine, limits: &Limits, sink: &Sink) -> PackedSfenValue {
    let Ok((pos, _)) = rec.decode() else { return *rec };
    if legal_moves(&pos).is_empty() {
        return *rec;
    }
    let r = engine.search(&pos, limits, sink.clone());
    let Some(m) = pos.parse_usi_move(&r.best) else { return *rec };
    PackedSfenValue { score: r.score.clamp(-32000, 32000) as i16, move16: to_move16(m), ..*rec }
}

/// Rescores one unit from a new game (so it depends on nothing else).
fn rescore_unit(unit: &[PackedSfenValue], engine: &mut Engine, limits: &Limits) -> Vec<PackedSfenValue> {
    engine.new_game();
    let sink: Sink = Arc::new(|_: &Report| {});
    unit.iter().map(|rec| rescore_record(rec, engine, limits, &sink)).collect()
}

/// Opens the output and cuts it back to the last whole unit of the input; returns
/// the file (positioned at its end) and the records kept. The input reader is left
/// at the first unit still to do. An output whose positions are not the input's, in
/// its order, is refused (another file given by mistake is never cut).
fn resume(out: &Path, input: &mut PsvReader) -> Result<(std::fs::File, u64), String> {
    use std::io::{BufReader, Read};
    let cannot = |e: std::io::Error| format!("cannot open {}: {e}", out.display());
    let cannot_resume = |e: std::io::Error| format!("cannot resume {}: {e}", out.display());
    let mut file = std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(false).open(out).map_err(cannot)?;
    let have = file.metadata().map_err(cannot)?.len() / RECORD_BYTES as u64;
    let mut done = BufReader::new(file.try_clone().map_err(cannot)?);
    let mut kept = 0u64;
    while kept < have {
        let unit = next_unit(input)?;
        if unit.is_empty() {
            return Err(format!("{} holds more records than {} has: not its rescored copy", out.display(), input.path().display()));
        }
        let mut b = [0u8; RECORD_BYTES];
        for (i, rec) in unit.iter().enumerate().take((have - kept) as usize) {
            done.read_exact(&mut b).map_err(cannot_resume)?;
            if b[..32] != rec.sfen {
                let at = kept + i as u64;
                return Err(format!("{} record {at} is not the position of {} record {at}: not its rescored copy", out.display(), input.path().display()));
            }
        }
        if kept + unit.len() as u64 > have {
            // This unit is redone: read the input again up to its start.
            rewind(input, kept)?;
            break;
        }
        kept += unit.len() as u64;
    }
    file.set_len(kept * RECORD_BYTES as u64).map_err(cannot_resume)?;
    file.seek(SeekFrom::End(0)).map_err(cannot_resume)?;
    Ok((file, kept))
}

/// Sets `input` back to its record `kept`.
fn rewind(input: &mut PsvReader, kept: u64) -> Result<(), String> {
    *input = input.reopen().map_err(|e| e.to_string())?;
    for _ in 0..kept {
        if let Some(Err(e)) = input.next() {
            return Err(e.to_string());
        }
    }
    Ok(())
}

/// Runs `hisha rescore`; errors are messages for stderr.
pub fn run(a: &RescoreArgs) -> Result<(), String> {
    let limits = limits_of(a)?;
    crate::eval::nnue::load(&a.eval).map_err(|e| e.to_string())?;
    let mut input = PsvReader::open(&a.input).map_err(|e| e.to_string())?;
    let total = input.len();
    let threads = a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).clamp(1, 256);
    let settings = settings_line(a, &limits);
    let started = std::fs::metadata(&a.out).is_ok_and(|m| m.len() > 0);
    if started && !settings_path(&a.out).exists() {
        return Err(format!("{} exists and has no {}: not a rescore output; refusing to write to it", a.out.display(), settings_path(&a.out).display()));
    }
    check_settings(&a.out, &settings)?;
    let (mut file, mut done) = resume(&a.out, &mut input)?;
    eprintln!("rescore: {settings} threads={threads}; {done} of {total} records already done");
    let target = if a.positions > 0 { a.positions.min(total) } else { total };
    let mut engines: Vec<Engine> = (0..threads).map(|_| new_engine(a.hash)).collect();
    let (start, start_done) = (Instant::now(), done);
    let mut shown = Instant::now();
    while done < target {
        let (mut units, mut records) = (Vec::new(), 0u64);
        while units.len() < BATCH_UNITS && done + records < target {
            let unit = next_unit(&mut input)?;
            if unit.is_empty() {
                break;
            }
            records += unit.len() as u64;
            units.push(unit);
        }
        if units.is_empty() {
            break;
        }
        let rescored = rescore_batch(&units, &mut engines, &limits);
        let bytes: Vec<u8> = rescored.iter().flatten().flat_map(|r| r.to_bytes()).collect();
        file.write_all(&bytes).map_err(|e| format!("write failed: {e}"))?;
        done += (bytes.len() / RECORD_BYTES) as u64;
        if shown.elapsed().as_secs() >= a.progress.max(1) || done >= target {
            eprintln!("{}", progress_line(done, target, done - start_done, start.elapsed().as_secs_f64()));
            shown = Instant::now();
        }
    }
    eprintln!("rescore: {} holds {done} of {total} records", a.out.display());
    Ok(())
}

/// An engine for one rescoring thread, as `gensfen` makes them.
fn new_engine(hash_mb: usize) -> Engine {
    Engine::new(Config { verbose: false, keep_history: true, ..Config::default() }, hash_mb)
}

/// Rescores `units` on one thread per engine, each taking the next unit left.
fn rescore_batch(units: &[Vec<PackedSfenValue>], engines: &mut [Engine], limits: &Limits) -> Vec<Vec<PackedSfenValue>> {
    let next = AtomicUsize::new(0);
    let finished: Vec<(usize, Vec<PackedSfenValue>)> = std::thread::scope(|s| {
        let threads: Vec<_> = engines
            .iter_mut()
            .map(|engine| {
                let next = &next;
                std::thread::Builder::new().stack_size(64 << 20).spawn_scoped(s, move || {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(unit) = units.get(i) else { break mine };
                        mine.push((i, rescore_unit(unit, engine, limits)));
                    }
                })
            })
            .collect();
        threads.into_iter().filter_map(|t| t.ok()?.join().ok()).flatten().collect()
    });
    let mut out: Vec<Vec<PackedSfenValue>> = vec![Vec::new(); units.len()];
    for (i, recs) in finished {
        out[i] = recs;
    }
    // A unit whose thread could not start is rescored here.
    for (slot, unit) in out.iter_mut().zip(units) {
        if slot.len() != unit.len() {
            *slot = rescore_unit(unit, &mut engines[0], limits);
        }
    }
    out
}

/// `rescore: done/target records (P%), rate, ETA`.
fn progress_line(done: u64, target: u64, this_run: u64, secs: f64) -> String {
    let rate = this_run as f64 / secs.max(1e-3);
    let left = target.saturating_sub(done) as f64 / rate.max(1e-9);
    format!(
        "rescore: {done}/{target} records ({:.1}%), {rate:.1} positions/s, elapsed {}, ETA {}",
        100.0 * done as f64 / target.max(1) as f64,
        clock(secs as u64),
        clock(left as u64)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_line_shows_rate_and_eta() {
        let l = progress_line(300, 1000, 200, 10.0);
        assert_eq!(l, "rescore: 300/1000 records (30.0%), 20.0 positions/s, elapsed 0:00:10, ETA 0:00:35");
    }

    #[test]
    fn bad_limits_are_refused() {
        let args = |nodes, depth, hash| RescoreArgs {
            input: "a".into(),
            out: "b".into(),
            nodes,
            depth,
            threads: None,
            eval: String::new(),
            hash,
            positions: 0,
            progress: 10,
        };
        assert!(limits_of(&args(Some(0), None, 16)).is_err());
        assert!(limits_of(&args(None, Some(61), 16)).is_err());
        assert!(limits_of(&args(None, None, 0)).is_err());
        assert_eq!(limits_of(&args(None, None, 16)).unwrap().nodes, Some(20_000));
    }
}
