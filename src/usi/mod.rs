//! The USI protocol layer: it only parses commands and prints answers; the `Engine`
//! does the work. The main thread reads stdin and answers at once (so `stop`,
//! `isready`, `ponderhit`, `quit` and EOF work mid-search); each `go` runs on its own
//! search thread. `options` holds the option table and `setoption`, `clock` the parser
//! of clock fields, `info` every line the search's reports become; `book` answers
//! `go` from the opening book when it can. Uses `engine`, `book`, `search`, `mate`,
//! `movegen`, `position` and `eval` (the `eval` command).

pub mod clock;
pub mod info;
pub mod options;
mod stochastic;

use crate::book::BookSession;
use crate::core::types::Move;
use crate::engine::{Engine, Running};
use crate::movegen;
use crate::position::Position;
use crate::search::{Limits, Report, Sink};
use clock::{apply_clock_fields, is_clock_field, parse_number, set_clock_field};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Plies of history a `position` keeps: more than the search's repetition scan
/// looks at, so that a move list of millions of plies is neither kept nor copied.
const KEPT_HISTORY: usize = 4 * crate::position::rules::REPETITION_SCAN;

/// Longest command line read; a longer one (about six million plies of moves) is
/// refused, so that input never sizes an allocation without a bound.
const MAX_LINE: usize = 32 << 20;

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
            Some(m) => {
                pos.do_move(m);
                pos.trim_history(KEPT_HISTORY);
            }
            None => return Err(format!("illegal or malformed move '{text}' (move {} of the list)", i + 1)),
        }
    }
    Ok(pos)
}

/// Writes `go perft N`-style divide output (counted in `secs`) into `out`.
pub fn write_divide(out: &mut impl Write, divide: &[(Move, u64)], secs: f64) -> std::io::Result<u64> {
    let mut total = 0;
    for (m, n) in divide {
        writeln!(out, "{m}: {n}")?;
        total += n;
    }
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")?;
    writeln!(out, "info string perft time {:.3} s, {:.0} nodes/s", secs, total as f64 / secs.max(1e-9))?;
    out.flush()?;
    Ok(total)
}

/// When set, `emit` prints nothing (in-process fuzzing drives the loop silently).
static QUIET: AtomicBool = AtomicBool::new(false);

