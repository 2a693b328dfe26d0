//! Attack tables, built once on first use.
//!
//! Step pieces use per-square tables. Sliders use "line gathering": every square has
//! four lines through it (file, rank, two diagonals). The occupancy of a line's
//! interior squares sits at a fixed stride in the file-major bitboard (1 for a file,
//! 9 for a rank, 10 and 8 for the diagonals); one shift, one mask and one multiply
//! gather those bits into a 7-bit index into a table of attack sets. Lance attacks
//! are the file attacks masked to the forward ray. See `benches/perft.rs` and the
//! README for the measurements behind this choice.
//! Uses `types` and `bitboard`.

use crate::core::bitboard::Bitboard;
use crate::core::types::{Color, PieceType, Square};
use once_cell::sync::Lazy;

/// Index of the file line in the line tables.
const FILE_LINE: usize = 0;
/// Index of the rank line.
const RANK_LINE: usize = 1;
/// Index of the diagonal running to higher file and higher rank (stride 10).
const DIAG_UP: usize = 2;
/// Index of the diagonal running to higher file and lower rank (stride 8).
const DIAG_DOWN: usize = 3;

/// How to turn the occupancy of one line into a table index.
#[derive(Copy, Clone, Default)]
struct LineGather {
    shift: u32,
    mask: u64,
    mul: u64,
}

struct AttackTables {
    pawn: [[Bitboard; 81]; 2],
    knight: [[Bitboard; 81]; 2],
    silver: [[Bitboard; 81]; 2],
    gold: [[Bitboard; 81]; 2],
    king: [Bitboard; 81],
    lance_ray: [[Bitboard; 81]; 2],
    rook_pseudo: [Bitboard; 81],
    bishop_pseudo: [Bitboard; 81],
    gather: [[LineGather; 4]; 81],
    line_attacks: Vec<Bitboard>,
    between: Vec<Bitboard>,
    line: Vec<Bitboard>,
}

/// Step offsets (file, rank) for Black; White mirrors the rank.
const GOLD_STEPS: [(i32, i32); 6] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const SILVER_STEPS: [(i32, i32); 5] = [(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const KING_STEPS: [(i32, i32); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];
const KNIGHT_STEPS: [(i32, i32); 2] = [(-1, -2), (1, -2)];
const PAWN_STEPS: [(i32, i32); 1] = [(0, -1)];

/// File and rank deltas of the four line kinds.
const LINE_DELTA: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
/// Bit stride of each line kind in the file-major layout.
const LINE_STRIDE: [i32; 4] = [1, 9, 10, 8];

fn steps(sq: Square, c: Color, offs: &[(i32, i32)]) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    for &(df, dr) in offs {
        let dr = if c == Color::Black { dr } else { -dr };
        if let Some(t) = sq.offset(df, dr) {
            b |= Bitboard::from_square(t);
        }
    }
    b
}

/// Slider attacks by walking rays; used to build tables and by tests as a reference.
pub fn slow_ray_attacks(sq: Square, dirs: &[(i32, i32)], occ: Bitboard) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(t) = cur.offset(df, dr) {
            b |= Bitboard::from_square(t);
            if occ.has(t) {
                break;
            }
            cur = t;
        }
    }
    b
}

/// Gather multiplier: moves bits at `stride * k` (k = 0..7) to bit `57 + k`.
const fn gather_mul(stride: u32) -> u64 {
    let mut m = 0u64;
    let mut k = 0;
    while k < 7 {
        m |= 1u64 << (57 + k - stride * k);
        k += 1;
    }
    m
}

/// The interior squares (ends excluded) of the line of kind `line` through `sq`.
fn line_interior(sq: Square, line: usize) -> Vec<Square> {
    let (df, dr) = LINE_DELTA[line];
    let mut start = sq;
    while let Some(p) = start.offset(-df, -dr) {
        start = p;
    }
    let mut all = vec![start];
    while let Some(n) = all[all.len() - 1].offset(df, dr) {
        all.push(n);
    }
    if all.len() <= 2 {
        return Vec::new();
    }
    all[1..all.len() - 1].to_vec()
}

