//! Scores from Black's point of view, the win-rate curve the shogi GUIs draw, and the
//! move marks and accuracy that come from losses of win rate.

use crate::search::{MATE_IN_MAX, VALUE_MATE};
use crate::core::types::Color;
use serde_json::{json, Value};

/// Scale of the win-rate curve: win rate = 1 / (1 + exp(-cp / 600)) (the curve of
/// ShogiGUI-style graphs; +600 cp is a 73% win rate).
pub const WINRATE_SCALE: f64 = 600.0;
/// Win-rate loss (0..1, by the side that moved) from which a move is an inaccuracy.
pub const INACCURACY: f64 = 0.10;
/// Win-rate loss from which a move is a mistake.
pub const MISTAKE: f64 = 0.20;
/// Win-rate loss from which a move is a blunder.
pub const BLUNDER: f64 = 0.30;

/// A score, Black's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (positive: Black is better).
    Cp(i32),
    /// Forced mate in `plies` (0: the side to move is already mated) won by Black or White.
    Mate {
        /// Plies to mate.
        plies: u32,
        /// Whether Black is the side that mates.
        black_wins: bool,
    },
}

impl Score {
    /// From a search value `v` for side to move `us`.
    pub fn from_side(v: i32, us: Color) -> Score {
        let black = us == Color::Black;
        if v.abs() >= MATE_IN_MAX {
            Score::Mate { plies: (VALUE_MATE - v.abs()).max(0) as u32, black_wins: (v > 0) == black }
        } else {
            Score::Cp(if black { v } else { -v })
        }
    }

    /// Black's win rate, 0..1.
    pub fn winrate(&self) -> f64 {
        match *self {
            Score::Cp(cp) => 1.0 / (1.0 + (-(cp as f64) / WINRATE_SCALE).exp()),
            Score::Mate { black_wins, .. } => {
                if black_wins {
                    1.0
                } else {
                    0.0
                }
            }
        }
    }

    /// JSON: `{"cp": N}` or `{"mate": N, "winner": "black"|"white"}`.
    pub fn to_json(&self) -> Value {
        match *self {
            Score::Cp(cp) => json!({ "cp": cp }),
            Score::Mate { plies, black_wins } => json!({ "mate": plies, "winner": if black_wins { "black" } else { "white" } }),
        }
    }

    /// Short text: `+123`, `-45`, `+M5` (Black mates in 5), `-M0` (Black is mated).
    pub fn text(&self) -> String {
        match *self {
            Score::Cp(cp) => format!("{cp:+}"),
            Score::Mate { plies, black_wins } => format!("{}M{plies}", if black_wins { '+' } else { '-' }),
        }
    }
}

/// How bad a move was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// Loss of at least `INACCURACY`.
    Inaccuracy,
    /// Loss of at least `MISTAKE`.
    Mistake,
    /// Loss of at least `BLUNDER`.
    Blunder,
}

impl Mark {
    /// The mark for a win-rate loss, if any.
    pub fn from_loss(loss: f64) -> Option<Mark> {
        if loss >= BLUNDER {
            Some(Mark::Blunder)
        } else if loss >= MISTAKE {
            Some(Mark::Mistake)
        } else if loss >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// English name (JSON, table).
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The Japanese word the GUIs use (KIF comments).
    pub fn japanese(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "疑問手",
            Mark::Mistake => "悪手",
            Mark::Blunder => "大悪手",
        }
    }
}

/// Win-rate loss of a move by `mover`, from Black's win rates before and after (never
/// negative).
pub fn loss(mover: Color, before: f64, after: f64) -> f64 {
    let (b, a) = if mover == Color::Black { (before, after) } else { (1.0 - before, 1.0 - after) };
    (b - a).max(0.0)
}

/// Accuracy of one move, 0..100, from its win-rate loss (0..1): the exponential curve
/// lichess uses, 103.1668 * exp(-4.354 * loss) - 3.1669, clamped.
pub fn move_accuracy(loss: f64) -> f64 {
    (103.1668 * (-4.354 * loss).exp() - 3.1669).clamp(0.0, 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_turn_to_black_view() {
        assert_eq!(Score::from_side(100, Color::White), Score::Cp(-100));
        assert_eq!(Score::from_side(VALUE_MATE - 3, Color::White), Score::Mate { plies: 3, black_wins: false });
        assert_eq!(Score::from_side(-VALUE_MATE, Color::Black), Score::Mate { plies: 0, black_wins: false });
        assert!((Score::Cp(0).winrate() - 0.5).abs() < 1e-12);
        assert!(Score::Cp(600).winrate() > 0.73 && Score::Cp(600).winrate() < 0.74);
        assert_eq!(Mark::from_loss(0.05), None);
        assert_eq!(Mark::from_loss(0.25), Some(Mark::Mistake));
        assert!((loss(Color::White, 0.4, 0.7) - 0.3).abs() < 1e-12);
        assert!((move_accuracy(0.0) - 100.0).abs() < 1e-3);
        assert!(move_accuracy(0.5) < 12.0);
    }
}