/// Silences (or restores) every line the protocol prints.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Writes one line to stdout and flushes it (shared by the protocol and search threads).
pub fn emit(line: &str) {
    if QUIET.load(Ordering::Relaxed) {
        return;
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// The protocol's state: the engine, the position of the next `go`, the running
/// search, and the opening book.
pub struct Usi {
    engine: Engine,
    pos: Position,
    has_position: bool,
    running: Option<Running>,
    book: BookSession,
    /// A book answer held back until `ponderhit` or `stop` (`go ponder` on a book position).
    pending_book: Option<Vec<String>>,
    /// The last move of the `position` command (the predicted move under `go ponder`).
    last_move: Option<Move>,
    /// A `go ponder` searching the position before the predicted move (`Stochastic_Ponder`).
    stochastic: Option<stochastic::StochasticPonder>,
}

impl Default for Usi {
    fn default() -> Self {
        Self::new()
    }
}

pub use crate::mate::MateLimits;

/// Parses the arguments after `go mate`: `<ms>`, `infinite` or nothing, and
/// `nodes <n>` (as shogiarena sends it), in either order.
pub fn parse_mate_limits(args: &[&str]) -> Result<MateLimits, String> {
    let mut limits = MateLimits { time: None, nodes: None };
    let mut i = 0;
    while i < args.len() {
        match args[i] {
            "infinite" => limits.time = None,
            "nodes" => {
                let n = args.get(i + 1).ok_or("go mate: 'nodes' needs a count")?;
                let n = n.parse::<u64>().map_err(|_| format!("go mate: bad node count '{n}'"))?;
                limits.nodes = Some(n.max(1));
                i += 1;
            }
            t => {
                let ms = t.parse::<u64>().map_err(|_| format!("go mate: bad time '{t}'"))?;
                limits.time = Some(Duration::from_millis(ms));
            }
        }
        i += 1;
    }
    Ok(limits)
}

impl Usi {
    /// A fresh engine at the start position.
    pub fn new() -> Usi {
        Usi {
            engine: Engine::default(),
            pos: Position::startpos(),
            has_position: false,
            running: None,
            book: BookSession::new(),
            pending_book: None,
            last_move: None,
            stochastic: None,
        }
    }

    /// Allocates the hash table if its size changed, saying so when it got less.
    fn prepare_table(&mut self) {
        if let (_, Some(mb)) = self.engine.table() {
            emit(&format!("info string could only allocate {mb} MB of hash"));
        }
    }

    /// Whether a search (or `go mate`, `go perft`) is still working. One that has
    /// reached its answer is joined here, so that a command sent right after its
    /// `bestmove` finds the engine idle.
    fn searching(&mut self) -> bool {
        match &self.running {
            Some(r) if r.has_answered() => {
                self.finish_search();
                false
            }
            Some(_) => true,
            None => false,
        }
    }

    /// Stops any search and waits for its thread (it prints its bestmove).
    pub fn finish_search(&mut self) {
        if self.stop_stochastic_ponder() {
            return;
        }
        self.release_pending_book();
        if let Some(r) = self.running.take() {
            r.stop();
        }
    }

    /// Handles one command line; returns false when the engine should exit.
    pub fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = tokens.first() else { return true };
        let args = &tokens[1..];
        match cmd {
            "usi" => emit(&options::usi_answer()),
            "isready" => {
                if !self.searching() {
                    self.prepare_table();
                    self.book.on_isready(&emit);
                }
                emit("readyok");
            }
            "setoption" => {
                let searching = self.searching();
                if let Some(line) = options::setoption(&mut self.engine, &mut self.book, args, searching) {
                    emit(&line);
                }
            }
            "usinewgame" => {
                self.finish_search();
                self.prepare_table();
                self.engine.new_game();
            }
            "position" => match parse_position(args) {
                Ok(p) => {
                    self.pos = p;
                    self.has_position = true;
                    let moves = args.iter().position(|&t| t == "moves").map_or(&[][..], |i| &args[i + 1..]);
                    self.last_move = moves.last().and_then(|t| Move::from_usi(t));
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

    /// Reads the `searchmoves` list starting at `args[i + 1]`; returns how many words it took.
    fn searchmoves(&self, args: &[&str], i: usize, limits: &mut Limits) -> usize {
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

    /// Parses the limits of `go`, reporting bad fields; no limit at all means infinite.
    fn go_limits(&self, args: &[&str]) -> Limits {
        let mut limits = Limits::default();
        let mut i = 0;
        while i < args.len() {
            let t = args[i];
            let numeric = is_clock_field(t) || t == "depth" || t == "nodes";
            i += if numeric {
                match parse_number(args.get(i + 1)) {
                    Ok(v) => {
                        match t {
                            "depth" => limits.depth = Some(v.clamp(1, 100) as i32),
                            "nodes" => limits.nodes = Some(v.max(1)),
                            _ => set_clock_field(&mut limits.clock, t, v),
                        }
                        2
                    }
                    Err(e) => {
                        emit(&format!("info string error: go {t}: {e}"));
                        1
                    }
                }
            } else {
                match t {
                    "infinite" => limits.infinite = true,
                    "ponder" => limits.ponder = true,
                    "searchmoves" => {
                        i += self.searchmoves(args, i, &mut limits);
                        continue;
                    }
                    _ => emit(&format!("info string error: unknown go parameter '{}'", t.chars().take(32).collect::<String>())),
                }
                1
            };
        }
        let cfg = &self.engine.config;
        let no_limit = limits.clock.time == [None, None]
            && limits.clock.byoyomi == 0
            && limits.clock.inc == [0, 0]
            && limits.clock.movetime.is_none()
            && limits.depth.is_none()
            && limits.nodes.is_none()
            && cfg.depth_limit == 0
            && cfg.nodes_limit == 0;
        // `go` alone analyses until `stop`; `go ponder` takes its clock at `ponderhit`.
        if no_limit && !limits.ponder {
            limits.infinite = true;
        }
        limits
    }

    fn go(&mut self, args: &[&str]) {
        match args.first() {
            Some(&"perft") => {
                self.finish_search();
                self.go_perft(args.get(1));
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
        let limits = self.go_limits(args);
        // Analysis (`go infinite`, or `go` with no limit) always searches.
        if !limits.infinite {
            if let Some(lines) = self.book.answer(&self.pos, self.engine.config.multipv, &limits.searchmoves) {
                if limits.ponder {
                    self.pending_book = Some(lines);
                } else {
                    lines.iter().for_each(|l| emit(l));
                }
                return;
            }
        }
        self.prepare_table();
        if limits.ponder && self.engine.config.stochastic_ponder && self.start_stochastic_ponder(&limits) {
            return;
        }
        self.start_search(&limits);
    }

    /// Starts the search of the current position with `limits` on its own thread (if
    /// the thread cannot start, answers at once with any legal move).
    fn start_search(&mut self, limits: &Limits) {
        let sink: Sink = Arc::new(|r: &Report| emit(&info::report_line(r)));
        match self.engine.start(&self.pos, limits, sink) {
            Ok(r) => self.running = Some(r),
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

    /// `go perft N` on its own thread: `isready` is answered meanwhile, `stop` ends
    /// it (with a note instead of the total).
    fn go_perft(&mut self, depth: Option<&&str>) {
        let depth = match depth.map(|s| s.parse::<u32>()) {
            Some(Ok(d)) if (1..=20).contains(&d) => d,
            _ => return emit("info string error: go perft needs a depth from 1 to 20"),
        };
        let started = self.engine.start_perft(&self.pos, depth, |divide, secs| match divide {
            Some(divide) => {
                let mut text = Vec::new();
                let _ = write_divide(&mut text, &divide, secs);
                emit(String::from_utf8_lossy(&text).trim_end());
            }
            None => emit("info string perft stopped"),
        });
        match started {
            Ok(r) => self.running = Some(r),
            Err(e) => emit(&format!("info string error: cannot start perft: {e}")),
        }
    }

    /// Prints a book answer held back while pondering.
    fn release_pending_book(&mut self) {
        if let Some(lines) = self.pending_book.take() {
            lines.iter().for_each(|l| emit(l));
        }
    }

    fn ponderhit(&mut self, args: &[&str]) {
        if self.stochastic_ponderhit(args) {
            return;
        }
        self.release_pending_book();
        let Some(r) = &mut self.running else { return };
        // Optional fresh clock fields.
        let mut clock = r.clock().clone();
        apply_clock_fields(&mut clock, args);
        r.ponderhit(&self.engine.config, clock);
    }

    /// `go mate <ms>|infinite [nodes <n>]`: runs the df-pn solver on its own thread so
    /// that `isready` is answered and `stop` ends it (with `checkmate timeout` unless
    /// already proved). A side to move in check defends: the answer then starts with
    /// its reply (`checkmate nomate` when one escapes, or when it is mated already). Exactly one `checkmate ...` line is printed. Once a second the
    /// progress, and the line the solver is working on when it has changed (`info ...
    /// pv`); a mate found is also given as `info ... score mate N pv ...` before it.
    fn go_mate(&mut self, args: &[&str]) {
        let limit = match parse_mate_limits(args) {
            Ok(l) => l,
            Err(e) => {
                emit(&format!("info string error: {e}"));
                emit("checkmate timeout");
                return;
            }
        };
        if self.pos.in_check() && movegen::legal_moves(&self.pos).is_empty() {
            emit("info string the side to move is checkmated already: no reply to give");
        }
        let mut last = (Vec::new(), false);
        let progress: crate::mate::ProgressSink = Box::new(move |p| {
            if let Some(pv) = info::mate_progress_pv(p, &mut last) {
                emit(&pv);
            }
            emit(&info::mate_progress(p));
        });
        let level = self.engine.config.yozume_print_level;
        let started = self.engine.start_mate(&self.pos, limit, progress, move |r, st, alt| {
            if let Some(pv) = info::mate_final_pv(&r, &st) {
                emit(&pv);
            }
            emit(&format!(
                "info string mate search: {} nodes, {:.3} s, {:.0} nodes/s",
                st.nodes,
                st.seconds,
                st.nodes as f64 / st.seconds.max(1e-9)
            ));
            if let Some(note) = info::mate_length_note(&r, &st) {
                emit(&format!("info string {note}"));
            }
            // `YozumePrintLevel`: the alternative mates, before the answer (as
            // KomoringHeights prints its 余詰 report before `checkmate`).
            for l in alt.iter().flat_map(|a| crate::mate::alt_text::usi_lines(a, level)) {
                emit(&format!("info string {l}"));
            }
            emit(&info::checkmate_line(&r));
        });
        match started {
            Ok(r) => self.running = Some(r),
            Err(e) => {
                emit(&format!("info string error: cannot start the mate search: {e}"));
                emit("checkmate timeout");
            }
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
        match std::io::Read::take(&mut input, MAX_LINE as u64 + 1).read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
        if buf.len() > MAX_LINE {
            emit(&format!("info string error: command line longer than {MAX_LINE} bytes ignored"));
            let _ = input.skip_until(b'\n');
            continue;
        }
        let line = String::from_utf8_lossy(&buf);
        if !engine.handle(&line) {
            return Ok(());
        }
    }
    engine.finish_search();
    Ok(())
}
