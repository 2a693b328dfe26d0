//! The one place that writes the search's and the solver's answers as USI text:
//! `info` lines from `Report::Pv`, `bestmove` lines, scores
//! (`cp N`, `mate N`), the lines of a running `go mate` (progress, the line it is
//! working on) and its `checkmate` answers. Uses `search` and `mate`.

use crate::core::types::Move;
use crate::mate::{MateResult, Progress, Stats};
use crate::search::tt::Bound;
use crate::search::{PvReport, Report, MATE_IN_MAX, VALUE_MATE};
use std::fmt::Write;

/// USI text of a score: `cp N` or `mate N` (plies, negative when being mated).
pub fn score_text(v: i32) -> String {
    if v >= MATE_IN_MAX {
        format!("mate {}", VALUE_MATE - v)
    } else if v <= -MATE_IN_MAX {
        format!("mate -{}", VALUE_MATE + v)
    } else {
        format!("cp {v}")
    }
}

fn pv_line(r: &PvReport) -> String {
    let mut s = format!("info depth {} seldepth {} ", r.depth, r.seldepth);
    if let Some(k) = r.multipv {
        let _ = write!(s, "multipv {k} ");
    }
    let _ = write!(s, "score {}", score_text(r.score));
    match r.bound {
        Bound::Lower => s.push_str(" lowerbound"),
        Bound::Upper => s.push_str(" upperbound"),
        _ => {}
    }
    let _ = write!(s, " nodes {} nps {} time {}", r.nodes, r.nps, r.time_ms);
    if let Some(h) = r.hashfull {
        let _ = write!(s, " hashfull {h}");
    }
    s.push_str(" pv");
    for m in &r.pv {
        let _ = write!(s, " {m}");
    }
    s
}

/// The USI line of a report (`info ...` or `bestmove ...`).
pub fn report_line(r: &Report) -> String {
    match r {
        Report::Pv(pv) => pv_line(pv),
        Report::BestMove { best, ponder: Some(p) } => format!("bestmove {best} ponder {p}"),
        Report::BestMove { best, ponder: None } => format!("bestmove {best}"),
    }
}

/// A proof or disproof number as shown to people: `inf` for a resolved side.
fn proof_number_text(n: u32) -> String {
    if n >= (1 << 30) - 1 {
        "inf".to_string()
    } else {
        n.to_string()
    }
}

/// The one-line state of a running solve, for people: nodes, speed, table use, the
/// root's proof and disproof numbers and the line it is working on (`hisha mate`
/// prints it on stderr).
pub fn mate_progress_text(p: &Progress) -> String {
    let line = if p.line.is_empty() {
        String::new()
    } else {
        format!(", {} line {}", if p.mate_proved { "mating" } else { "best" }, line_text(&p.line))
    };
    format!(
        "{:.0} s, {} nodes, {:.0} nodes/s, table {:.1}% full, root pn {} dn {}{line}",
        p.seconds,
        p.nodes,
        p.nodes_per_second(),
        p.hashfull as f64 / 10.0,
        proof_number_text(p.root_pn),
        proof_number_text(p.root_dn)
    )
}

/// Moves as USI text, separated by spaces.
fn moves_text(line: &[Move]) -> String {
    let moves: Vec<String> = line.iter().map(|m| m.to_string()).collect();
    moves.join(" ")
}

/// The line a running solve is working on, for people (`hisha mate` adds it to its
/// progress): at most 16 moves, then how many more.
fn line_text(line: &[Move]) -> String {
    const SHOWN: usize = 16;
    let more = line.len().saturating_sub(SHOWN);
    let tail = if more > 0 { format!(" ... ({more} more)") } else { String::new() };
    format!("{}{tail}", moves_text(&line[..line.len().min(SHOWN)]))
}

