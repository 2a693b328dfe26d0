//! Static evaluation: material (board and hand), piece-square values, and king safety
//! (own defenders and enemy attackers near each king, king exposure against enemy
//! hand pieces).
//!
//! Every weight lives in one flat table (`Weights::params`) with fixed offsets so a
//! tuning pipeline can learn and embed them. The material and piece-square part is
//! updated incrementally by the search through `delta` (computed before `do_move`);
//! the king-relative part is computed at each evaluation from the piece lists.

use crate::attacks::{king_attacks, piece_attacks};
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, Move, PieceType, Square};
use once_cell::sync::Lazy;

/// Offset of the board material values (indexed by piece type).
pub const OFF_BOARD: usize = 0;
/// Offset of the hand values (indexed by unpromoted piece type).
pub const OFF_HAND: usize = OFF_BOARD + 15;
/// Offset of the piece-square values: `[piece type][square seen from Black]`.
pub const OFF_PSQ: usize = OFF_HAND + 8;
/// Offset of own-piece-near-own-king values: `[piece type][17x17 offset]`.
pub const OFF_KOWN: usize = OFF_PSQ + 15 * 81;
/// Offset of enemy-piece-near-king values (bonus to the attacker): `[piece type][17x17 offset]`.
pub const OFF_KENEMY: usize = OFF_KOWN + 15 * 289;
/// Offset of the king-exposure weight per enemy hand piece kind (`[unpromoted type]`).
pub const OFF_EXPOSURE: usize = OFF_KENEMY + 15 * 289;
/// Offset of the attack units per enemy piece kind hitting a square around the king.
pub const OFF_ATT: usize = OFF_EXPOSURE + 8;
/// Offset of the defence units per own piece kind covering a square around the king.
pub const OFF_DEF: usize = OFF_ATT + 15;
/// Offset of the attack units per kind held in the enemy's hand.
pub const OFF_HANDATT: usize = OFF_DEF + 15;
/// Offset of the scalars: units per open square next to the king, quadratic scale (/64), cap.
pub const OFF_DANGER: usize = OFF_HANDATT + 8;
/// Offset of the mobility weights per sliding kind (`[piece type]`, centipawns per square).
pub const OFF_MOB: usize = OFF_DANGER + 3;
/// Offset of the mobility baselines per sliding kind (squares counted as zero).
pub const OFF_MOB_BASE: usize = OFF_MOB + 15;
/// Offset of the extra value of the first piece of each kind in hand (`[unpromoted type]`).
pub const OFF_HAND_FIRST: usize = OFF_MOB_BASE + 15;
/// Offset of the side-to-move bonus.
pub const OFF_TEMPO: usize = OFF_HAND_FIRST + 8;
/// Number of parameters.
pub const NUM_PARAMS: usize = OFF_TEMPO + 1;

/// All evaluation weights in one flat table.
pub struct Weights {
    /// The parameters, laid out by the `OFF_*` constants.
    pub params: Vec<i32>,
}

/// Material values in centipawns by piece type index (also used by SEE and ordering).
pub const PIECE_VALUE: [i32; 15] = [0, 90, 315, 405, 495, 855, 990, 540, 15000, 540, 540, 540, 540, 945, 1395];
const HAND_VALUE: [i32; 8] = [0, 105, 340, 430, 535, 930, 1080, 590];

fn koff(dx: i32, dy: i32) -> usize {
    ((dy + 8) * 17 + (dx + 8)) as usize
}

