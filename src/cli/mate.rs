//! `hisha mate`: solves tsume from the command line with the df-pn solver, one problem
//! or a file of them (optionally one shard of it), and judges each answer against the
//! file's expected length and published solution; prints a table or JSON lines.
//! With `--alt`, also looks for alternative mates along each answer (`mate_alt`).

use hisha::core::types::Move;
use hisha::mate::{Conventions, MateResult, Solver, Stats};
use hisha::position::Position;
use hisha::shard::Shard;
use hisha::usi::info::{checkmate_line, mate_progress_text};
use super::mate_alt::{self, AltSettings};
use serde_json::json;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How often `hisha mate` prints how a long solve stands (stderr).
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// The flags of `hisha mate` besides the problems.
pub struct MateSettings {
    pub time: u64,
    pub hash: usize,
    pub shard: Shard,
    pub json: bool,
    pub conventions: Conventions,
    /// `--alt`: look for alternative mates along each answer.
    pub alt: Option<AltSettings>,
}

/// One problem of the input.
struct Problem {
    /// 0-based index among the file's problems (the shard key and the JSON id).
    id: usize,
    sfen: String,
    plies: Option<usize>,
    label: String,
    /// The published solution (USI moves), when the file gives one.
    solution: Option<String>,
    /// The expected alternative-mate status (`unique`, `alt 1,7`), from a fifth field.
    alt_expected: Option<String>,
}

/// The verdicts so far, and the solver's work.
#[derive(Default)]
struct Tally {
    ok: usize,
    wrong: usize,
    undecided: usize,
    /// Mates whose length is an upper bound, not proved shortest.
    bounds: usize,
    nodes: u64,
    seconds: f64,
    /// `--alt` verdicts that differ from the file's, or stay undecided.
    alt_wrong: usize,
    alt_undecided: usize,
}

