//! What an analysis is written as: JSON objects (one per ply, one per game, one per
//! unreadable record), the terminal table and summaries, and the KIF comments. Plies
//! are always written in game order, whatever order they were searched in.

use super::game::{GameAnalysis, PlyAnalysis};
use super::plies::{ranges_text, Plan};
use super::score::Score;
use crate::position::Position;
use crate::record::kif_write::line_text;
use crate::record::GameRecord;
use crate::core::types::Color;
use serde_json::{json, Value};

/// Where a game comes from: its place in the batch and in its file.
#[derive(Clone, Debug)]
pub struct GameRef {
    /// 0-based index in the whole batch (sorted files, then games in file order).
    pub id: usize,
    /// The file.
    pub file: String,
    /// 0-based index of the game within its file.
    pub index_in_file: usize,
}

fn side_name(c: Color) -> &'static str {
    if c == Color::Black {
        "black"
    } else {
        "white"
    }
}

fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}

/// The JSON object of one ply.
pub fn ply_json(g: &GameRef, p: &PlyAnalysis) -> Value {
    let line = |l: &super::engine::Line| json!({ "move": l.mv, "score": l.score.to_json(), "pv": l.pv });
    json!({
        "type": "ply",
        "game": g.id,
        "file": g.file,
        "game_in_file": g.index_in_file,
        "ply": p.ply,
        "side": side_name(p.side),
        "move": p.mv,
        "line": p.line,
        "score_before": p.before.to_json(),
        "score_after": p.after.to_json(),
        "winrate_before": round(p.before.winrate(), 4),
        "winrate_after": round(p.after.winrate(), 4),
        "loss": round(p.loss, 4),
        "mark": p.mark.map(|m| m.name()),
        "best": p.best.as_ref().map(|b| b.mv.clone()),
        "pv": p.best.as_ref().map(|b| b.pv.clone()).unwrap_or_default(),
        "multipv": p.lines.iter().map(line).collect::<Vec<_>>(),
        "depth": p.depth,
        "nodes": p.nodes,
    })
}

/// The JSON summary of one game.
pub fn game_json(g: &GameRef, game: &GameRecord, a: &GameAnalysis) -> Value {
    let side = |c: usize| {
        let s = &a.sides[c];
        json!({
            "accuracy": s.accuracy.map(|x| round(x, 1)),
            "moves": s.moves,
            "inaccuracies": s.marks[0],
            "mistakes": s.marks[1],
            "blunders": s.marks[2],
        })
    };
    json!({
        "type": "game",
        "game": g.id,
        "file": g.file,
        "game_in_file": g.index_in_file,
        "black_player": game.black,
        "white_player": game.white,
        "start_sfen": game.start_sfen,
        "plies": game.moves.len(),
        "analysed_plies": a.plies.len(),
        "search_order": if a.plan.reverse { "reverse" } else { "game" },
        "result": game.result,
        "final_score": a.final_score.map(|s| s.to_json()),
        "black": side(0),
        "white": side(1),
    })
}

/// The JSON object of a record that could not be read.
pub fn error_json(g: &GameRef, line: usize, message: &str) -> Value {
    json!({ "type": "error", "game": g.id, "file": g.file, "game_in_file": g.index_in_file, "line": line, "message": message })
}

/// The terminal table of one game.
pub fn table(g: &GameRef, game: &GameRecord, a: &GameAnalysis) -> String {
    let mut s = format!(
        "game {} ({} #{}): {} (Black) vs {} (White), {} plies{}{}\n",
        g.id + 1,
        g.file,
        g.index_in_file + 1,
        game.black.as_deref().unwrap_or("?"),
        game.white.as_deref().unwrap_or("?"),
        game.moves.len(),
        game.result.as_deref().map(|r| format!(", ended {r}")).unwrap_or_default(),
        selection_text(&a.plan)
    );
    s.push_str(" ply  move     before  after   win%B  best     loss%  mark        pv\n");
    for p in &a.plies {
        let pv = p.best.as_ref().map(|b| b.pv.iter().take(6).cloned().collect::<Vec<_>>().join(" ")).unwrap_or_default();
        s.push_str(&format!(
            "{:>4}{} {:<7} {:>6} {:>6} {:>6.1}  {:<7} {:>5.1}  {:<10}  {}\n",
            p.ply,
            if p.side == Color::Black { '▲' } else { '△' },
            p.mv,
            p.before.text(),
            p.after.text(),
            p.after.winrate() * 100.0,
            p.best.as_ref().map_or("-", |b| b.mv.as_str()),
            p.loss * 100.0,
            p.mark.map_or("", |m| m.name()),
            pv
        ));
    }
    s.push_str(&summary_line(a));
    s
}

