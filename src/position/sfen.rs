//! SFEN in and out: parsing with every refusal typed (`SfenError` says which field was
//! wrong and why), validation of the set-up (kings, dead pieces, nifu, piece counts, the
//! side not to move in check), and writing a position back. Uses `core`.

use super::Position;
use crate::core::bitboard::Bitboard;
use crate::core::types::{Color, Hand, Piece, PieceType, Square};
use std::fmt;

/// Why an SFEN was refused: the field at fault, with a message for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SfenError {
    /// Too few or too many fields.
    FieldCount(String),
    /// The board field is malformed.
    Board(String),
    /// The side-to-move field is not `b` or `w`.
    SideToMove(String),
    /// The move number is not a positive integer.
    MoveNumber(String),
    /// The hand field is malformed or holds impossible counts.
    Hand(String),
    /// The fields parse but the position breaks a rule (kings, dead pieces, nifu,
    /// piece counts, the side not to move in check).
    Illegal(String),
}

impl SfenError {
    /// The message without the kind.
    pub fn message(&self) -> &str {
        match self {
            SfenError::FieldCount(m)
            | SfenError::Board(m)
            | SfenError::SideToMove(m)
            | SfenError::MoveNumber(m)
            | SfenError::Hand(m)
            | SfenError::Illegal(m) => m,
        }
    }
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for SfenError {}

fn err<T>(kind: fn(String) -> SfenError, msg: impl Into<String>) -> Result<T, SfenError> {
    Err(kind(msg.into()))
}

impl Position {
    /// Parses an SFEN (`board side hands [move number]`), refusing illegal set-ups.
    pub fn from_sfen(sfen: &str) -> Result<Position, SfenError> {
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        if fields.len() < 3 {
            return err(SfenError::FieldCount, format!("SFEN needs board, side and hand fields, got {} field(s)", fields.len()));
        }
        if fields.len() > 4 {
            return err(SfenError::FieldCount, format!("SFEN has {} fields, at most 4 expected", fields.len()));
        }
        let mut pos = Position::empty();
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 9 {
            return err(SfenError::Board, format!("SFEN board has {} ranks, 9 expected", ranks.len()));
        }
        for (r, text) in ranks.iter().enumerate() {
            let mut file: i32 = 8; // leftmost column is file 9
            let mut promoted = false;
            for ch in text.chars() {
                if let Some(d) = ch.to_digit(10) {
                    if promoted {
                        return err(SfenError::Board, format!("'+' before a digit in rank {}", r + 1));
                    }
                    if d == 0 {
                        return err(SfenError::Board, format!("empty-square count 0 in rank {}", r + 1));
                    }
                    file -= d as i32;
                    if file < -1 {
                        return err(SfenError::Board, format!("rank {} is wider than 9 squares", r + 1));
                    }
                    continue;
                }
                if ch == '+' {
                    if promoted {
                        return err(SfenError::Board, format!("double '+' in rank {}", r + 1));
                    }
                    promoted = true;
                    continue;
                }
                let Some(mut pt) = PieceType::from_letter(ch) else {
                    return err(SfenError::Board, format!("unknown piece letter '{ch}' in rank {}", r + 1));
                };
                if promoted {
                    if !pt.can_promote() {
                        return err(SfenError::Board, format!("'+{ch}' cannot be promoted"));
                    }
                    pt = pt.promote();
                    promoted = false;
                }
                if file < 0 {
                    return err(SfenError::Board, format!("rank {} is wider than 9 squares", r + 1));
                }
                let c = if ch.is_ascii_uppercase() { Color::Black } else { Color::White };
                pos.put_piece(Piece::new(c, pt), Square::new(file as u8, r as u8));
                file -= 1;
            }
            if promoted {
                return err(SfenError::Board, format!("'+' at the end of rank {}", r + 1));
            }
            if file != -1 {
                return err(SfenError::Board, format!("rank {} has {} squares, 9 expected", r + 1, 8 - file));
            }
        }
        pos.side = match fields[1] {
            "b" => Color::Black,
            "w" => Color::White,
            s => return err(SfenError::SideToMove, format!("side to move must be 'b' or 'w', got '{s}'")),
        };
        pos.parse_hands(fields[2])?;
        if let Some(n) = fields.get(3) {
            match n.parse::<u32>() {
                Ok(v) if v >= 1 => pos.game_ply = v,
                _ => return err(SfenError::MoveNumber, format!("move number must be a positive integer, got '{n}'")),
            }
        }
        pos.validate()?;
        pos.init_state();
        let waiting = pos.side.flip();
        if pos.has_king(waiting) && pos.attackers_to(pos.king_square(waiting), pos.side, pos.occupied()).any() {
            return err(SfenError::Illegal, "the side not to move is in check (its king could be captured)");
        }
        Ok(pos)
    }