pub fn run(sfen: Option<String>, file: Option<String>, settings: MateSettings) -> ExitCode {
    let problems = match read_problems(sfen, file) {
        Ok(p) => p.into_iter().filter(|p| settings.shard.owns(p.id)).collect::<Vec<_>>(),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let limit = if settings.time == 0 { None } else { Some(Duration::from_millis(settings.time)) };
    let mut tally = Tally::default();
    let start = Instant::now();
    let mut solver = Solver::new(settings.hash);
    for (i, p) in problems.iter().enumerate() {
        solve_and_print(&mut solver, p, &settings, limit, &mut tally);
        if problems.len() > 1 {
            eprintln!("[{}/{}] {:.1}s elapsed", i + 1, problems.len(), start.elapsed().as_secs_f64());
        }
    }
    let summary = tally.summary(problems.len());
    if settings.json {
        eprintln!("{summary}");
    } else {
        println!("{summary}");
    }
    if tally.wrong == 0 && tally.undecided == 0 && tally.alt_wrong == 0 && tally.alt_undecided == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Reads `--sfen` as one problem, or the `SFEN | plies | solution | label` lines of
/// `--file` (`SFEN | plies | solution | alt status | label` with five fields).
fn read_problems(sfen: Option<String>, file: Option<String>) -> Result<Vec<Problem>, String> {
    if let Some(s) = sfen {
        return Ok(vec![Problem { id: 0, sfen: s, plies: None, label: "sfen".to_string(), solution: None, alt_expected: None }]);
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
        let (alt_expected, label_at) = if parts.len() >= 5 { (parts.get(3).filter(|t| !t.is_empty()).map(|t| t.to_string()), 4) } else { (None, 3) };
        let label = parts.get(label_at).filter(|l| !l.is_empty()).map(|l| l.to_string()).unwrap_or_else(|| format!("line{}", no + 1));
        let solution = parts.get(2).filter(|t| !t.is_empty() && **t != "-").map(|t| t.to_string());
        out.push(Problem { id: out.len(), sfen: parts[0].to_string(), plies, label, solution, alt_expected });
    }
    Ok(out)
}

fn solve_and_print(solver: &mut Solver, p: &Problem, settings: &MateSettings, limit: Option<Duration>, tally: &mut Tally) {
    let pos = match Position::from_sfen(&p.sfen) {
        Ok(pos) => pos,
        Err(e) => {
            if settings.json {
                println!("{}", json!({ "type": "problem", "problem": p.id, "label": p.label, "verdict": "bad sfen", "error": e.to_string() }));
            } else {
                println!("{:<20} bad sfen: {e}", p.label);
            }
            tally.wrong += 1;
            return;
        }
    };
    let (r, st) = solve(solver, &pos, settings, limit);
    tally.nodes += st.nodes;
    tally.seconds += st.seconds;
    let verdict = tally.judge(&r, &st, p.plies);
    let difference = difference_from_published(p, &r, &st);
    let answer = checkmate_line(&r);
    let alt = match (&r, settings.alt) {
        (MateResult::Mate(line), Some(a)) => Some(mate_alt::check(solver, &pos, line, a, p.alt_expected.as_deref())),
        _ => None,
    };
    if let Some(o) = &alt {
        match o.verdict {
            "WRONG" => tally.alt_wrong += 1,
            "UNDECIDED" => tally.alt_undecided += 1,
            _ => {}
        }
    }
    if settings.json {
        let v = json!({ "type": "problem", "problem": p.id, "label": p.label, "verdict": verdict,
            "answer": answer, "expected_plies": p.plies, "exact": st.exact,
            "mate_within": st.mate_within, "bound_reason": st.bound_reason,
            "conventions": st.conventions, "counted_plies": st.length, "difference": difference,
            "seconds": st.seconds, "nodes": st.nodes, "proof_nodes": st.proof_nodes,
            "proof_seconds": st.proof_seconds });
        let mut v = v;
        if let Some(o) = &alt {
            v["alt"] = mate_alt::json(o, p.alt_expected.as_deref());
        }
        println!("{v}");
    } else {
        let notes = notes(p, &r, &st, difference.as_deref());
        println!(
            "{:<20} {:<9} {:>7.3}s {:>10} nodes ({:>9} to prove)  {}{}",
            p.label, verdict, st.seconds, st.nodes, st.proof_nodes, answer, notes
        );
        if let Some(o) = &alt {
            println!("{}", mate_alt::text(o, p.alt_expected.as_deref()));
        }
    }
}

/// Solves one problem with an emptied table: its answer and node count then depend on
/// the problem alone, not on which problems a run (or a shard) solved before it. The
/// table is emptied by a new generation, not made anew: a fresh table's pages are
/// zeroed as a solve first touches them, which cost a 9-ply problem 0.3 s at the
/// default 256 MiB (0.04 s at 16 MiB). `--alt` goes on with the solver's table.
fn solve(solver: &mut Solver, pos: &Position, settings: &MateSettings, limit: Option<Duration>) -> (MateResult, Stats) {
    let stop = AtomicBool::new(false);
    solver.clear_table();
    solver.set_progress(Box::new(|p| eprintln!("  {}", mate_progress_text(p))), PROGRESS_EVERY);
    solver.set_conventions(settings.conventions.applies_to(pos));
    let r = solver.solve_deep(pos, limit, &stop);
    (r, solver.stats)
}

/// Where the line departs from the published solution, when its length differs from
/// the expected one.
fn difference_from_published(p: &Problem, r: &MateResult, st: &Stats) -> Option<String> {
    match (r, &p.solution, p.plies) {
        (MateResult::Mate(line), Some(published), Some(e)) if e != st.length as usize => first_difference(published, line),
        _ => None,
    }
}

/// The table's remarks after the answer: the expected length, an unproved length, the
/// composers' count, a longer defence set aside by the pieces-to-spare rule, the first
/// difference from the published solution.
fn notes(p: &Problem, r: &MateResult, st: &Stats, difference: Option<&str>) -> String {
    let mut notes = p.plies.map(|e| format!(" (expected {e})")).unwrap_or_default();
    if let MateResult::Mate(line) = r {
        if !st.exact {
            notes.push_str(&format!(
                " [upper bound: not proved shortest ({}), mate proved within {} plies]",
                st.bound_reason.unwrap_or("out of time"),
                st.mate_within
            ));
        }
        if st.conventions && line.len() != st.length as usize {
            let futile = (line.len() - st.length as usize) / 2;
            notes.push_str(&format!(" [{} plies by the composers' conventions: the line shows {futile} futile interpositions taken]", st.length));
        }
        if st.exact && st.mate_within > st.length {
            // The pieces-to-spare rule set a longer defence aside (as USI's note says).
            notes.push_str(&format!(" [a defence lasting {} plies leaves the attacker pieces to spare]", st.mate_within));
        }
    }
    if let Some(d) = difference {
        notes.push_str(&format!(" [{d}]"));
    }
    notes
}

/// Where Hisha's `line` first departs from a `published` solution (USI moves), said
/// so that a reader can tell a convention from a flaw: the ply, both moves, and whose
/// move it is.
fn first_difference(published: &str, line: &[Move]) -> Option<String> {
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

impl Tally {
    /// The verdict on one answer against the expected length (if any), counted.
    fn judge(&mut self, r: &MateResult, st: &Stats, expected: Option<usize>) -> &'static str {
        let is_mate = matches!(r, MateResult::Mate(_));
        if is_mate && !st.exact {
            self.bounds += 1;
        }
        let got = match r {
            MateResult::Mate(_) => Some(st.length as usize),
            MateResult::NoMate => Some(0),
            MateResult::Timeout => None,
        };
        let (count, verdict) = match (got, expected) {
            (None, _) => (&mut self.undecided, "UNDECIDED"),
            (Some(g), Some(e)) if g == e => (&mut self.ok, "ok"),
            // A bound that differs from the expected length is not (yet) an error.
            (Some(_), Some(_)) if is_mate && !st.exact => (&mut self.undecided, "BOUND"),
            (Some(_), Some(_)) => (&mut self.wrong, "WRONG"),
            (Some(_), None) => (&mut self.ok, "solved"),
        };
        *count += 1;
        verdict
    }

    fn summary(&self, problems: usize) -> String {
        let alt = if self.alt_wrong + self.alt_undecided > 0 {
            format!("; alternative mates: {} wrong, {} undecided", self.alt_wrong, self.alt_undecided)
        } else {
            String::new()
        };
        format!(
            "summary: {problems} problems, {} ok, {} wrong, {} undecided, {} lengths not proved shortest (upper bounds); {:.2} s solving, {} nodes, {:.0} nodes/s{alt}",
            self.ok,
            self.wrong,
            self.undecided,
            self.bounds,
            self.seconds,
            self.nodes,
            self.nodes as f64 / self.seconds.max(1e-9)
        )
    }
}
