//! One game analysed: the positions its plan names searched once each, in the plan's
//! order (game order, or last to first), then each analysed ply's scores before and
//! after, win-rate loss, mark and accuracy, and the per-side summary.

use super::engine::{Analyser, Line, PositionEval};
use super::plies::Plan;
use super::score::{loss, move_accuracy, Mark, Score};
use crate::core::types::{Color, Move};
use crate::position::Position;
use crate::record::{GameRecord, RecordMove};

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
    /// The plies analysed, in game order (every ply unless `--from`, `--to` or `--skip`
    /// said otherwise).
    pub plies: Vec<PlyAnalysis>,
    /// Score of the final position (Black's view); `None` when it was not searched
    /// (`--to` before the last ply, or the last ply skipped).
    pub final_score: Option<Score>,
    /// Black's and White's summaries, over the plies analysed.
    pub sides: [SideSummary; 2],
    /// Positions searched.
    pub positions: usize,
    /// The plan it followed (plies, search order).
    pub plan: Plan,
}

/// Analyses `game` as `plan` says, calling `tick` after each position searched.
///
/// The table is cleared once per game and then kept from position to position, so
/// each search starts from what the searches before it found: with `--reverse` the
/// positions are searched from the end of the game back to its start, and the deep
/// results near the end (mates, won endings) reach the earlier positions through the
/// table, as in a human's review from the end.
pub fn analyse_game(engine: &mut Analyser, game: &GameRecord, plan: &Plan, mut tick: impl FnMut()) -> Result<GameAnalysis, String> {
    engine.new_game();
    let start = Position::from_sfen(&game.start_sfen).map_err(|e| e.to_string())?;
    let (moves, sides) = legal_moves(&start, game)?;
    let mut evals: Vec<Option<PositionEval>> = vec![None; moves.len() + 1];
    let mut walker = Walker { pos: start, at: 0, moves: &moves };
    for &k in &plan.positions {
        let pos = walker.seek(k).ok_or_else(|| format!("position {k} is beyond the game's end ({} plies)", moves.len()))?;
        evals[k] = Some(engine.evaluate(pos));
        tick();
    }
    let mut plies = Vec::with_capacity(plan.plies.len());
    let mut acc: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut summary: [SideSummary; 2] = Default::default();
    for &k in &plan.plies {
        let (Some(rm), Some(Some(e0)), Some(Some(e1))) = (game.moves.get(k.wrapping_sub(1)), evals.get(k.wrapping_sub(1)), evals.get(k)) else {
            return Err(format!("ply {k}: its positions were not searched"));
        };
        let p = ply_analysis(k, sides[k - 1], rm, e0, e1);
        let s = &mut summary[p.side.index()];
        s.moves += 1;
        if let Some(m) = p.mark {
            s.marks[m as usize] += 1;
        }
        acc[p.side.index()].push(move_accuracy(p.loss));
        plies.push(p);
    }
    for c in 0..2 {
        let a = &acc[c];
        summary[c].accuracy = (!a.is_empty()).then(|| a.iter().sum::<f64>() / a.len() as f64);
    }
    let final_score = evals.last().and_then(|e| e.as_ref()).map(|e| e.score);
    Ok(GameAnalysis { plies, final_score, sides: summary, positions: plan.positions.len(), plan: plan.clone() })
}

/// The record's moves as moves of the position (each checked legal), and who made each.
fn legal_moves(start: &Position, game: &GameRecord) -> Result<(Vec<Move>, Vec<Color>), String> {
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(game.moves.len());
    let mut sides = Vec::with_capacity(game.moves.len());
    for rm in &game.moves {
        let m = pos.parse_usi_move(&rm.usi).ok_or_else(|| format!("line {}: illegal move {}", rm.line, rm.usi))?;
        sides.push(pos.side_to_move());
        pos.do_move(m);
        moves.push(m);
    }
    Ok((moves, sides))
}

/// One position of the game at a time, moved to any other by playing or taking back the
/// record's moves (so that every position keeps its history, for repetitions).
struct Walker<'a> {
    pos: Position,
    /// The position's index: the number of moves played from the start.
    at: usize,
    moves: &'a [Move],
}

impl Walker<'_> {
    /// Position `k`, or `None` beyond the end of the game.
    fn seek(&mut self, k: usize) -> Option<&Position> {
        if k > self.moves.len() {
            return None;
        }
        while self.at < k {
            self.pos.do_move(self.moves[self.at]);
            self.at += 1;
        }
        while self.at > k {
            self.at -= 1;
            self.pos.undo_move(self.moves[self.at]);
        }
        Some(&self.pos)
    }
}

/// Ply `k` (the move `rm` by `side`) judged from the searches before (`e0`) and after
/// (`e1`) it.
fn ply_analysis(k: usize, side: Color, rm: &RecordMove, e0: &PositionEval, e1: &PositionEval) -> PlyAnalysis {
    let played_best = e0.best.as_ref().is_some_and(|b| b.mv == rm.usi);
    let l = if played_best { 0.0 } else { loss(side, e0.score.winrate(), e1.score.winrate()) };
    PlyAnalysis {
        ply: k,
        side,
        mv: rm.usi.clone(),
        line: rm.line,
        before: e0.score,
        after: e1.score,
        best: e0.best.clone(),
        lines: e0.lines.clone(),
        loss: l,
        mark: Mark::from_loss(l),
        depth: e0.depth,
        nodes: e0.nodes,
    }
}
