//! The USI protocol loop. The main thread reads stdin and answers at once (so `stop`,
//! `isready`, `ponderhit`, `quit` and EOF work mid-search); each `go` runs on its own
//! search thread that shares an atomic stop flag with this one.

use crate::movegen;
use crate::position::Position;
use crate::search::{start_clock, think, Config, EnteringKingRule, Limits, Shared, Sink};
use crate::search::tt::TranspositionTable;
use crate::core::types::Move;
use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// Parses the arguments of a `position` command into a new position, or explains
/// why they are refused. The caller keeps its old position on error.
pub fn parse_position(args: &[&str]) -> Result<Position, String> {
    let mut it = args.iter().copied().peekable();
    let mut pos = match it.next() {
        Some("startpos") => Position::startpos(),
        Some("sfen") => {
            let mut fields = Vec::new();
            while let Some(&t) = it.peek() {
                if t == "moves" {
                    break;
                }
                fields.push(t);
                it.next();
            }
            Position::from_sfen(&fields.join(" ")).map_err(|e| format!("bad sfen: {e}"))?
        }
        Some(other) => return Err(format!("position: expected 'startpos' or 'sfen', got '{other}'")),
        None => return Err("position: missing 'startpos' or 'sfen'".to_string()),
    };
    match it.next() {
        None => return Ok(pos),
        Some("moves") => {}
        Some(other) => return Err(format!("position: expected 'moves', got '{other}'")),
    }
    for (i, text) in it.enumerate() {
        match pos.parse_usi_move(text) {
            Some(m) => pos.do_move(m),
            None => return Err(format!("illegal or malformed move '{text}' (move {} of the list)", i + 1)),
        }
    }
    Ok(pos)
}

/// Runs `go perft N`-style divide output into `out`.
pub fn write_divide(out: &mut impl Write, pos: &Position, depth: u32, threads: usize) -> std::io::Result<u64> {
    let start = Instant::now();
    let div = movegen::perft_divide(pos, depth, threads);
    let mut total = 0;
    for (m, n) in &div {
        writeln!(out, "{m}: {n}")?;
        total += n;
    }
    let secs = start.elapsed().as_secs_f64();
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")?;
    writeln!(out, "info string perft time {:.3} s, {:.0} nodes/s", secs, total as f64 / secs.max(1e-9))?;
    out.flush()?;
    Ok(total)
}

/// Writes one line to stdout and flushes it (shared by the protocol and search threads).
pub fn emit(line: &str) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Kind and range of an engine option.
enum OptKind {
    Spin(i64, i64),
    Check,
    Combo(&'static [&'static str]),
    String,
}

struct OptDef {
    name: &'static str,
    kind: OptKind,
    default: &'static str,
}

const ENTERING_KING_VARS: &[&str] = &["NoEnteringKing", "CSARule24", "CSARule27"];

const OPTIONS: &[OptDef] = &[
    OptDef { name: "USI_Hash", kind: OptKind::Spin(1, 16384), default: "64" },
    OptDef { name: "USI_Ponder", kind: OptKind::Check, default: "false" },
    OptDef { name: "Threads", kind: OptKind::Spin(1, 64), default: "1" },
    OptDef { name: "MultiPV", kind: OptKind::Spin(1, 64), default: "1" },
    OptDef { name: "NetworkDelay", kind: OptKind::Spin(0, 10000), default: "120" },
    OptDef { name: "NetworkDelay2", kind: OptKind::Spin(0, 10000), default: "120" },
    OptDef { name: "MinimumThinkingTime", kind: OptKind::Spin(0, 60000), default: "20" },
    OptDef { name: "SlowMover", kind: OptKind::Spin(1, 1000), default: "100" },
    OptDef { name: "EnteringKingRule", kind: OptKind::Combo(ENTERING_KING_VARS), default: "CSARule27" },
    OptDef { name: "ResignValue", kind: OptKind::Spin(0, 99999), default: "99999" },
    OptDef { name: "MaxMovesToDraw", kind: OptKind::Spin(0, 100000), default: "0" },
    OptDef { name: "DepthLimit", kind: OptKind::Spin(0, 100), default: "0" },
    OptDef { name: "NodesLimit", kind: OptKind::Spin(0, 1_000_000_000_000), default: "0" },
    OptDef { name: "UseNNUE", kind: OptKind::Check, default: "true" },
    OptDef { name: "EvalFile", kind: OptKind::String, default: EMBEDDED_NET },
];