fn build() -> AttackTables {
    let mut t = AttackTables {
        pawn: [[Bitboard::EMPTY; 81]; 2],
        knight: [[Bitboard::EMPTY; 81]; 2],
        silver: [[Bitboard::EMPTY; 81]; 2],
        gold: [[Bitboard::EMPTY; 81]; 2],
        king: [Bitboard::EMPTY; 81],
        lance_ray: [[Bitboard::EMPTY; 81]; 2],
        rook_pseudo: [Bitboard::EMPTY; 81],
        bishop_pseudo: [Bitboard::EMPTY; 81],
        gather: [[LineGather::default(); 4]; 81],
        line_attacks: vec![Bitboard::EMPTY; 81 * 4 * 128],
        between: vec![Bitboard::EMPTY; 81 * 81],
        line: vec![Bitboard::EMPTY; 81 * 81],
    };
    for sq in Square::all() {
        let i = sq.index();
        for c in Color::ALL {
            t.pawn[c.index()][i] = steps(sq, c, &PAWN_STEPS);
            t.knight[c.index()][i] = steps(sq, c, &KNIGHT_STEPS);
            t.silver[c.index()][i] = steps(sq, c, &SILVER_STEPS);
            t.gold[c.index()][i] = steps(sq, c, &GOLD_STEPS);
            let fwd = if c == Color::Black { -1 } else { 1 };
            t.lance_ray[c.index()][i] = slow_ray_attacks(sq, &[(0, fwd)], Bitboard::EMPTY);
        }
        t.king[i] = steps(sq, Color::Black, &KING_STEPS);
        t.rook_pseudo[i] = slow_ray_attacks(sq, &ROOK_DIRS, Bitboard::EMPTY);
        t.bishop_pseudo[i] = slow_ray_attacks(sq, &BISHOP_DIRS, Bitboard::EMPTY);

        for line in 0..4 {
            let interior = line_interior(sq, line);
            let stride = LINE_STRIDE[line];
            let g = if interior.is_empty() {
                LineGather { shift: 0, mask: 0, mul: 0 }
            } else {
                let base = interior[0].index() as u32;
                let mut mask = 0u64;
                for k in 0..interior.len() {
                    mask |= 1u64 << (stride as usize * k);
                }
                LineGather { shift: base, mask, mul: gather_mul(stride as u32) }
            };
            t.gather[i][line] = g;
            let (df, dr) = LINE_DELTA[line];
            for idx in 0..(1usize << interior.len()) {
                let mut occ = Bitboard::EMPTY;
                for (k, s) in interior.iter().enumerate() {
                    if idx >> k & 1 != 0 {
                        occ |= Bitboard::from_square(*s);
                    }
                }
                t.line_attacks[(i * 4 + line) * 128 + idx] = slow_ray_attacks(sq, &[(df, dr), (-df, -dr)], occ);
            }
        }
    }
    for a in Square::all() {
        for b in Square::all() {
            if a == b {
                continue;
            }
            let (df, dr) = (b.file() as i32 - a.file() as i32, b.rank() as i32 - a.rank() as i32);
            if df != 0 && dr != 0 && df.abs() != dr.abs() {
                continue;
            }
            let step = (df.signum(), dr.signum());
            let mut between = Bitboard::EMPTY;
            let mut cur = a;
            while let Some(n) = cur.offset(step.0, step.1) {
                if n == b {
                    break;
                }
                between |= Bitboard::from_square(n);
                cur = n;
            }
            t.between[a.index() * 81 + b.index()] = between;
            let full = slow_ray_attacks(a, &[step, (-step.0, -step.1)], Bitboard::EMPTY) | Bitboard::from_square(a);
            t.line[a.index() * 81 + b.index()] = full;
        }
    }
    t
}

/// The four rook directions.
pub const ROOK_DIRS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
/// The four bishop directions.
pub const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

static TABLES: Lazy<Box<AttackTables>> = Lazy::new(|| Box::new(build()));

/// Builds the tables now (call at start-up so the first search does not pay for it).
pub fn init() {
    Lazy::force(&TABLES);
}

#[inline(always)]
fn line_attacks(t: &AttackTables, sq: Square, line: usize, occ: Bitboard) -> Bitboard {
    let g = t.gather[sq.index()][line];
    let idx = ((((occ.0 >> g.shift) as u64) & g.mask).wrapping_mul(g.mul) >> 57) as usize;
    t.line_attacks[(sq.index() * 4 + line) * 128 + idx]
}

/// Squares a pawn of `c` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(c: Color, sq: Square) -> Bitboard {
    TABLES.pawn[c.index()][sq.index()]
}

/// Squares a knight of `c` on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(c: Color, sq: Square) -> Bitboard {
    TABLES.knight[c.index()][sq.index()]
}

/// Squares a silver of `c` on `sq` attacks.
#[inline(always)]
pub fn silver_attacks(c: Color, sq: Square) -> Bitboard {
    TABLES.silver[c.index()][sq.index()]
}