impl Weights {
    /// The hand-set default weights.
    pub fn default_weights() -> Weights {
        let mut p = vec![0i32; NUM_PARAMS];
        p[OFF_BOARD..OFF_BOARD + 15].copy_from_slice(&PIECE_VALUE);
        p[OFF_BOARD + PieceType::King.index()] = 0;
        p[OFF_HAND..OFF_HAND + 8].copy_from_slice(&HAND_VALUE);
        // Piece-square values, from Black's side (rank 0 is the far rank).
        for sq in Square::all() {
            let r = sq.rank() as i32;
            let f = sq.file() as i32;
            let edge = f == 0 || f == 8;
            let center = 4 - (f - 4).abs();
            let set = |p: &mut Vec<i32>, pt: PieceType, v: i32| p[OFF_PSQ + pt.index() * 81 + sq.index()] = v;
            // King: stay home in the middle game; a king deep in the enemy camp is fine.
            let kv = [10, 0, -20, -50, -60, -50, -25, 0, 15][r as usize] - 3 * center;
            set(&mut p, PieceType::King, kv);
            set(&mut p, PieceType::Knight, if edge { -20 } else { 0 } + if r <= 4 { 10 } else { 0 });
            set(&mut p, PieceType::Silver, center * 3 + if r <= 5 && r >= 3 { 10 } else { 0 });
            set(&mut p, PieceType::Gold, center * 2 - if r <= 4 { 15 } else { 0 });
            set(&mut p, PieceType::Pawn, if r <= 3 { 10 } else { 0 });
            set(&mut p, PieceType::ProPawn, (8 - r) * 3);
            set(&mut p, PieceType::Lance, if r >= 7 { 5 } else { 0 });
            set(&mut p, PieceType::Horse, center * 4);
            set(&mut p, PieceType::Dragon, center * 2 + if r <= 2 { 15 } else { 0 });
            set(&mut p, PieceType::Bishop, 0);
            set(&mut p, PieceType::Rook, if r <= 2 { 20 } else { 0 });
        }
        // King-relative tables. dx, dy are measured from the king in its own orientation
        // (negative dy = towards the enemy).
        for dy in -8..=8i32 {
            for dx in -8..=8i32 {
                let d = dx.abs().max(dy.abs());
                let i = koff(dx, dy);
                for pt in PieceType::ALL {
                    let gold_like = pt.moves_like_gold() || pt == PieceType::Silver;
                    let own = match pt {
                        _ if gold_like => match d {
                            1 => 45 - if dy == 1 { 10 } else { 0 },
                            2 => 20,
                            3 => 5,
                            _ => 0,
                        },
                        PieceType::Pawn if dx.abs() <= 1 && (-3..=-1).contains(&dy) => 12,
                        PieceType::Knight | PieceType::Lance if d <= 2 => 8,
                        PieceType::Horse | PieceType::Dragon if d <= 2 => 35,
                        PieceType::Rook if d == 1 => -20,
                        _ => 0,
                    };
                    let enemy = match pt {
                        _ if gold_like => [0, 90, 45, 15, 0, 0, 0, 0, 0][d as usize],
                        PieceType::Pawn => [0, 35, 10, 0, 0, 0, 0, 0, 0][d as usize],
                        PieceType::Knight => [0, 30, 40, 15, 0, 0, 0, 0, 0][d as usize],
                        PieceType::Lance => if dx == 0 && dy < 0 && d <= 3 { 25 } else { [0, 20, 10, 0, 0, 0, 0, 0, 0][d as usize] },
                        PieceType::Horse | PieceType::Dragon => [0, 140, 90, 45, 0, 0, 0, 0, 0][d as usize],
                        PieceType::Rook | PieceType::Bishop => [0, 50, 30, 15, 0, 0, 0, 0, 0][d as usize],
                        _ => 0,
                    };
                    if pt != PieceType::King && d <= 3 {
                        p[OFF_KOWN + pt.index() * 289 + i] = own;
                        p[OFF_KENEMY + pt.index() * 289 + i] = enemy;
                    }
                }
            }
        }
        // Exposure: each empty or enemy-held square next to a king, times the enemy's hand.
        let exp = [0, 1, 3, 3, 5, 7, 9, 6];
        p[OFF_EXPOSURE..OFF_EXPOSURE + 8].copy_from_slice(&exp);
        for pt in PieceType::ALL {
            let (a, d) = match pt {
                PieceType::Pawn => (1, 1),
                PieceType::Lance | PieceType::Knight => (2, 1),
                PieceType::Bishop | PieceType::Rook => (2, 1),
                PieceType::Horse => (4, 2),
                PieceType::Dragon => (5, 2),
                PieceType::King => (0, 0),
                _ => (3, 2),
            };
            p[OFF_ATT + pt.index()] = a;
            p[OFF_DEF + pt.index()] = d;
        }
        let ha = [0, 1, 2, 2, 3, 3, 4, 3];
        p[OFF_HANDATT..OFF_HANDATT + 8].copy_from_slice(&ha);
        p[OFF_DANGER] = 1;
        p[OFF_DANGER + 1] = 96;
        p[OFF_DANGER + 2] = 2000;
        for (pt, w, base) in [
            (PieceType::Lance, 3, 3),
            (PieceType::Bishop, 5, 6),
            (PieceType::Rook, 5, 7),
            (PieceType::Horse, 4, 9),
            (PieceType::Dragon, 4, 11),
        ] {
            p[OFF_MOB + pt.index()] = w;
            p[OFF_MOB_BASE + pt.index()] = base;
        }
        // Tried [0, 40, 10, 15, 20, 25, 30, 20]: 6-12 in self-play, so off until tuned.
        let first = [0; 8];
        p[OFF_HAND_FIRST..OFF_HAND_FIRST + 8].copy_from_slice(&first);
        p[OFF_TEMPO] = 25;
        Weights { params: p }
    }
}