/// `EvalFile` value that selects the network built into the binary.
const EMBEDDED_NET: &str = "<embedded>";

/// A search running on its own thread.
struct Running {
    handle: std::thread::JoinHandle<()>,
    shared: Arc<Shared>,
    pos: Position,
    limits: Limits,
}

/// The engine's state as seen by the protocol.
pub struct Usi {
    pos: Position,
    has_position: bool,
    cfg: Config,
    hash_mb: usize,
    tt: Option<Arc<TranspositionTable>>,
    tt_mb: usize,
    running: Option<Running>,
}

impl Default for Usi {
    fn default() -> Self {
        Self::new()
    }
}

/// Parses a numeric `go` field, clamping negative and huge values.
fn parse_ms(s: Option<&&str>) -> Result<u64, String> {
    let Some(s) = s else { return Err("missing number".into()) };
    match s.parse::<i128>() {
        Ok(v) => Ok(v.clamp(0, 1_000_000_000_000) as u64),
        Err(_) => Err(format!("'{s}' is not a number")),
    }
}

impl Usi {
    /// A fresh engine at the start position.
    pub fn new() -> Usi {
        Usi {
            pos: Position::startpos(),
            has_position: false,
            cfg: Config::default(),
            hash_mb: 64,
            tt: None,
            tt_mb: 0,
            running: None,
        }
    }

    fn ensure_tt(&mut self) -> Arc<TranspositionTable> {
        if let Some(tt) = &self.tt {
            if self.tt_mb == self.hash_mb {
                return tt.clone();
            }
        }
        self.tt = None; // free the old table first
        let (tt, mb) = TranspositionTable::new(self.hash_mb);
        if mb != self.hash_mb {
            emit(&format!("info string could only allocate {mb} MB of hash"));
        }
        let tt = Arc::new(tt);
        self.tt = Some(tt.clone());
        self.tt_mb = self.hash_mb;
        tt
    }

    fn searching(&mut self) -> bool {
        match &self.running {
            Some(r) => !r.handle.is_finished(),
            None => false,
        }
    }

