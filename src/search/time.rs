//! Time management: turns the clock fields of `go` into a soft target (`optimum`, when
//! to stop starting new iterations) and a hard limit (`maximum`, when to abort).

use crate::core::types::Color;

/// Clock fields of `go` (milliseconds).
#[derive(Clone, Debug, Default)]
pub struct Clock {
    /// Remaining main time per colour (`btime`, `wtime`); `None` when not given.
    pub time: [Option<u64>; 2],
    /// Increment per colour.
    pub inc: [u64; 2],
    /// Byoyomi.
    pub byoyomi: u64,
    /// Fixed time for this move.
    pub movetime: Option<u64>,
}

/// Options that shape the allocation.
#[derive(Clone, Debug)]
pub struct TimeOptions {
    /// Milliseconds kept in reserve for lag on every move.
    pub network_delay: u64,
    /// Reserve used once the main time is gone (pure byoyomi).
    pub network_delay2: u64,
    /// Least time to spend on a move.
    pub minimum_thinking_time: u64,
    /// Percentage scaling of the per-move share (100 = normal).
    pub slow_mover: u64,
}

impl Default for TimeOptions {
    fn default() -> Self {
        TimeOptions { network_delay: 120, network_delay2: 120, minimum_thinking_time: 20, slow_mover: 100 }
    }
}

/// The budget for one move, in milliseconds from the start of the search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Soft target: do not start a new iteration after this (scaled by stability).
    pub optimum: u64,
    /// Hard limit: abort the search here.
    pub maximum: u64,
    /// Whether the soft target may end the search early (false when time is free,
    /// e.g. pure byoyomi).
    pub soft: bool,
}

/// Computes the budget for `us`, or `None` when the search is not time-limited.
pub fn allocate(clock: &Clock, us: Color, game_ply: u32, opt: &TimeOptions) -> Option<Budget> {
    if let Some(mt) = clock.movetime {
        let t = if mt > 2 * opt.network_delay { mt - opt.network_delay } else { (mt * 7 / 10).max(1) };
        return Some(Budget { optimum: t, maximum: t, soft: false });
    }
    let time = clock.time[us.index()];
    let byo = clock.byoyomi;
    let inc = clock.inc[us.index()];
    if time.is_none() && byo == 0 && inc == 0 {
        return None;
    }
    let time = time.unwrap_or(0);
    let delay = opt.network_delay;
    let mtg = (80u64.saturating_sub(game_ply as u64 / 3)).clamp(25, 60);
    let mut b = if byo > 0 {
        let delay2 = if time == 0 { opt.network_delay2 } else { delay };
        // Byoyomi is free: always use nearly all of it.
        let avail_byo = if byo > delay2 + 50 { byo - delay2 } else { byo / 2 };
        if time == 0 {
            Budget { optimum: avail_byo, maximum: avail_byo, soft: false }
        } else {
            let share = time * opt.slow_mover / 100 / mtg;
            let hard = (time + byo).saturating_sub(delay).max(avail_byo);
            let optimum = (share + avail_byo).min(hard);
            let maximum = (share * 4 + avail_byo).min(time / 3 + avail_byo).min(hard).max(optimum);
            Budget { optimum, maximum, soft: true }
        }
    } else {
        // Increment or sudden death: only the main time counts.
        let avail = time.saturating_sub(delay).max(time / 4);
        let share = avail * opt.slow_mover / 100 / mtg + inc * 3 / 4;
        let optimum = share.min(avail / 2).max(1);
        let maximum = (optimum * 4).min(avail / 3 + inc / 2).min(avail * 4 / 5).max(optimum);
        Budget { optimum, maximum, soft: true }
    };
    let hard = if byo > 0 { (time + byo).saturating_sub(delay).max(byo / 2) } else { time.saturating_sub(delay).max(time / 4) };
    let min = opt.minimum_thinking_time.min(hard);
    b.optimum = b.optimum.max(min);
    b.maximum = b.maximum.max(min);
    Some(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(b: u64, w: u64, byo: u64, inc: u64) -> Clock {
        Clock { time: [Some(b), Some(w)], inc: [inc, inc], byoyomi: byo, movetime: None }
    }

    #[test]
    fn budgets_stay_within_the_clock() {
        let o = TimeOptions::default();
        for (c, us) in [
            (clock(0, 0, 1000, 0), Color::Black),
            (clock(2000, 2000, 1000, 0), Color::White),
            (clock(300, 300, 0, 100), Color::Black),
            (clock(500, 600000, 0, 0), Color::Black),
            (clock(600000, 500, 0, 0), Color::White),
            (clock(0, 0, 100, 0), Color::Black),
            (clock(10000, 10000, 0, 1000), Color::Black),
        ] {
            let b = allocate(&c, us, 30, &o).unwrap();
            let t = c.time[us.index()].unwrap();
            assert!(b.optimum <= b.maximum, "{c:?} {b:?}");
            assert!(b.maximum <= t + c.byoyomi, "{c:?} {b:?}");
            if c.byoyomi >= 1000 && t == 0 {
                assert!(b.maximum >= 800 && b.maximum < 1000, "{b:?}");
            }
        }
        assert_eq!(allocate(&Clock::default(), Color::Black, 1, &o), None);
    }
}
