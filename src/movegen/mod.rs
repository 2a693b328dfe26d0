//! Legal move generation: board moves with optional and forced promotion, drops with
//! the dead-drop, nifu and uchifuzume rules, pins, and evasions (double check included).
//!
//! Every generator here yields only legal moves, so perft can count the last ply by
//! the length of the list. The narrower kinds (captures and promotions, evasions)
//! serve quiescence search; the main search generates all legal moves at once and
//! orders them with its move picker. `checks` holds check detection and the check
//! generator of the mate solver, `perft` the move-tree counts. Uses `core` and
//! `position`.

use crate::core::attacks::*;
use crate::core::bitboard::Bitboard;
use crate::position::Position;
use crate::core::types::{Color, Move, PieceType, Square};
use crate::core::bounded::BoundedVec;

mod checks;
mod contact_mate;
mod perft;

pub use checks::{generate_checks, CheckInfo};
pub use contact_mate::{contact_check_mates, contact_mate_in_one};
pub use perft::{perft, perft_divide, perft_divide_until};

/// More than the most legal moves any shogi position has (593).
pub const MAX_MOVES: usize = 600;

/// A fixed-capacity list of moves that never allocates.
pub type MoveList = BoundedVec<Move, MAX_MOVES>;

/// Which moves to generate.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum GenType {
    /// Every legal move, unpromoted variants included (perft, `position` checks).
    Legal,
    /// Captures and pawn promotions (not in check).
    CapturesPromotions,
    /// Everything `CapturesPromotions` leaves out (not in check).
    Quiets,
    /// All legal moves while in check.
    Evasions,
    /// Quiet moves that give check (not in check).
    QuietChecks,
}

/// Appends the legal moves of kind `gen` to `list`.
///
/// `all_promos`: also emit the unpromoted version of pawn, bishop and rook moves
/// that could promote (they are almost never better; search may skip them).
pub fn generate(pos: &Position, gen: GenType, all_promos: bool, list: &mut MoveList) {
    let us = pos.side_to_move();
    let in_check = pos.in_check();
    match gen {
        GenType::Legal => {
            if in_check {
                gen_evasions(pos, us, all_promos, list);
            } else {
                gen_non_evasions(pos, us, !pos.color_pieces(us), Bitboard::ALL, true, all_promos, list);
            }
        }
        GenType::Evasions => {
            if in_check {
                gen_evasions(pos, us, all_promos, list);
            }
        }
        GenType::CapturesPromotions => {
            if !in_check {
                gen_captures_promotions(pos, us, all_promos, list);
            }
        }
        GenType::Quiets => {
            if !in_check {
                gen_quiets(pos, us, all_promos, list);
            }
        }
        GenType::QuietChecks => {
            if !in_check {
                let mut all = MoveList::new();
                gen_quiets(pos, us, all_promos, &mut all);
                let ci = CheckInfo::new(pos);
                for &m in all.iter() {
                    if ci.gives_check(pos, m) {
                        list.push(m);
                    }
                }
            }
        }
    }
}

/// All legal moves (unpromoted variants included) in a fresh list.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, GenType::Legal, true, &mut list);
    list
}

/// Whether `m` is legal in `pos` (any promotion variant). Generates only the moves that
/// could be `m`: those of the piece on its origin to its destination, or the drops on
/// its destination (every evasion when in check, few anyway), and looks for it there.
pub fn is_legal(pos: &Position, m: Move) -> bool {
    is_generated(pos, m, true)
}

/// Whether `m` is among the legal moves `generate` lists with `all_promos` (without
/// it, the unpromoted pawn, bishop and rook moves that could promote are left out):
/// the test a move from the transposition table passes before it is searched.
pub fn is_generated(pos: &Position, m: Move, all_promos: bool) -> bool {
    if !m.is_ok() {
        return false;
    }
    let us = pos.side_to_move();
    let mut list = MoveList::new();
    if pos.in_check() {
        gen_evasions(pos, us, all_promos, &mut list);
    } else {
        let target = Bitboard::EMPTY.with(m.to()) & !pos.color_pieces(us);
        if m.is_drop() {
            gen_drops(pos, us, target & !pos.occupied(), &mut list);
        } else if pos.has_king(us) && m.from() == pos.king_square(us) {
            gen_king_moves(pos, us, target, &mut list);
        } else {
            gen_moves_of(pos, us, Bitboard::EMPTY.with(m.from()), target, all_promos, &mut list);
        }
    }
    list.contains(m)
}