    /// Stops any search and waits for its thread (it prints its bestmove).
    fn finish_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.shared.stop.store(true, Ordering::Relaxed);
            let _ = r.handle.join();
        }
    }

    /// Handles one command line; returns false when the engine should exit.
    pub fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = tokens.first() else { return true };
        let args = &tokens[1..];
        match cmd {
            "usi" => {
                let mut s = format!("id name {} {}\nid author {}\n", crate::ENGINE_NAME, crate::ENGINE_VERSION, crate::ENGINE_AUTHOR);
                for o in OPTIONS {
                    match &o.kind {
                        OptKind::Spin(lo, hi) => {
                            s.push_str(&format!("option name {} type spin default {} min {lo} max {hi}\n", o.name, o.default))
                        }
                        OptKind::Check => s.push_str(&format!("option name {} type check default {}\n", o.name, o.default)),
                        OptKind::String => s.push_str(&format!("option name {} type string default {}\n", o.name, o.default)),
                        OptKind::Combo(vars) => {
                            s.push_str(&format!("option name {} type combo default {}", o.name, o.default));
                            for v in *vars {
                                s.push_str(&format!(" var {v}"));
                            }
                            s.push('\n');
                        }
                    }
                }
                s.push_str("usiok");
                emit(&s);
            }
            "isready" => {
                if !self.searching() {
                    self.ensure_tt();
                }
                emit("readyok");
            }
            "setoption" => self.setoption(args),
            "usinewgame" => {
                self.finish_search();
                let tt = self.ensure_tt();
                tt.clear();
                crate::search::clear_history();
            }
            "position" => match parse_position(args) {
                Ok(p) => {
                    self.pos = p;
                    self.has_position = true;
                }
                Err(e) => emit(&format!("info string error: {e}")),
            },
            "go" => self.go(args),
            // Waiting for the search thread makes its bestmove come before any answer
            // to later commands.
            "stop" => self.finish_search(),
            "ponderhit" => self.ponderhit(args),
            "gameover" => {
                self.finish_search();
                if !matches!(args.first(), Some(&"win") | Some(&"lose") | Some(&"draw")) {
                    emit("info string error: gameover expects win, lose or draw");
                }
            }
            "d" => emit(self.pos.pretty().trim_end()),
            "eval" => emit(&format!(
                "info string eval nnue {} classical {} (material+psq {}, piece terms {}, Black's view except the totals)",
                crate::eval::nnue::evaluate(&self.pos),
                crate::eval::evaluate(&self.pos),
                crate::eval::material_psq(&self.pos),
                crate::eval::piece_terms_value(&self.pos)
            )),
            "quit" => {
                self.finish_search();
                return false;
            }
            _ => emit(&format!("info string error: unknown command '{}'", cmd.chars().take(64).collect::<String>())),
        }
        true
    }

    fn go(&mut self, args: &[&str]) {
        match args.first() {
            Some(&"perft") => {
                self.finish_search();
                match args.get(1).map(|s| s.parse::<u32>()) {
                    Some(Ok(d)) if (1..=20).contains(&d) => {
                        let stdout = std::io::stdout();
                        let mut out = stdout.lock();
                        let _ = write_divide(&mut out, &self.pos, d, self.cfg.threads);
                    }
                    _ => emit("info string error: go perft needs a depth from 1 to 20"),
                }
                return;
            }
            Some(&"mate") => {
                self.finish_search();
                self.go_mate(&args[1..]);
                return;
            }
            _ => {}
        }
        self.finish_search();
        if !self.has_position {
            emit("info string warning: go before any position; searching the start position");
        }
        let mut limits = Limits::default();
        let mut i = 0;
        while i < args.len() {
            let t = args[i];
            let num = |i: usize| parse_ms(args.get(i + 1));
            let take = |r: Result<u64, String>, f: &mut dyn FnMut(u64)| match r {
                Ok(v) => {
                    f(v);
                    2
                }
                Err(e) => {
                    emit(&format!("info string error: go {t}: {e}"));
                    1
                }
            };
            i += match t {
                "btime" => take(num(i), &mut |v| limits.clock.time[0] = Some(v)),
                "wtime" => take(num(i), &mut |v| limits.clock.time[1] = Some(v)),
                "binc" => take(num(i), &mut |v| limits.clock.inc[0] = v),
                "winc" => take(num(i), &mut |v| limits.clock.inc[1] = v),
                "byoyomi" => take(num(i), &mut |v| limits.clock.byoyomi = v),
                "movetime" => take(num(i), &mut |v| limits.clock.movetime = Some(v.max(1))),
                "depth" => take(num(i), &mut |v| limits.depth = Some(v.clamp(1, 100) as i32)),
                "nodes" => take(num(i), &mut |v| limits.nodes = Some(v.max(1))),
                "infinite" => {
                    limits.infinite = true;
                    1
                }
                "ponder" => {
                    limits.ponder = true;
                    1
                }
                "searchmoves" => {
                    let mut n = 1;
                    while let Some(s) = args.get(i + n) {
                        match self.pos.parse_usi_move(s) {
                            Some(m) => limits.searchmoves.push(m),
                            None => {
                                if Move::from_usi(s).is_none() {
                                    break;
                                }
                                emit(&format!("info string error: searchmoves: '{s}' is not legal here"));
                            }
                        }
                        n += 1;
                    }
                    n
                }
                _ => {
                    emit(&format!("info string error: unknown go parameter '{}'", t.chars().take(32).collect::<String>()));
                    1
                }
            };
        }
        let no_limit = limits.clock.time == [None, None]
            && limits.clock.byoyomi == 0
            && limits.clock.inc == [0, 0]
            && limits.clock.movetime.is_none()
            && limits.depth.is_none()
            && limits.nodes.is_none()
            && self.cfg.depth_limit == 0
            && self.cfg.nodes_limit == 0;
        if no_limit {
            limits.infinite = true;
        }
        let tt = self.ensure_tt();
        let shared = Arc::new(Shared::new(tt, self.cfg.threads));
        shared.pondering.store(limits.ponder, Ordering::Relaxed);
        shared.infinite.store(limits.infinite, Ordering::Relaxed);
        start_clock(&shared, &self.pos, &limits, &self.cfg);
        let sh = shared.clone();
        let pos = self.pos.clone();
        let lim = limits.clone();
        let cfg = self.cfg.clone();
        let sink: Sink = Arc::new(|s: &str| emit(s));
        let spawned = std::thread::Builder::new().name("search".into()).stack_size(64 << 20).spawn(move || {
            think(sh, &pos, &lim, &cfg, sink);
        });
        match spawned {
            Ok(handle) => self.running = Some(Running { handle, shared, pos: self.pos.clone(), limits }),
            Err(e) => {
                emit(&format!("info string error: cannot start the search thread: {e}"));
                let legal = movegen::legal_moves(&self.pos);
                match legal.iter().next() {
                    Some(m) => emit(&format!("bestmove {m}")),
                    None => emit("bestmove resign"),
                }
            }
        }
    }

    fn ponderhit(&mut self, args: &[&str]) {
        let Some(r) = &mut self.running else { return };
        // Optional fresh clock fields.
        let mut i = 0;
        while i < args.len() {
            let v = parse_ms(args.get(i + 1));
            match (args[i], v) {
                ("btime", Ok(v)) => r.limits.clock.time[0] = Some(v),
                ("wtime", Ok(v)) => r.limits.clock.time[1] = Some(v),
                ("binc", Ok(v)) => r.limits.clock.inc[0] = v,
                ("winc", Ok(v)) => r.limits.clock.inc[1] = v,
                ("byoyomi", Ok(v)) => r.limits.clock.byoyomi = v,
                ("movetime", Ok(v)) => r.limits.clock.movetime = Some(v.max(1)),
                _ => {
                    i += 1;
                    continue;
                }
            }
            i += 2;
        }
        r.limits.ponder = false;
        start_clock(&r.shared, &r.pos, &r.limits, &self.cfg);
        r.shared.pondering.store(false, Ordering::Relaxed);
    }

    /// `go mate <ms>|infinite`: runs the df-pn solver on its own thread so that
    /// `isready` is answered and `stop` ends it (with `checkmate timeout` unless
    /// already proved). Exactly one `checkmate ...` line is printed.
    fn go_mate(&mut self, args: &[&str]) {
        let limit = match crate::mate::parse_mate_time(args) {
            Ok(l) => l,
            Err(e) => {
                emit(&format!("info string error: {e}"));
                emit("checkmate timeout");
                return;
            }
        };
        let shared = Arc::new(Shared::new(self.ensure_tt(), 1));
        let pos = self.pos.clone();
        let hash_mb = self.hash_mb;
        let flag = shared.clone();
        let spawned = std::thread::Builder::new().name("mate".into()).spawn(move || {
            let (r, st) = crate::mate::solve_with_stats(&pos, limit, &flag.stop, hash_mb);
            emit(&format!(
                "info string mate search: {} nodes, {:.3} s, {:.0} nodes/s",
                st.nodes,
                st.seconds,
                st.nodes as f64 / st.seconds.max(1e-9)
            ));
            emit(&crate::mate::usi_answer(&r));
        });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running { handle, shared, pos: self.pos.clone(), limits: Limits::default() })
            }
            Err(e) => {
                emit(&format!("info string error: cannot start the mate search: {e}"));
                emit("checkmate timeout");
            }
        }
    }

    fn setoption(&mut self, args: &[&str]) {
        let Some(ni) = args.iter().position(|t| t.eq_ignore_ascii_case("name")) else {
            emit("info string error: setoption needs 'name <id> [value <x>]'");
            return;
        };
        let vi = args.iter().position(|t| t.eq_ignore_ascii_case("value"));
        let name_end = vi.unwrap_or(args.len());
        if name_end <= ni + 1 {
            emit("info string error: setoption needs an option name");
            return;
        }
        let name = args[ni + 1..name_end].join(" ");
        let value = vi.map(|v| args[v + 1..].join(" "));
        let name_l = name.to_ascii_lowercase();
        let lookup = if name_l == "hash" { "usi_hash".to_string() } else { name_l };
        let Some(def) = OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(&lookup)) else {
            emit(&format!("info string error: unknown option '{}'", name.chars().take(64).collect::<String>()));
            return;
        };
        let value = value.unwrap_or_default();
        let bad = |why: &str| emit(&format!("info string error: option {}: {why}", def.name));
        match &def.kind {
            OptKind::Spin(lo, hi) => {
                let v = match value.parse::<i128>() {
                    Ok(v) => v,
                    Err(_) => return bad(&format!("'{value}' is not an integer")),
                };
                if v < *lo as i128 || v > *hi as i128 {
                    return bad(&format!("{v} is out of range {lo}..{hi}"));
                }
                let v = v as i64;
                match def.name {
                    "USI_Hash" => self.hash_mb = v as usize,
                    "Threads" => self.cfg.threads = v as usize,
                    "MultiPV" => self.cfg.multipv = v as usize,
                    "NetworkDelay" => self.cfg.time.network_delay = v as u64,
                    "NetworkDelay2" => self.cfg.time.network_delay2 = v as u64,
                    "MinimumThinkingTime" => self.cfg.time.minimum_thinking_time = v as u64,
                    "SlowMover" => self.cfg.time.slow_mover = v as u64,
                    "ResignValue" => self.cfg.resign_value = v as i32,
                    "MaxMovesToDraw" => self.cfg.max_moves_to_draw = v as u32,
                    "DepthLimit" => self.cfg.depth_limit = v as i32,
                    "NodesLimit" => self.cfg.nodes_limit = v as u64,
                    _ => {}
                }
            }
            OptKind::Check => {
                let on = if value.eq_ignore_ascii_case("true") {
                    true
                } else if value.eq_ignore_ascii_case("false") {
                    false
                } else {
                    return bad(&format!("'{value}' is not true or false"));
                };
                if def.name == "UseNNUE" {
                    self.cfg.use_nnue = on;
                }
            }
            OptKind::String => {
                let path = if value.is_empty() || value == EMBEDDED_NET { "" } else { value.as_str() };
                match crate::eval::nnue::load(path) {
                    Ok(()) => emit(&format!("info string EvalFile: {}", if path.is_empty() { EMBEDDED_NET } else { path })),
                    Err(e) => bad(&format!("{e}; the previous network stays")),
                }
            }
            OptKind::Combo(vars) => match vars.iter().find(|v| v.eq_ignore_ascii_case(&value)) {
                Some(v) => {
                    self.cfg.entering_king = match *v {
                        "NoEnteringKing" => EnteringKingRule::None,
                        "CSARule24" => EnteringKingRule::Csa24,
                        _ => EnteringKingRule::Csa27,
                    }
                }
                None => bad(&format!("'{value}' is not one of {}", vars.join(", "))),
            },
        }
    }
}

/// Reads USI commands from stdin until `quit` or EOF.
pub fn run() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut engine = Usi::new();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
        let line = String::from_utf8_lossy(&buf);
        if !engine.handle(&line) {
            return Ok(());
        }
    }
    engine.finish_search();
    Ok(())
}
