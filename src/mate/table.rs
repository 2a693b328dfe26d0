//! The solver's transposition table: buckets of entries keyed by board key and
//! attacker hand, with proofs and disproofs shared between hands by superiority (and
//! the open numbers too, as lower bounds, where the search asks), its
//! garbage collection (the cheapest half goes when it is nearly full), its clearing
//! by generations (so that one table serves many solves without being zeroed), and
//! `Res`, the value of a node. Uses `keys`.

use super::*;

/// What a slot holds besides its key.
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    hand: Hand,
    pn: u32,
    dn: u32,
    /// Search effort below this node; 0 marks an empty slot.
    amount: u32,
    /// Length of a known mate with `hand` as proof hand (NO_LEN if none).
    proof_len: u16,
    /// Depth up to which `hand` is a disproof hand (0 if none).
    disproof_depth: u16,
}

const BUCKET: usize = 8;

/// Buckets sampled for `hashfull` (1,000 slots).
const HASHFULL_SAMPLE: usize = 125;
/// `hashfull` at which the garbage collection runs.
const GC_TRIGGER: u32 = 900;
/// Buckets whose entries set the collection's threshold.
const GC_SAMPLE: usize = 4096;

/// What keeping an entry is worth: the search effort it saves, more for a proof or
/// disproof than for an unresolved node.
#[inline]
fn worth(e: &Entry) -> u32 {
    if e.proof_len != NO_LEN || e.disproof_depth > 0 {
        e.amount.saturating_mul(4)
    } else {
        e.amount
    }
}

/// Eight slots: their keys first, in one cache line, so that a probe reads the data
/// of matching slots only (one or two cache lines instead of four), then the
/// generation the bucket belongs to (in what was padding: still 256 bytes).
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Bucket {
    keys: [u64; BUCKET],
    entries: [Entry; BUCKET],
    /// The table generation that wrote this bucket; a bucket of another generation is
    /// empty (see `MateTable::clear`).
    generation: u32,
}

/// The buckets' memory: zeroed by the allocator's zeroing path, aligned to 64 bytes
/// by hand. `std::alloc::alloc_zeroed` with the buckets' own alignment (64, above
/// what `calloc` guarantees) allocates and then writes zeros over every byte, which
/// touched every page of a 64 MiB table (about 80 ms per `go mate`); asked with an
/// alignment of 16 it calls `calloc`, whose fresh pages are zero already and are
/// only mapped when used.
struct BucketMem {
    buckets: *mut Bucket,
    len: usize,
    base: *mut u8,
    layout: std::alloc::Layout,
}

// SAFETY: `BucketMem` owns its allocation alone (like a `Vec<Bucket>`).
unsafe impl Send for BucketMem {}
// SAFETY: shared access only reads (through `Deref`), as for a `Vec<Bucket>`.
unsafe impl Sync for BucketMem {}

impl BucketMem {
    /// Exactly `n` empty buckets, or `None` if the allocator refuses.
    fn zeroed(n: usize) -> Option<BucketMem> {
        let size = n.max(1).checked_mul(std::mem::size_of::<Bucket>())?.checked_add(64)?;
        let layout = std::alloc::Layout::from_size_align(size, 16).ok()?;
        // SAFETY: the layout has a nonzero size. A null pointer (refused) is never
        // used. The buckets start at the first 64-byte boundary at most 48 bytes in,
        // so `n` of them fit in the `size` bytes allocated. `Bucket` is `repr(C)` and
        // made only of integers (`Hand` wraps a u32), so all-zero bytes are a valid
        // value: empty slots of generation 0.
        unsafe {
            let base = std::alloc::alloc_zeroed(layout);
            if base.is_null() {
                return None;
            }
            // Before the first write, so the pages are faulted in huge.
            crate::core::large_pages::advise(base, size);
            let buckets = base.add(base.align_offset(64)) as *mut Bucket;
            Some(BucketMem { buckets, len: n.max(1), base, layout })
        }
    }
}

impl std::ops::Deref for BucketMem {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `len` initialised buckets from `buckets` on (see `zeroed`).
        unsafe { std::slice::from_raw_parts(self.buckets, self.len) }
    }
}

