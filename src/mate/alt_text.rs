//! The alternative-mate report (`mate::alt`) in words: the verdict, and one line per
//! finding (an alternative, a longer mate or a detour, an open check), as
//! `hisha mate --alt` prints them under a problem and as `go mate` gives them in
//! `info string` lines with the USI option `YozumePrintLevel`.

use super::alt::{AltMate, AltPly, AltReport, LongerMate};

/// Nodes per question by default (`hisha mate --alt-nodes`, `YozumePrintLevel`).
pub const DEFAULT_NODES_PER_CHECK: u64 = 200_000;

/// The verdict on the same-length checks in words.
pub fn summary(r: &AltReport) -> String {
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

/// The verdict on longer mates in words (`None`: they were not looked for).
pub fn longer_summary(r: &AltReport) -> Option<String> {
    if !r.longer {
        return None;
    }
    let flaws = r.plies_with_longer();
    let detours: usize = r.plies.iter().map(|p| p.longer.iter().filter(|l| l.detour_at.is_some()).count()).sum();
    let open: usize = r.plies.iter().map(|p| p.longer_undecided.len()).sum();
    let head = if flaws.is_empty() {
        "no longer alternative".to_string()
    } else {
        format!("longer alternatives at ply {}", flaws.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", "))
    };
    let detours = if detours > 0 { format!(", {detours} detours (迂回)") } else { String::new() };
    let open = if open > 0 { format!(", {open} longer checks undecided") } else { String::new() };
    Some(format!("{head}{detours}{open}"))
}

/// The head line's counts: attacker plies, other checks, open ones.
pub fn counts(r: &AltReport) -> String {
    let checks: usize = r.plies.iter().map(|p| p.candidates).sum();
    let open: usize = r.plies.iter().map(|p| p.undecided.len() + usize::from(p.remaining.is_none())).sum();
    format!("{} attacker plies, {checks} other checks, {open} undecided", r.plies.len())
}

/// The header of one attacker ply: `ply 9   main 8b8a   (mate in 3)`.
pub fn ply_header(p: &AltPly) -> String {
    match p.remaining {
        None => format!("ply {:<3} main {:<6} undecided: the node's mate length could not be settled", p.ply, p.main.to_string()),
        Some(left) => {
            let last = match (p.final_move, p.by_rule) {
                (true, _) => ", the final move",
                (false, true) => " by the pieces-to-spare rule; other checks judged without it",
                (false, false) => "",
            };
            format!("ply {:<3} main {:<6} (mate in {left}{last})", p.ply, p.main.to_string())
        }
    }
}

/// The findings of one attacker ply, one line each: its alternatives, then (with
/// `open`) its open checks, then its longer mates and detours, then (with `open`) the
/// open longer questions on one line.
pub fn ply_findings(p: &AltPly, open: bool) -> Vec<String> {
    let Some(left) = p.remaining else { return Vec::new() };
    let mut lines = Vec::new();
    for a in &p.alternatives {
        let notes = notes(a, p.final_move.then_some("final-move alternative, tolerated by the composers"));
        lines.push(format!("alternative {:<6} mates in {}: {}{notes}", a.mv.to_string(), a.plies, line_text(a)));
    }
    if open {
        for u in &p.undecided {
            lines.push(format!("undecided   {:<6} ({})", u.mv.to_string(), u.reason));
        }
    }
    for l in &p.longer {
        lines.push(longer_text(l, left, p.final_move));
    }
    if open && !p.longer_undecided.is_empty() {
        let list: Vec<String> = p.longer_undecided.iter().map(|u| format!("{} ({})", u.mv, u.reason)).collect();
        lines.push(format!("longer mate undecided: {}", list.join(", ")));
    }
    lines
}

/// One longer mate: a longer alternative (a flaw) or a detour (迂回).
fn longer_text(l: &LongerMate, left: u16, final_move: bool) -> String {
    let a = &l.mate;
    let kind = match l.detour_at {
        Some(j) => format!("detour (迂回) {:<6} mates in {} (main {left}), back on the main line before ply {j}", a.mv.to_string(), a.plies),
        None => format!("longer alternative {:<6} mates in {} (main {left})", a.mv.to_string(), a.plies),
    };
    let notes = notes(a, final_move.then_some("at the final move"));
    format!("{kind}: {}{notes}", line_text(a))
}

/// The moves of an alternative's line.
fn line_text(a: &AltMate) -> String {
    a.line.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

/// The bracketed notes of an alternative (`first`, then its marks), or nothing.
fn notes(a: &AltMate, first: Option<&str>) -> String {
    let mut notes: Vec<&str> = first.into_iter().collect();
    if a.promotion_twin {
        notes.push("promotion or not (成・不成非限定)");
    }
    if a.drop_twin {
        notes.push("the same piece dropped elsewhere (打ち場所非限定)");
    }
    if !a.best_defence {
        notes.push("line: one defence, not proved the best");
    }
    if notes.is_empty() {
        String::new()
    } else {
        format!("  [{}]", notes.join("; "))
    }
}

/// The `info string` lines of `YozumePrintLevel` `level` (1: the verdict and the
/// mates found; 2 and up: the open checks too), without the `info string ` prefix:
/// the verdict first, then one line per finding, each naming its ply and the main
/// move there. Nothing at level 0.
pub fn usi_lines(r: &AltReport, level: u8) -> Vec<String> {
    if level == 0 {
        return Vec::new();
    }
    let longer = longer_summary(r).map(|l| format!("; {l}")).unwrap_or_default();
    let mut out = vec![format!("alternative mates: {}{longer} ({}; {} nodes)", summary(r), counts(r), r.nodes)];
    let open = level >= 2;
    for p in &r.plies {
        let head = format!("ply {} main {}", p.ply, p.main);
        if p.remaining.is_none() {
            if open {
                out.push(format!("{head}: undecided, the node's mate length could not be settled"));
            }
            continue;
        }
        out.extend(ply_findings(p, open).into_iter().map(|f| format!("{head}: {}", squeeze(&f))));
    }
    out
}

/// `s` with runs of spaces (the CLI's column padding) made single.
fn squeeze(s: &str) -> String {
    s.split(' ').filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ")
}
