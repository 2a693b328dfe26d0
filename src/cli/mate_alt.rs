//! `hisha mate --alt`: after a problem is solved, looks for alternative mates (余詰)
//! along the main line with `mate::alt`, the same-length ones and the longer ones
//! (with the detours among them told apart), prints them (a few indented lines under
//! the problem's line, or an `alt` object in its JSON) and judges the status against
//! the file's expected one (`unique` or `alt 1,7`, optionally followed by
//! `; longer none` or `; longer 79`: longer mates are then looked for and judged too).

use hisha::core::types::Move;
use hisha::mate::alt::{AltLimits, AltMate, AltPly, AltReport};
use hisha::mate::alt_text;
use hisha::mate::Solver;
use hisha::position::Position;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The `--alt` settings.
#[derive(Clone, Copy, Debug)]
pub struct AltSettings {
    /// Nodes per question (`--alt-nodes`).
    pub nodes: u64,
    /// Time for the whole pass (the problem's `--time`; `None`: no limit).
    pub time: Option<Duration>,
    /// Look for longer mates on every problem (`--alt-longer`).
    pub longer: bool,
}

/// The pass over one solved problem, and its verdict against `expected`.
pub struct AltOutcome {
    pub report: AltReport,
    pub seconds: f64,
    /// "ok", "WRONG", "UNDECIDED", or "checked" when no status was expected.
    pub verdict: &'static str,
}

/// Runs the pass over `main` from `pos` with the solver the solve used; longer mates
/// too when `expected` has a longer part (`unique; longer 1`).
pub fn check(solver: &mut Solver, pos: &Position, main: &[Move], settings: AltSettings, expected: Option<&str>) -> AltOutcome {
    let start = Instant::now();
    // Longer mates cost several times the rest of the pass (docs/tsume.md): looked for
    // with `--alt-longer`, or where the file's status asks about them.
    let longer = settings.longer || expected.is_some_and(|e| normalise(e).contains(';'));
    let limits = AltLimits { nodes_per_check: settings.nodes, deadline: settings.time.map(|t| start + t), longer };
    let stop = AtomicBool::new(false);
    let report = solver.alternatives_deep(pos, main, limits, &stop);
    let verdict = match expected.map(normalise) {
        None => "checked",
        Some(e) => judge(&report, &e),
    };
    AltOutcome { report, seconds: start.elapsed().as_secs_f64(), verdict }
}

/// The verdict of `report` against the expected status `e` (normalised): the
/// same-length part always, the longer part when `e` has one.
fn judge(report: &AltReport, e: &str) -> &'static str {
    let (same, longer) = match e.split_once(';') {
        Some((a, b)) => (a.trim(), Some(b.trim())),
        None => (e, None),
    };
    let got = report.status();
    let got_longer = report.longer_status();
    if got == "undecided" || (longer.is_some() && got_longer == "longer undecided") {
        "UNDECIDED"
    } else if same == got && longer.is_none_or(|l| l == got_longer) {
        "ok"
    } else {
        "WRONG"
    }
}

/// An expected status as written in a file (`alt 1, 7`, `ALT 1,7`, `unique`,
/// `unique; Longer 79`) in the form `AltReport::status` and `longer_status` give,
/// joined by `; `.
fn normalise(s: &str) -> String {
    s.split(';').map(normalise_part).collect::<Vec<_>>().join("; ")
}

/// One part of `normalise`: `alt 1, 7` gives `alt 1,7`, `longer 1, 7` `longer 1,7`.
fn normalise_part(s: &str) -> String {
    let s = s.trim().to_lowercase();
    for word in ["alt", "longer"] {
        if let Some(rest) = s.strip_prefix(word) {
            let plies: Vec<&str> = rest.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty()).collect();
            return format!("{word} {}", plies.join(","));
        }
    }
    s
}

/// The human-readable lines (each starting with two spaces).
pub fn text(o: &AltOutcome, expected: Option<&str>) -> String {
    let r = &o.report;
    let mut out = format!(
        "  alternative mates: {}{} ({}; {:.3}s, {} nodes)",
        alt_text::summary(r),
        alt_text::longer_summary(r).map(|l| format!("; {l}")).unwrap_or_default(),
        alt_text::counts(r),
        o.seconds,
        r.nodes
    );
    if let Some(e) = expected {
        out.push_str(&format!(" expected {}: {}", normalise(e), o.verdict));
    }
    for p in &r.plies {
        if let Some(block) = ply_text(p) {
            out.push('\n');
            out.push_str(&block);
        }
    }
    out
}

/// The lines of one attacker ply with alternatives, longer mates or open checks;
/// `None` otherwise.
fn ply_text(p: &AltPly) -> Option<String> {
    let findings = alt_text::ply_findings(p, true);
    if p.remaining.is_some() && findings.is_empty() {
        return None;
    }
    let mut lines = vec![format!("    {}", alt_text::ply_header(p))];
    lines.extend(findings.iter().map(|f| format!("      {f}")));
    Some(lines.join("\n"))
}

/// An alternative as JSON.
fn mate_json(a: &AltMate) -> Value {
    json!({ "move": a.mv.to_string(), "plies": a.plies,
        "line": a.line.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "best_defence": a.best_defence, "promotion_twin": a.promotion_twin, "drop_twin": a.drop_twin })
}

/// The `alt` object of the problem's JSON line.
pub fn json(o: &AltOutcome, expected: Option<&str>) -> Value {
    let r = &o.report;
    let open = |u: &[hisha::mate::alt::AltUndecided]| -> Vec<Value> { u.iter().map(|u| json!({ "move": u.mv.to_string(), "reason": u.reason })).collect() };
    let plies: Vec<Value> = r
        .plies
        .iter()
        .map(|p| {
            let alts: Vec<Value> = p.alternatives.iter().map(mate_json).collect();
            let longer: Vec<Value> = p
                .longer
                .iter()
                .map(|l| {
                    let mut v = mate_json(&l.mate);
                    v["detour_at"] = json!(l.detour_at);
                    v
                })
                .collect();
            json!({ "ply": p.ply, "main": p.main.to_string(), "remaining": p.remaining, "final": p.final_move,
                "candidates": p.candidates, "alternatives": alts, "undecided": open(&p.undecided),
                "longer": longer, "longer_undecided": open(&p.longer_undecided) })
        })
        .collect();
    json!({ "status": r.status(), "longer_status": r.longer_status(), "expected": expected.map(normalise), "verdict": o.verdict,
        "seconds": o.seconds, "nodes": r.nodes, "plies": plies })
}

#[cfg(test)]
mod tests {
    use super::normalise;

    #[test]
    fn expected_statuses_read_as_the_report_writes_them() {
        assert_eq!(normalise(" ALT 1, 7 "), "alt 1,7");
        assert_eq!(normalise("alt 3"), "alt 3");
        assert_eq!(normalise("unique"), "unique");
        assert_eq!(normalise("unique;  Longer 79, 81"), "unique; longer 79,81");
        assert_eq!(normalise("alt 3 ; longer none"), "alt 3; longer none");
    }
}