/// Appends the legal moves whose destination is in `target`, as `generate` lists them
/// without `all_promos`: the candidates of a mate-in-one test. Not in check.
pub fn generate_onto(pos: &Position, target: Bitboard, list: &mut MoveList) {
    if !pos.in_check() {
        let us = pos.side_to_move();
        gen_non_evasions(pos, us, target & !pos.color_pieces(us), target, true, false, list);
    }
}

#[inline(always)]
fn promotion_rank_limits(pt: PieceType) -> (u8, u8) {
    // (last relative rank where promotion is forced, last rank where it is allowed
    // by ending there) for pieces whose promotion depends on the destination only.
    match pt {
        PieceType::Pawn | PieceType::Lance => (0, 2),
        PieceType::Knight => (1, 2),
        _ => (0, 2),
    }
}

/// The square a pawn of `us` pushed to `to` came from.
#[inline(always)]
fn pawn_origin(us: Color, to: Square) -> Square {
    match us {
        Color::Black => Square::from_index(to.index() + 1),
        Color::White => Square::from_index(to.index() - 1),
    }
}

/// Pushes the moves of a `pt` from `from` to each square of `targets`.
#[inline(always)]
fn push_piece_moves(list: &mut MoveList, us: Color, pt: PieceType, from: Square, targets: Bitboard, all_promos: bool) {
    let from_in_zone = from.relative_rank(us) <= 2;
    match pt {
        PieceType::Pawn | PieceType::Lance | PieceType::Knight => {
            let (forced, allowed) = promotion_rank_limits(pt);
            for to in targets {
                let r = to.relative_rank(us);
                if r <= forced {
                    list.push(Move::normal(from, to, true));
                } else if r <= allowed {
                    list.push(Move::normal(from, to, true));
                    if pt != PieceType::Pawn || all_promos {
                        list.push(Move::normal(from, to, false));
                    }
                } else {
                    list.push(Move::normal(from, to, false));
                }
            }
        }
        PieceType::Silver => {
            for to in targets {
                let can = from_in_zone || to.relative_rank(us) <= 2;
                if can {
                    list.push(Move::normal(from, to, true));
                }
                list.push(Move::normal(from, to, false));
            }
        }
        PieceType::Bishop | PieceType::Rook => {
            for to in targets {
                let can = from_in_zone || to.relative_rank(us) <= 2;
                if can {
                    list.push(Move::normal(from, to, true));
                    if all_promos {
                        list.push(Move::normal(from, to, false));
                    }
                } else {
                    list.push(Move::normal(from, to, false));
                }
            }
        }
        _ => {
            for to in targets {
                list.push(Move::normal(from, to, false));
            }
        }
    }
}

/// Board moves of every piece but the king onto `target`, honouring pins.
#[inline(always)]
fn gen_piece_moves(pos: &Position, us: Color, target: Bitboard, all_promos: bool, list: &mut MoveList) {
    let ksq = pos.king_square(us);
    let pinned = pos.pinned();

    // Pawns in bulk when unpinned.
    let pawns = pos.pieces_of(us, PieceType::Pawn);
    let free_pawns = pawns & !pinned;
    let pawn_to = free_pawns.shift_forward(us) & target;
    for to in pawn_to {
        let from = pawn_origin(us, to);
        let r = to.relative_rank(us);
        if r == 0 {
            list.push(Move::normal(from, to, true));
        } else if r <= 2 {
            list.push(Move::normal(from, to, true));
            if all_promos {
                list.push(Move::normal(from, to, false));
            }
        } else {
            list.push(Move::normal(from, to, false));
        }
    }
    for from in pawns & pinned {
        let t = pawn_attacks(us, from) & target & line_through(ksq, from);
        push_piece_moves(list, us, PieceType::Pawn, from, t, all_promos);
    }

    gen_non_pawn_moves(pos, us, target, all_promos, list);
}

/// Moves of one kind of piece (`pieces`) onto `target`, honouring pins.
#[inline(always)]
fn gen_kind_moves(
    pos: &Position,
    us: Color,
    pt: PieceType,
    pieces: Bitboard,
    target: Bitboard,
    all_promos: bool,
    list: &mut MoveList,
) {
    let occ = pos.occupied();
    let pinned = pos.pinned();
    let ksq = pos.king_square(us);
    for from in pieces {
        let mut t = piece_attacks(us, pt, from, occ) & target;
        if pinned.has(from) {
            t &= line_through(ksq, from);
        }
        push_piece_moves(list, us, pt, from, t, all_promos);
    }
}

