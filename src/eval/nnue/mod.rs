//! NNUE evaluation: king-bucketed piece-square and hand features seen from each side,
//! one hidden layer of `HIDDEN` neurons per side kept up to date move by move (the
//! accumulator), clipped ReLU, and one linear output in centipawns.
//!
//! Features of a perspective (Black, or White with the board turned round so that its
//! pieces too move towards rank a): every piece on the board, own or enemy, by kind and
//! square (kings included), and every hand count as a thermometer (the k-th pawn in hand
//! is one feature). The board is mirrored left-right when the perspective's king stands
//! on files 6-9, and the king's (mirrored) square picks one of `KING_BUCKETS` copies of
//! the whole feature set, so that the same piece counts differently in front of an
//! anaguma and a central king. The trainer (`examples/train_nnue.rs`) uses the functions
//! here, so engine and trainer can never disagree on the features.

use crate::position::Position;
use crate::core::types::{Color, Hand, Move, Piece, PieceType, Square};
use once_cell::sync::Lazy;
use std::sync::{Arc, RwLock};

/// Neurons of the hidden layer per perspective.
pub const HIDDEN: usize = 256;
/// Number of king buckets (copies of the feature set).
pub const KING_BUCKETS: usize = 9;
/// Piece classes on the board: 14 own kinds, then 14 enemy kinds.
const PIECE_CLASSES: usize = 28;
/// Board features of one bucket.
pub const BOARD_FEATURES: usize = PIECE_CLASSES * 81;
/// Hand slots of one side: 18 pawns, 4 lances, knights, silvers, golds, 2 bishops, rooks.
pub const HAND_SLOTS: usize = 38;
/// Features of one bucket.
pub const FEATURES: usize = BOARD_FEATURES + 2 * HAND_SLOTS;
/// Inputs of the network (all buckets).
pub const INPUTS: usize = KING_BUCKETS * FEATURES;
/// Most features active at once for one perspective (40 pieces: 40 on the board or in hand).
pub const MAX_ACTIVE: usize = 80;

/// Scale of the first layer: a float activation of 1.0 is `QA` in the accumulator.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the float network's output.
pub const OUTPUT_SCALE: i32 = 400;

/// First hand slot of each hand kind, by piece type index (P L N S B R G).
const HAND_BASE: [usize; 8] = [0, 0, 18, 22, 26, 30, 32, 34];

/// How one side sees the board: which side, whether mirrored, which king bucket.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct View {
    persp: Color,
    mirror: bool,
    base: usize,
}

#[inline(always)]
fn orient(persp: Color, sq: Square) -> usize {
    match persp {
        Color::Black => sq.index(),
        Color::White => 80 - sq.index(),
    }
}

impl View {
    /// The view of `persp` whose king stands on `king` (`None`: no king, as in tsume).
    pub fn new(persp: Color, king: Option<Square>) -> View {
        let k = match king {
            Some(k) => orient(persp, k),
            None => 4 * 9 + 8, // as if on its home square 5i
        };
        let (f, r) = (k / 9, k % 9);
        let mirror = f > 4;
        let f = if mirror { 8 - f } else { f };
        let file_group = match f {
            0 => 0,
            1 | 2 => 1,
            _ => 2,
        };
        let rank_group = match r {
            8 => 0,
            7 => 1,
            _ => 2,
        };
        View { persp, mirror, base: (rank_group * 3 + file_group) * FEATURES }
    }

    /// The view of `persp` in `pos`.
    pub fn of(pos: &Position, persp: Color) -> View {
        View::new(persp, pos.has_king(persp).then(|| pos.king_square(persp)))
    }

    /// The king bucket (0..KING_BUCKETS).
    pub fn bucket(self) -> usize {
        self.base / FEATURES
    }

    #[inline(always)]
    fn square(self, sq: Square) -> usize {
        let s = orient(self.persp, sq);
        if self.mirror {
            (8 - s / 9) * 9 + s % 9
        } else {
            s
        }
    }

