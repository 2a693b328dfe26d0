//! The accumulator: the first layer's output for both perspectives, updated move by
//! move (added and removed feature rows), and the refresh cache that makes king moves
//! cheap. Uses `features`, `network`, `core` and `position`.

use super::*;

/// Whether this CPU has AVX2 (x86-64 only; the answer is cached by the standard
/// library). The hot loops are compiled twice, for SSE2 (every x86-64) and for AVX2,
/// and this picks one at run time: AVX2 made `hisha bench` about 3% faster here (the
/// median of 12 paired runs; the node counts are the same).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn has_avx2() -> bool {
    *USE_AVX2
}

/// Whether the AVX2 paths run: the CPU has AVX2 and the environment variable
/// `HISHA_NO_AVX2` is not set (it forces the portable paths, which give the same
/// numbers: the tests run the bench both ways).
#[cfg(target_arch = "x86_64")]
static USE_AVX2: Lazy<bool> = Lazy::new(|| std::arch::is_x86_feature_detected!("avx2") && std::env::var_os("HISHA_NO_AVX2").is_none());

#[inline(always)]
pub(super) fn add_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for i in 0..HIDDEN {
        acc[i] = acc[i].wrapping_add(row[i]);
    }
}

#[inline(always)]
pub(super) fn sub_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for i in 0..HIDDEN {
        acc[i] = acc[i].wrapping_sub(row[i]);
    }
}

/// `dst = src + add - sub`, one pass.
#[inline(always)]
pub(super) fn copy_add_sub(dst: &mut [i16; HIDDEN], src: &[i16; HIDDEN], add: &[i16; HIDDEN], sub: &[i16; HIDDEN]) {
    for i in 0..HIDDEN {
        dst[i] = src[i].wrapping_add(add[i]).wrapping_sub(sub[i]);
    }
}

/// `dst = src + add1 + add2 - sub1 - sub2`, one pass.
#[inline(always)]
pub(super) fn copy_add2_sub2(dst: &mut [i16; HIDDEN], src: &[i16; HIDDEN], add: [&[i16; HIDDEN]; 2], sub: [&[i16; HIDDEN]; 2]) {
    for i in 0..HIDDEN {
        dst[i] = src[i].wrapping_add(add[0][i]).wrapping_add(add[1][i]).wrapping_sub(sub[0][i]).wrapping_sub(sub[1][i]);
    }
}

/// The first layer's output for both perspectives (indexed by colour), with the views
/// they were computed in.
#[derive(Clone)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub(super) v: [[i16; HIDDEN]; 2],
    pub(super) views: [View; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { v: [[0; HIDDEN]; 2], views: [View::new(Color::Black, None), View::new(Color::White, None)] }
    }
}

impl Accumulator {
    /// Computes one perspective from scratch.
    pub fn refresh_side(&mut self, net: &Network, pos: &Position, persp: Color) {
        if let Some(y) = net.yaneuraou() {
            return yaneuraou::refresh_side(self, net, y.features, pos, persp);
        }
        let mut feats = [0u16; MAX_ACTIVE];
        let n = active_features(pos, persp, &mut feats);
        let a = &mut self.v[persp.index()];
        a.copy_from_slice(&net.ft_bias);
        for &f in &feats[..n] {
            add_row(a, net.row(f as usize));
        }
        self.views[persp.index()] = View::of(pos, persp);
    }

    /// Computes both perspectives from scratch.
    pub fn refresh(&mut self, net: &Network, pos: &Position) {
        self.refresh_side(net, pos, Color::Black);
        self.refresh_side(net, pos, Color::White);
    }

    /// Sets `self` to `parent` updated by `m`, which has just been played in `pos`
    /// (`parent` was computed for the position before `m`). A king move that changes
    /// its side's view refreshes that side through `cache`.
    pub fn update(&mut self, parent: &Accumulator, net: &Network, pos: &Position, m: Move, cache: &mut RefreshCache) {
        if let Some(y) = net.yaneuraou() {
            return self.update_yaneuraou(parent, net, y.features, pos, m, &mut cache.king);
        }
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { self.update_avx2(parent, net, pos, m, cache) };
        }
        self.update_any(parent, net, pos, m, cache)
    }

    /// `update` for a YaneuraOu network, compiled for AVX2 where the CPU has it.
    fn update_yaneuraou(&mut self, parent: &Accumulator, net: &Network, features: yaneuraou::FeatureSet, pos: &Position, m: Move, cache: &mut yaneuraou::KingCache) {
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { self.update_yaneuraou_avx2(parent, net, features, pos, m, cache) };
        }
        yaneuraou::update(self, parent, net, features, pos, m, cache)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn update_yaneuraou_avx2(&mut self, parent: &Accumulator, net: &Network, features: yaneuraou::FeatureSet, pos: &Position, m: Move, cache: &mut yaneuraou::KingCache) {
        yaneuraou::update(self, parent, net, features, pos, m, cache)
    }

    /// `update` compiled for AVX2 (16 lanes where SSE2 has 8).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn update_avx2(&mut self, parent: &Accumulator, net: &Network, pos: &Position, m: Move, cache: &mut RefreshCache) {
        self.update_any(parent, net, pos, m, cache)
    }

    #[inline(always)]
    fn update_any(&mut self, parent: &Accumulator, net: &Network, pos: &Position, m: Move, cache: &mut RefreshCache) {
        let us = pos.side_to_move().flip();
        let to = m.to();
        let now = pos.piece_on(to);
        for persp in Color::ALL {
            let view = parent.views[persp.index()];
            if !m.is_drop() && now.kind() == PieceType::King && now.color() == persp {
                let new_view = View::of(pos, persp);
                if new_view != view {
                    cache.refresh(net, pos, persp, new_view, &mut self.v[persp.index()]);
                    self.views[persp.index()] = new_view;
                    continue;
                }
            }
            let (src, dst) = (&parent.v[persp.index()], &mut self.v[persp.index()]);
            let added = net.row(view.board(now, to));
            if m.is_drop() {
                let pt = m.drop_piece();
                copy_add_sub(dst, src, added, net.row(view.hand(us, pt, pos.hand(us).count(pt) + 1)));
            } else {
                let before = if m.is_promotion() { Piece::new(us, now.kind().unpromote()) } else { now };
                let removed = net.row(view.board(before, m.from()));
                let cap = pos.state().captured;
                let hpt = if cap.is_some() { cap.kind().unpromote() } else { PieceType::Pawn };
                let n = pos.hand(us).count(hpt);
                if cap.is_some() && n <= Hand::max_count(hpt) {
                    let (taken, held) = (net.row(view.board(cap, to)), net.row(view.hand(us, hpt, n)));
                    copy_add2_sub2(dst, src, [added, held], [removed, taken]);
                } else {
                    copy_add_sub(dst, src, added, removed);
                    if cap.is_some() {
                        sub_row(dst, net.row(view.board(cap, to)));
                    }
                }
            }
            self.views[persp.index()] = view;
        }
    }
}