/// Board moves of every piece except pawns and the king, kind by kind so each loop
/// is specialised for its piece.
#[inline(always)]
fn gen_non_pawn_moves(pos: &Position, us: Color, target: Bitboard, all_promos: bool, list: &mut MoveList) {
    let movers = pos.color_pieces(us) & !pos.pieces(PieceType::Pawn);
    gen_moves_of(pos, us, movers, target, all_promos, list);
}

/// Board moves of the pieces of `us` on `movers` (the king excluded) onto `target`.
#[inline(always)]
pub(super) fn gen_moves_of(pos: &Position, us: Color, movers: Bitboard, target: Bitboard, all_promos: bool, list: &mut MoveList) {
    let movers = movers & pos.color_pieces(us);
    for pt in [PieceType::Pawn, PieceType::Lance, PieceType::Knight, PieceType::Silver, PieceType::Bishop, PieceType::Rook] {
        gen_kind_moves(pos, us, pt, pos.pieces(pt) & movers, target, all_promos, list);
    }
    gen_kind_moves(pos, us, PieceType::Gold, pos.gold_movers() & movers, target, all_promos, list);
    gen_kind_moves(pos, us, PieceType::Horse, pos.pieces(PieceType::Horse) & movers, target, all_promos, list);
    gen_kind_moves(pos, us, PieceType::Dragon, pos.pieces(PieceType::Dragon) & movers, target, all_promos, list);
}

/// The squares of `target` that `us`'s king can step to without stepping into attack
/// (the king gone from its square, so a slider's line runs on behind it); empty
/// without a king. `us` need not be the side to move.
#[inline(always)]
pub fn safe_king_steps(pos: &Position, us: Color, target: Bitboard) -> Bitboard {
    if !pos.has_king(us) {
        return Bitboard::EMPTY;
    }
    let ksq = pos.king_square(us);
    let occ = pos.occupied().without(ksq);
    let mut safe = Bitboard::EMPTY;
    for to in king_attacks(ksq) & target {
        if !pos.is_attacked(to, us.flip(), occ) {
            safe |= Bitboard::from_square(to);
        }
    }
    safe
}

/// King moves onto `target` that do not step into attack.
#[inline(always)]
pub(super) fn gen_king_moves(pos: &Position, us: Color, target: Bitboard, list: &mut MoveList) {
    let steps = safe_king_steps(pos, us, target);
    if steps.any() {
        let ksq = pos.king_square(us);
        for to in steps {
            list.push(Move::normal(ksq, to, false));
        }
    }
}

/// Drops onto the empty squares in `target`.
#[inline(always)]
pub(super) fn gen_drops(pos: &Position, us: Color, target: Bitboard, list: &mut MoveList) {
    let hand = pos.hand(us);
    if hand.is_empty() || target.is_empty() {
        return;
    }
    if hand.has(PieceType::Pawn) {
        let own_pawns = pos.pieces_of(us, PieceType::Pawn);
        let mut t = target & !Bitboard::relative_ranks(us, 0, 0) & !own_pawns.file_fill();
        // Uchifuzume: only a drop right in front of the enemy king can be pawn-drop mate.
        let them = us.flip();
        let eksq = pos.king_square(them);
        let mate_sq = pawn_attacks(them, eksq);
        if (t & mate_sq).any() && pos.has_king(them) {
            let sq = mate_sq.lsb();
            if is_pawn_drop_mate(pos, us, sq) {
                t = t.without(sq);
            }
        }
        for to in t {
            list.push(Move::drop(PieceType::Pawn, to));
        }
    }
    if hand.has(PieceType::Lance) {
        for to in target & !Bitboard::relative_ranks(us, 0, 0) {
            list.push(Move::drop(PieceType::Lance, to));
        }
    }
    if hand.has(PieceType::Knight) {
        for to in target & !Bitboard::relative_ranks(us, 0, 1) {
            list.push(Move::drop(PieceType::Knight, to));
        }
    }
    let mut kinds = [PieceType::Silver; 4];
    let mut n = 0;
    for pt in [PieceType::Silver, PieceType::Gold, PieceType::Bishop, PieceType::Rook] {
        if hand.has(pt) {
            kinds[n] = pt;
            n += 1;
        }
    }
    if n == 0 {
        return;
    }
    for to in target {
        for &pt in &kinds[..n] {
            list.push(Move::drop(pt, to));
        }
    }
}