impl std::ops::DerefMut for BucketMem {
    fn deref_mut(&mut self) -> &mut [Bucket] {
        // SAFETY: as in `deref`; `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.buckets, self.len) }
    }
}

impl Drop for BucketMem {
    fn drop(&mut self) {
        // SAFETY: `base` came from `alloc_zeroed` with exactly this layout.
        unsafe { std::alloc::dealloc(self.base, self.layout) }
    }
}

/// About `n` empty buckets: when memory is short, half as many, and so on down to
/// one.
fn zeroed_buckets(n: usize) -> BucketMem {
    let mut n = n.max(1);
    loop {
        if let Some(v) = BucketMem::zeroed(n) {
            return v;
        }
        if n <= 1 {
            std::alloc::handle_alloc_error(std::alloc::Layout::new::<Bucket>());
        }
        n /= 2;
    }
}

/// The solver's transposition table (buckets of 8 slots, 256 bytes, cache aligned).
/// `clear` empties it at once by starting a new generation: each bucket is emptied
/// when it is next written, so a table can serve many solves without being zeroed.
pub struct MateTable {
    buckets: BucketMem,
    /// The current generation: buckets of others are empty.
    generation: u32,
    /// Buckets in use: the first `active` (see `grow`).
    active: usize,
    /// Slots taken empty since the table last grew or was cleared.
    filled: usize,
}

/// Buckets a table starts each generation with (16 MiB): a short solve then touches
/// at most 16 MiB, not every (huge, 2 MiB) page of a table of `USI_Hash` MiB, each
/// zeroed by the system when first touched: 0.1-0.5 s at 2 GiB for a 9-ply problem.
/// (From 1 MiB, the evictions of the early small table cost tests/mate.rs's
/// pieces-to-spare case its exact answer at every size.)
const FIRST_ACTIVE: usize = 65536;

impl MateTable {
    /// A table of about `mb` MiB (at least one bucket).
    pub fn new(mb: usize) -> MateTable {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        Self::with_buckets((bytes / std::mem::size_of::<Bucket>()).max(1))
    }

    /// A small table for about `entries` entries.
    pub(super) fn with_entries(n: usize) -> MateTable {
        Self::with_buckets((n / BUCKET).clamp(16, 1 << 22))
    }

    /// A table of `buckets` buckets, or of what the allocation fallback gave.
    fn with_buckets(buckets: usize) -> MateTable {
        let buckets = zeroed_buckets(buckets);
        let active = buckets.len().min(FIRST_ACTIVE);
        MateTable { buckets, generation: 0, active, filled: 0 }
    }