    /// Input index of piece `pc` on `sq`.
    #[inline(always)]
    pub fn board(self, pc: Piece, sq: Square) -> usize {
        let class = if pc.color() == self.persp { 0 } else { 14 } + pc.kind().index() - 1;
        self.base + class * 81 + self.square(sq)
    }

    /// Input index of the `count`-th (1-based) piece of kind `pt` in `owner`'s hand.
    #[inline(always)]
    pub fn hand(self, owner: Color, pt: PieceType, count: u32) -> usize {
        let side = if owner == self.persp { 0 } else { HAND_SLOTS };
        self.base + BOARD_FEATURES + side + HAND_BASE[pt.index()] + count as usize - 1
    }
}

/// Writes the active input indices of `persp` in `pos` to `out`; returns how many.
pub fn active_features(pos: &Position, persp: Color, out: &mut [u16; MAX_ACTIVE]) -> usize {
    let view = View::of(pos, persp);
    let mut n = 0;
    for sq in pos.occupied() {
        out[n] = view.board(pos.piece_on(sq), sq) as u16;
        n += 1;
    }
    for c in Color::ALL {
        let h = pos.hand(c);
        for pt in PieceType::HAND {
            for k in 1..=h.count(pt).min(Hand::max_count(pt)) {
                if n < MAX_ACTIVE {
                    out[n] = view.hand(c, pt, k) as u16;
                    n += 1;
                }
            }
        }
    }
    n
}


/// The network's weights, quantised.
pub struct Network {
    /// First layer, one row of `HIDDEN` per input.
    ft_weights: Vec<i16>,
    /// First layer biases.
    ft_bias: Vec<i16>,
    /// Output weights: side to move's half, then the other side's.
    out_weights: Vec<i16>,
    /// Output bias (scaled by `QA * QB`).
    out_bias: i32,
}

const MAGIC: &[u8; 8] = b"HISHANN1";

/// Why a network file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetError(pub String);

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Network {
    /// Parses a network file: magic, input and hidden sizes (u32), then little-endian
    /// i16 first-layer biases and weights, i16 output weights and an i32 output bias.
    pub fn from_bytes(b: &[u8]) -> Result<Network, NetError> {
        let expect = MAGIC.len() + 8 + 2 * (HIDDEN + INPUTS * HIDDEN + 2 * HIDDEN) + 4;
        if b.len() < 16 || &b[..8] != MAGIC {
            return Err(NetError("not a Hisha network file (bad magic)".into()));
        }
        let inputs = u32::from_le_bytes([b[8], b[9], b[10], b[11]]) as usize;
        let hidden = u32::from_le_bytes([b[12], b[13], b[14], b[15]]) as usize;
        if inputs != INPUTS || hidden != HIDDEN {
            return Err(NetError(format!(
                "network is {inputs}x{hidden}, this build expects {INPUTS}x{HIDDEN}"
            )));
        }
        if b.len() != expect {
            return Err(NetError(format!("network file has {} bytes, {expect} expected", b.len())));
        }
        let mut at = 16;
        let mut take16 = |n: usize| -> Vec<i16> {
            let v = b[at..at + 2 * n].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
            at += 2 * n;
            v
        };
        let ft_bias = take16(HIDDEN);
        let ft_weights = take16(INPUTS * HIDDEN);
        let out_weights = take16(2 * HIDDEN);
        let e = b.len();
        let out_bias = i32::from_le_bytes([b[e - 4], b[e - 3], b[e - 2], b[e - 1]]);
        Ok(Network { ft_weights, ft_bias, out_weights, out_bias })
    }

    /// Serialises the network in the format `from_bytes` reads.
    pub fn to_bytes(ft_bias: &[i16], ft_weights: &[i16], out_weights: &[i16], out_bias: i32) -> Vec<u8> {
        let mut v = Vec::with_capacity(16 + 2 * (ft_bias.len() + ft_weights.len() + out_weights.len()) + 4);
        v.extend_from_slice(MAGIC);
        v.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        v.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        for x in ft_bias.iter().chain(ft_weights).chain(out_weights) {
            v.extend_from_slice(&x.to_le_bytes());
        }
        v.extend_from_slice(&out_bias.to_le_bytes());
        v
    }

    #[inline(always)]
    fn row(&self, i: usize) -> &[i16; HIDDEN] {
        let s = &self.ft_weights[i * HIDDEN..(i + 1) * HIDDEN];
        match s.try_into() {
            Ok(r) => r,
            Err(_) => unreachable!("rows are HIDDEN long"),
        }
    }

    /// Evaluation in centipawns for the side to move `stm`, from an up-to-date accumulator.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, stm: Color) -> i32 {
        let (us, them) = (&acc.v[stm.index()], &acc.v[stm.flip().index()]);
        let sum = self.out_bias + dot_crelu(us, &self.out_weights[..HIDDEN]) + dot_crelu(them, &self.out_weights[HIDDEN..]);
        (sum as i64 * OUTPUT_SCALE as i64 / (QA * QB) as i64) as i32
    }
}

