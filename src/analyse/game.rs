//! One game analysed: every position searched once, then each ply's scores before and
//! after, win-rate loss, mark and accuracy, and the per-side summary.

use super::engine::{Analyser, Line, PositionEval};
use super::score::{loss, move_accuracy, Mark, Score};
use crate::position::Position;
use crate::record::GameRecord;
use crate::core::types::Color;

/// The analysis of one ply.
#[derive(Clone, Debug)]
pub struct PlyAnalysis {
    /// 1-based ply number.
    pub ply: usize,
    /// Who moved.
    pub side: Color,
    /// The move played (USI).
    pub mv: String,
    /// Line of the record it came from.
    pub line: usize,
    /// Score before the move (Black's view).
    pub before: Score,
    /// Score after the move (Black's view).
    pub after: Score,
    /// The engine's best move and PV in the position before the move.
    pub best: Option<Line>,
    /// The other `--multipv` lines (the best first).
    pub lines: Vec<Line>,
    /// Win-rate loss of the mover, 0..1.
    pub loss: f64,
    /// Mark for the loss.
    pub mark: Option<Mark>,
    /// Depth and nodes of the search before the move.
    pub depth: i32,
    /// Nodes of that search.
    pub nodes: u64,
}

/// Per-side totals.
#[derive(Clone, Debug, Default)]
pub struct SideSummary {
    /// Mean move accuracy, 0..100 (`None` without moves).
    pub accuracy: Option<f64>,
    /// Counts of inaccuracies, mistakes and blunders.
    pub marks: [usize; 3],
    /// Moves made.
    pub moves: usize,
}

/// One game's analysis.
#[derive(Clone, Debug)]
pub struct GameAnalysis {
    /// The plies in order.
    pub plies: Vec<PlyAnalysis>,
    /// Score of the final position (Black's view).
    pub final_score: Score,
    /// Black's and White's summaries.
    pub sides: [SideSummary; 2],
    /// Positions searched.
    pub positions: usize,
}

/// Analyses `game`, calling `tick` after each position searched.
pub fn analyse_game(engine: &mut Analyser, game: &GameRecord, mut tick: impl FnMut()) -> Result<GameAnalysis, String> {
    engine.new_game();
    let mut pos = Position::from_sfen(&game.start_sfen).map_err(|e| e.to_string())?;
    let mut evals: Vec<PositionEval> = Vec::with_capacity(game.moves.len() + 1);
    let mut sides = Vec::with_capacity(game.moves.len());
    evals.push(engine.evaluate(&pos));
    tick();
    for rm in &game.moves {
        let m = pos.parse_usi_move(&rm.usi).ok_or_else(|| format!("line {}: illegal move {}", rm.line, rm.usi))?;
        sides.push(pos.side_to_move());
        pos.do_move(m);
        evals.push(engine.evaluate(&pos));
        tick();
    }
    let mut plies = Vec::with_capacity(game.moves.len());
    let mut acc: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut summary: [SideSummary; 2] = Default::default();
    for (i, rm) in game.moves.iter().enumerate() {
        let (e0, e1) = (&evals[i], &evals[i + 1]);
        let side = sides[i];
        let played_best = e0.best.as_ref().is_some_and(|b| b.mv == rm.usi);
        let l = if played_best { 0.0 } else { loss(side, e0.score.winrate(), e1.score.winrate()) };
        let mark = Mark::from_loss(l);
        let s = &mut summary[side.index()];
        s.moves += 1;
        if let Some(m) = mark {
            s.marks[m as usize] += 1;
        }
        acc[side.index()].push(move_accuracy(l));
        plies.push(PlyAnalysis {
            ply: i + 1,
            side,
            mv: rm.usi.clone(),
            line: rm.line,
            before: e0.score,
            after: e1.score,
            best: e0.best.clone(),
            lines: e0.lines.clone(),
            loss: l,
            mark,
            depth: e0.depth,
            nodes: e0.nodes,
        });
    }
    for c in 0..2 {
        let a = &acc[c];
        summary[c].accuracy = (!a.is_empty()).then(|| a.iter().sum::<f64>() / a.len() as f64);
    }
    let final_score = evals.last().map_or(Score::Cp(0), |e| e.score);
    Ok(GameAnalysis { plies, final_score, sides: summary, positions: evals.len() })
}
