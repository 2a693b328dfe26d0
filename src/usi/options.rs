//! The engine options a GUI can set: their table (names, kinds, ranges, defaults), the
//! `option` lines of the `usi` answer, and `setoption`, which checks a value and
//! applies it to the `Engine` (or, for the book options, to the `BookSession`). Uses
//! `engine`, `search`, `eval::nnue` and `book`.

use crate::book::BookSession;
use crate::engine::Engine;
use crate::mate::Conventions;
use crate::search::EnteringKingRule;
use std::fmt::Write;

/// Kind and range of an engine option.
enum OptKind {
    Spin(i64, i64),
    Check,
    Combo(&'static [&'static str]),
    String,
    /// A file path (Shogidokoro's `filename` type: GUIs offer a file picker).
    Filename,
    Button,
}

struct OptDef {
    name: &'static str,
    kind: OptKind,
    default: &'static str,
}

const ENTERING_KING_VARS: &[&str] = &["NoEnteringKing", "CSARule24", "CSARule24H", "CSARule27", "CSARule27H", "TryRule"];
const TSUME_CONVENTIONS_VARS: &[&str] = &["Auto", "On", "Off"];

/// Prefix of the search constants' options in a tuning build (`--features tune`).
#[cfg(feature = "tune")]
const TUNE_PREFIX: &str = "Tune_";

/// `EvalFile` value that selects the network built into the binary.
const EMBEDDED_NET: &str = "<embedded>";

const OPTIONS: &[OptDef] = &[
    OptDef { name: "USI_Hash", kind: OptKind::Spin(1, 16384), default: "64" },
    OptDef { name: "USI_Ponder", kind: OptKind::Check, default: "false" },
    OptDef { name: "Stochastic_Ponder", kind: OptKind::Check, default: "false" },
    OptDef { name: "Threads", kind: OptKind::Spin(1, 64), default: "1" },
    OptDef { name: "MultiPV", kind: OptKind::Spin(1, 64), default: "1" },
    OptDef { name: "NetworkDelay", kind: OptKind::Spin(0, 10000), default: "120" },
    OptDef { name: "NetworkDelay2", kind: OptKind::Spin(0, 10000), default: "120" },
    OptDef { name: "MinimumThinkingTime", kind: OptKind::Spin(0, 60000), default: "20" },
    OptDef { name: "SlowMover", kind: OptKind::Spin(1, 1000), default: "100" },
    OptDef { name: "RoundUpToFullSecond", kind: OptKind::Check, default: "true" },
    OptDef { name: "EnteringKingRule", kind: OptKind::Combo(ENTERING_KING_VARS), default: "CSARule27" },
    OptDef { name: "ResignValue", kind: OptKind::Spin(0, 99999), default: "99999" },
    OptDef { name: "MaxMovesToDraw", kind: OptKind::Spin(0, 100000), default: "0" },
    OptDef { name: "DrawValueBlack", kind: OptKind::Spin(-30000, 30000), default: "0" },
    OptDef { name: "DrawValueWhite", kind: OptKind::Spin(-30000, 30000), default: "0" },
    OptDef { name: "DepthLimit", kind: OptKind::Spin(0, 100), default: "0" },
    OptDef { name: "NodesLimit", kind: OptKind::Spin(0, 1_000_000_000_000), default: "0" },
    OptDef { name: "UseNNUE", kind: OptKind::Check, default: "true" },
    OptDef { name: "EvalFile", kind: OptKind::Filename, default: EMBEDDED_NET },
    OptDef { name: "EvalDir", kind: OptKind::String, default: EMBEDDED_NET },
    OptDef { name: "FV_SCALE", kind: OptKind::Spin(1, 128), default: "16" },
    OptDef { name: "SkillLevel", kind: OptKind::Spin(0, 20), default: "20" },
    OptDef { name: "PvInterval", kind: OptKind::Spin(0, 100_000_000), default: "300" },
    OptDef { name: "ConsiderationMode", kind: OptKind::Check, default: "false" },
    OptDef { name: "OutputFailLHPV", kind: OptKind::Check, default: "true" },
    OptDef { name: "TsumeConventions", kind: OptKind::Combo(TSUME_CONVENTIONS_VARS), default: "Auto" },
    OptDef { name: "YozumePrintLevel", kind: OptKind::Spin(0, 3), default: "0" },
    OptDef { name: "Clear_Hash", kind: OptKind::Button, default: "" },
];

