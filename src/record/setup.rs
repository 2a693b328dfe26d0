//! A start position being assembled (board cells, hands, side to move) and its SFEN:
//! shared by the CSA `P` lines and the KIF board diagrams.

use crate::core::types::{Color, Piece, PieceType};

/// Board and hands before they become a `Position`.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Cells by `[file - 1][rank - 1]` (file 1 is the right-hand edge seen by Black).
    pub cells: [[Option<(Color, PieceType)>; 9]; 9],
    /// Pieces in hand by colour, counted by `PieceType::index`.
    pub hands: [[u32; PieceType::NUM]; 2],
    /// Side to move.
    pub side: Color,
}

impl Setup {
    /// Empty board, empty hands, Black to move.
    pub fn empty() -> Setup {
        Setup { cells: [[None; 9]; 9], hands: [[0; PieceType::NUM]; 2], side: Color::Black }
    }

    /// The even start position.
    pub fn even() -> Setup {
        let mut s = Setup::empty();
        let back = [PieceType::Lance, PieceType::Knight, PieceType::Silver, PieceType::Gold, PieceType::King];
        for f in 0..9 {
            let pt = back[f.min(8 - f)];
            s.cells[f][0] = Some((Color::White, pt));
            s.cells[f][8] = Some((Color::Black, pt));
            s.cells[f][2] = Some((Color::White, PieceType::Pawn));
            s.cells[f][6] = Some((Color::Black, PieceType::Pawn));
        }
        s.cells[1][1] = Some((Color::White, PieceType::Bishop));
        s.cells[7][1] = Some((Color::White, PieceType::Rook));
        s.cells[7][7] = Some((Color::Black, PieceType::Bishop));
        s.cells[1][7] = Some((Color::Black, PieceType::Rook));
        s
    }

    /// SFEN text (move number 1).
    pub fn to_sfen(&self) -> String {
        let mut s = String::new();
        for rank in 0..9 {
            let mut empty = 0;
            for file in (0..9).rev() {
                match self.cells[file][rank] {
                    None => empty += 1,
                    Some((c, pt)) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push_str(&Piece::new(c, pt).sfen());
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank < 8 {
                s.push('/');
            }
        }
        s.push_str(if self.side == Color::Black { " b " } else { " w " });
        let mut hand = String::new();
        for c in [Color::Black, Color::White] {
            for pt in PieceType::HAND_SFEN_ORDER {
                let n = self.hands[c.index()][pt.index()];
                if n > 1 {
                    hand.push_str(&n.to_string());
                }
                if n > 0 {
                    hand.push_str(&Piece::new(c, pt).sfen());
                }
            }
        }
        s.push_str(if hand.is_empty() { "-" } else { &hand });
        s.push_str(" 1");
        s
    }
}