/// Whether the side to move has a legal move. In check (the mate test) it is answered
/// without listing every evasion: king steps first, which settle most checks, then
/// captures of the checker and interpositions, drops last.
pub fn has_evasion(pos: &Position) -> bool {
    if !pos.in_check() {
        return !legal_moves(pos).is_empty();
    }
    let mut list = MoveList::new();
    gen_evasions_until(pos, pos.side_to_move(), false, true, &mut list);
    !list.is_empty()
}

/// Whether `us` dropping a pawn on `sq` (which checks the enemy king) is mate.
pub fn is_pawn_drop_mate(pos: &Position, us: Color, sq: Square) -> bool {
    let occ = pos.occupied() | Bitboard::from_square(sq);
    contact_mate::mated_by_contact_check(pos, us, sq, PieceType::Pawn, Bitboard::EMPTY, occ)
}

fn gen_non_evasions(
    pos: &Position,
    us: Color,
    board_target: Bitboard,
    drop_target: Bitboard,
    drops: bool,
    all_promos: bool,
    list: &mut MoveList,
) {
    gen_piece_moves(pos, us, board_target, all_promos, list);
    gen_king_moves(pos, us, board_target, list);
    if drops {
        gen_drops(pos, us, drop_target & !pos.occupied(), list);
    }
}

pub(super) fn gen_evasions(pos: &Position, us: Color, all_promos: bool, list: &mut MoveList) {
    gen_evasions_until(pos, us, all_promos, false, list);
}

/// The evasions in three steps (king moves; captures of a single checker and
/// interpositions by board moves; interposing drops); with `first_only`, stops after
/// the first step that found any.
#[inline(always)]
fn gen_evasions_until(pos: &Position, us: Color, all_promos: bool, first_only: bool, list: &mut MoveList) {
    let ksq = pos.king_square(us);
    let checkers = pos.checkers();
    gen_king_moves(pos, us, !pos.color_pieces(us), list);
    if checkers.more_than_one() || (first_only && !list.is_empty()) {
        return;
    }
    let checker = checkers.lsb();
    let block = between(ksq, checker);
    gen_piece_moves(pos, us, block | checkers, all_promos, list);
    if first_only && !list.is_empty() {
        return;
    }
    gen_drops(pos, us, block, list);
}

fn gen_captures_promotions(pos: &Position, us: Color, all_promos: bool, list: &mut MoveList) {
    let enemy = pos.color_pieces(us.flip());
    gen_piece_moves(pos, us, enemy, all_promos, list);
    gen_king_moves(pos, us, enemy, list);
    // Pawn promotions onto empty squares.
    let empty_zone = !pos.occupied() & Bitboard::zone(us);
    let pinned = pos.pinned();
    let ksq = pos.king_square(us);
    let pawns = pos.pieces_of(us, PieceType::Pawn);
    for to in pawns.shift_forward(us) & empty_zone {
        let from = pawn_origin(us, to);
        if pinned.has(from) && !line_through(ksq, from).has(to) {
            continue;
        }
        list.push(Move::normal(from, to, true));
    }
}

fn gen_quiets(pos: &Position, us: Color, all_promos: bool, list: &mut MoveList) {
    let empty = !pos.occupied();
    let zone = Bitboard::zone(us);
    let pawns = pos.pieces_of(us, PieceType::Pawn);
    let pinned = pos.pinned();
    let ksq = pos.king_square(us);
    // Pawn pushes: outside the zone, plus unpromoted pushes to relative ranks 1-2
    // (the promoting ones were produced with the captures).
    for to in pawns.shift_forward(us) & empty {
        let from = pawn_origin(us, to);
        if pinned.has(from) && !line_through(ksq, from).has(to) {
            continue;
        }
        let r = to.relative_rank(us);
        if !zone.has(to) || (r >= 1 && all_promos) {
            list.push(Move::normal(from, to, false));
        }
    }
    gen_non_pawn_moves(pos, us, empty, all_promos, list);
    gen_king_moves(pos, us, empty, list);
    gen_drops(pos, us, empty, list);
}
