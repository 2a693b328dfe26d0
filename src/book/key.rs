//! Book keys: a position reduced to its board, side to move and hands (the SFEN's
//! first three fields, with the hand notation normalised), the colour-flipped
//! version of it, and the 64-bit hash the book is indexed by.

use crate::core::types::Move;

/// Hand piece letters in the order the key stores their counts.
const HAND_LETTERS: [u8; 7] = *b"RBGSNLP";

/// Most pieces of one kind a hand can hold (pawns), bounding parsed counts.
const MAX_HAND_COUNT: u32 = 18;

/// A position as the book sees it: 81 squares in SFEN reading order (rank a first,
/// file 9 to 1 within a rank), side to move and both hands.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PosKey {
    /// Piece codes: 0 empty, else `letter index + 1`, +16 when promoted, +32 for White.
    board: [u8; 81],
    /// 0 Black (sente), 1 White (gote).
    side: u8,
    /// Hand counts, `[colour][HAND_LETTERS index]`.
    hands: [[u8; 7]; 2],
}

/// Board piece letters; the index plus one is the piece code.
const BOARD_LETTERS: [u8; 8] = *b"PLNSGBRK";

impl PosKey {
    /// Parses the board, side and hand fields of an SFEN. The move number, if
    /// given, is not part of the key (see [`parse_ply`]).
    pub fn parse(board: &str, side: &str, hand: &str) -> Result<PosKey, String> {
        let mut key = PosKey { board: [0; 81], side: 0, hands: [[0; 7]; 2] };
        key.parse_board(board)?;
        key.side = match side {
            "b" => 0,
            "w" => 1,
            _ => return Err(format!("side to move '{}' is not b or w", clip(side))),
        };
        key.parse_hand(hand)?;
        Ok(key)
    }

    /// The key of a whole SFEN text (`board side hand [ply]`).
    pub fn from_sfen(sfen: &str) -> Result<PosKey, String> {
        let f: Vec<&str> = sfen.split_whitespace().collect();
        if f.len() < 3 {
            return Err("SFEN needs board, side and hand".into());
        }
        PosKey::parse(f[0], f[1], f[2])
    }

    fn parse_board(&mut self, text: &str) -> Result<(), String> {
        let ranks = text.split('/').count();
        if ranks != 9 {
            return Err(format!("board has {ranks} ranks, 9 expected"));
        }
        for (r, rank) in text.split('/').enumerate() {
            let mut col = 0usize;
            let mut promoted = false;
            for &c in rank.as_bytes() {
                if c == b'+' {
                    if promoted {
                        return Err(format!("double '+' in rank {}", r + 1));
                    }
                    promoted = true;
                    continue;
                }
                if (b'1'..=b'9').contains(&c) && !promoted {
                    col += (c - b'0') as usize;
                } else {
                    let upper = c.to_ascii_uppercase();
                    let Some(i) = BOARD_LETTERS.iter().position(|&l| l == upper) else {
                        return Err(format!("bad board character '{}' in rank {}", c as char, r + 1));
                    };
                    if promoted && (upper == b'G' || upper == b'K') {
                        return Err(format!("'+{}' cannot promote", c as char));
                    }
                    if col >= 9 {
                        return Err(format!("rank {} is wider than 9 squares", r + 1));
                    }
                    let white = if c.is_ascii_lowercase() { 32 } else { 0 };
                    self.board[r * 9 + col] = (i as u8 + 1) + if promoted { 16 } else { 0 } + white;
                    col += 1;
                    promoted = false;
                }
                if col > 9 {
                    return Err(format!("rank {} is wider than 9 squares", r + 1));
                }
            }
            if promoted || col != 9 {
                return Err(format!("rank {} does not cover 9 squares", r + 1));
            }
        }
        Ok(())
    }

    fn parse_hand(&mut self, text: &str) -> Result<(), String> {
        if text == "-" {
            return Ok(());
        }
        let mut n: u32 = 0;
        let mut digits = 0;
        for &c in text.as_bytes() {
            if c.is_ascii_digit() {
                digits += 1;
                n = n * 10 + (c - b'0') as u32;
                if digits > 2 || n > MAX_HAND_COUNT {
                    return Err(format!("hand count too large in '{}'", clip(text)));
                }
                continue;
            }
            let Some(i) = HAND_LETTERS.iter().position(|&l| l == c.to_ascii_uppercase()) else {
                return Err(format!("bad hand character '{}'", c as char));
            };
            let colour = usize::from(c.is_ascii_lowercase());
            let add = if digits == 0 { 1 } else { n };
            let total = self.hands[colour][i] as u32 + add;
            if total > MAX_HAND_COUNT || add == 0 {
                return Err(format!("bad hand count in '{}'", clip(text)));
            }
            self.hands[colour][i] = total as u8;
            n = 0;
            digits = 0;
        }
        if digits > 0 {
            return Err(format!("hand '{}' ends in a number", clip(text)));
        }
        Ok(())
    }