    fn parse_hands(&mut self, text: &str) -> Result<(), SfenError> {
        if text == "-" {
            return Ok(());
        }
        let mut count: u32 = 0;
        let mut has_count = false;
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10) {
                if !has_count && d == 0 {
                    return err(SfenError::Hand, "hand count may not start with 0");
                }
                count = count * 10 + d;
                has_count = true;
                if count > 18 {
                    return err(SfenError::Hand, format!("hand count {count} is too large"));
                }
                continue;
            }
            let Some(pt) = PieceType::from_letter(ch) else {
                return err(SfenError::Hand, format!("unknown piece letter '{ch}' in hand"));
            };
            if pt == PieceType::King {
                return err(SfenError::Hand, "a king cannot be in hand");
            }
            let c = if ch.is_ascii_uppercase() { Color::Black } else { Color::White };
            let n = if has_count { count } else { 1 };
            let total = self.hands[c.index()].count(pt) + n;
            if total > Hand::max_count(pt) {
                return err(SfenError::Hand, format!("too many '{ch}' in hand ({total})"));
            }
            self.hands[c.index()].set(pt, total);
            count = 0;
            has_count = false;
        }
        if has_count {
            return err(SfenError::Hand, "hand field ends with a count and no piece");
        }
        Ok(())
    }

    fn validate(&self) -> Result<(), SfenError> {
        // Tsume problems often leave out the attacker's king, so one side may have
        // none; a position needs at least one king.
        if self.pieces(PieceType::King).is_empty() {
            return err(SfenError::Illegal, "neither side has a king");
        }
        for c in Color::ALL {
            let kings = (self.pieces(PieceType::King) & self.color_pieces(c)).count();
            let name = if c == Color::Black { "Black" } else { "White" };
            if kings > 1 {
                return err(SfenError::Illegal, format!("{name} has {kings} kings"));
            }
            let own = self.color_pieces(c);
            let last = Bitboard::relative_ranks(c, 0, 0);
            let last2 = Bitboard::relative_ranks(c, 0, 1);
            if (self.pieces(PieceType::Pawn) & own & last).any() {
                return err(SfenError::Illegal, format!("{name} pawn on the last rank cannot move"));
            }
            if (self.pieces(PieceType::Lance) & own & last).any() {
                return err(SfenError::Illegal, format!("{name} lance on the last rank cannot move"));
            }
            if (self.pieces(PieceType::Knight) & own & last2).any() {
                return err(SfenError::Illegal, format!("{name} knight on the last two ranks cannot move"));
            }
            let pawns = self.pieces(PieceType::Pawn) & own;
            for f in 0..9u8 {
                if (pawns & Bitboard::file(f)).more_than_one() {
                    return err(SfenError::Illegal, format!("{name} has two unpromoted pawns on file {} (nifu)", f + 1));
                }
            }
        }
        for pt in PieceType::HAND {
            let mut n = self.hands[0].count(pt) + self.hands[1].count(pt);
            n += self.pieces(pt).count();
            if pt != PieceType::Gold {
                n += self.pieces(pt.promote()).count();
            }
            if n > Hand::max_count(pt) {
                return err(SfenError::Illegal, format!("{n} pieces of kind {} exceed the set ({})", pt.letter(), Hand::max_count(pt)));
            }
        }
        Ok(())
    }

    /// The position as SFEN (exact inverse of `from_sfen` for canonical input).
    pub fn to_sfen(&self) -> String {
        write_sfen(&self.board, self.side, &self.hands, self.game_ply)
    }
}

/// SFEN of a board, side to move, hands and move number (for `Position` and for
/// decoded records that are not positions yet).
pub fn write_sfen(board: &[Piece; 81], side: Color, hands: &[Hand; 2], ply: u32) -> String {
    let mut s = String::with_capacity(96);
    for r in 0..9u8 {
        let mut empty = 0;
        for f in (0..9u8).rev() {
            let pc = board[Square::new(f, r).index()];
            if pc.is_none() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
                empty = 0;
            }
            s.push_str(&pc.sfen());
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if r < 8 {
            s.push('/');
        }
    }
    s.push_str(if side == Color::Black { " b " } else { " w " });
    let mut any = false;
    for c in Color::ALL {
        for pt in PieceType::HAND_SFEN_ORDER {
            let n = hands[c.index()].count(pt);
            if n == 0 {
                continue;
            }
            any = true;
            if n > 1 {
                s.push_str(&n.to_string());
            }
            let l = pt.letter();
            s.push(if c == Color::Black { l } else { l.to_ascii_lowercase() });
        }
    }
    if !any {
        s.push('-');
    }
    s.push(' ');
    s.push_str(&ply.to_string());
    s
}