#[inline(always)]
fn dot_crelu(acc: &[i16; HIDDEN], w: &[i16]) -> i32 {
    let w = &w[..HIDDEN];
    let mut sum = 0i32;
    for i in 0..HIDDEN {
        sum += (acc[i].clamp(0, QA as i16) as i32) * w[i] as i32;
    }
    sum
}

#[inline(always)]
fn add_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for i in 0..HIDDEN {
        acc[i] = acc[i].wrapping_add(row[i]);
    }
}

#[inline(always)]
fn sub_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for i in 0..HIDDEN {
        acc[i] = acc[i].wrapping_sub(row[i]);
    }
}

/// `dst = src + add - sub`, one pass.
#[inline(always)]
fn copy_add_sub(dst: &mut [i16; HIDDEN], src: &[i16; HIDDEN], add: &[i16; HIDDEN], sub: &[i16; HIDDEN]) {
    for i in 0..HIDDEN {
        dst[i] = src[i].wrapping_add(add[i]).wrapping_sub(sub[i]);
    }
}

/// `dst = src + add1 + add2 - sub1 - sub2`, one pass.
#[inline(always)]
fn copy_add2_sub2(dst: &mut [i16; HIDDEN], src: &[i16; HIDDEN], add: [&[i16; HIDDEN]; 2], sub: [&[i16; HIDDEN]; 2]) {
    for i in 0..HIDDEN {
        dst[i] = src[i].wrapping_add(add[0][i]).wrapping_add(add[1][i]).wrapping_sub(sub[0][i]).wrapping_sub(sub[1][i]);
    }
}

/// The first layer's output for both perspectives (indexed by colour), with the views
/// they were computed in.
#[derive(Clone)]
#[repr(C, align(64))]
pub struct Accumulator {
    v: [[i16; HIDDEN]; 2],
    views: [View; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { v: [[0; HIDDEN]; 2], views: [View::new(Color::Black, None), View::new(Color::White, None)] }
    }
}