#[path = "eval_weights.rs"]
mod tuned;

impl Weights {
    /// The weight table embedded from `src/eval_weights.rs` (written by `examples/tune.rs`).
    /// A table of the wrong length (the layout changed since it was written) is ignored
    /// in favour of the hand-set weights; a test keeps the committed table in step.
    pub fn tuned() -> Weights {
        if tuned::TUNED.len() == NUM_PARAMS {
            Weights { params: tuned::TUNED.to_vec() }
        } else {
            Weights::default_weights()
        }
    }
}

static WEIGHTS: Lazy<Weights> = Lazy::new(Weights::tuned);

/// The weights in use.
#[inline(always)]
pub fn weights() -> &'static [i32] {
    &WEIGHTS.params
}

#[inline(always)]
fn psq(w: &[i32], c: Color, pt: PieceType, sq: Square) -> i32 {
    w[psq_index(c, pt, sq)]
}

/// Index of the piece-square weight of a `c` piece of kind `pt` on `sq` (White mirrored).
#[inline(always)]
fn psq_index(c: Color, pt: PieceType, sq: Square) -> usize {
    let s = if c == Color::Black { sq } else { sq.flip() };
    OFF_PSQ + pt.index() * 81 + s.index()
}

#[inline(always)]
fn sign(c: Color) -> i32 {
    if c == Color::Black {
        1
    } else {
        -1
    }
}

/// Receives the weighted terms of the evaluation: `coef / div` times the weight at
/// `idx`. Summing gives the evaluation; recording gives the features a tuner fits.
pub trait Terms {
    /// The weights the terms refer to.
    fn weights(&self) -> &[i32];
    /// Adds `coef * w[idx] / div` (integer division when summing).
    fn add(&mut self, idx: usize, coef: i32, div: i32);
}

/// Sums the terms with integer arithmetic: the evaluation itself.
pub struct Sum<'a> {
    /// The weights.
    pub w: &'a [i32],
    /// The running total.
    pub total: i32,
}

impl Terms for Sum<'_> {
    #[inline(always)]
    fn weights(&self) -> &[i32] {
        self.w
    }
    #[inline(always)]
    fn add(&mut self, idx: usize, coef: i32, div: i32) {
        self.total += if div == 1 { coef * self.w[idx] } else { coef * self.w[idx] / div };
    }
}

/// Records the terms as (weight index, coefficient) pairs, for tuning.
pub struct Trace<'a> {
    /// The weights (used where the evaluation is not linear in them).
    pub w: &'a [i32],
    /// The recorded terms.
    pub terms: Vec<(usize, f32)>,
}

impl Terms for Trace<'_> {
    fn weights(&self) -> &[i32] {
        self.w
    }
    fn add(&mut self, idx: usize, coef: i32, div: i32) {
        if coef != 0 {
            self.terms.push((idx, coef as f32 / div as f32));
        }
    }
}

fn sum_with(w: &[i32], f: impl FnOnce(&mut Sum)) -> i32 {
    let mut t = Sum { w, total: 0 };
    f(&mut t);
    t.total
}

/// The incremental part (material of board and hands plus piece-square values) from
/// scratch, from Black's point of view.
pub fn material_psq(pos: &Position) -> i32 {
    sum_with(weights(), |t| material_psq_terms(pos, t))
}

/// The terms of `material_psq`.
pub fn material_psq_terms(pos: &Position, t: &mut impl Terms) {
    for sq in pos.occupied() {
        let pc = pos.piece_on(sq);
        let pt = pc.kind();
        t.add(OFF_BOARD + pt.index(), sign(pc.color()), 1);
        t.add(psq_index(pc.color(), pt, sq), sign(pc.color()), 1);
    }
    for c in Color::ALL {
        let h = pos.hand(c);
        for pt in PieceType::HAND {
            t.add(OFF_HAND + pt.index(), sign(c) * h.count(pt) as i32, 1);
            if h.has(pt) {
                t.add(OFF_HAND_FIRST + pt.index(), sign(c), 1);
            }
        }
    }
}

