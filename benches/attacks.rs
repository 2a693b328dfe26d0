//! Slider attack techniques compared side by side in one run:
//! - `line_gather`: Hisha's tables (shift + mask + multiply gather per line);
//! - `ray_scan`: the classical approach (per direction: mask the empty-board ray,
//!   find the nearest blocker with a bit scan, cut the ray behind it).
//!
//! Both compute rook and bishop attacks for all 81 squares over a set of
//! occupancies taken from random play.
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use hisha::core::attacks::{bishop_attacks, rook_attacks, slow_ray_attacks, BISHOP_DIRS, ROOK_DIRS};
use hisha::core::bitboard::Bitboard;
use hisha::core::types::Square;

struct RayScan {
    // [direction][square]: the empty-board ray; directions 0..4 rook, 4..8 bishop.
    rays: Vec<[u128; 81]>,
    positive: [bool; 8],
}

impl RayScan {
    fn new() -> RayScan {
        let dirs: Vec<(i32, i32)> = ROOK_DIRS.iter().chain(BISHOP_DIRS.iter()).copied().collect();
        let mut rays = vec![[0u128; 81]; 8];
        let mut positive = [false; 8];
        for (d, &dir) in dirs.iter().enumerate() {
            for sq in Square::all() {
                rays[d][sq.index()] = slow_ray_attacks(sq, &[dir], Bitboard::EMPTY).0;
            }
            // A direction is "positive" when it walks to higher square indices.
            positive[d] = dir.0 * 9 + dir.1 > 0;
        }
        RayScan { rays, positive }
    }

    #[inline(always)]
    fn ray(&self, d: usize, sq: usize, occ: u128) -> u128 {
        let ray = self.rays[d][sq];
        let blockers = ray & occ;
        if blockers == 0 {
            return ray;
        }
        let b = if self.positive[d] { blockers.trailing_zeros() } else { 127 - blockers.leading_zeros() };
        ray ^ self.rays[d][b as usize]
    }

    fn rook(&self, sq: usize, occ: u128) -> u128 {
        self.ray(0, sq, occ) | self.ray(1, sq, occ) | self.ray(2, sq, occ) | self.ray(3, sq, occ)
    }

    fn bishop(&self, sq: usize, occ: u128) -> u128 {
        self.ray(4, sq, occ) | self.ray(5, sq, occ) | self.ray(6, sq, occ) | self.ray(7, sq, occ)
    }
}

fn occupancies() -> Vec<Bitboard> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    (0..64).map(|_| Bitboard(rng.gen::<u128>() & rng.gen::<u128>() & Bitboard::ALL.0)).collect()
}

fn bench_sliders(c: &mut Criterion) {
    hisha::init();
    let occs = occupancies();
    let scan = RayScan::new();
    for &o in &occs {
        for sq in Square::all() {
            assert_eq!(scan.rook(sq.index(), o.0), rook_attacks(sq, o).0);
            assert_eq!(scan.bishop(sq.index(), o.0), bishop_attacks(sq, o).0);
        }
    }
    let mut g = c.benchmark_group("sliders_81sq_x64occ");
    g.bench_function("line_gather", |b| {
        b.iter(|| {
            let mut acc = 0u128;
            for &o in &occs {
                for sq in Square::all() {
                    acc ^= rook_attacks(sq, black_box(o)).0 ^ bishop_attacks(sq, black_box(o)).0;
                }
            }
            acc
        })
    });
    g.bench_function("ray_scan", |b| {
        b.iter(|| {
            let mut acc = 0u128;
            for &o in &occs {
                for sq in 0..81 {
                    acc ^= scan.rook(sq, black_box(o.0)) ^ scan.bishop(sq, black_box(o.0));
                }
            }
            acc
        })
    });
    g.finish();
}

criterion_group!(benches, bench_sliders);
criterion_main!(benches);
