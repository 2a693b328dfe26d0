//! The USI protocol loop.

use crate::movegen;
use crate::position::Position;
use std::io::{BufRead, Write};
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

/// The engine's state as seen by the protocol.
pub struct Usi {
    pos: Position,
    threads: usize,
}

impl Default for Usi {
    fn default() -> Self {
        Self::new()
    }
}

impl Usi {
    /// A fresh engine at the start position.
    pub fn new() -> Usi {
        Usi { pos: Position::startpos(), threads: 1 }
    }

    /// Handles one command line; returns false when the engine should exit.
    pub fn handle(&mut self, line: &str, out: &mut impl Write) -> std::io::Result<bool> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = tokens.first() else { return Ok(true) };
        let args = &tokens[1..];
        match cmd {
            "usi" => {
                writeln!(out, "id name {} {}", crate::ENGINE_NAME, crate::ENGINE_VERSION)?;
                writeln!(out, "id author {}", crate::ENGINE_AUTHOR)?;
                writeln!(out, "option name Threads type spin default 1 min 1 max 256")?;
                writeln!(out, "usiok")?;
            }
            "isready" => writeln!(out, "readyok")?,
            "usinewgame" | "gameover" | "stop" | "ponderhit" => {}
            "setoption" => self.setoption(args, out)?,
            "position" => match parse_position(args) {
                Ok(p) => self.pos = p,
                Err(e) => writeln!(out, "info string error: {e}")?,
            },
            "go" => {
                if args.first() == Some(&"mate") {
                    crate::mate::usi_go_mate(&self.pos, &args[1..], crate::mate::DEFAULT_HASH_MB, out)?;
                } else if args.first() == Some(&"perft") {
                    match args.get(1).map(|s| s.parse::<u32>()) {
                        Some(Ok(d)) if (1..=20).contains(&d) => {
                            write_divide(out, &self.pos, d, self.threads)?;
                        }
                        _ => writeln!(out, "info string error: go perft needs a depth from 1 to 20")?,
                    }
                } else {
                    writeln!(out, "info string error: only 'go perft N' is supported by this build")?;
                }
            }
            "d" => write!(out, "{}", self.pos.pretty())?,
            "quit" => return Ok(false),
            _ => writeln!(out, "info string error: unknown command '{cmd}'")?,
        }
        out.flush()?;
        Ok(true)
    }

    fn setoption(&mut self, args: &[&str], out: &mut impl Write) -> std::io::Result<()> {
        let text = args.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            return writeln!(out, "info string error: setoption needs 'name <id> [value <x>]'");
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (rest.trim(), None),
        };
        if name.eq_ignore_ascii_case("Threads") {
            match value.and_then(|v| v.parse::<usize>().ok()) {
                Some(n) if (1..=256).contains(&n) => self.threads = n,
                _ => writeln!(out, "info string error: Threads must be an integer from 1 to 256")?,
            }
        } else {
            writeln!(out, "info string error: unknown option '{name}'")?;
        }
        Ok(())
    }
}

/// Reads USI commands from stdin until `quit` or EOF.
pub fn run() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut engine = Usi::new();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(l) => l,
            Err(_) => continue,
        };
        let mut out = stdout.lock();
        if !engine.handle(&line, &mut out)? {
            break;
        }
    }
    Ok(())
}
