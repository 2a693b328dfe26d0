//! The progress line of `gensfen`: games, positions, positions/s, results and an ETA
//! when a target was given.

use super::game::Game;
use crate::core::types::Color;
use std::time::Duration;

/// Counts since the run started, and the totals in the file.
pub struct Stats {
    games: u64,
    positions: u64,
    new_games: u64,
    new_positions: u64,
    black_wins: u64,
    white_wins: u64,
    draws: u64,
    plies: u64,
    target_games: u64,
    target_positions: u64,
}

impl Stats {
    /// Stats of a run starting at `games`/`positions` in the file, with its targets (0: none).
    pub fn new(games: u64, positions: u64, target_games: u64, target_positions: u64) -> Stats {
        Stats { games, positions, new_games: 0, new_positions: 0, black_wins: 0, white_wins: 0, draws: 0, plies: 0, target_games, target_positions }
    }

    /// Counts a written game.
    pub fn add(&mut self, g: &Game) {
        let n = g.records.len() as u64;
        self.games += 1;
        self.positions += n;
        self.new_games += 1;
        self.new_positions += n;
        self.plies += g.plies as u64;
        match g.winner {
            Some(Color::Black) => self.black_wins += 1,
            Some(Color::White) => self.white_wins += 1,
            None => self.draws += 1,
        }
    }

    /// Seconds still needed at the current rate, if a target is set and rates known.
    fn eta(&self, secs: f64) -> Option<f64> {
        if self.new_games == 0 || secs <= 0.0 {
            return None;
        }
        let by_games = (self.target_games > 0).then(|| self.target_games.saturating_sub(self.games) as f64 * secs / self.new_games as f64);
        let by_positions = (self.target_positions > 0 && self.new_positions > 0)
            .then(|| self.target_positions.saturating_sub(self.positions) as f64 * secs / self.new_positions as f64);
        match (by_games, by_positions) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The line for `elapsed` time since the start.
    pub fn line(&self, elapsed: Duration) -> String {
        let secs = elapsed.as_secs_f64();
        let eta = self.eta(secs).map_or("-".to_string(), |s| clock(s as u64));
        format!(
            "gensfen: {} positions ({:.1}/s), {} games (this run: {} Black wins, {} White wins, {} draws, {:.0} plies a game), elapsed {}, ETA {}",
            self.positions,
            self.new_positions as f64 / secs.max(1e-3),
            self.games,
            self.black_wins,
            self.white_wins,
            self.draws,
            self.plies as f64 / self.new_games.max(1) as f64,
            clock(secs as u64),
            eta
        )
    }
}

/// `h:mm:ss`.
pub(super) fn clock(s: u64) -> String {
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_counts_and_eta() {
        let mut s = Stats::new(10, 1000, 20, 0);
        let g = Game { records: Vec::new(), winner: Some(Color::White), plies: 80 };
        s.add(&g);
        s.add(&g);
        let l = s.line(Duration::from_secs(60));
        assert!(l.contains("12 games (this run: 0 Black wins, 2 White wins, 0 draws, 80 plies a game)"), "{l}");
        // 8 games to go at 30 s a game.
        assert!(l.ends_with("ETA 0:04:00"), "{l}");
        assert_eq!(clock(3725), "1:02:05");
    }
}