/// One remembered accumulator: the board and hands it was computed for.
#[derive(Clone)]
pub(super) struct CacheEntry {
    pub(super) acc: [i16; HIDDEN],
    pub(super) board: [Piece; 81],
    pub(super) hands: [crate::core::types::Hand; 2],
    pub(super) valid: bool,
}

impl CacheEntry {
    /// An entry computed for nothing yet.
    pub(super) fn blank() -> CacheEntry {
        CacheEntry { acc: [0; HIDDEN], board: [Piece::NONE; 81], hands: [Hand::EMPTY; 2], valid: false }
    }

    /// Brings the entry from the board and hands it was computed for (from the biases
    /// alone when not valid) to those of `pos`: the rows of what left are taken off, those
    /// of what came are added. `board_input` is a piece's input on a square (`None`: a
    /// piece without one), `hand_input` the input of the k-th (1-based) piece of a kind
    /// in a side's hand.
    #[inline(always)]
    pub(super) fn catch_up(
        &mut self,
        net: &Network,
        pos: &Position,
        board_input: impl Fn(Piece, Square) -> Option<usize>,
        hand_input: impl Fn(Color, PieceType, u32) -> usize,
    ) {
        if !self.valid {
            self.acc.copy_from_slice(&net.ft_bias);
            self.board = [Piece::NONE; 81];
            self.hands = [Hand::EMPTY; 2];
            self.valid = true;
        }
        for sq in Square::all() {
            let (old, new) = (self.board[sq.index()], pos.piece_on(sq));
            if old != new {
                if let Some(i) = old.is_some().then(|| board_input(old, sq)).flatten() {
                    sub_row(&mut self.acc, net.row(i));
                }
                if let Some(i) = new.is_some().then(|| board_input(new, sq)).flatten() {
                    add_row(&mut self.acc, net.row(i));
                }
                self.board[sq.index()] = new;
            }
        }
        for c in Color::ALL {
            let (old, new) = (self.hands[c.index()], pos.hand(c));
            if old == new {
                continue;
            }
            for pt in PieceType::HAND {
                let (a, b) = (old.count(pt).min(Hand::max_count(pt)), new.count(pt).min(Hand::max_count(pt)));
                for k in b + 1..=a {
                    sub_row(&mut self.acc, net.row(hand_input(c, pt, k)));
                }
                for k in a + 1..=b {
                    add_row(&mut self.acc, net.row(hand_input(c, pt, k)));
                }
            }
            self.hands[c.index()] = new;
        }
    }
}

/// The last accumulator of every (perspective, view), so that a refresh after a king
/// move only adds and removes what changed since that view was last used
/// (Stockfish's "Finny tables").
pub struct RefreshCache {
    pub(super) entries: Vec<CacheEntry>,
    /// The same for the king squares of a YaneuraOu HalfKP network (made on first use).
    pub(super) king: yaneuraou::KingCache,
}

impl Default for RefreshCache {
    fn default() -> Self {
        RefreshCache {
            entries: vec![
                CacheEntry::blank();
                2 * KING_BUCKETS * 2
            ],
            king: yaneuraou::KingCache::default(),
        }
    }
}

impl RefreshCache {
    /// Forgets every entry (needed when the network changes).
    pub fn clear(&mut self) {
        for e in &mut self.entries {
            e.valid = false;
        }
        self.king = yaneuraou::KingCache::default();
    }

    /// Writes `persp`'s accumulator in `pos` (seen through `view`) to `out`.
    pub fn refresh(&mut self, net: &Network, pos: &Position, persp: Color, view: View, out: &mut [i16; HIDDEN]) {
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { self.refresh_avx2(net, pos, persp, view, out) };
        }
        self.refresh_any(net, pos, persp, view, out)
    }

    /// `refresh` compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn refresh_avx2(&mut self, net: &Network, pos: &Position, persp: Color, view: View, out: &mut [i16; HIDDEN]) {
        self.refresh_any(net, pos, persp, view, out)
    }

    #[inline(always)]
    fn refresh_any(&mut self, net: &Network, pos: &Position, persp: Color, view: View, out: &mut [i16; HIDDEN]) {
        let slot = (persp.index() * KING_BUCKETS + view.bucket()) * 2 + view.mirror as usize;
        let e = &mut self.entries[slot];
        e.catch_up(net, pos, |pc, sq| Some(view.board(pc, sq)), |c, pt, k| view.hand(c, pt, k));
        out.copy_from_slice(&e.acc);
    }
}
