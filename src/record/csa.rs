//! CSA standard records (V2, V2.1, V2.2 and V3.0, as floodgate and the CSA server write
//! them): names, `$` headers, `PI`/`P1`..`P9`/`P+`/`P-` start positions, moves with
//! their `T` times (whole or fractional seconds), `'` comments, `%` endings, and several
//! games in one file separated by `/` lines. Written by hand: the `csa` crate refuses
//! V3.0 records and reports no line numbers.

use super::setup::Setup;
use super::{play, GameRecord, RecordError, MAX_MOVES};
use crate::position::Position;
use crate::core::types::{Color, PieceType};

/// Parses every game in `text`.
pub fn parse(text: &str) -> Vec<Result<GameRecord, RecordError>> {
    let mut games = Vec::new();
    let mut chunk: Vec<(usize, &str)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim() == "/" {
            if has_content(&chunk) {
                games.push(parse_game(&chunk));
            }
            chunk.clear();
        } else {
            chunk.push((i + 1, line));
        }
    }
    if has_content(&chunk) || games.is_empty() {
        games.push(parse_game(&chunk));
    }
    games
}

fn has_content(chunk: &[(usize, &str)]) -> bool {
    chunk.iter().any(|(_, l)| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('\'')
    })
}

/// A game being read: the start position until the first move, then the moves.
struct Reader {
    setup: Setup,
    setup_seen: bool,
    pos: Option<Position>,
    game: GameRecord,
}

fn parse_game(lines: &[(usize, &str)]) -> Result<GameRecord, RecordError> {
    if !has_content(lines) {
        return Err(RecordError::at(lines.first().map_or(0, |l| l.0), "empty record"));
    }
    let mut r = Reader {
        setup: Setup::empty(),
        setup_seen: false,
        pos: None,
        game: GameRecord { start_sfen: String::new(), moves: Vec::new(), black: None, white: None, result: None },
    };
    for &(no, line) in lines {
        // A line may hold several statements separated by commas (not in comments).
        if line.trim_start().starts_with('\'') {
            continue;
        }
        for stmt in line.split(',') {
            let stmt = stmt.trim_end_matches(['\r', '\n']).trim();
            if !stmt.is_empty() {
                r.statement(no, stmt)?;
            }
        }
    }
    let last = lines.last().map_or(0, |l| l.0);
    r.start(last)?;
    Ok(r.game)
}

impl Reader {
    fn statement(&mut self, no: usize, s: &str) -> Result<(), RecordError> {
        let first = s.as_bytes()[0];
        // Only names and headers may hold other than ASCII (what follows slices bytes).
        if !s.is_ascii() && first != b'N' && first != b'$' {
            return Err(RecordError::at(no, format!("unexpected characters in '{s}'")));
        }
        match first {
            b'V' => Ok(()),
            b'N' if s.starts_with("N+") => {
                self.game.black = Some(s[2..].to_string());
                Ok(())
            }
            b'N' if s.starts_with("N-") => {
                self.game.white = Some(s[2..].to_string());
                Ok(())
            }
            b'$' => Ok(()),
            b'P' => self.position_line(no, s),
            b'+' | b'-' if s.len() == 1 => {
                self.setup.side = if first == b'+' { Color::Black } else { Color::White };
                self.start(no)
            }
            b'+' | b'-' => self.mv(no, s),
            b'T' => {
                let t = &s[1..];
                if t.parse::<f64>().map_or(true, |v| !(0.0..1e9).contains(&v)) {
                    return Err(RecordError::at(no, format!("bad time '{s}'")));
                }
                Ok(())
            }
            b'%' => {
                self.game.result = Some(s.to_string());
                Ok(())
            }
            _ => Err(RecordError::at(no, format!("unknown statement '{s}'"))),
        }
    }

    /// Fixes the start position (at the side-to-move line, or the first move).
    fn start(&mut self, no: usize) -> Result<(), RecordError> {
        if self.pos.is_some() {
            return Ok(());
        }
        if !self.setup_seen {
            // Lenient: a record without position lines starts from the even position.
            self.setup = Setup::even();
        }
        let sfen = self.setup.to_sfen();
        let pos = Position::from_sfen(&sfen).map_err(|e| RecordError::at(no, format!("bad start position: {e}")))?;
        self.game.start_sfen = sfen;
        self.pos = Some(pos);
        Ok(())
    }

    fn position_line(&mut self, no: usize, s: &str) -> Result<(), RecordError> {
        if self.pos.is_some() {
            return Err(RecordError::at(no, "position line after the moves began"));
        }
        self.setup_seen = true;
        let b = s.as_bytes();
        match b.get(1) {
            Some(b'I') => {
                self.setup = Setup::even();
                // `PI82HI22KA`: squares whose pieces are taken off (handicaps).
                for item in s.as_bytes()[2..].chunks(4) {
                    let (file, rank) = square(item, no)?.ok_or_else(|| RecordError::at(no, "bad PI square"))?;
                    self.setup.cells[file][rank] = None;
                }
                Ok(())
            }
            Some(d @ b'1'..=b'9') => {
                let rank = (d - b'1') as usize;
                let cells = &s[2..];
                for file in 0..9 {
                    let start = file * 3;
                    let cell = cells.get(start..start + 3).unwrap_or("").trim_end();
                    let cell = if cell.trim().is_empty() || cell.trim() == "*" { None } else { Some(piece(cell, no)?) };
                    self.setup.cells[8 - file][rank] = cell;
                }
                Ok(())
            }
            Some(c @ (b'+' | b'-')) => {
                let color = if *c == b'+' { Color::Black } else { Color::White };
                for item in s.as_bytes()[2..].chunks(4) {
                    self.place(color, item, no)?;
                }
                Ok(())
            }
            _ => Err(RecordError::at(no, format!("bad position line '{s}'"))),
        }
    }