/// Squares a gold (or gold-moving promoted piece) of `c` on `sq` attacks.
#[inline(always)]
pub fn gold_attacks(c: Color, sq: Square) -> Bitboard {
    TABLES.gold[c.index()][sq.index()]
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    TABLES.king[sq.index()]
}

/// Squares a lance of `c` on `sq` attacks given occupancy `occ`.
#[inline(always)]
pub fn lance_attacks(c: Color, sq: Square, occ: Bitboard) -> Bitboard {
    let t = &**TABLES;
    line_attacks(t, sq, FILE_LINE, occ) & t.lance_ray[c.index()][sq.index()]
}

/// All squares in front of `sq` for `c` on its file (a lance on an empty board).
#[inline(always)]
pub fn lance_ray(c: Color, sq: Square) -> Bitboard {
    TABLES.lance_ray[c.index()][sq.index()]
}

/// Squares a rook on `sq` attacks given occupancy `occ`.
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let t = &**TABLES;
    line_attacks(t, sq, FILE_LINE, occ) | line_attacks(t, sq, RANK_LINE, occ)
}

/// Squares a bishop on `sq` attacks given occupancy `occ`.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let t = &**TABLES;
    line_attacks(t, sq, DIAG_UP, occ) | line_attacks(t, sq, DIAG_DOWN, occ)
}

/// Rook attacks on an empty board.
#[inline(always)]
pub fn rook_pseudo_attacks(sq: Square) -> Bitboard {
    TABLES.rook_pseudo[sq.index()]
}

/// Bishop attacks on an empty board.
#[inline(always)]
pub fn bishop_pseudo_attacks(sq: Square) -> Bitboard {
    TABLES.bishop_pseudo[sq.index()]
}

/// Squares strictly between `a` and `b` when they share a line, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    TABLES.between[a.index() * 81 + b.index()]
}

/// The whole line through `a` and `b` (both included), or empty if not aligned.
#[inline(always)]
pub fn line_through(a: Square, b: Square) -> Bitboard {
    TABLES.line[a.index() * 81 + b.index()]
}

/// Squares a piece of kind `pt` and colour `c` on `sq` attacks given occupancy `occ`.
#[inline]
pub fn piece_attacks(c: Color, pt: PieceType, sq: Square, occ: Bitboard) -> Bitboard {
    match pt {
        PieceType::Pawn => pawn_attacks(c, sq),
        PieceType::Lance => lance_attacks(c, sq, occ),
        PieceType::Knight => knight_attacks(c, sq),
        PieceType::Silver => silver_attacks(c, sq),
        PieceType::Gold
        | PieceType::ProPawn
        | PieceType::ProLance
        | PieceType::ProKnight
        | PieceType::ProSilver => gold_attacks(c, sq),
        PieceType::Bishop => bishop_attacks(sq, occ),
        PieceType::Rook => rook_attacks(sq, occ),
        PieceType::King => king_attacks(sq),
        PieceType::Horse => bishop_attacks(sq, occ) | king_attacks(sq),
        PieceType::Dragon => rook_attacks(sq, occ) | king_attacks(sq),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn sliders_match_ray_walk_on_random_occupancy() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..3000 {
            let occ = Bitboard(rng.gen::<u128>() & rng.gen::<u128>() & Bitboard::ALL.0);
            for sq in Square::all() {
                assert_eq!(rook_attacks(sq, occ), slow_ray_attacks(sq, &ROOK_DIRS, occ));
                assert_eq!(bishop_attacks(sq, occ), slow_ray_attacks(sq, &BISHOP_DIRS, occ));
                assert_eq!(lance_attacks(Color::Black, sq, occ), slow_ray_attacks(sq, &[(0, -1)], occ));
                assert_eq!(lance_attacks(Color::White, sq, occ), slow_ray_attacks(sq, &[(0, 1)], occ));
            }
        }
    }

    #[test]
    fn step_pieces() {
        let e5 = Square::from_usi("5e").unwrap();
        assert_eq!(king_attacks(e5).count(), 8);
        assert_eq!(gold_attacks(Color::Black, e5).count(), 6);
        assert_eq!(silver_attacks(Color::White, e5).count(), 5);
        let n = knight_attacks(Color::Black, e5);
        assert!(n.has(Square::from_usi("4c").unwrap()) && n.has(Square::from_usi("6c").unwrap()));
        assert!(knight_attacks(Color::Black, Square::from_usi("5b").unwrap()).is_empty());
        assert_eq!(between(Square::from_usi("1a").unwrap(), Square::from_usi("9i").unwrap()).count(), 7);
        assert!(between(Square::from_usi("1a").unwrap(), Square::from_usi("2c").unwrap()).is_empty());
    }
}
