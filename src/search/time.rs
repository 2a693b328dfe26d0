//! Time management: turns the clock fields of `go` into a soft target (`optimum`, when
//! to stop starting new iterations) and a hard limit (`maximum`, when to abort), and
//! the `TimeManager` that owns the start time, both limits and every timing decision
//! of a search. Uses `core` only.

use crate::core::types::Color;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

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

impl Clock {
    /// Whether no clock field was given at all (`go` alone, `go depth 5`, ...).
    pub fn is_empty(&self) -> bool {
        self.time == [None, None] && self.inc == [0, 0] && self.byoyomi == 0 && self.movetime.is_none()
    }
}

/// Think time when the clock fields bound nothing for the side to move (`go btime
/// 1000` with White to move, `ponderhit` with no clock after `go ponder` with none):
/// answer as under `movetime 1000` rather than search without end.
pub const UNBOUNDED_CLOCK_MS: u64 = 1000;

/// The clock a search runs on after `ponderhit`: `clock` (the fields of `go`, updated
/// by those `ponderhit` gave), or `UNBOUNDED_CLOCK_MS` when it has none at all and the
/// search is not `infinite`.
pub fn clock_after_ponderhit(mut clock: Clock, infinite: bool) -> Clock {
    if clock.is_empty() && !infinite {
        clock.movetime = Some(UNBOUNDED_CLOCK_MS);
    }
    clock
}

/// `TimeManager`'s share of the budget when it uses all of it.
const FULL_SHARE_PPM: u64 = 1_000_000;

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
    /// Servers count whole seconds: a search that would stop early goes on to the next
    /// whole second less `network_delay` (`RoundUpToFullSecond`).
    pub round_up_to_full_second: bool,
}

impl Default for TimeOptions {
    fn default() -> Self {
        TimeOptions { network_delay: 120, network_delay2: 120, minimum_thinking_time: 20, slow_mover: 100, round_up_to_full_second: true }
    }
}