    /// `P+` item: `XYPC` on the board, `00PC` in hand, `00AL` the rest in hand.
    fn place(&mut self, color: Color, item: &[u8], no: usize) -> Result<(), RecordError> {
        let text = std::str::from_utf8(item).map_err(|_| RecordError::at(no, "bad P+ item"))?;
        if text.len() != 4 {
            return Err(RecordError::at(no, format!("bad P+ item '{text}'")));
        }
        if &text[2..] == "AL" {
            for pt in PieceType::HAND {
                let total = crate::core::types::Hand::max_count(pt);
                let used: u32 = self.setup.cells.iter().flatten().filter(|c| c.map(|(_, p)| p.unpromote()) == Some(pt)).count() as u32
                    + self.setup.hands[0][pt.index()]
                    + self.setup.hands[1][pt.index()];
                self.setup.hands[color.index()][pt.index()] += total.saturating_sub(used);
            }
            return Ok(());
        }
        let (_, pt) = piece(&format!("+{}", &text[2..]), no)?;
        match square(item, no)? {
            Some((file, rank)) => self.setup.cells[file][rank] = Some((color, pt)),
            None if PieceType::HAND.contains(&pt) => {
                let n = &mut self.setup.hands[color.index()][pt.index()];
                if *n >= 18 {
                    return Err(RecordError::at(no, "too many pieces in hand"));
                }
                *n += 1;
            }
            None => return Err(RecordError::at(no, format!("cannot hold '{text}' in hand"))),
        }
        Ok(())
    }

    fn mv(&mut self, no: usize, s: &str) -> Result<(), RecordError> {
        self.start(no)?;
        let Some(pos) = self.pos.as_mut() else { return Err(RecordError::at(no, "no position")) };
        let b = s.as_bytes();
        if b.len() != 7 {
            return Err(RecordError::at(no, format!("bad move '{s}'")));
        }
        let color = if b[0] == b'+' { Color::Black } else { Color::White };
        if color != pos.side_to_move() {
            return Err(RecordError::at(no, format!("move '{s}' by the side not to move")));
        }
        if self.game.moves.len() >= MAX_MOVES {
            return Err(RecordError::at(no, format!("more than {MAX_MOVES} moves")));
        }
        let (_, pt) = piece(&format!("+{}", &s[5..7]), no)?;
        let to = square(&b[3..5], no)?.ok_or_else(|| RecordError::at(no, format!("bad move '{s}'")))?;
        let usi = match square(&b[1..3], no)? {
            None => format!("{}*{}", pt.letter(), usi_square(to)),
            Some(from) => {
                let sq = crate::core::types::Square::from_usi(&usi_square(from)).ok_or_else(|| RecordError::at(no, "bad square"))?;
                let before = pos.piece_on(sq).piece_type();
                let promote = matches!(before, Some(p) if !p.is_promoted() && pt.is_promoted());
                if before.map(|p| if promote { p.promote() } else { p }) != Some(pt) {
                    return Err(RecordError::at(no, format!("move '{s}' names a piece that is not on its square")));
                }
                format!("{}{}{}", usi_square(from), usi_square(to), if promote { "+" } else { "" })
            }
        };
        let m = play(pos, &usi, no)?;
        self.game.moves.push(m);
        Ok(())
    }
}

/// `(file - 1, rank - 1)` of a CSA square, `None` for `00` (hand).
fn square(b: &[u8], no: usize) -> Result<Option<(usize, usize)>, RecordError> {
    let bad = || RecordError::at(no, format!("bad square '{}'", String::from_utf8_lossy(b)));
    let (f, r) = match b {
        [f, r, ..] => (*f, *r),
        _ => return Err(bad()),
    };
    match (f, r) {
        (b'0', b'0') => Ok(None),
        (b'1'..=b'9', b'1'..=b'9') => Ok(Some(((f - b'1') as usize, (r - b'1') as usize))),
        _ => Err(bad()),
    }
}

fn usi_square((file, rank): (usize, usize)) -> String {
    format!("{}{}", file + 1, (b'a' + rank as u8) as char)
}

/// A `+FU`-style cell.
fn piece(cell: &str, no: usize) -> Result<(Color, PieceType), RecordError> {
    let color = match cell.as_bytes().first() {
        Some(b'+') => Color::Black,
        Some(b'-') => Color::White,
        _ => return Err(RecordError::at(no, format!("bad piece '{cell}'"))),
    };
    let pt = match cell.get(1..) {
        Some("FU") => PieceType::Pawn,
        Some("KY") => PieceType::Lance,
        Some("KE") => PieceType::Knight,
        Some("GI") => PieceType::Silver,
        Some("KI") => PieceType::Gold,
        Some("KA") => PieceType::Bishop,
        Some("HI") => PieceType::Rook,
        Some("OU") => PieceType::King,
        Some("TO") => PieceType::ProPawn,
        Some("NY") => PieceType::ProLance,
        Some("NK") => PieceType::ProKnight,
        Some("NG") => PieceType::ProSilver,
        Some("UM") => PieceType::Horse,
        Some("RY") => PieceType::Dragon,
        _ => return Err(RecordError::at(no, format!("bad piece '{cell}'"))),
    };
    Ok((color, pt))
}
