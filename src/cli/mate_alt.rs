//! `hisha mate --alt`: after a problem is solved, looks for alternative mates (余詰)
//! along the main line with `mate::alt`, prints them (a few indented lines under the
//! problem's line, or an `alt` object in its JSON) and judges the status against the
//! file's expected one (`unique` or `alt 1,7`).

use hisha::core::types::Move;
use hisha::mate::alt::{AltLimits, AltPly, AltReport};
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
}

/// The pass over one solved problem, and its verdict against `expected`.
pub struct AltOutcome {
    pub report: AltReport,
    pub seconds: f64,
    /// "ok", "WRONG", "UNDECIDED", or "checked" when no status was expected.
    pub verdict: &'static str,
}

/// Runs the pass over `main` from `pos` with the solver the solve used.
pub fn check(solver: &mut Solver, pos: &Position, main: &[Move], settings: AltSettings, expected: Option<&str>) -> AltOutcome {
    let start = Instant::now();
    let limits = AltLimits { nodes_per_check: settings.nodes, deadline: settings.time.map(|t| start + t) };
    let stop = AtomicBool::new(false);
    let report = solver.alternatives_deep(pos, main, limits, &stop);
    let status = report.status();
    let verdict = match expected.map(normalise) {
        None => "checked",
        Some(_) if status == "undecided" => "UNDECIDED",
        Some(e) if e == status => "ok",
        Some(_) => "WRONG",
    };
    AltOutcome { report, seconds: start.elapsed().as_secs_f64(), verdict }
}

/// An expected status as written in a file (`alt 1, 7`, `ALT 1,7`, `unique`) in the
/// form `AltReport::status` gives.
fn normalise(s: &str) -> String {
    let s = s.trim().to_lowercase();
    match s.strip_prefix("alt") {
        Some(rest) => {
            let plies: Vec<&str> = rest.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty()).collect();
            format!("alt {}", plies.join(","))
        }
        None => s,
    }
}

/// The human-readable lines (each starting with two spaces).
pub fn text(o: &AltOutcome, expected: Option<&str>) -> String {
    let r = &o.report;
    let checks: usize = r.plies.iter().map(|p| p.candidates).sum();
    let open: usize = r.plies.iter().map(|p| p.undecided.len() + usize::from(p.remaining.is_none())).sum();
    let mut out = format!(
        "  alternative mates: {} ({} attacker plies, {checks} other checks, {open} undecided; {:.3}s, {} nodes)",
        summary(r),
        r.plies.len(),
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

/// The verdict in words.
fn summary(r: &AltReport) -> String {
    let plies = r.plies_with_alternatives();
    let finals = r.plies.iter().filter(|p| p.final_move && !p.alternatives.is_empty()).count();
    match (plies.is_empty(), r.decided()) {
        (true, true) => "none (unique)".to_string(),
        (true, false) => "none found, some checks undecided".to_string(),
        (false, decided) => {
            let list = plies.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ");
            let kind = if finals == plies.len() { "final move only (最終手余詰)" } else { "余詰" };
            let tail = if decided { "" } else { "; some checks undecided" };
            format!("{kind} at ply {list}{tail}")
        }
    }
}

/// The lines of one attacker ply with alternatives or open checks; `None` otherwise.
fn ply_text(p: &AltPly) -> Option<String> {
    let Some(left) = p.remaining else {
        return Some(format!("    ply {:<3} main {:<6} undecided: the node's mate length could not be settled", p.ply, p.main.to_string()));
    };
    if p.alternatives.is_empty() && p.undecided.is_empty() {
        return None;
    }
    let last = if p.final_move { ", the final move" } else { "" };
    let mut lines = vec![format!("    ply {:<3} main {:<6} (mate in {left}{last})", p.ply, p.main.to_string())];
    for a in &p.alternatives {
        let mut notes = Vec::new();
        if p.final_move {
            notes.push("final-move alternative, tolerated by the composers");
        }
        if a.promotion_twin {
            notes.push("promotion or not (成・不成非限定)");
        }
        if a.drop_twin {
            notes.push("the same piece dropped elsewhere (打ち場所非限定)");
        }
        if !a.best_defence {
            notes.push("line: one defence, not proved the best");
        }
        let notes = if notes.is_empty() { String::new() } else { format!("  [{}]", notes.join("; ")) };
        let moves: Vec<String> = a.line.iter().map(|m| m.to_string()).collect();
        lines.push(format!("      alternative {:<6} mates in {}: {}{notes}", a.mv.to_string(), a.plies, moves.join(" ")));
    }
    for u in &p.undecided {
        lines.push(format!("      undecided   {:<6} ({})", u.mv.to_string(), u.reason));
    }
    Some(lines.join("\n"))
}

/// The `alt` object of the problem's JSON line.
pub fn json(o: &AltOutcome, expected: Option<&str>) -> Value {
    let r = &o.report;
    let plies: Vec<Value> = r
        .plies
        .iter()
        .map(|p| {
            let alts: Vec<Value> = p
                .alternatives
                .iter()
                .map(|a| {
                    json!({ "move": a.mv.to_string(), "plies": a.plies,
                        "line": a.line.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                        "best_defence": a.best_defence, "promotion_twin": a.promotion_twin, "drop_twin": a.drop_twin })
                })
                .collect();
            let open: Vec<Value> = p.undecided.iter().map(|u| json!({ "move": u.mv.to_string(), "reason": u.reason })).collect();
            json!({ "ply": p.ply, "main": p.main.to_string(), "remaining": p.remaining, "final": p.final_move,
                "candidates": p.candidates, "alternatives": alts, "undecided": open })
        })
        .collect();
    json!({ "status": r.status(), "expected": expected.map(normalise), "verdict": o.verdict,
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
    }
}