/// Change of `material_psq` caused by the legal move `m` (call before `do_move`).
#[inline]
pub fn delta(pos: &Position, m: Move) -> i32 {
    let w = weights();
    let us = pos.side_to_move();
    let to = m.to();
    let d = if m.is_drop() {
        let pt = m.drop_piece();
        let last = if pos.hand(us).count(pt) == 1 { w[OFF_HAND_FIRST + pt.index()] } else { 0 };
        w[OFF_BOARD + pt.index()] + psq(w, us, pt, to) - w[OFF_HAND + pt.index()] - last
    } else {
        let from = m.from();
        let pt = pos.piece_on(from).kind();
        let npt = if m.is_promotion() { pt.promote() } else { pt };
        let mut d = w[OFF_BOARD + npt.index()] + psq(w, us, npt, to) - w[OFF_BOARD + pt.index()] - psq(w, us, pt, from);
        let cap = pos.piece_on(to);
        if cap.is_some() {
            let cpt = cap.kind();
            let hpt = cpt.unpromote();
            let first = if pos.hand(us).has(hpt) { 0 } else { w[OFF_HAND_FIRST + hpt.index()] };
            d += w[OFF_BOARD + cpt.index()] + psq(w, us.flip(), cpt, to) + w[OFF_HAND + hpt.index()] + first;
        }
        d
    };
    sign(us) * d
}

/// Squares within three files and three ranks of each square (the king-relative
/// tables are zero outside this box, so only pieces inside it are visited).
static NEAR: Lazy<[Bitboard; 81]> = Lazy::new(|| {
    let mut t = [Bitboard::EMPTY; 81];
    for a in Square::all() {
        for b in Square::all() {
            if (a.file() as i32 - b.file() as i32).abs() <= 3 && (a.rank() as i32 - b.rank() as i32).abs() <= 3 {
                t[a.index()] |= Bitboard::from_square(b);
            }
        }
    }
    t
});

/// King-relative terms from Black's point of view.
pub fn king_terms(pos: &Position) -> i32 {
    sum_with(weights(), |t| king_terms_of(pos, t))
}

/// The terms of `king_terms`. The attack units (and so the quadratic danger) use the
/// current weights; the result is linear in the danger scale or cap.
pub fn king_terms_of(pos: &Position, t: &mut impl Terms) {
    let occ_all = pos.occupied();
    let near = &*NEAR;
    for kc in Color::ALL {
        let w = t.weights();
        let sg = sign(kc);
        let ksq = pos.king_square(kc);
        let (kf, kr) = (ksq.file() as i32, ksq.rank() as i32);
        let flip = if kc == Color::Black { 1 } else { -1 };
        let zone = king_attacks(ksq);
        let mut units = 0;
        // Enemy sliders outside the box can still reach the zone.
        let them = kc.flip();
        let far = (pos.pieces(PieceType::Rook)
            | pos.pieces(PieceType::Dragon)
            | pos.pieces(PieceType::Bishop)
            | pos.pieces(PieceType::Horse)
            | pos.pieces(PieceType::Lance))
            & pos.color_pieces(them)
            & !near[ksq.index()];
        for sq in far {
            let pt = pos.piece_on(sq).kind();
            units += (piece_attacks(them, pt, sq, occ_all) & zone).count() as i32 * w[OFF_ATT + pt.index()];
        }
        for sq in occ_all & near[ksq.index()] {
            let pc = pos.piece_on(sq);
            let pt = pc.kind();
            if pt == PieceType::King {
                continue;
            }
            let dx = (sq.file() as i32 - kf) * flip;
            let dy = (sq.rank() as i32 - kr) * flip;
            let i = koff(dx, dy);
            let n = (piece_attacks(pc.color(), pt, sq, occ_all) & zone).count() as i32;
            let w = t.weights();
            if pc.color() == kc {
                units -= n * w[OFF_DEF + pt.index()];
                t.add(OFF_KOWN + pt.index() * 289 + i, sg, 1);
            } else {
                units += n * w[OFF_ATT + pt.index()];
                t.add(OFF_KENEMY + pt.index() * 289 + i, -sg, 1);
            }
        }
        // Exposure against the enemy's hand.
        let open = (king_attacks(ksq) & !pos.color_pieces(kc)).count() as i32;
        let eh = pos.hand(them);
        for pt in PieceType::HAND {
            if eh.has(pt) {
                t.add(OFF_EXPOSURE + pt.index(), -sg * open * (1 + eh.count(pt).min(3) as i32), 2);
            }
        }
        let w = t.weights();
        let eh_units: i32 =
            PieceType::HAND.iter().filter(|&&pt| eh.has(pt)).map(|&pt| w[OFF_HANDATT + pt.index()]).sum();
        units += eh_units + open * w[OFF_DANGER];
        if units > 0 {
            if units * units * w[OFF_DANGER + 1] / 64 < w[OFF_DANGER + 2] {
                t.add(OFF_DANGER + 1, -sg * units * units, 64);
            } else {
                t.add(OFF_DANGER + 2, -sg, 1);
            }
        }
    }
}