/// The `id`, `option` and `usiok` lines answering `usi`.
pub fn usi_answer() -> String {
    let mut s = format!("id name {} {}\nid author {}\n", crate::ENGINE_NAME, crate::ENGINE_VERSION, crate::ENGINE_AUTHOR);
    for o in OPTIONS {
        let _ = match &o.kind {
            OptKind::Spin(lo, hi) => writeln!(s, "option name {} type spin default {} min {lo} max {hi}", o.name, o.default),
            OptKind::Check => writeln!(s, "option name {} type check default {}", o.name, o.default),
            OptKind::String => writeln!(s, "option name {} type string default {}", o.name, o.default),
            OptKind::Filename => writeln!(s, "option name {} type filename default {}", o.name, o.default),
            OptKind::Button => writeln!(s, "option name {} type button", o.name),
            OptKind::Combo(vars) => {
                let _ = write!(s, "option name {} type combo default {}", o.name, o.default);
                for v in *vars {
                    let _ = write!(s, " var {v}");
                }
                writeln!(s)
            }
        };
    }
    s.push_str(&BookSession::usi_options());
    #[cfg(feature = "tune")]
    for p in crate::search::params::PARAMS {
        let _ = writeln!(s, "option name {TUNE_PREFIX}{} type spin default {} min {} max {}", p.name, p.default, p.min, p.max);
    }
    s.push_str("usiok");
    s
}

/// Applies a spin option already checked against its range.
fn set_spin(engine: &mut Engine, name: &str, v: i64) {
    let cfg = &mut engine.config;
    match name {
        "USI_Hash" => engine.set_hash_mb(v as usize),
        "Threads" => cfg.threads = v as usize,
        "MultiPV" => cfg.multipv = v as usize,
        "NetworkDelay" => cfg.time.network_delay = v as u64,
        "NetworkDelay2" => cfg.time.network_delay2 = v as u64,
        "MinimumThinkingTime" => cfg.time.minimum_thinking_time = v as u64,
        "SlowMover" => cfg.time.slow_mover = v as u64,
        "ResignValue" => cfg.resign_value = v as i32,
        "MaxMovesToDraw" => cfg.max_moves_to_draw = v as u32,
        "DrawValueBlack" => cfg.draw_value[0] = v as i32,
        "DrawValueWhite" => cfg.draw_value[1] = v as i32,
        "DepthLimit" => cfg.depth_limit = v as i32,
        "NodesLimit" => cfg.nodes_limit = v as u64,
        "FV_SCALE" => crate::eval::nnue::yaneuraou::set_fv_scale(v as i32),
        "PvInterval" => cfg.pv_interval_ms = v as u64,
        "SkillLevel" => cfg.skill_level = v as u32,
        "YozumePrintLevel" => cfg.yozume_print_level = v as u8,
        _ => {}
    }
}

/// Applies `EvalFile` or `EvalDir` (`name`): loads the network the options now choose
/// if it is not the one in use. A file that cannot be loaded leaves both the option
/// and the network as they were.
fn set_network(engine: &mut Engine, name: &str, value: &str) -> Result<String, String> {
    let value = if value.is_empty() || value == EMBEDDED_NET { "" } else { value };
    let mut next = engine.network.clone();
    if name == "EvalDir" {
        next.dir = value.to_string();
    } else {
        next.file = value.to_string();
    }
    let path = next.chosen();
    if path != engine.network.loaded {
        crate::eval::nnue::load(&path).map_err(|e| format!("{e}; the previous network stays"))?;
        next.loaded = path.clone();
    }
    engine.network = next;
    let shown = if path.is_empty() { EMBEDDED_NET } else { &path };
    Ok(format!("info string {name}: {shown} ({})", crate::eval::nnue::network().describe()))
}

/// A spin option's value: an integer within `lo..=hi`, or why not.
fn parse_spin(value: &str, lo: i64, hi: i64) -> Result<i64, String> {
    let v = value.parse::<i128>().map_err(|_| format!("'{value}' is not an integer"))?;
    if v < lo as i128 || v > hi as i128 {
        return Err(format!("{v} is out of range {lo}..{hi}"));
    }
    Ok(v as i64)
}

