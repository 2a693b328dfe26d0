//! Static exchange evaluation: the material balance of the captures on one square that
//! a move starts, each side taking with its least valuable piece and free to stop.
//! `see` gives the balance; `see_ge` answers "is it at least this much?" with the
//! early exits of Stockfish's threshold form (most questions the search asks are
//! settled before any attacker is looked up). Uses `core` and the position.

use super::Position;
use crate::core::bitboard::Bitboard;
use crate::core::types::{Color, Move, PieceType, Square, PIECE_VALUE};

/// The order in which pieces capture: least valuable first.
const SEE_ORDER: [PieceType; 14] = [
    PieceType::Pawn,
    PieceType::Lance,
    PieceType::Knight,
    PieceType::ProPawn,
    PieceType::ProLance,
    PieceType::ProKnight,
    PieceType::Silver,
    PieceType::ProSilver,
    PieceType::Gold,
    PieceType::Bishop,
    PieceType::Rook,
    PieceType::Horse,
    PieceType::Dragon,
    PieceType::King,
];

fn see_value(pt: PieceType) -> i32 {
    PIECE_VALUE[pt.index()]
}

/// The least valuable of `attackers` (in `SEE_ORDER`) and its square.
#[inline]
fn least_valuable(pos: &Position, attackers: Bitboard) -> Option<(PieceType, Square)> {
    SEE_ORDER.iter().find_map(|&pt| {
        let b = attackers & pos.pieces(pt);
        b.any().then(|| (pt, b.lsb()))
    })
}

/// The exchange after `m` is played: the occupancy, the material `m` wins (a capture,
/// a promotion) and the kind of piece that now stands on the square.
#[inline]
fn first_capture(pos: &Position, m: Move) -> (Bitboard, i32, PieceType) {
    let occ = pos.occupied();
    if m.is_drop() {
        return (occ.with(m.to()), 0, m.drop_piece());
    }
    let cap = pos.piece_on(m.to());
    let mut gain = if cap.is_some() { see_value(cap.kind()) } else { 0 };
    let pt = pos.piece_on(m.from()).kind();
    let on_square = if m.is_promotion() {
        gain += see_value(pt.promote()) - see_value(pt);
        pt.promote()
    } else {
        pt
    };
    (occ.without(m.from()), gain, on_square)
}

/// Both colours' sliders attacking `sq` through `occ` (the x-rays behind a capturer).
#[inline]
fn sliders_to(pos: &Position, sq: Square, occ: Bitboard) -> Bitboard {
    pos.slider_attacks_to(sq, Color::Black, occ) | pos.slider_attacks_to(sq, Color::White, occ)
}

/// Static exchange evaluation of the legal move `m` (material balance for the mover).
pub fn see(pos: &Position, m: Move) -> i32 {
    let to = m.to();
    let us = pos.side_to_move();
    let (mut occ, first_gain, mut on_square) = first_capture(pos, m);
    let mut gain = [0i32; 40];
    gain[0] = first_gain;
    // Every piece attacking `to`, both colours; the sliders behind a piece that takes
    // are added as it leaves. The defenders first: most quiet moves stop there.
    let them = us.flip();
    let defenders = pos.attackers_to(to, them, occ) & occ;
    if defenders.is_empty() {
        return gain[0];
    }
    let mut attackers = defenders | (pos.attackers_to(to, us, occ) & occ);
    let mut side = them;
    let mut n = 1;
    loop {
        let ours = attackers & pos.color_pieces(side);
        if ours.is_empty() {
            break;
        }
        let Some((pt, from)) = least_valuable(pos, ours) else { break };
        if pt == PieceType::King && (attackers & pos.color_pieces(side.flip())).any() {
            break;
        }
        if n >= gain.len() {
            break;
        }
        gain[n] = see_value(on_square) - gain[n - 1];
        on_square = pt;
        occ = occ.without(from);
        attackers = (attackers | sliders_to(pos, to, occ)) & occ;
        side = side.flip();
        n += 1;
    }
    while n > 1 {
        n -= 1;
        gain[n - 1] = -((-gain[n - 1]).max(gain[n]));
    }
    gain[0]
}

/// Whether `see(pos, m) >= threshold`, found without the whole exchange where it can
/// be: a move that wins less than `threshold` even if never answered is below it, one
/// whose piece is worth no more than what it can lose is above it, and the exchange
/// stops as soon as the side to take would lose by taking.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let to = m.to();
    let (mut occ, first_gain, on_square) = first_capture(pos, m);
    // What the mover has above the threshold if nothing is taken back...
    let mut swap = first_gain - threshold;
    if swap < 0 {
        return false;
    }
    // ...and what is left of it if its piece is taken for nothing.
    swap = see_value(on_square) - swap;
    if swap <= 0 {
        return true;
    }
    let us = pos.side_to_move();
    let defenders = pos.attackers_to(to, us.flip(), occ) & occ;
    if defenders.is_empty() {
        return true;
    }
    let mut attackers = defenders | (pos.attackers_to(to, us, occ) & occ);
    // `res`: whether the mover reaches the threshold if the exchange stops here.
    let (mut side, mut res) = (us, true);
    loop {
        side = side.flip();
        let ours = attackers & pos.color_pieces(side);
        let Some((pt, from)) = least_valuable(pos, ours) else { break };
        if pt == PieceType::King {
            // The king takes only when nothing can take it back.
            return if (attackers & pos.color_pieces(side.flip())).any() { res } else { !res };
        }
        res = !res;
        swap = see_value(pt) - swap;
        if swap < res as i32 {
            break;
        }
        occ = occ.without(from);
        attackers = (attackers | sliders_to(pos, to, occ)) & occ;
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;

    #[test]
    fn see_values() {
        crate::init();
        // Pawn takes a defended pawn: +90 -90 = 0; rook takes a pawn defended by a pawn: loses.
        let pos = Position::from_sfen("4k4/9/4g4/4p4/9/4R4/9/9/4K4 b - 1").unwrap();
        let m = pos.parse_usi_move("5f5d").unwrap();
        assert!(see(&pos, m) < 0);
        let pos = Position::from_sfen("4k4/9/9/4p4/9/4R4/9/9/4K4 b - 1").unwrap();
        let m = pos.parse_usi_move("5f5d").unwrap();
        assert_eq!(see(&pos, m), 90);
    }

    /// `see_ge` agrees with `see` for every legal move of the perft-suite positions and
    /// of the positions one ply below them, at thresholds around every balance.
    #[test]
    fn see_ge_agrees_with_see() {
        crate::init();
        let text = include_str!("../../positions/perft.txt");
        let mut positions = Vec::new();
        for sfen in text.lines().filter_map(|l| l.split('|').nth(1)) {
            let Ok(pos) = Position::from_sfen(sfen.trim()) else { continue };
            for &m in legal_moves(&pos).iter().step_by(7) {
                let mut child = pos.clone();
                child.do_move(m);
                positions.push(child);
            }
            positions.push(pos);
        }
        let (mut asked, mut nonzero) = (0, 0);
        for pos in &positions {
            for &m in legal_moves(pos).iter() {
                let v = see(pos, m);
                nonzero += (v != 0) as u32;
                for t in [v - 1, v, v + 1, -1, 0, 1, -300, 300, -1200, 1200] {
                    assert_eq!(see_ge(pos, m, t), v >= t, "{} {m}: see {v}, threshold {t}", pos.to_sfen());
                    asked += 1;
                }
            }
        }
        assert!(asked > 1_000_000 && nonzero > 10_000, "{asked} questions, {nonzero} non-zero balances");
    }
}