/// The `info ... pv` line of a running `go mate` when the line it is working on has
/// changed since `last` (which then becomes it), `None` when it has not or there is
/// none. No score while the root is unproved (the line is the search's best guess,
/// not a mate); `score mate +` once it is proved but its length is not yet known.
pub fn mate_progress_pv(p: &Progress, last: &mut (Vec<Move>, bool)) -> Option<String> {
    if p.line.is_empty() || (p.line.as_slice(), p.mate_proved) == (last.0.as_slice(), last.1) {
        return None;
    }
    *last = (p.line.clone(), p.mate_proved);
    let score = if p.mate_proved { " score mate +" } else { "" };
    Some(format!(
        "info time {} nodes {} nps {} hashfull {}{score} pv {}",
        (p.seconds * 1000.0) as u64,
        p.nodes,
        p.nodes_per_second() as u64,
        p.hashfull,
        moves_text(&p.line)
    ))
}

/// The `info ... score mate N pv ...` line of a finished `go mate` that found a mate,
/// printed before its `checkmate`: `N` is the number of plies of the line shown (the
/// plies to the mate on the board; under the composers' conventions they include the
/// futile interpositions, which the `info string` note leaves out of its count), and
/// `mate +` when the line is not proved shortest; negative (`mate -N`, `mate -`) when
/// the side to move defends (the line starts with its reply). `None` for other answers.
pub fn mate_final_pv(r: &MateResult, st: &Stats) -> Option<String> {
    let MateResult::Mate(line) = r else { return None };
    if line.is_empty() {
        return None;
    }
    let sign = if st.defender_first { "-" } else { "" };
    let score = match (st.exact, st.defender_first) {
        (true, _) => format!("mate {sign}{}", line.len()),
        (false, true) => "mate -".to_string(),
        (false, false) => "mate +".to_string(),
    };
    Some(format!(
        "info time {} nodes {} nps {} score {score} pv {}",
        (st.seconds * 1000.0) as u64,
        st.nodes,
        (st.nodes as f64 / st.seconds.max(1e-9)) as u64,
        moves_text(line)
    ))
}

/// The `info` line of a running `go mate`: time, nodes, nps, hashfull, then the
/// root's numbers as a string.
pub fn mate_progress(p: &Progress) -> String {
    format!(
        "info time {} nodes {} nps {} hashfull {} string root pn {} dn {}",
        (p.seconds * 1000.0) as u64,
        p.nodes,
        p.nodes_per_second() as u64,
        p.hashfull,
        proof_number_text(p.root_pn),
        proof_number_text(p.root_dn)
    )
}

/// The exact USI answer line for a result: `checkmate <moves>` / `checkmate nomate` / `checkmate timeout`.
pub fn checkmate_line(r: &MateResult) -> String {
    match r {
        MateResult::Mate(line) if !line.is_empty() => format!("checkmate {}", moves_text(line)),
        MateResult::Mate(_) | MateResult::Timeout => "checkmate timeout".to_string(),
        MateResult::NoMate => "checkmate nomate".to_string(),
    }
}

/// What a mate answer's length means, for an `info string`: proved shortest, or an
/// upper bound (the line is a real mate but not proved shortest, and the proved bound
/// on the mate length is given). `None` for answers without a line.
pub fn mate_length_note(r: &MateResult, st: &Stats) -> Option<String> {
    let MateResult::Mate(line) = r else { return None };
    if line.is_empty() {
        return None;
    }
    let shown = if st.conventions && st.length as usize != line.len() {
        format!(" by the composers' conventions (the line's {} plies include futile interpositions, not counted)", line.len())
    } else if st.conventions {
        " by the composers' conventions".to_string()
    } else {
        String::new()
    };
    let spare = if st.exact && st.mate_within > st.length {
        format!(" (a defence lasting {} plies leaves the attacker pieces to spare)", st.mate_within)
    } else {
        String::new()
    };
    let what = if st.defender_first { "mated in" } else { "mate in" };
    let reply = if st.defender_first { ", the defender's reply first" } else { "" };
    Some(if st.exact {
        format!("{what} {} plies{reply}{shown}, proved shortest{spare}", st.length)
    } else {
        format!(
            "mate line of {} plies{reply}{shown}, not proved shortest ({}): an upper bound, mate proved within {} plies",
            st.length,
            st.bound_reason.unwrap_or("out of time"),
            st.mate_within
        )
    })
}