/// Checks `value` against option `def` and applies it; `Ok` carries a line to print
/// (if any), `Err` why the value is refused. `searching`: a search is running (the
/// table and the move-ordering statistics are in use).
fn apply(engine: &mut Engine, def: &OptDef, value: &str, searching: bool) -> Result<Option<String>, String> {
    match &def.kind {
        OptKind::Button if searching => return Err("refused while a search runs; send it after bestmove".into()),
        OptKind::Button => engine.new_game(),
        OptKind::Spin(lo, hi) => set_spin(engine, def.name, parse_spin(value, *lo, *hi)?),
        OptKind::Check => {
            let on = if value.eq_ignore_ascii_case("true") {
                true
            } else if value.eq_ignore_ascii_case("false") {
                false
            } else {
                return Err(format!("'{value}' is not true or false"));
            };
            let cfg = &mut engine.config;
            match def.name {
                "UseNNUE" => cfg.use_nnue = on,
                "ConsiderationMode" => cfg.consideration_mode = on,
                "OutputFailLHPV" => cfg.fail_lh_pv = on,
                "RoundUpToFullSecond" => cfg.time.round_up_to_full_second = on,
                "Stochastic_Ponder" => cfg.stochastic_ponder = on,
                _ => {}
            }
        }
        OptKind::String | OptKind::Filename => return set_network(engine, def.name, value).map(Some),
        OptKind::Combo(vars) => {
            let Some(v) = vars.iter().find(|v| v.eq_ignore_ascii_case(value)) else {
                return Err(format!("'{value}' is not one of {}", vars.join(", ")));
            };
            let cfg = &mut engine.config;
            match (def.name, *v) {
                ("TsumeConventions", "On") => cfg.tsume_conventions = Conventions::On,
                ("TsumeConventions", "Off") => cfg.tsume_conventions = Conventions::Off,
                ("TsumeConventions", _) => cfg.tsume_conventions = Conventions::Auto,
                (_, "NoEnteringKing") => cfg.entering_king = EnteringKingRule::None,
                (_, "CSARule24") => cfg.entering_king = EnteringKingRule::Csa24,
                (_, "CSARule24H") => cfg.entering_king = EnteringKingRule::Csa24H,
                (_, "CSARule27H") => cfg.entering_king = EnteringKingRule::Csa27H,
                (_, "TryRule") => cfg.entering_king = EnteringKingRule::Try,
                _ => cfg.entering_king = EnteringKingRule::Csa27,
            }
        }
    }
    Ok(None)
}

/// Handles `setoption name <id> [value <x>]` (`args` follow `setoption`; `searching`
/// says whether a search runs); returns the line to print, if any (an error or a
/// confirmation).
pub fn setoption(engine: &mut Engine, book: &mut BookSession, args: &[&str], searching: bool) -> Option<String> {
    let Some(ni) = args.iter().position(|t| t.eq_ignore_ascii_case("name")) else {
        return Some("info string error: setoption needs 'name <id> [value <x>]'".into());
    };
    let vi = args.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let name_end = vi.unwrap_or(args.len());
    if name_end <= ni + 1 {
        return Some("info string error: setoption needs an option name".into());
    }
    let name = args[ni + 1..name_end].join(" ");
    let value = vi.map(|v| args[v + 1..].join(" ")).unwrap_or_default();
    if let Some(r) = book.set_option(&name, &value) {
        return r.err().map(|e| format!("info string error: {e}"));
    }
    #[cfg(feature = "tune")]
    if let Some(r) = set_tuned(&name, &value) {
        return r.err().map(|e| format!("info string error: {e}"));
    }
    let name_l = name.to_ascii_lowercase();
    let lookup = match name_l.as_str() {
        "hash" => "usi_hash".to_string(),
        "clear hash" => "clear_hash".to_string(),
        _ => name_l,
    };
    let Some(def) = OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(&lookup)) else {
        return Some(format!("info string error: unknown option '{}'", name.chars().take(64).collect::<String>()));
    };
    match apply(engine, def, &value, searching) {
        Ok(line) => line,
        Err(why) => Some(format!("info string error: option {}: {why}", def.name)),
    }
}

/// A search constant's option in a tuning build: `None` when `name` is not one, else
/// whether `value` was taken.
#[cfg(feature = "tune")]
fn set_tuned(name: &str, value: &str) -> Option<Result<(), String>> {
    let prefix = name.get(..TUNE_PREFIX.len()).filter(|p| p.eq_ignore_ascii_case(TUNE_PREFIX))?;
    let key = &name[prefix.len()..];
    let p = crate::search::params::PARAMS.iter().find(|p| p.name.eq_ignore_ascii_case(key))?;
    let checked = parse_spin(value, p.min as i64, p.max as i64).map_err(|why| format!("option {name}: {why}"));
    Some(checked.map(|v| {
        crate::search::params::set(p.name, v as i32);
    }))
}
