//! PackedSfen: a position in 256 bits (YaneuraOu's `sfen_packer`, as cshogi writes it).
//!
//! Layout, in stream order: side to move (1 bit, 0 = Black); Black's and White's king
//! squares (7 bits each, `file * 9 + rank` with file 0 = USI `1`, rank 0 = `a`); the 81
//! squares in index order, kings skipped, each a Huffman code (empty `0`, pawn `10`,
//! lance `1100`, knight `1101`, silver `1110`, gold `11110`, bishop `111110`, rook
//! `111111`, bits in stream order) followed, for a piece, by a promoted bit (not for
//! gold) and a colour bit; then the pieces in hand, Black's then White's, each kind
//! P L N S G B R in turn, as the board code without its last bit, a 0 bit (not for
//! gold) and the colour bit; then the pieces in neither (the "piece box" of a handicap
//! game) as hand pieces with the promoted bit set and colour 0, except a gold, which is
//! written as a silver with colour 1 (a gold has no promoted bit). With all 40 pieces
//! accounted for the stream is exactly 256 bits.

use super::bits::{BitReader, BitWriter, BITS};
use crate::position::Position;
use crate::core::types::{Color, Hand, Piece, PieceType, Square};
use std::fmt;

/// A position packed into 32 bytes.
pub type PackedSfen = [u8; 32];

/// Hand kinds in the order the packer writes them (cshogi's order).
const PACK_ORDER: [PieceType; 7] = [
    PieceType::Pawn,
    PieceType::Lance,
    PieceType::Knight,
    PieceType::Silver,
    PieceType::Gold,
    PieceType::Bishop,
    PieceType::Rook,
];

/// Board Huffman code (value, bit count) of an unpromoted kind; index 0 = empty.
const CODE: [(u32, u32); 8] = [(0x00, 1), (0x01, 2), (0x03, 4), (0x0b, 4), (0x07, 4), (0x1f, 6), (0x3f, 6), (0x0f, 5)];

/// Why 32 bytes are not a PackedSfen, or a position cannot be packed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackError(pub String);

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn fail<T>(msg: impl Into<String>) -> Result<T, PackError> {
    Err(PackError(msg.into()))
}

/// How many of each unpromoted kind a full set has.
fn full_set(pt: PieceType) -> u32 {
    match pt {
        PieceType::Pawn => 18,
        PieceType::Bishop | PieceType::Rook => 2,
        _ => 4,
    }
}

fn code(pt: PieceType) -> (u32, u32) {
    CODE[pt.index()]
}

/// Packs `pos`. Fails for a position without both kings or with more pieces of a
/// kind than a set has (neither occurs in a game).
pub fn pack(pos: &Position) -> Result<PackedSfen, PackError> {
    if !pos.has_king(Color::Black) || !pos.has_king(Color::White) {
        return fail("a PackedSfen needs both kings");
    }
    let mut w = BitWriter::new();
    let mut used = [0u32; 8];
    w.bit(pos.side_to_move() == Color::White);
    w.bits(pos.king_square(Color::Black).index() as u32, 7);
    w.bits(pos.king_square(Color::White).index() as u32, 7);
    let mut ok = true;
    for sq in Square::all() {
        let pc = pos.piece_on(sq);
        let Some(pt) = pc.piece_type() else {
            ok &= w.bit(false);
            continue;
        };
        if pt == PieceType::King {
            continue;
        }
        let raw = pt.unpromote();
        used[raw.index()] += 1;
        let (v, n) = code(raw);
        ok &= w.bits(v, n);
        if raw != PieceType::Gold {
            ok &= w.bit(pt.is_promoted());
        }
        ok &= w.bit(pc.color() == Color::White);
    }
    for c in Color::ALL {
        for pt in PACK_ORDER {
            for _ in 0..pos.hand(c).count(pt) {
                used[pt.index()] += 1;
                ok &= write_hand_piece(&mut w, pt, false, c == Color::White);
            }
        }
    }
    for pt in PACK_ORDER {
        let Some(missing) = full_set(pt).checked_sub(used[pt.index()]) else {
            return fail(format!("more than {} pieces of kind {}", full_set(pt), pt.letter()));
        };
        for _ in 0..missing {
            ok &= match pt {
                PieceType::Gold => write_hand_piece(&mut w, PieceType::Silver, true, true),
                _ => write_hand_piece(&mut w, pt, true, false),
            };
        }
    }
    if !ok || w.cursor() != BITS {
        return fail(format!("position does not fill 256 bits ({})", w.cursor()));
    }
    Ok(w.finish())
}

fn write_hand_piece(w: &mut BitWriter, pt: PieceType, boxed: bool, white: bool) -> bool {
    let (v, n) = code(pt);
    let mut ok = w.bits(v >> 1, n - 1);
    if pt != PieceType::Gold {
        ok &= w.bit(boxed);
    }
    ok & w.bit(white)
}