    /// Empties the table without touching its memory: a new generation starts (once
    /// in 2^32 clears, when the count wraps, the buckets are really zeroed).
    pub(super) fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        self.active = self.buckets.len().min(FIRST_ACTIVE);
        self.filled = 0;
        if self.generation == 0 {
            self.buckets.iter_mut().for_each(|b| *b = Bucket::default());
        }
    }

    /// Keeps only the disproofs: after bounded searches, whose open numbers hold only
    /// within their bounds (a child disproved at the horizon looks hopeless) and would
    /// mislead an unbounded search, while their disproofs ("no mate within d") are
    /// what the shortening of its proof asks again. Their proofs go too: the unbounded
    /// search took them as short cuts to longer first mates (r11-4: 27 plies in 80K
    /// nodes instead of 13 in 24K). Reads the buckets in use once.
    pub(super) fn keep_disproofs(&mut self) {
        let generation = self.generation;
        let mut freed = 0;
        for b in self.buckets[..self.active].iter_mut().filter(|b| b.generation == generation) {
            for (k, e) in b.keys.iter_mut().zip(&mut b.entries) {
                if e.amount == 0 {
                    continue;
                }
                if e.disproof_depth == 0 {
                    *k = 0;
                    *e = Entry::default();
                    freed += 1;
                } else {
                    (e.pn, e.dn, e.proof_len) = (0, 0, NO_LEN);
                }
            }
        }
        self.filled = self.filled.saturating_sub(freed);
    }

    /// The bucket of `key` when it belongs to the current generation.
    #[inline]
    fn live(&self, key: u64) -> Option<&Bucket> {
        let b = &self.buckets[self.bucket(key)];
        (b.generation == self.generation).then_some(b)
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.active as u128)) >> 64) as usize
    }

    /// Doubles the buckets in use (at most all of them) once half their slots are
    /// taken, moving each entry of the current generation to its bucket in the larger
    /// range. A key's bucket only moves up (`bucket` is monotone in `active`), so
    /// the buckets are moved from the last down, each into buckets already moved or
    /// beyond the old range; where two old buckets meet in one new one (the last
    /// step, when the table's size is not a power of two times the first), the usual
    /// replacement keeps the costlier entries.
    fn grow(&mut self) {
        let (old, new) = (self.active, (self.active * 2).min(self.buckets.len()));
        let generation = self.generation;
        self.active = new;
        self.filled = 0;
        for i in (0..old).rev() {
            let b = std::mem::take(&mut self.buckets[i]);
            if b.generation != generation {
                continue;
            }
            self.buckets[i].generation = generation;
            for (&key, e) in b.keys.iter().zip(&b.entries) {
                if e.amount > 0 {
                    *self.place(key, e.hand) = *e;
                }
            }
        }
    }

    /// Hints the processor to fetch the key line of `key`'s bucket (a later probe of
    /// it then finds it in cache).
    #[inline(always)]
    pub(super) fn prefetch(&self, key: u64) {
        crate::core::prefetch::prefetch(&self.buckets[self.bucket(key)]);
    }

    /// Looks a node up for a search that has `depth` plies left: a proof of the board
    /// with no more in the attacker's hand, within `depth`; a disproof of it with no
    /// less, to at least `depth`; else the open numbers of this very hand.
    #[inline]
    pub(super) fn probe(&self, key: u64, hand: Hand, depth: u16) -> Res {
        self.probe_with(key, hand, depth, false)
    }

    /// `probe`, with the open numbers raised, if `dominance`, by the same board's
    /// entries for other hands (KomoringHeights' rule): the proof number to that of
    /// any where the attacker holds more (with less, no easier proof), the disproof
    /// number to that of any where it holds less (with more, no easier disproof). On
    /// the 14 middle-length classics at 20 s, proof nodes 5.35M -> 3.99M; Sekitoba
    /// from ply 478 proved in 40 s (none in 60 before).
    #[inline]
    pub(super) fn probe_with(&self, key: u64, hand: Hand, depth: u16, dominance: bool) -> Res {
        let mut res = Res::unknown(1, 1);
        let Some(bucket) = self.live(key) else { return res };
        let mut best_len = NO_LEN;
        let mut best_dd = 0u16;
        let mut exact = (1u32, 1u32);
        let mut floor = (0u32, 0u32);
        for (k, e) in bucket.keys.iter().zip(&bucket.entries) {
            if *k != key || e.amount == 0 {
                continue;
            }
            if e.proof_len <= depth && e.proof_len < best_len && hand.is_superset_of(e.hand) {
                best_len = e.proof_len;
                res.ph = e.hand;
            }
            if best_len == NO_LEN && e.disproof_depth > 0 && e.disproof_depth >= depth && e.disproof_depth > best_dd && e.hand.is_superset_of(hand) {
                best_dd = e.disproof_depth;
                res.ph = e.hand;
            }
            if e.pn > 0 && e.dn > 0 && e.pn < INF && e.dn < INF {
                if e.hand == hand {
                    exact = (e.pn, e.dn);
                } else if dominance && e.hand.is_superset_of(hand) {
                    // The attacker holds less here: at least as hard to prove.
                    floor.0 = floor.0.max(e.pn);
                } else if dominance && hand.is_superset_of(e.hand) {
                    // The attacker holds more here: at least as hard to disprove.
                    floor.1 = floor.1.max(e.dn);
                }
            }
        }
        res.pn = exact.0.max(floor.0);
        res.dn = exact.1.max(floor.1);
        if best_len != NO_LEN {
            res.pn = 0;
            res.dn = INF;
            res.len = best_len;
        } else if best_dd > 0 {
            res.pn = INF;
            res.dn = 0;
            res.ddepth = best_dd;
        }
        res
    }

    /// `probe`, or `None` when the table knows nothing of the node (no proof or
    /// disproof applies and no entry holds this very hand): for reading lines, which
    /// must stop where the table's knowledge ends. Not on the search's hot path.
    pub(super) fn probe_known(&self, key: u64, hand: Hand, depth: u16) -> Option<Res> {
        let r = self.probe(key, hand, depth);
        if r.pn == 0 || r.dn == 0 {
            return Some(r);
        }
        let bucket = self.live(key)?;
        let held = bucket.keys.iter().zip(&bucket.entries).any(|(k, e)| *k == key && e.amount > 0 && e.hand == hand && e.pn > 0 && e.dn > 0 && e.pn < INF && e.dn < INF);
        held.then_some(r)
    }

    /// Slots in use per mille, from a sample of the first buckets (as USI's `hashfull`).
    pub(super) fn hashfull(&self) -> u32 {
        let sample = &self.buckets[..self.buckets.len().min(HASHFULL_SAMPLE)];
        let used: usize = sample.iter().filter(|b| b.generation == self.generation).map(|b| b.entries.iter().filter(|e| e.amount > 0).count()).sum();
        (used * 1000 / (sample.len() * BUCKET)) as u32
    }

    /// When the table is nearly full (`GC_TRIGGER` per mille), frees every entry worth
    /// no more than the median of a sample, keeping what was expensive to find; returns
    /// whether it ran. Bucket replacement alone would keep cheap leaves in one bucket
    /// while costly proofs in another are overwritten.
    pub(super) fn collect_garbage(&mut self) -> bool {
        if self.hashfull() < GC_TRIGGER {
            return false;
        }
        let mut worths: Vec<u32> = self.buckets[..self.buckets.len().min(GC_SAMPLE)]
            .iter()
            .filter(|b| b.generation == self.generation)
            .flat_map(|b| b.entries.iter().filter(|e| e.amount > 0).map(worth))
            .collect();
        if worths.is_empty() {
            return false;
        }
        let mid = worths.len() / 2;
        let cut = *worths.select_nth_unstable(mid).1;
        let generation = self.generation;
        for b in self.buckets.iter_mut().filter(|b| b.generation == generation) {
            for (k, e) in b.keys.iter_mut().zip(&mut b.entries) {
                if e.amount > 0 && worth(e) <= cut {
                    *k = 0;
                    *e = Entry::default();
                }
            }
        }
        true
    }

    #[inline]
    fn slot(&mut self, key: u64, hand: Hand) -> &mut Entry {
        if self.filled * 2 > self.active * BUCKET && self.active < self.buckets.len() {
            self.grow();
        }
        self.place(key, hand)
    }

    /// The slot of (`key`, `hand`) in its bucket: the one holding it, else an empty
    /// one, else the cheapest (see `worth`), emptied.
    #[inline]
    fn place(&mut self, key: u64, hand: Hand) -> &mut Entry {
        let b = self.bucket(key);
        let generation = self.generation;
        let bucket = &mut self.buckets[b];
        if bucket.generation != generation {
            *bucket = Bucket { generation, ..Bucket::default() };
        }
        let mut victim = 0;
        let mut victim_amount = u32::MAX;
        let mut held = None;
        for i in 0..BUCKET {
            let e = &bucket.entries[i];
            if e.amount == 0 {
                if victim_amount > 0 {
                    victim = i;
                    victim_amount = 0;
                }
                continue;
            }
            if bucket.keys[i] == key && e.hand == hand {
                held = Some(i);
                break;
            }
            let w = worth(e);
            if w < victim_amount {
                victim = i;
                victim_amount = w;
            }
        }
        if let Some(i) = held {
            return &mut self.buckets[b].entries[i];
        }
        if victim_amount == 0 {
            self.filled += 1;
        }
        let bucket = &mut self.buckets[b];
        bucket.keys[victim] = key;
        let e = &mut bucket.entries[victim];
        *e = Entry { hand, pn: 0, dn: 0, amount: 1, proof_len: NO_LEN, disproof_depth: 0 };
        e
    }

    pub(super) fn store_proof(&mut self, key: u64, ph: Hand, len: u16, amount: u32) {
        let e = self.slot(key, ph);
        e.proof_len = e.proof_len.min(len);
        e.amount = e.amount.max(amount).max(1);
    }

    pub(super) fn store_disproof(&mut self, key: u64, dh: Hand, depth: u16, amount: u32) {
        if depth == 0 {
            return;
        }
        let e = self.slot(key, dh);
        e.disproof_depth = e.disproof_depth.max(depth);
        e.amount = e.amount.max(amount).max(1);
    }

    pub(super) fn store_unknown(&mut self, key: u64, hand: Hand, pn: u32, dn: u32, amount: u32) {
        let e = self.slot(key, hand);
        e.pn = pn;
        e.dn = dn;
        e.amount = e.amount.max(amount).max(1);
    }
}


