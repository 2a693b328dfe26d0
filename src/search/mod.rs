//! Alpha-beta search: iterative deepening with aspiration windows and MultiPV
//! (`think`), the per-thread tree search with its pruning and reductions
//! (`worker`) with its tunable constants (`params`), move ordering (`movepick`, `history`), time decisions (`time`), the state
//! shared between threads and the protocol (`shared`), the transposition table (`tt`),
//! the quiet leaf of a position for training labels (`leaf`)
//! and what the search reports to its caller (`report`). Lazy SMP runs several workers
//! on one table. Uses `core`, `position`, `movegen`, `eval` and `mate` (probes).

pub mod correction;
pub mod history;
pub mod leaf;
pub mod movepick;
pub mod params;
pub mod report;
pub mod shared;
pub mod skill;
mod think;
pub mod time;
pub mod tt;
mod worker;

pub use history::ThreadTables;
pub use report::{PvReport, Report, Sink};
pub use shared::Shared;
pub use think::think;

use crate::core::types::Move;
pub use crate::position::rules::EnteringKingRule;
use time::{Clock, TimeOptions};

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Score of mate at the root.
pub const VALUE_MATE: i32 = 32000;
/// Larger than any score.
pub const VALUE_INF: i32 = 32001;
/// Scores at least this large are mates.
pub const MATE_IN_MAX: i32 = VALUE_MATE - 2 * MAX_PLY as i32;
/// How many occurrences of a position from before the search's root (this one
/// included) make it a draw in the search: the rules end the game at the fourth;
/// Stockfish-style engines stop at the third. Repeats inside the tree are draws at once.
pub const REPETITION_DRAW_AT: u32 = 4;

/// Score of a superior position by repetition (more in hand, same board).
pub const VALUE_SUPERIOR: i32 = 2500;

/// Engine settings that shape a search.
#[derive(Clone, Debug)]
pub struct Config {
    /// Number of search threads.
    pub threads: usize,
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Declaration rule.
    pub entering_king: EnteringKingRule,
    /// Game length (in plies, by the position's move number) after which the game is a draw; 0 = none.
    pub max_moves_to_draw: u32,
    /// Resign when the best score is at or below minus this.
    pub resign_value: i32,
    /// Default depth limit (0 = none).
    pub depth_limit: i32,
    /// Default node limit (0 = none).
    pub nodes_limit: u64,
    /// Time allocation options.
    pub time: TimeOptions,
    /// Whether to report principal variations (`info` lines) while searching.
    pub verbose: bool,
    /// Evaluate with the network (`nnue`) rather than the hand-made evaluation (`eval`).
    pub use_nnue: bool,
    /// Keep the move-ordering statistics from one search to the next (the default; a
    /// new game, `usinewgame` or `Clear_Hash`, forgets them).
    pub keep_history: bool,
    /// When `go mate` follows the composers' conventions (the search itself never does).
    pub tsume_conventions: crate::mate::Conventions,
    /// `YozumePrintLevel`: after `go mate` finds a mate, 1 looks for alternative mates
    /// (余詰, `mate::alt`) and reports them in `info string` lines, 2 the open checks
    /// too, 3 longer mates as well; 0 (the default) does not look.
    pub yozume_print_level: u8,
    /// What a draw (repetition, game length) is worth to the engine in centipawns when
    /// it plays Black and when it plays White (`DrawValueBlack`, `DrawValueWhite`); the
    /// opponent is taken to value it the opposite way, as YaneuraOu does.
    pub draw_value: [i32; 2],
    /// Least milliseconds between two iterations' reports (`PvInterval`; 0: every
    /// iteration). The last iteration's lines are always reported before the answer.
    pub pv_interval_ms: u64,
    /// Analysis reports (`ConsiderationMode`): every iteration, lines continued from
    /// the table.
    pub consideration_mode: bool,
    /// Report lines on aspiration failures in long searches (`OutputFailLHPV`).
    pub fail_lh_pv: bool,
    /// Playing strength (`SkillLevel`): `skill::MAX_LEVEL` is full strength, lower
    /// levels search shallower and pick weaker moves on purpose.
    pub skill_level: u32,
    /// `Stochastic_Ponder`: `go ponder` searches the position before the predicted
    /// move (read by the protocol layer, which starts the searches).
    pub stochastic_ponder: bool,
}

impl Config {
    /// The draw score of each side to move in a search whose root has `root` to move.
    pub fn draw_scores(&self, root: crate::core::types::Color) -> [i32; 2] {
        let v = self.draw_value[root.index()];
        let mut s = [-v; 2];
        s[root.index()] = v;
        s
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: 1,
            multipv: 1,
            entering_king: EnteringKingRule::Csa27,
            max_moves_to_draw: 0,
            resign_value: 99999,
            depth_limit: 0,
            nodes_limit: 0,
            time: TimeOptions::default(),
            verbose: true,
            use_nnue: true,
            keep_history: true,
            tsume_conventions: crate::mate::Conventions::Auto,
            yozume_print_level: 0,
            draw_value: [0, 0],
            pv_interval_ms: 300,
            consideration_mode: false,
            fail_lh_pv: true,
            skill_level: skill::MAX_LEVEL,
            stochastic_ponder: false,
        }
    }
}

/// What `go` asked for.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Depth limit.
    pub depth: Option<i32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder (no bestmove before `ponderhit` or `stop`).
    pub ponder: bool,
    /// Root moves to consider (empty = all).
    pub searchmoves: Vec<Move>,
    /// Clock fields.
    pub clock: Clock,
}

impl Limits {
    /// The node limit: `go nodes`, else the `NodesLimit` option; `None` for none.
    pub fn node_limit(&self, cfg: &Config) -> Option<u64> {
        self.nodes.or(if cfg.nodes_limit > 0 { Some(cfg.nodes_limit) } else { None })
    }

    /// The depth limit: `go depth`, else the `DepthLimit` option, else the deepest
    /// iteration the search may start; always within `1..=MAX_PLY - 28`.
    pub fn depth_limit(&self, cfg: &Config) -> i32 {
        self.depth
            .or(if cfg.depth_limit > 0 { Some(cfg.depth_limit) } else { None })
            .unwrap_or(MAX_PLY as i32 - 28)
            .clamp(1, MAX_PLY as i32 - 28)
    }
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `bestmove` text: a move, `resign` or `win`.
    pub best: String,
    /// Ponder move, if any.
    pub ponder: Option<Move>,
    /// Score of the best move (side to move).
    pub score: i32,
    /// Last completed depth.
    pub depth: i32,
    /// Nodes searched by all threads (the alpha-beta search; the root mate probe's
    /// df-pn nodes are not counted).
    pub nodes: u64,
    /// Milliseconds the df-pn mate probe at the root took before the search.
    pub root_probe_ms: u64,
}

/// Score of giving mate `ply` plies from the root.
pub fn mate_in(ply: usize) -> i32 {
    VALUE_MATE - ply as i32
}

/// Score of being mated `ply` plies from the root.
pub fn mated_in(ply: usize) -> i32 {
    -VALUE_MATE + ply as i32
}

/// A score as the transposition table keeps it: mates counted from the node, not the root.
fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_IN_MAX {
        v + ply as i32
    } else if v <= -MATE_IN_MAX {
        v - ply as i32
    } else {
        v
    }
}

/// The inverse of `to_tt`: a table score as seen from the root, `ply` plies up.
fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_IN_MAX {
        v - ply as i32
    } else if v <= -MATE_IN_MAX {
        v + ply as i32
    } else {
        v
    }
}
