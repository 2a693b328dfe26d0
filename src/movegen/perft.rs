//! Perft: counts the leaves of the legal move tree (checks the generator and times it).
//! A stop flag lets a long count (`go perft 7`) end early. Uses `movegen` and `position`.

use super::{generate, legal_moves, GenType, MoveList};
use crate::core::types::Move;
use crate::position::Position;
use std::sync::atomic::{AtomicBool, Ordering};

/// A stop flag that is never raised (for counts that always run to the end).
static NEVER: AtomicBool = AtomicBool::new(false);

/// Counts leaf nodes `depth` plies below `pos` (the last ply by list length).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    perft_until(pos, depth, &NEVER)
}

/// As `perft`, giving up (with a partial count) once `stop` is raised; the flag is
/// read only at nodes three or more plies above the leaves, so it costs nothing.
fn perft_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    generate(pos, GenType::Legal, true, &mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    if depth >= 3 && stop.load(Ordering::Relaxed) {
        return 0;
    }
    let mut total = 0;
    for &m in list.iter() {
        pos.do_move(m);
        total += perft_until(pos, depth - 1, stop);
        pos.undo_move(m);
    }
    total
}

/// Perft split at the root: each legal move with its count, in generation order.
/// With `threads > 1` the root moves are spread over a rayon pool.
pub fn perft_divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    perft_divide_until(pos, depth, threads, &NEVER).unwrap_or_default()
}

/// As `perft_divide`, or `None` when `stop` was raised before the count finished.
pub fn perft_divide_until(pos: &Position, depth: u32, threads: usize, stop: &AtomicBool) -> Option<Vec<(Move, u64)>> {
    let list = legal_moves(pos);
    let moves: Vec<Move> = list.iter().copied().collect();
    let count = |m: Move| {
        let mut p = pos.clone();
        p.do_move(m);
        let n = if depth <= 1 { 1 } else { perft_until(&mut p, depth - 1, stop) };
        (m, n)
    };
    let divide = if threads > 1 && depth > 2 {
        use rayon::prelude::*;
        // Root moves differ a lot in subtree size, so each root move's children are
        // split too; rayon's work stealing then keeps every thread busy to the end.
        let count_split = |m: Move| {
            let mut p = pos.clone();
            p.do_move(m);
            let children: Vec<Move> = legal_moves(&p).iter().copied().collect();
            let n: u64 = children
                .par_iter()
                .map(|&c| {
                    let mut q = p.clone();
                    q.do_move(c);
                    perft_until(&mut q, depth - 2, stop)
                })
                .sum();
            (m, n)
        };
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| moves.par_iter().map(|&m| count_split(m)).collect()),
            Err(_) => moves.iter().map(|&m| count(m)).collect(),
        }
    } else {
        moves.iter().map(|&m| count(m)).collect()
    };
    (!stop.load(Ordering::Relaxed)).then_some(divide)
}