/// A decoded PackedSfen: board, hands and side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unpacked {
    /// Piece on each square (file-major index).
    pub board: [Piece; 81],
    /// Black's and White's hands.
    pub hands: [Hand; 2],
    /// Side to move.
    pub side: Color,
}

/// Reads one Huffman code (board codes, or hand codes: the board code less its last
/// bit); `Ok(None)` is an empty square.
fn read_kind(r: &mut BitReader, hand: bool) -> Result<Option<PieceType>, PackError> {
    let (mut v, mut n) = (0u32, 0u32);
    loop {
        let Some(b) = r.bit() else { return fail("stream ends inside a piece code") };
        v |= (b as u32) << n;
        n += 1;
        for (i, &(cv, cn)) in CODE.iter().enumerate() {
            let (cv, cn) = if hand { (cv >> 1, cn - 1) } else { (cv, cn) };
            if (!hand || i > 0) && cv == v && cn == n {
                return Ok(PieceType::from_index(i));
            }
        }
        if n >= 6 {
            return fail("bad piece code");
        }
    }
}

fn read_bit(r: &mut BitReader) -> Result<bool, PackError> {
    r.bit().ok_or_else(|| PackError("stream ends inside a piece".into()))
}

/// Decodes a PackedSfen (the piece box, if any, is dropped). Checks the bit layout and
/// piece counts; the caller checks the position's legality (`Position::from_sfen`).
pub fn unpack(data: &PackedSfen) -> Result<Unpacked, PackError> {
    let mut r = BitReader::new(data);
    let mut u = Unpacked { board: [Piece::NONE; 81], hands: [Hand::EMPTY; 2], side: Color::Black };
    let mut used = [0u32; 8];
    u.side = if read_bit(&mut r)? { Color::White } else { Color::Black };
    for c in Color::ALL {
        let sq = r.bits(7).unwrap_or(127) as usize;
        if sq >= 81 || u.board[sq].is_some() {
            return fail(format!("bad king square {sq}"));
        }
        u.board[sq] = Piece::new(c, PieceType::King);
    }
    for sq in 0..81 {
        if u.board[sq].is_some() {
            continue;
        }
        let Some(pt) = read_kind(&mut r, false)? else { continue };
        let promoted = pt != PieceType::Gold && read_bit(&mut r)?;
        let c = if read_bit(&mut r)? { Color::White } else { Color::Black };
        used[pt.index()] += 1;
        u.board[sq] = Piece::new(c, if promoted { pt.promote() } else { pt });
    }
    while r.cursor() < BITS {
        let Some(pt) = read_kind(&mut r, true)? else { return fail("bad hand code") };
        let boxed = pt != PieceType::Gold && read_bit(&mut r)?;
        let white = read_bit(&mut r)?;
        let kind = if boxed && white && pt == PieceType::Silver { PieceType::Gold } else { pt };
        used[kind.index()] += 1;
        if !boxed {
            u.hands[white as usize].add(pt);
        }
    }
    for pt in PACK_ORDER {
        if used[pt.index()] > full_set(pt) {
            return fail(format!("{} pieces of kind {}", used[pt.index()], pt.letter()));
        }
    }
    Ok(u)
}

impl Unpacked {
    /// The position as SFEN with move number `ply` (at least 1).
    pub fn to_sfen(&self, ply: u32) -> String {
        crate::position::write_sfen(&self.board, self.side, &self.hands, ply.max(1))
    }

    /// The position (move number `ply`), refusing illegal set-ups.
    pub fn to_position(&self, ply: u32) -> Result<Position, PackError> {
        Position::from_sfen(&self.to_sfen(ply)).map_err(|e| PackError(format!("illegal position: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(sfen: &str) {
        crate::init();
        let pos = Position::from_sfen(sfen).unwrap();
        let packed = pack(&pos).unwrap();
        assert_eq!(unpack(&packed).unwrap().to_sfen(pos.game_ply()), pos.to_sfen(), "{sfen}");
    }

    #[test]
    fn positions_round_trip() {
        round_trip(crate::position::START_SFEN);
        round_trip("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
        round_trip("8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124");
        round_trip("4k4/9/9/9/9/9/9/9/4K4 b 2P 1");
        round_trip("4k4/9/9/9/9/9/9/9/4K4 w 2R2B4G4S4N4L18P 30");
    }

    #[test]
    fn bad_data_is_refused() {
        crate::init();
        let mut packed = pack(&Position::startpos()).unwrap();
        // Black's king on square 127.
        packed[0] |= 0xfe;
        assert!(unpack(&packed).is_err());
        // All ones: the king squares are off the board.
        assert!(unpack(&[0xff; 32]).is_err());
        // Text is not a PackedSfen.
        let text: [u8; 32] = *b"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/";
        assert!(unpack(&text).is_err());
    }
}
