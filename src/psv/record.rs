//! One PackedSfenValue record (40 bytes, little-endian): PackedSfen (32), score (i16,
//! side to move's view), best move (u16, YaneuraOu move16), game ply (u16), game
//! result (i8: 1 win, 0 draw, -1 loss for the side to move), padding (u8).
//!
//! Hisha's `gensfen` uses the padding byte, which other readers ignore, to mark games:
//! bits 0-6 hold the game's number in its file modulo 128 and bit 7 is set on a game's
//! last record. A reader can so tell whole games apart and a resumed run can count
//! the games already written.

use super::move16::{from_move16, to_move16};
use super::packed_sfen::{pack, unpack, PackError, PackedSfen};
use crate::position::Position;
use crate::core::types::Move;

/// Bytes per record.
pub const RECORD_BYTES: usize = 40;
/// Padding bit set on the last record of a game.
pub const GAME_END: u8 = 0x80;

/// One training record.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PackedSfenValue {
    /// The position.
    pub sfen: PackedSfen,
    /// Search score, side to move's view.
    pub score: i16,
    /// Best move, YaneuraOu encoding.
    pub move16: u16,
    /// Move number of the position (1 at the start of a game).
    pub game_ply: u16,
    /// Game result for the side to move: 1 win, 0 draw, -1 loss.
    pub game_result: i8,
    /// Padding; Hisha's game marker (see the module text).
    pub padding: u8,
}

impl PackedSfenValue {
    /// A record of `pos` with its score, best move and result (side to move's view).
    pub fn new(pos: &Position, score: i32, best: Move, result: i8) -> Result<PackedSfenValue, PackError> {
        Ok(PackedSfenValue {
            sfen: pack(pos)?,
            score: score.clamp(-32000, 32000) as i16,
            move16: to_move16(best),
            game_ply: pos.game_ply().min(u16::MAX as u32) as u16,
            game_result: result.clamp(-1, 1),
            padding: 0,
        })
    }

    /// The 40 bytes.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[..32].copy_from_slice(&self.sfen);
        b[32..34].copy_from_slice(&self.score.to_le_bytes());
        b[34..36].copy_from_slice(&self.move16.to_le_bytes());
        b[36..38].copy_from_slice(&self.game_ply.to_le_bytes());
        b[38] = self.game_result as u8;
        b[39] = self.padding;
        b
    }

    /// The record in 40 bytes (not validated: see `decode`).
    pub fn from_bytes(b: &[u8; RECORD_BYTES]) -> PackedSfenValue {
        let mut sfen = [0u8; 32];
        sfen.copy_from_slice(&b[..32]);
        PackedSfenValue {
            sfen,
            score: i16::from_le_bytes([b[32], b[33]]),
            move16: u16::from_le_bytes([b[34], b[35]]),
            game_ply: u16::from_le_bytes([b[36], b[37]]),
            game_result: b[38] as i8,
            padding: b[39],
        }
    }

    /// The position and best move, checked: a legal position, a result in -1..=1 and
    /// a legal move (or none).
    pub fn decode(&self) -> Result<(Position, Option<Move>), PackError> {
        if !(-1..=1).contains(&self.game_result) {
            return Err(PackError(format!("game result {} is not -1, 0 or 1", self.game_result)));
        }
        let pos = unpack(&self.sfen)?.to_position(self.game_ply as u32)?;
        if self.move16 == 0 {
            return Ok((pos, None));
        }
        match from_move16(self.move16).filter(|&m| crate::movegen::is_legal(&pos, m)) {
            Some(m) => Ok((pos, Some(m))),
            None => Err(PackError(format!("move code {:#06x} is not a legal move", self.move16))),
        }
    }

    /// Whether this is the last record of a game (Hisha's marker).
    pub fn ends_game(&self) -> bool {
        self.padding & GAME_END != 0
    }

    /// Sets the marker: game number `game` (mod 128), last record of it or not.
    pub fn mark(&mut self, game: u64, last: bool) {
        self.padding = (game & 0x7f) as u8 | if last { GAME_END } else { 0 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_and_decode() {
        crate::init();
        let pos = Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1").unwrap();
        let m = pos.parse_usi_move("7g7f").unwrap();
        let mut r = PackedSfenValue::new(&pos, 57, m, -1).unwrap();
        r.mark(130, true);
        let b = r.to_bytes();
        assert_eq!(&b[32..40], &[57, 0, 0x3b, 0x1e, 1, 0, 0xff, 0x82]);
        let back = PackedSfenValue::from_bytes(&b);
        assert_eq!(back, r);
        assert!(back.ends_game());
        let (p, mv) = back.decode().unwrap();
        assert_eq!(p.to_sfen(), pos.to_sfen());
        assert_eq!(mv, Some(m));
    }

    #[test]
    fn decode_refuses_illegal_move_and_result() {
        crate::init();
        let pos = Position::startpos();
        let mut r = PackedSfenValue::new(&pos, 0, pos.parse_usi_move("7g7f").unwrap(), 0).unwrap();
        r.move16 = to_move16(Move::from_usi("7g7e").unwrap());
        assert!(r.decode().is_err());
        r.move16 = 0;
        r.game_result = 2;
        assert!(r.decode().is_err());
    }
}