/// What the table's heading adds when not every ply was analysed in game order:
/// `; analysed plies 10-14, 16-20 (10 of them), searched last to first`.
fn selection_text(plan: &Plan) -> String {
    let mut s = String::new();
    if !plan.whole_game {
        s.push_str(&format!("; analysed plies {} ({} of them)", ranges_text(&plan.plies), plan.plies.len()));
    }
    if plan.reverse {
        s.push_str(if plan.whole_game { "; searched last to first" } else { ", searched last to first" });
    }
    s
}

/// `accuracy: Black 91.2 (1 inaccuracy, ...), White ...`.
pub fn summary_line(a: &GameAnalysis) -> String {
    let side = |c: usize, name: &str| {
        let x = &a.sides[c];
        format!(
            "{name} {} ({} inaccuracies, {} mistakes, {} blunders)",
            x.accuracy.map_or("-".to_string(), |v| format!("{v:.1}")),
            x.marks[0],
            x.marks[1],
            x.marks[2]
        )
    };
    format!("accuracy: {}; {}; final score {}\n",
        side(0, "Black"),
        side(1, "White"),
        a.final_score.map_or("- (not searched)".to_string(), |s| s.text())
    )
}

/// The `*` comments of the KIF written by `--kif`: index 0 before the first move,
/// index `k` under move `k` (empty under a ply not analysed).
pub fn kif_comments(game: &GameRecord, a: &GameAnalysis) -> Vec<Vec<String>> {
    let mut head = "[Hisha] 解析 (評価値・勝率は先手から見た値)".to_string();
    if !a.plan.whole_game {
        head.push_str(&format!(" 解析した手: {}手目", ranges_text(&a.plan.plies)));
    }
    let mut out = vec![vec![head]];
    out.resize(game.moves.len() + 1, Vec::new());
    let Ok(mut pos) = Position::from_sfen(&game.start_sfen) else { return out };
    let mut analysed = a.plies.iter().peekable();
    for (i, rm) in game.moves.iter().enumerate() {
        if let Some(p) = analysed.next_if(|p| p.ply == i + 1) {
            out[i + 1].push(ply_comment(&pos, p));
        }
        match pos.parse_usi_move(&rm.usi) {
            Some(m) => pos.do_move(m),
            None => break,
        }
    }
    out
}

/// The comment under one analysed move, `pos` being the position before it.
fn ply_comment(pos: &Position, p: &PlyAnalysis) -> String {
    let mut c = format!("[Hisha] 評価値 {} 先手勝率 {:.1}%", score_japanese(&p.after), p.after.winrate() * 100.0);
    if let Some(b) = &p.best {
        if b.mv != p.mv {
            c.push_str(&format!(" 最善手 {} ({}) 読み筋 {}", line_text(pos, &b.pv[..1.min(b.pv.len())]), score_japanese(&p.before), line_text(pos, &b.pv)));
        }
    }
    if let Some(m) = p.mark {
        c.push_str(&format!(" {} (勝率 -{:.1}%)", m.japanese(), p.loss * 100.0));
    }
    c
}

fn score_japanese(s: &Score) -> String {
    match *s {
        Score::Cp(cp) => format!("{cp:+}"),
        Score::Mate { plies, black_wins } => format!("{}の{}手詰", if black_wins { "先手" } else { "後手" }, plies),
    }
}