/// A node's (or child's) value.
#[derive(Clone, Copy, Debug)]
pub(super) struct Res {
    pub(super) pn: u32,
    pub(super) dn: u32,
    /// Mate length when proved.
    pub(super) len: u16,
    /// Depth a disproof holds to.
    pub(super) ddepth: u16,
    /// Proof hand (proved) or disproof hand (disproved).
    pub(super) ph: Hand,
    /// Ply of the repeated ancestor a disproof depends on (NO_REP if none).
    pub(super) rep: u16,
}

impl Res {
    #[inline]
    pub(super) fn unknown(pn: u32, dn: u32) -> Res {
        Res { pn, dn, len: NO_LEN, ddepth: 0, ph: Hand::EMPTY, rep: NO_REP }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand with `n` pawns (a distinct hand per `n`).
    fn pawns(n: u32) -> Hand {
        let mut h = Hand::EMPTY;
        for _ in 0..n {
            h.add(PieceType::Pawn);
        }
        h
    }

    #[test]
    fn garbage_collection_frees_cheap_entries_and_keeps_costly_proofs() {
        let n = HASHFULL_SAMPLE * 2;
        let mut t = MateTable::with_buckets(n);
        assert_eq!(t.hashfull(), 0);
        assert!(!t.collect_garbage(), "an empty table is not collected");
        // The first key of bucket `j`.
        let key = |j: usize| (((j as u128) << 64).div_ceil(n as u128)) as u64;
        for j in 0..n {
            let k = key(j);
            assert_eq!(t.bucket(k), j);
            // One costly proof and seven cheap unresolved nodes in every bucket.
            t.store_proof(k, pawns(0), 7, 1_000_000);
            for p in 1..BUCKET as u32 {
                t.store_unknown(k, pawns(p), 3, 4, 1);
            }
        }
        assert_eq!(t.hashfull(), 1000);
        assert!(t.collect_garbage());
        assert_eq!(t.hashfull(), 125, "one slot in eight left");
        for j in 0..n {
            let k = key(j);
            assert_eq!((t.probe(k, pawns(3), 10).pn, t.probe(k, pawns(3), 10).len), (0, 7), "proof in bucket {j} lost");
            let gone = t.probe(k, pawns(1), 0);
            assert_eq!((gone.pn, gone.dn), (1, 1), "an unresolved node in bucket {j} kept");
        }
        assert!(!t.collect_garbage(), "a table an eighth full is not collected");
    }

    #[test]
    fn open_numbers_of_a_richer_or_poorer_attacker_bound_a_new_hands_numbers() {
        let mut t = MateTable::with_buckets(64);
        let k = 0x1234_5678_9abc_def1;
        t.store_unknown(k, pawns(4), 30, 2, 10);
        t.store_unknown(k, pawns(1), 3, 20, 10);
        // Two pawns: the attacker holds less than with four (a proof is at least as
        // hard) and more than with one (a disproof is at least as hard).
        let r = t.probe_with(k, pawns(2), 10, true);
        assert_eq!((r.pn, r.dn), (30, 20));
        let r = t.probe(k, pawns(2), 10);
        assert_eq!((r.pn, r.dn), (1, 1), "raised without dominance");
        // The hand's own numbers are raised, never lowered, by its neighbours'.
        t.store_unknown(k, pawns(2), 40, 5, 10);
        let r = t.probe_with(k, pawns(2), 10, true);
        assert_eq!((r.pn, r.dn), (40, 20));
        // Five pawns: richer than both; only the disproof side is bounded.
        let r = t.probe_with(k, pawns(5), 10, true);
        assert_eq!((r.pn, r.dn), (1, 20));
        // An unrelated board gives nothing.
        let r = t.probe_with(k ^ 0x40, pawns(2), 10, true);
        assert_eq!((r.pn, r.dn), (1, 1));
    }

    #[test]
    fn keeping_the_disproofs_forgets_proofs_and_open_numbers() {
        let mut t = MateTable::with_buckets(64);
        let (k1, k2, k3) = (0x1234_5678_9abc_def1, 0x8765_4321_0fed_cba9, 0x5555_aaaa_5555_aaab);
        t.store_proof(k1, pawns(1), 5, 10);
        t.store_disproof(k2, pawns(4), 9, 10);
        t.store_unknown(k2, pawns(4), 7, 8, 10);
        t.store_unknown(k3, pawns(2), 3, 4, 10);
        t.keep_disproofs();
        assert_eq!(t.probe(k1, pawns(1), 10).pn, 1, "a proof kept");
        let d = t.probe(k2, pawns(3), 9);
        assert_eq!((d.pn, d.dn, d.ddepth), (INF, 0, 9), "the disproof within 9 lost");
        let open = t.probe(k2, pawns(4), 11);
        assert_eq!((open.pn, open.dn), (1, 1), "open numbers kept beside a disproof");
        assert_eq!((t.probe(k3, pawns(2), 10).pn, t.probe(k3, pawns(2), 10).dn), (1, 1), "an open node kept");
        assert_eq!(t.filled, 1, "freed slots not counted free");
    }

    #[test]
    fn a_growing_table_keeps_its_entries_and_starts_small_again_when_cleared() {
        let mut t = MateTable::with_buckets(FIRST_ACTIVE * 4 + 100);
        assert_eq!(t.active, FIRST_ACTIVE);
        // Spread keys (an odd multiplier), enough to fill the whole table past half, so
        // that it grows to the end (the last step not a doubling).
        let key = |i: u64| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let n = (FIRST_ACTIVE * 4 + 100) as u64 * BUCKET as u64 * 11 / 20;
        for i in 0..n {
            t.store_proof(key(i), pawns((i % 7) as u32), (i % 50) as u16 * 2 + 1, 1 + (i % 3) as u32);
        }
        assert_eq!(t.active, t.buckets.len(), "grown to the whole table (not a power of two times the first)");
        let lost = (0..n).filter(|&i| t.probe(key(i), pawns(7), 200).len != (i % 50) as u16 * 2 + 1).count();
        // At 55% load a few buckets overflow and keep their costlier entries; a growth
        // that lost entries would lose far more.
        assert!(lost * 100 < n as usize, "{lost} of {n} proofs lost in growing");
        t.clear();
        assert_eq!(t.active, FIRST_ACTIVE);
        assert_eq!(t.probe(key(0), pawns(7), 200).pn, 1, "a proof survived the clear");
    }

    #[test]
    fn a_cleared_table_is_empty_and_takes_new_entries() {
        let mut t = MateTable::with_buckets(HASHFULL_SAMPLE);
        let key = 0x1234_5678_9abc_def0u64;
        t.store_proof(key, pawns(1), 5, 10);
        t.store_unknown(key ^ 1, pawns(2), 3, 4, 1);
        assert_eq!(t.probe(key, pawns(2), 9).pn, 0);
        assert!(t.hashfull() > 0);
        t.clear();
        assert_eq!(t.hashfull(), 0);
        let r = t.probe(key, pawns(2), 9);
        assert_eq!((r.pn, r.dn), (1, 1), "a proof survived the clear");
        assert!(t.probe_known(key ^ 1, pawns(2), 9).is_none());
        // Written again, the bucket holds the new entry only.
        t.store_disproof(key, pawns(3), DEPTH_INF, 1);
        assert_eq!(t.probe(key, pawns(1), 9).dn, 0);
        assert_eq!(t.probe(key, pawns(4), 9).pn, 1, "an old proof came back");
        // The buckets are aligned to their cache lines.
        assert_eq!(t.buckets.as_ptr() as usize % 64, 0);
    }
}
