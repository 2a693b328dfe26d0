//! The one parser of the numbers and clock fields that `go` and `ponderhit` carry
//! (`btime`, `wtime`, `binc`, `winc`, `byoyomi`, `movetime`). Uses `search::time`.

use crate::search::time::Clock;

/// Parses a numeric field, clamping negative and huge values.
pub fn parse_number(s: Option<&&str>) -> Result<u64, String> {
    let Some(s) = s else { return Err("missing number".into()) };
    match s.parse::<i128>() {
        Ok(v) => Ok(v.clamp(0, 1_000_000_000_000) as u64),
        Err(_) => Err(format!("'{s}' is not a number")),
    }
}

/// Whether `name` is a clock field.
pub fn is_clock_field(name: &str) -> bool {
    matches!(name, "btime" | "wtime" | "binc" | "winc" | "byoyomi" | "movetime")
}

/// Sets clock field `name` (see `is_clock_field`) to `v` milliseconds.
pub fn set_clock_field(clock: &mut Clock, name: &str, v: u64) {
    match name {
        "btime" => clock.time[0] = Some(v),
        "wtime" => clock.time[1] = Some(v),
        "binc" => clock.inc[0] = v,
        "winc" => clock.inc[1] = v,
        "byoyomi" => clock.byoyomi = v,
        "movetime" => clock.movetime = Some(v.max(1)),
        _ => {}
    }
}

/// Applies the clock fields among `args` (`name value` pairs; other words and bad
/// numbers are skipped) to `clock`: the arguments of `ponderhit`.
pub fn apply_clock_fields(clock: &mut Clock, args: &[&str]) {
    let mut i = 0;
    while i < args.len() {
        match parse_number(args.get(i + 1)) {
            Ok(v) if is_clock_field(args[i]) => {
                set_clock_field(clock, args[i], v);
                i += 2;
            }
            _ => i += 1,
        }
    }
}
