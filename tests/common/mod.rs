//! Drives the `hisha` binary over pipes, as a GUI would.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
}

/// Generous limit so that a broken engine fails a test instead of hanging it.
pub const LIMIT: Duration = Duration::from_secs(30);

impl Engine {
    /// Starts the binary.
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hisha"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start hisha");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Engine { child, stdin, rx }
    }

    /// Starts the binary and completes the handshake.
    pub fn ready() -> Engine {
        let mut e = Engine::start();
        e.send("usi");
        e.expect(|l| l == "usiok");
        e.send("isready");
        e.expect(|l| l == "readyok");
        e
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        let s = self.stdin.as_mut().expect("stdin open");
        writeln!(s, "{line}").expect("write to engine");
        s.flush().expect("flush");
    }

    /// Closes stdin (EOF).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Reads lines until one satisfies `pred`; returns all lines read (the match last).
    pub fn expect(&mut self, pred: impl Fn(&str) -> bool) -> Vec<String> {
        self.expect_within(pred, LIMIT)
    }

    /// As `expect` with an explicit limit.
    pub fn expect_within(&mut self, pred: impl Fn(&str) -> bool, limit: Duration) -> Vec<String> {
        let deadline = Instant::now() + limit;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(l) => {
                    let done = pred(&l);
                    lines.push(l);
                    if done {
                        return lines;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("timeout; lines so far: {lines:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("engine closed stdout; lines so far: {lines:?}"),
            }
        }
    }

    /// Lines that arrive within `d` (no predicate).
    pub fn drain(&mut self, d: Duration) -> Vec<String> {
        let deadline = Instant::now() + d;
        let mut lines = Vec::new();
        while let Ok(l) = self.rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            lines.push(l);
        }
        lines
    }

    /// Sends `go ...` and returns (bestmove token, ponder token, all lines).
    pub fn go(&mut self, args: &str) -> (String, Option<String>, Vec<String>) {
        self.send(&format!("go {args}"));
        let lines = self.expect(|l| l.starts_with("bestmove"));
        let last = lines.last().cloned().unwrap_or_default();
        let t: Vec<&str> = last.split_whitespace().collect();
        let ponder = if t.get(2) == Some(&"ponder") { t.get(3).map(|s| s.to_string()) } else { None };
        (t.get(1).unwrap_or(&"").to_string(), ponder, lines)
    }

    /// Waits for the process to exit; returns whether it did within `limit`.
    pub fn wait_exit(&mut self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The last `info ... score ...` line's score tokens (`["mate", "3"]`).
pub fn last_score(lines: &[String]) -> Option<(String, i32)> {
    lines.iter().rev().filter(|l| l.starts_with("info") && l.contains(" score ")).find_map(|l| {
        let t: Vec<&str> = l.split_whitespace().collect();
        let i = t.iter().position(|&x| x == "score")?;
        Some((t.get(i + 1)?.to_string(), t.get(i + 2)?.parse().ok()?))
    })
}

/// A K+P network in YaneuraOu's format with weights that spread the activations.
pub fn yaneuraou_kp_file() -> Vec<u8> {
    use hisha::eval::nnue::yaneuraou::{padded, write, Affine, FeatureSet, Layers};
    let inputs = FeatureSet::KP.inputs();
    let ft_bias: Vec<i16> = (0..256).map(|i| (i % 50) as i16).collect();
    let ft_weights: Vec<i16> = (0..256 * inputs).map(|i| ((i * 7919) % 31) as i16 - 15).collect();
    let affine = |inputs: usize, outputs: usize| {
        let mut a = Affine::zeros(inputs, outputs);
        for (k, w) in a.weights.iter_mut().enumerate() {
            *w = if k % padded(inputs) < inputs { ((k * 37) % 255) as i8 } else { 0 };
        }
        a.bias.iter_mut().enumerate().for_each(|(k, b)| *b = 300 * k as i32 - 5000);
        a
    };
    write(FeatureSet::KP, &ft_bias, &ft_weights, &Layers::new(affine(512, 32), affine(32, 32), affine(32, 1))).unwrap()
}