/// Where a search that may stop at `elapsed` ms ends under `RoundUpToFullSecond`: at
/// the next whole second less `delay` (a second later if that is already past), never
/// beyond `maximum`.
pub fn full_second_end(elapsed: u64, delay: u64, maximum: u64) -> u64 {
    let mut end = elapsed.div_ceil(1000).max(1) * 1000;
    end = end.saturating_sub(delay);
    if end < elapsed {
        end += 1000;
    }
    end.min(maximum)
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

/// A fixed budget of `ms` for the move, less the network delay.
fn fixed(ms: u64, opt: &TimeOptions) -> Budget {
    let t = if ms > 2 * opt.network_delay { ms - opt.network_delay } else { (ms * 7 / 10).max(1) };
    Budget { optimum: t, maximum: t, soft: false }
}

/// Computes the budget for `us`, or `None` when the search is not time-limited (no
/// clock field at all). Clock fields that say nothing about `us` give
/// `UNBOUNDED_CLOCK_MS`.
pub fn allocate(clock: &Clock, us: Color, game_ply: u32, opt: &TimeOptions) -> Option<Budget> {
    if let Some(mt) = clock.movetime {
        return Some(fixed(mt, opt));
    }
    let time = clock.time[us.index()];
    let byo = clock.byoyomi;
    let inc = clock.inc[us.index()];
    if time.is_none() && byo == 0 && inc == 0 {
        return (!clock.is_empty()).then(|| fixed(UNBOUNDED_CLOCK_MS, opt));
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

/// The clock of one search: when it started, its budget, and the decisions taken
/// from them (abort now, start another iteration, how long a mate probe may run).
/// Atomic so that the protocol thread can restart it at `ponderhit`.
pub struct TimeManager {
    base: Instant,
    start_ms: AtomicU64,
    timed: AtomicBool,
    soft: AtomicBool,
    optimum_ms: AtomicU64,
    maximum_ms: AtomicU64,
    /// `RoundUpToFullSecond` for this search, and the delay it leaves.
    round_up: AtomicBool,
    network_delay: AtomicU64,
    /// Share of every budget this search uses, in millionths (`SkillLevel`).
    share_ppm: AtomicU64,
}

impl Default for TimeManager {
    fn default() -> Self {
        Self::new()
    }
}

impl TimeManager {
    /// A clock started now, with no budget.
    pub fn new() -> TimeManager {
        TimeManager {
            base: Instant::now(),
            start_ms: AtomicU64::new(0),
            timed: AtomicBool::new(false),
            soft: AtomicBool::new(false),
            optimum_ms: AtomicU64::new(0),
            maximum_ms: AtomicU64::new(0),
            round_up: AtomicBool::new(false),
            network_delay: AtomicU64::new(0),
            share_ppm: AtomicU64::new(FULL_SHARE_PPM),
        }
    }

    /// Milliseconds since the clock (re)started.
    pub fn elapsed(&self) -> u64 {
        (self.base.elapsed().as_millis() as u64).saturating_sub(self.start_ms.load(Ordering::Relaxed))
    }

    /// Restarts the clock now with a new budget (`None`: not time-limited).
    pub fn start(&self, b: Option<Budget>) {
        self.start_ms.store(self.base.elapsed().as_millis() as u64, Ordering::Relaxed);
        match b {
            Some(b) => {
                let share = |ms: u64| (ms as u128 * self.share_ppm.load(Ordering::Relaxed) as u128 / FULL_SHARE_PPM as u128).max(1) as u64;
                self.optimum_ms.store(share(b.optimum), Ordering::Relaxed);
                self.maximum_ms.store(share(b.maximum), Ordering::Relaxed);
                self.soft.store(b.soft, Ordering::Relaxed);
                self.timed.store(true, Ordering::Relaxed);
            }
            None => self.timed.store(false, Ordering::Relaxed),
        }
    }

    /// Uses only `share` (0 to 1) of the budget, now and at a later restart
    /// (`ponderhit`): a weaker `SkillLevel`. A search under the rounding to full
    /// seconds is not rounded up (it would give the time back).
    pub fn use_share(&self, share: f64) {
        let ppm = (share.clamp(0.0, 1.0) * FULL_SHARE_PPM as f64) as u64;
        let old = self.share_ppm.swap(ppm.max(1), Ordering::Relaxed);
        for limit in [&self.optimum_ms, &self.maximum_ms] {
            let ms = limit.load(Ordering::Relaxed) as u128 * ppm as u128 / old.max(1) as u128;
            limit.store((ms as u64).max(1), Ordering::Relaxed);
        }
        if ppm < FULL_SHARE_PPM {
            self.round_up.store(false, Ordering::Relaxed);
        }
    }

    /// Restarts the clock with the budget `clock` gives `us` (none when `infinite`);
    /// used at `go` and `ponderhit`.
    pub fn start_for(&self, clock: &Clock, infinite: bool, us: Color, game_ply: u32, opt: &TimeOptions) {
        let b = if infinite { None } else { allocate(clock, us, game_ply, opt) };
        let partial = self.share_ppm.load(Ordering::Relaxed) < FULL_SHARE_PPM;
        self.round_up.store(opt.round_up_to_full_second && !partial, Ordering::Relaxed);
        self.network_delay.store(opt.network_delay, Ordering::Relaxed);
        self.start(b);
    }

    /// Whether the search has a time budget.
    pub fn is_timed(&self) -> bool {
        self.timed.load(Ordering::Relaxed)
    }

    /// Whether the hard limit has passed (abort the search).
    pub fn past_maximum(&self) -> bool {
        self.is_timed() && self.elapsed() >= self.maximum_ms.load(Ordering::Relaxed)
    }

    /// Whether to stop after a completed iteration: the best move has been the same
    /// for `stable` iterations, `score_dropped` says the score fell, `single_move`
    /// that there is only one legal answer.
    pub fn stop_after_iteration(&self, stable: u32, score_dropped: bool, single_move: bool) -> bool {
        if !(self.is_timed() && self.soft.load(Ordering::Relaxed)) {
            return false;
        }
        let opt = self.optimum_ms.load(Ordering::Relaxed) as f64;
        let mut factor = if stable >= 4 {
            0.6
        } else if stable == 0 {
            1.3
        } else {
            1.0
        };
        if score_dropped {
            factor *= 1.4;
        }
        if single_move {
            factor = 0.05;
        }
        let elapsed = self.elapsed();
        if (elapsed as f64) < opt * factor * 0.7 {
            return false;
        }
        !self.round_up.load(Ordering::Relaxed) || !self.extend_to_full_second(elapsed)
    }

    /// Under `RoundUpToFullSecond`, moves the hard limit of a search that may stop now
    /// to the end of the second it is in (`full_second_end`), so that the search goes
    /// on until then; false when that end is too near to be worth another iteration.
    /// The moved limit is final: the search no longer stops early.
    fn extend_to_full_second(&self, elapsed: u64) -> bool {
        let end = full_second_end(elapsed, self.network_delay.load(Ordering::Relaxed), self.maximum_ms.load(Ordering::Relaxed));
        if end < elapsed + 20 {
            return false;
        }
        self.maximum_ms.store(end, Ordering::Relaxed);
        self.soft.store(false, Ordering::Relaxed);
        true
    }

    /// Node budget and time cap of the df-pn probe at the root. A node-limited search
    /// (`node_limit`) gives the probe a fifth of its nodes, not a fixed budget that
    /// could be ten times the search itself.
    pub fn mate_probe_limits(&self, node_limit: Option<u64>) -> (u64, Option<Duration>) {
        if self.is_timed() {
            let opt = self.optimum_ms.load(Ordering::Relaxed);
            ((opt * 25).clamp(5_000, 500_000), Some(Duration::from_millis((opt / 10).max(1))))
        } else {
            (node_limit.map_or(50_000, |n| (n / 5).clamp(200, 50_000)), None)
        }
    }
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

    #[test]
    fn full_seconds_less_the_delay() {
        assert_eq!(full_second_end(1300, 120, 10_000), 1880);
        assert_eq!(full_second_end(1950, 120, 10_000), 2880, "1880 is past: the next second");
        assert_eq!(full_second_end(0, 120, 10_000), 880);
        assert_eq!(full_second_end(3400, 120, 3500), 3500, "never beyond the maximum");
    }

    #[test]
    fn a_search_that_may_stop_goes_on_to_the_full_second() {
        let opt = TimeOptions { minimum_thinking_time: 0, ..TimeOptions::default() };
        let tm = TimeManager::new();
        tm.start_for(&clock(60_000, 60_000, 10_000, 0), false, Color::Black, 30, &opt);
        assert!(tm.extend_to_full_second(1300));
        assert_eq!(tm.maximum_ms.load(Ordering::Relaxed), 1880);
        // With 3 s left the budget's hard limit (192 ms) caps it: a single legal reply
        // may stop after 2 ms, and goes on to 192 ms instead.
        let short = clock(3000, 3000, 0, 0);
        tm.start_for(&short, false, Color::Black, 30, &opt);
        std::thread::sleep(Duration::from_millis(5));
        assert!(!tm.stop_after_iteration(0, false, true));
        assert_eq!(tm.maximum_ms.load(Ordering::Relaxed), 192);
        assert!(!tm.stop_after_iteration(0, false, true), "the extended search is not cut short");
        let off = TimeOptions { round_up_to_full_second: false, ..opt };
        tm.start_for(&short, false, Color::Black, 30, &off);
        std::thread::sleep(Duration::from_millis(5));
        assert!(tm.stop_after_iteration(0, false, true));
    }

    #[test]
    fn a_share_of_the_budget_holds_after_a_restart() {
        let tm = TimeManager::new();
        let opt = TimeOptions::default();
        let byoyomi = clock(0, 0, 1000, 0);
        tm.start_for(&byoyomi, false, Color::Black, 30, &opt);
        assert_eq!(tm.maximum_ms.load(Ordering::Relaxed), 880);
        tm.use_share(0.25);
        assert_eq!(tm.maximum_ms.load(Ordering::Relaxed), 220);
        tm.start_for(&byoyomi, false, Color::Black, 31, &opt);
        assert_eq!(tm.maximum_ms.load(Ordering::Relaxed), 220, "ponderhit restarts with the same share");
        assert!(!tm.round_up.load(Ordering::Relaxed), "no rounding up to the full second");
    }

    #[test]
    fn a_clock_for_the_other_side_only_gives_the_fallback() {
        let o = TimeOptions::default();
        let fallback = Some(fixed(UNBOUNDED_CLOCK_MS, &o));
        let black_only = Clock { time: [Some(1000), None], ..Clock::default() };
        assert_eq!(allocate(&black_only, Color::White, 2, &o), fallback);
        assert_ne!(allocate(&black_only, Color::Black, 2, &o), fallback);
        let white_inc = Clock { inc: [0, 100], ..Clock::default() };
        assert_eq!(allocate(&white_inc, Color::Black, 1, &o), fallback);
        assert!(allocate(&white_inc, Color::White, 1, &o).is_some());
    }
}