    /// The same position with the colours exchanged: the board turned 180 degrees,
    /// every piece changing side, the hands swapped and the other side to move.
    pub fn flipped(&self) -> PosKey {
        let mut board = [0u8; 81];
        for (i, &pc) in self.board.iter().enumerate() {
            board[80 - i] = if pc == 0 { 0 } else { pc ^ 32 };
        }
        PosKey { board, side: self.side ^ 1, hands: [self.hands[1], self.hands[0]] }
    }

    /// Whether White is to move.
    pub fn white_to_move(&self) -> bool {
        self.side == 1
    }

    /// The SFEN of this key with move number `ply` (canonical hand notation).
    pub fn to_sfen(&self, ply: u32) -> String {
        let mut s = String::with_capacity(96);
        for r in 0..9 {
            let mut empty = 0;
            for col in 0..9 {
                let pc = self.board[r * 9 + col];
                if pc == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push((b'0' + empty) as char);
                    empty = 0;
                }
                if pc & 16 != 0 {
                    s.push('+');
                }
                let l = BOARD_LETTERS[((pc & 15) - 1) as usize] as char;
                s.push(if pc & 32 != 0 { l.to_ascii_lowercase() } else { l });
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if r < 8 {
                s.push('/');
            }
        }
        s.push_str(if self.side == 0 { " b " } else { " w " });
        let mut any = false;
        for colour in 0..2 {
            for (i, &l) in HAND_LETTERS.iter().enumerate() {
                let n = self.hands[colour][i];
                if n == 0 {
                    continue;
                }
                any = true;
                if n > 1 {
                    s.push_str(&n.to_string());
                }
                s.push(if colour == 1 { l.to_ascii_lowercase() as char } else { l as char });
            }
        }
        if !any {
            s.push('-');
        }
        s.push(' ');
        s.push_str(&ply.to_string());
        s
    }

    /// 64-bit hash of the key and, when given, the move number.
    pub fn hash(&self, ply: Option<u32>) -> u64 {
        let mut h: u64 = 0x6a09_e667_f3bc_c908;
        let mut word = |w: u64| h = mix(h ^ mix(w));
        for chunk in self.board.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            word(u64::from_le_bytes(b));
        }
        let mut tail = [0u8; 8];
        tail[..7].copy_from_slice(&self.hands[0]);
        tail[7] = self.side;
        word(u64::from_le_bytes(tail));
        let mut tail = [0u8; 8];
        tail[..7].copy_from_slice(&self.hands[1]);
        word(u64::from_le_bytes(tail));
        word(ply.map_or(u64::MAX, u64::from));
        h
    }
}

/// splitmix64's finaliser: a fast mixer with full avalanche.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Parses an SFEN move number field (1 to 1,000,000).
pub fn parse_ply(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if (1..=1_000_000).contains(&n) => Ok(n),
        _ => Err(format!("move number '{}' is not a number from 1 to 1000000", clip(text))),
    }
}

/// A move seen from the other side (both squares turned 180 degrees).
pub fn flip_move(m: Move) -> Move {
    if m == Move::NONE {
        return m;
    }
    if m.is_drop() {
        Move::drop(m.drop_piece(), m.to().flip())
    } else {
        Move::normal(m.from().flip(), m.to().flip(), m.is_promotion())
    }
}

/// At most 40 characters of `s`, for error messages about outside text.
pub fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{Position, START_SFEN};

    #[test]
    fn round_trips_and_normalises_hands() {
        let k = PosKey::from_sfen(START_SFEN).unwrap();
        assert_eq!(k.to_sfen(1), START_SFEN);
        let a = PosKey::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b PPp 1").unwrap();
        let b = PosKey::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b p2P 7").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.hash(None), b.hash(None));
        assert_ne!(a.hash(Some(1)), b.hash(Some(7)));
    }

    #[test]
    fn matches_position_sfen_and_flip_is_an_involution() {
        let sfen = "ln1g3nl/1r1sg1k2/p1ppppsp1/1p4p1p/7P1/2P6/PPSPPPP1P/2G4R1/LN2KGSNL w Bb 22";
        let pos = Position::from_sfen(sfen).unwrap();
        let k = PosKey::from_sfen(&pos.to_sfen()).unwrap();
        assert_eq!(k.to_sfen(22), pos.to_sfen());
        assert_eq!(k.flipped().flipped(), k);
        assert!(k.white_to_move() && !k.flipped().white_to_move());
        let m = Move::from_usi("7g7f").unwrap();
        assert_eq!(flip_move(m).to_string(), "3c3d");
    }

    #[test]
    fn refuses_garbage() {
        for s in ["9/9/9 b - 1", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1", "9/9/9/9/9/9/9/9/9 x - 1", "9/9/9/9/9/9/9/9/9 b 99P 1", "9/9/9/9/9/9/9/9/+9 b - 1"] {
            assert!(PosKey::from_sfen(s).is_err(), "{s}");
        }
    }
}
