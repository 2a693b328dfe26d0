//! The solver's transposition table: buckets of entries keyed by board key and
//! attacker hand, with proofs and disproofs shared between hands by superiority, and
//! `Res`, the value of a node. Uses `keys`.

use super::*;

#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u64,
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

/// About `n` empty entries from zeroed memory: when memory is short, half as many,
/// and so on down to one bucket (never an abort).
fn zeroed_entries(n: usize) -> Vec<Entry> {
    let mut n = n.max(BUCKET);
    loop {
        if let Some(v) = try_zeroed_entries(n) {
            return v;
        }
        if n <= BUCKET {
            return vec![Entry::default(); BUCKET];
        }
        n /= 2;
    }
}

/// Exactly `n` empty entries from zeroed memory, or `None` if the allocator refuses.
fn try_zeroed_entries(n: usize) -> Option<Vec<Entry>> {
    let layout = std::alloc::Layout::array::<Entry>(n).ok()?;
    // SAFETY: `Entry` is `repr(C)` and made only of integers (`Hand` wraps a u32), so
    // all-zero bytes are a valid value (an empty slot). The pointer comes from the
    // global allocator with exactly this layout, as `Vec::from_raw_parts` requires, and
    // a null pointer (refused allocation) is never wrapped.
    // Measured: filling a 256 MiB table with `vec![Entry::default(); n]` touched every
    // page and cost about 0.13 s of system time per `go mate`; zeroed pages are only
    // mapped when used.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout) as *mut Entry;
        (!p.is_null()).then(|| Vec::from_raw_parts(p, n, n))
    }
}

/// The solver's transposition table (buckets of 8 entries of 32 bytes).
pub struct MateTable {
    entries: Vec<Entry>,
    buckets: usize,
}

impl MateTable {
    /// A table of about `mb` MiB (at least one bucket).
    pub fn new(mb: usize) -> MateTable {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let buckets = (bytes / (std::mem::size_of::<Entry>() * BUCKET)).max(1);
        Self::with_buckets(buckets)
    }

    /// A small table for about `entries` entries.
    pub(super) fn with_entries(n: usize) -> MateTable {
        Self::with_buckets((n / BUCKET).clamp(16, 1 << 22))
    }

    /// A table of `buckets` buckets, or of what the allocation fallback gave: the
    /// bucket count always follows the entries actually held.
    fn with_buckets(buckets: usize) -> MateTable {
        let entries = zeroed_entries(buckets.saturating_mul(BUCKET));
        let buckets = (entries.len() / BUCKET).max(1);
        MateTable { entries, buckets }
    }

    #[inline]
    pub(super) fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET
    }

    /// Looks a node up for a search that has `depth` plies left.
    #[inline]
    pub(super) fn probe(&self, key: u64, hand: Hand, depth: u16) -> Res {
        let b = self.bucket(key);
        let mut res = Res::unknown(1, 1);
        let mut best_len = NO_LEN;
        let mut best_dd = 0u16;
        for e in &self.entries[b..b + BUCKET] {
            if e.amount == 0 || e.key != key {
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
            if e.hand == hand && e.pn > 0 && e.dn > 0 && e.pn < INF && e.dn < INF {
                res.pn = e.pn;
                res.dn = e.dn;
            }
        }
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

    #[inline]
    fn slot(&mut self, key: u64, hand: Hand) -> &mut Entry {
        let b = self.bucket(key);
        let mut victim = b;
        let mut victim_amount = u32::MAX;
        for i in b..b + BUCKET {
            let e = &self.entries[i];
            if e.amount == 0 {
                if victim_amount > 0 {
                    victim = i;
                    victim_amount = 0;
                }
                continue;
            }
            if e.key == key && e.hand == hand {
                return &mut self.entries[i];
            }
            // Proved/disproved entries are worth more than unresolved ones.
            let worth = if e.proof_len != NO_LEN || e.disproof_depth > 0 { e.amount.saturating_mul(4) } else { e.amount };
            if worth < victim_amount {
                victim = i;
                victim_amount = worth;
            }
        }
        let e = &mut self.entries[victim];
        *e = Entry { key, hand, pn: 0, dn: 0, amount: 1, proof_len: NO_LEN, disproof_depth: 0 };
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