impl Accumulator {
    /// Computes one perspective from scratch.
    pub fn refresh_side(&mut self, net: &Network, pos: &Position, persp: Color) {
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
struct CacheEntry {
    acc: [i16; HIDDEN],
    board: [Piece; 81],
    hands: [crate::core::types::Hand; 2],
    valid: bool,
}

/// The last accumulator of every (perspective, view), so that a refresh after a king
/// move only adds and removes what changed since that view was last used
/// (Stockfish's "Finny tables").
pub struct RefreshCache {
    entries: Vec<CacheEntry>,
}

impl Default for RefreshCache {
    fn default() -> Self {
        RefreshCache {
            entries: vec![
                CacheEntry { acc: [0; HIDDEN], board: [Piece::NONE; 81], hands: [Hand::EMPTY; 2], valid: false };
                2 * KING_BUCKETS * 2
            ],
        }
    }
}

impl RefreshCache {
    /// Forgets every entry (needed when the network changes).
    pub fn clear(&mut self) {
        for e in &mut self.entries {
            e.valid = false;
        }
    }

    /// Writes `persp`'s accumulator in `pos` (seen through `view`) to `out`.
    pub fn refresh(&mut self, net: &Network, pos: &Position, persp: Color, view: View, out: &mut [i16; HIDDEN]) {
        let slot = (persp.index() * KING_BUCKETS + view.bucket()) * 2 + view.mirror as usize;
        let e = &mut self.entries[slot];
        if !e.valid {
            e.acc.copy_from_slice(&net.ft_bias);
            e.board = [Piece::NONE; 81];
            e.hands = [Hand::EMPTY; 2];
            e.valid = true;
        }
        for sq in Square::all() {
            let (old, new) = (e.board[sq.index()], pos.piece_on(sq));
            if old != new {
                if old.is_some() {
                    sub_row(&mut e.acc, net.row(view.board(old, sq)));
                }
                if new.is_some() {
                    add_row(&mut e.acc, net.row(view.board(new, sq)));
                }
                e.board[sq.index()] = new;
            }
        }
        for c in Color::ALL {
            let (old, new) = (e.hands[c.index()], pos.hand(c));
            if old == new {
                continue;
            }
            for pt in PieceType::HAND {
                let (a, b) = (old.count(pt).min(Hand::max_count(pt)), new.count(pt).min(Hand::max_count(pt)));
                for k in b + 1..=a {
                    sub_row(&mut e.acc, net.row(view.hand(c, pt, k)));
                }
                for k in a + 1..=b {
                    add_row(&mut e.acc, net.row(view.hand(c, pt, k)));
                }
            }
            e.hands[c.index()] = new;
        }
        out.copy_from_slice(&e.acc);
    }
}

/// The network built into the binary.
static EMBEDDED: &[u8] = include_bytes!("hisha.nnue");

static ACTIVE: Lazy<RwLock<Option<Arc<Network>>>> = Lazy::new(|| RwLock::new(None));

/// The network in use: the one loaded with `load`, else the embedded one.
pub fn network() -> Arc<Network> {
    if let Ok(g) = ACTIVE.read() {
        if let Some(n) = g.as_ref() {
            return n.clone();
        }
    }
    let net = match Network::from_bytes(EMBEDDED) {
        Ok(n) => Arc::new(n),
        Err(e) => unreachable!("the embedded network is valid: {e}"),
    };
    if let Ok(mut g) = ACTIVE.write() {
        if g.is_none() {
            *g = Some(net.clone());
        }
    }
    net
}

/// Replaces the network in use by the file at `path` (empty: the embedded network).
pub fn load(path: &str) -> Result<(), NetError> {
    let net = if path.is_empty() {
        Network::from_bytes(EMBEDDED)?
    } else {
        let b = std::fs::read(path).map_err(|e| NetError(format!("cannot read {path}: {e}")))?;
        Network::from_bytes(&b)?
    };
    match ACTIVE.write() {
        Ok(mut g) => {
            *g = Some(Arc::new(net));
            Ok(())
        }
        Err(_) => Err(NetError("network lock poisoned".into())),
    }
}

/// Evaluation of `pos` for the side to move, from scratch.
pub fn evaluate(pos: &Position) -> i32 {
    let net = network();
    let mut acc = Accumulator::default();
    acc.refresh(&net, pos);
    net.evaluate(&acc, pos.side_to_move())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use rand::{Rng, SeedableRng};

    fn random_network(seed: u64) -> Network {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut r = |n: usize, m: i16| -> Vec<i16> { (0..n).map(|_| rng.gen_range(-m..=m)).collect() };
        Network { ft_bias: r(HIDDEN, 100), ft_weights: r(INPUTS * HIDDEN, 60), out_weights: r(2 * HIDDEN, 60), out_bias: 1234 }
    }

    fn features(pos: &Position, c: Color) -> Vec<u16> {
        let mut f = [0u16; MAX_ACTIVE];
        let n = active_features(pos, c, &mut f);
        let mut v = f[..n].to_vec();
        v.sort_unstable();
        v
    }

    #[test]
    fn incremental_update_matches_refresh() {
        crate::init();
        let net = random_network(7);
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        for start in [
            crate::position::START_SFEN,
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
            "4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
        ] {
            let mut pos = Position::from_sfen(start).unwrap();
            let mut acc = Accumulator::default();
            acc.refresh(&net, &pos);
            let mut cache = RefreshCache::default();
            for _ in 0..400 {
                let list = legal_moves(&pos);
                if list.is_empty() {
                    break;
                }
                let m = list.as_slice()[rng.gen_range(0..list.len())];
                pos.do_move(m);
                let mut next = Accumulator::default();
                next.update(&acc, &net, &pos, m, &mut cache);
                let mut fresh = Accumulator::default();
                fresh.refresh(&net, &pos);
                assert_eq!(next.v, fresh.v, "after {m} in {}", pos.to_sfen());
                assert_eq!(next.views, fresh.views);
                assert_eq!(net.evaluate(&next, pos.side_to_move()), net.evaluate(&fresh, pos.side_to_move()));
                acc = next;
            }
        }
    }

    #[test]
    fn features_are_distinct_and_in_range() {
        crate::init();
        let pos = Position::from_sfen("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1").unwrap();
        for c in Color::ALL {
            let f = features(&pos, c);
            // 30 pieces on the board; G R in Black's hand, 5P N S G in White's.
            assert_eq!(f.len(), 30 + 2 + 8);
            assert!(f.windows(2).all(|w| w[0] < w[1]), "duplicate feature");
            assert!(f.iter().all(|&x| (x as usize) < INPUTS));
        }
    }

    #[test]
    fn colour_flipped_position_has_the_same_features() {
        crate::init();
        // The same position with colours swapped and the board turned round.
        let a = Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2").unwrap();
        let b = Position::from_sfen("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2").unwrap();
        assert_eq!(features(&a, Color::Black), features(&b, Color::White));
        assert_eq!(features(&a, Color::White), features(&b, Color::Black));
        let net = random_network(3);
        let (mut x, mut y) = (Accumulator::default(), Accumulator::default());
        x.refresh(&net, &a);
        y.refresh(&net, &b);
        assert_eq!(net.evaluate(&x, a.side_to_move()), net.evaluate(&y, b.side_to_move()));
    }

    #[test]
    fn mirrored_position_has_the_same_features() {
        crate::init();
        // Left-right mirror images (kings off the centre file, so one view mirrors).
        let a = Position::from_sfen("ln1g3nl/1ks2rg2/1ppppsbpp/p4pp2/9/2P1P4/PPSP1PPPP/1KG1R2S1/LN1G2BNL b - 1").unwrap();
        let b = Position::from_sfen("ln3g1nl/2gr2sk1/ppbspppp1/2pp4p/9/4P1P2/PPPP1PSPP/1S2R1GK1/LNB2G1NL b - 1").unwrap();
        assert_eq!(features(&a, Color::Black), features(&b, Color::Black));
        assert_eq!(features(&a, Color::White), features(&b, Color::White));
    }

    #[test]
    fn network_file_round_trips_and_bad_files_are_refused() {
        let net = random_network(5);
        let bytes = Network::to_bytes(&net.ft_bias, &net.ft_weights, &net.out_weights, net.out_bias);
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.ft_weights, net.ft_weights);
        assert_eq!(back.out_bias, 1234);
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(Network::from_bytes(b"garbage").is_err());
        let mut wrong = bytes.clone();
        wrong[12] = 128;
        assert!(Network::from_bytes(&wrong).is_err());
    }
}