const SLIDERS: [PieceType; 5] = [PieceType::Lance, PieceType::Bishop, PieceType::Rook, PieceType::Horse, PieceType::Dragon];

/// Mobility of the sliding pieces from Black's point of view.
pub fn mobility(pos: &Position) -> i32 {
    sum_with(weights(), |t| mobility_terms(pos, t))
}

/// The terms of `mobility`.
pub fn mobility_terms(pos: &Position, t: &mut impl Terms) {
    let occ = pos.occupied();
    for c in Color::ALL {
        let own = pos.color_pieces(c);
        for pt in SLIDERS {
            for sq in pos.pieces_of(c, pt) {
                let n = (piece_attacks(c, pt, sq, occ) & !own).count() as i32;
                let base = t.weights()[OFF_MOB_BASE + pt.index()];
                t.add(OFF_MOB + pt.index(), sign(c) * (n - base), 1);
            }
        }
    }
}

/// Every term of the evaluation from Black's point of view (side-to-move bonus included).
pub fn all_terms(pos: &Position, t: &mut impl Terms) {
    material_psq_terms(pos, t);
    king_terms_of(pos, t);
    mobility_terms(pos, t);
    t.add(OFF_TEMPO, sign(pos.side_to_move()), 1);
}

/// Full evaluation for the side to move, given the incrementally kept `material_psq`
/// value `mat` (Black's point of view).
#[inline]
pub fn evaluate_with(pos: &Position, mat: i32) -> i32 {
    let v = mat + king_terms(pos) + mobility(pos);
    let v = if pos.side_to_move() == Color::Black { v } else { -v };
    v + weights()[OFF_TEMPO]
}

/// Full evaluation for the side to move, from scratch.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, material_psq(pos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;

    #[test]
    fn incremental_matches_scratch() {
        crate::init();
        let mut pos = Position::from_sfen("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1").unwrap();
        let mut mat = material_psq(&pos);
        let mut seed = 12345u64;
        for _ in 0..300 {
            let list = legal_moves(&pos);
            if list.is_empty() {
                break;
            }
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let m = list.as_slice()[(seed >> 33) as usize % list.len()];
            mat += delta(&pos, m);
            pos.do_move(m);
            assert_eq!(mat, material_psq(&pos), "after {m}");
        }
    }

    #[test]
    fn traced_terms_add_up_to_the_evaluation() {
        crate::init();
        let w = weights();
        let mut pos = Position::from_sfen("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1").unwrap();
        let mut seed = 777u64;
        for _ in 0..200 {
            let mut trace = Trace { w, terms: Vec::new() };
            all_terms(&pos, &mut trace);
            let traced: f32 = trace.terms.iter().map(|&(i, c)| c * w[i] as f32).sum();
            let black = if pos.side_to_move() == Color::Black { evaluate(&pos) } else { -evaluate(&pos) };
            // Integer division in the summed form: at most one centipawn per divided term.
            assert!((traced - black as f32).abs() <= 8.0, "traced {traced} vs {black} at {}", pos.to_sfen());
            let list = legal_moves(&pos);
            if list.is_empty() {
                break;
            }
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            pos.do_move(list.as_slice()[(seed >> 33) as usize % list.len()]);
        }
    }

    #[test]
    fn embedded_table_matches_the_layout() {
        assert_eq!(tuned::TUNED.len(), NUM_PARAMS);
        assert_eq!(tuned::TUNED[OFF_BOARD + PieceType::King.index()], 0);
    }

    #[test]
    fn start_position_is_balanced() {
        crate::init();
        let pos = Position::startpos();
        assert_eq!(material_psq(&pos), 0);
        assert_eq!(king_terms(&pos), 0);
    }
}
