//! The transposition table, shared by all search threads without locks.
//!
//! Each entry is two `AtomicU64`: `key ^ data` and `data`. A reader accepts an entry
//! only when the two words xor back to its key, so a torn write by another thread is
//! seen as a miss rather than as a wrong entry (the "xor trick"). No `unsafe` here:
//! the cache hint is `core::prefetch`, the memory is advised to huge pages
//! (`core::large_pages`). Uses `core` only.

use crate::core::large_pages;
use crate::core::types::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Bound type of a stored score.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    /// No bound (empty).
    None = 0,
    /// The true score is at most the stored score (fail low).
    Upper = 1,
    /// The true score is at least the stored score (fail high).
    Lower = 2,
    /// Exact score.
    Exact = 3,
}

/// A decoded entry.
#[derive(Copy, Clone, Debug)]
pub struct TtEntry {
    /// Best or refutation move (may be NONE).
    pub mv: Move,
    /// Score, adjusted for mate distance from the node (see `search::to_tt` and `search::from_tt`).
    pub score: i32,
    /// Static evaluation of the node.
    pub eval: i32,
    /// Search depth.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

/// The depth of an entry that holds only a static evaluation (or a quiescence stand-pat
/// bound): the lowest depth an entry can store, so it is the first to be replaced.
pub const DEPTH_UNSEARCHED: i32 = -8;

const BUCKET: usize = 4;

/// The shared table.
pub struct TranspositionTable {
    slots: Vec<AtomicU64>,
    /// First slot of bucket 0, chosen so that every bucket fills one 64-byte cache line.
    base: usize,
    buckets: usize,
    generation: AtomicU8,
}

fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, gen: u8) -> u64 {
    (mv.raw() as u64)
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (((depth + 8).clamp(0, 255) as u64) << 48)
        | ((bound as u64) << 56)
        | (((gen & 63) as u64) << 58)
}

fn unpack(d: u64) -> TtEntry {
    let bound = match (d >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => Bound::None,
    };
    TtEntry {
        mv: Move::from_raw(d as u16),
        score: (d >> 16) as u16 as i16 as i32,
        eval: (d >> 32) as u16 as i16 as i32,
        depth: ((d >> 48) & 255) as i32 - 8,
        bound,
    }
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket). Falls back to smaller
    /// sizes if the memory cannot be reserved; returns the table and its size in MB.
    pub fn new(mb: usize) -> (TranspositionTable, usize) {
        let mut mb = mb.max(1);
        loop {
            let buckets = (mb << 20) / (BUCKET * 16);
            let buckets = buckets.max(1);
            let len = (buckets + 1) * BUCKET * 2;
            let table = large_pages::try_vec(len, || AtomicU64::new(0));
            if table.is_some() || mb == 1 {
                let v = table.unwrap_or_else(|| (0..len).map(|_| AtomicU64::new(0)).collect());
                let misalign = (v.as_ptr() as usize) % 64;
                let base = if misalign == 0 { 0 } else { (64 - misalign) / 8 };
                return (TranspositionTable { slots: v, base, buckets, generation: AtomicU8::new(0) }, mb);
            }
            mb /= 2;
        }
    }

    /// Empties the table.
    pub fn clear(&self) {
        for s in &self.slots {
            s.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search (ages older entries).
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store(g.wrapping_add(1) & 63, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        self.base + (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET * 2
    }

    /// Starts loading the bucket of `key` into the cache (call as soon as the key of
    /// a position about to be searched is known).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        crate::core::prefetch::prefetch(self.slots[self.bucket(key)..].as_ptr());
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let b = self.bucket(key);
        for i in 0..BUCKET {
            let kx = self.slots[b + 2 * i].load(Ordering::Relaxed);
            let d = self.slots[b + 2 * i + 1].load(Ordering::Relaxed);
            if kx ^ d == key && d != 0 {
                return Some(unpack(d));
            }
        }
        None
    }

    /// Stores a result; keeps the old move when the new one is NONE.
    #[inline]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let gen = self.generation.load(Ordering::Relaxed);
        let b = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for i in 0..BUCKET {
            let kx = self.slots[b + 2 * i].load(Ordering::Relaxed);
            let d = self.slots[b + 2 * i + 1].load(Ordering::Relaxed);
            if d == 0 || kx ^ d == key {
                let mut mv = mv;
                if d != 0 {
                    let old = unpack(d);
                    if mv == Move::NONE {
                        mv = old.mv;
                    }
                    // Keep a deeper exact entry from the same search.
                    if bound != Bound::Exact && old.depth > depth + 3 && ((d >> 58) as u8 & 63) == gen {
                        if old.mv != mv {
                            let nd = pack(mv, old.score, old.eval, old.depth, old.bound, gen);
                            self.slots[b + 2 * i].store(key ^ nd, Ordering::Relaxed);
                            self.slots[b + 2 * i + 1].store(nd, Ordering::Relaxed);
                        }
                        return;
                    }
                }
                let nd = pack(mv, score, eval, depth, bound, gen);
                self.slots[b + 2 * i].store(key ^ nd, Ordering::Relaxed);
                self.slots[b + 2 * i + 1].store(nd, Ordering::Relaxed);
                return;
            }
            let e = unpack(d);
            let age = ((gen as i32 - ((d >> 58) & 63) as i32) + 64) & 63;
            let worth = e.depth - 8 * age;
            if worth < worst {
                worst = worth;
                victim = i;
            }
        }
        let nd = pack(mv, score, eval, depth, bound, gen);
        self.slots[b + 2 * victim].store(key ^ nd, Ordering::Relaxed);
        self.slots[b + 2 * victim + 1].store(nd, Ordering::Relaxed);
    }

    /// Per-mille of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let gen = self.generation.load(Ordering::Relaxed) as u64;
        let n = (1000 / BUCKET).min(self.buckets) * BUCKET;
        let mut used = 0;
        for i in 0..n {
            let d = self.slots[self.base + 2 * i + 1].load(Ordering::Relaxed);
            if d != 0 && (d >> 58) & 63 == gen {
                used += 1;
            }
        }
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let (tt, _) = TranspositionTable::new(1);
        let m = Move::from_usi("7g7f").unwrap();
        tt.store(0xdead_beef_1234_5678, m, -123, 45, 7, Bound::Lower);
        let e = tt.probe(0xdead_beef_1234_5678).unwrap();
        assert_eq!(e.mv, m);
        assert_eq!(e.score, -123);
        assert_eq!(e.eval, 45);
        assert_eq!(e.depth, 7);
        assert_eq!(e.bound, Bound::Lower);
        assert!(tt.probe(0x1111).is_none());
        tt.clear();
        assert!(tt.probe(0xdead_beef_1234_5678).is_none());
    }
}
