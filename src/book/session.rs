//! The book as the USI engine uses it: its options (declared in the `usi` reply and
//! set by `setoption`), loading the chosen file at `isready` (never at `usi`), and
//! answering `go` from the book.

use super::answer::answer;
use super::embedded;
use super::reader::{load, load_file, LoadReport};
use super::select::{BookOptions, EMBEDDED, NO_BOOK};
use super::store::Book;
use crate::position::Position;
use crate::core::types::Move;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::time::Instant;

/// Spin options: name, minimum, maximum, default.
const SPINS: &[(&str, i64, i64, i64)] = &[
    ("BookMoves", 0, 10000, 16),
    ("BookEvalDiff", 0, 99999, 30),
    ("BookEvalBlackLimit", -99999, 99999, 0),
    ("BookEvalWhiteLimit", -99999, 99999, -140),
    ("BookDepthLimit", 0, 99999, 0),
    ("BookIgnoreRate", 0, 100, 0),
    ("BookPvMoves", 1, 246, 8),
];

/// Check options: name, default.
const CHECKS: &[(&str, bool)] = &[("FlippedBook", true), ("IgnoreBookPly", false), ("USI_OwnBook", true)];

/// The book options, the loaded book and the random source for picking moves.
pub struct BookSession {
    /// Current option values.
    pub opts: BookOptions,
    book: Option<Book>,
    /// `USI_OwnBook`: whether `go` is answered from the book (GUIs toggle it).
    own_book: bool,
    /// (`BookFile`, `IgnoreBookPly`) the loaded book was read with.
    loaded: Option<(String, bool)>,
    rng: SmallRng,
}

impl Default for BookSession {
    fn default() -> Self {
        Self::new()
    }
}

impl BookSession {
    /// No book loaded, default options.
    pub fn new() -> BookSession {
        BookSession { opts: BookOptions::default(), book: None, own_book: true, loaded: None, rng: SmallRng::from_entropy() }
    }

    /// The `option name ...` lines of the `usi` reply, each ending in a newline.
    pub fn usi_options() -> String {
        let mut s = format!("option name BookFile type filename default {NO_BOOK}\n");
        for (name, lo, hi, def) in SPINS {
            s.push_str(&format!("option name {name} type spin default {def} min {lo} max {hi}\n"));
        }
        for (name, def) in CHECKS {
            s.push_str(&format!("option name {name} type check default {def}\n"));
        }
        s
    }

    /// Applies `setoption` if `name` is a book option: `None` when it is not one,
    /// else the outcome (an error text names the option).
    pub fn set_option(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
        if name.eq_ignore_ascii_case("BookFile") {
            self.opts.file = if value.is_empty() { NO_BOOK.to_string() } else { value.to_string() };
            return Some(Ok(()));
        }
        if let Some((n, lo, hi, _)) = SPINS.iter().find(|s| s.0.eq_ignore_ascii_case(name)) {
            let v = match value.parse::<i128>() {
                Ok(v) if v >= *lo as i128 && v <= *hi as i128 => v as i64,
                Ok(v) => return Some(Err(format!("option {n}: {v} is out of range {lo}..{hi}"))),
                Err(_) => return Some(Err(format!("option {n}: '{}' is not an integer", super::key::clip(value)))),
            };
            let o = &mut self.opts;
            match *n {
                "BookMoves" => o.book_moves = v as u32,
                "BookEvalDiff" => o.eval_diff = v as i32,
                "BookEvalBlackLimit" => o.eval_black_limit = v as i32,
                "BookEvalWhiteLimit" => o.eval_white_limit = v as i32,
                "BookDepthLimit" => o.depth_limit = v as i32,
                "BookIgnoreRate" => o.ignore_rate = v as u32,
                _ => o.pv_moves = v as u32,
            }
            return Some(Ok(()));
        }
        let (n, _) = CHECKS.iter().find(|c| c.0.eq_ignore_ascii_case(name))?;
        let on = if value.eq_ignore_ascii_case("true") {
            true
        } else if value.eq_ignore_ascii_case("false") {
            false
        } else {
            return Some(Err(format!("option {n}: '{}' is not true or false", super::key::clip(value))));
        };
        match *n {
            "FlippedBook" => self.opts.flipped = on,
            "USI_OwnBook" => self.own_book = on,
            _ => self.opts.ignore_ply = on,
        }
        Some(Ok(()))
    }

    /// Loads the book `BookFile` names unless it is loaded already; reports through
    /// `emit` (`info string ...`). A failed load leaves no book: the engine searches.
    pub fn on_isready(&mut self, emit: &dyn Fn(&str)) {
        let want = (self.opts.file.clone(), self.opts.ignore_ply);
        if self.loaded.as_ref() == Some(&want) {
            return;
        }
        self.book = None;
        self.loaded = None;
        if want.0 == NO_BOOK {
            self.loaded = Some(want);
            return;
        }
        let start = Instant::now();
        let result = if want.0 == EMBEDDED { load(embedded::TEXT.as_bytes(), EMBEDDED, want.1) } else { load_file(&want.0, want.1) };
        match result {
            Ok((book, rep)) => {
                report_errors(&want.0, &rep, emit);
                emit(&format!(
                    "info string book {}: {} positions, {} moves, read in {} ms",
                    want.0,
                    book.len(),
                    book.move_count(),
                    start.elapsed().as_millis()
                ));
                self.book = Some(book);
                self.loaded = Some(want);
            }
            Err(e) => emit(&format!("info string error: book {e}; playing without a book")),
        }
    }

    /// The lines answering `go` from the book (`bestmove` last), if it has a move here.
    pub fn answer(&mut self, pos: &Position, multipv: usize, searchmoves: &[Move]) -> Option<Vec<String>> {
        let book = self.book.as_ref().filter(|_| self.own_book)?;
        answer(book, pos, &self.opts, multipv, searchmoves, &mut self.rng)
    }
}

fn report_errors(name: &str, rep: &LoadReport, emit: &dyn Fn(&str)) {
    for e in &rep.errors {
        emit(&format!("info string error: book {e} (line skipped)"));
    }
    if rep.error_count > rep.errors.len() {
        emit(&format!("info string error: book {name}: {} bad lines in all, all skipped", rep.error_count));
    }
}
