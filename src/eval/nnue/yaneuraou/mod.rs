//! The field's networks: YaneuraOu's NNUE evaluation files (`nn.bin`), read and
//! evaluated exactly as YaneuraOu evaluates them, so that players can bring the
//! networks they own and Hisha's search can be compared with YaneuraOu's on one
//! evaluation. Two feature sets are read, each with 256x2 transformer outputs and two
//! hidden layers (32-32 in the common files): `halfkp_256x2-32-32` (HalfKP(Friend), the
//! format of most community networks) and `k_p_256x2-32-32` (K+P, the small ones).
//!
//! The transformer's rows are kept in the `Network`'s first layer (same row length as
//! Hisha's own), so the accumulator is the same struct; what differs is which rows a
//! position uses (`features`), when a perspective starts afresh (its own king moved,
//! for HalfKP) and what follows the accumulator (`layers`). `format` reads and writes
//! the files. Uses `core`, `position` and the parent's `Accumulator`.

mod cache;
mod columns;
mod features;
mod format;
mod layers;
#[cfg(test)]
mod tests;

pub use cache::KingCache;
pub use features::{board_piece, hand_piece, FE_END, MAX_ACTIVE, PIECES};
pub use format::{architecture, has_version, layers_hash, max_file_bytes, parse, write, Parsed, VERSION};
pub use layers::{padded, Affine, Layers, MAX_HIDDEN, WEIGHT_SCALE_BITS};

use super::{add_row, copy_add2_sub2, copy_add_sub, sub_row, Accumulator, Network};
use crate::core::types::{Color, Move};
use crate::position::Position;
use std::sync::atomic::{AtomicI32, Ordering};

/// Transformer outputs per perspective.
pub const HALF: usize = 256;
/// The largest evaluation YaneuraOu returns (its `VALUE_MAX_EVAL` in the builds with
/// 2000 plies of search stack, which the NNUE editions are).
pub const MAX_EVAL: i32 = 29_999;
/// `FV_SCALE` as YaneuraOu has it by default.
pub const DEFAULT_FV_SCALE: i32 = 16;

static FV_SCALE: AtomicI32 = AtomicI32::new(DEFAULT_FV_SCALE);

/// Sets the divisor of the output (YaneuraOu's `FV_SCALE` option, 1 to 128).
pub fn set_fv_scale(v: i32) {
    FV_SCALE.store(v.clamp(1, 128), Ordering::Relaxed);
}

/// The divisor of the output now in use.
pub fn fv_scale() -> i32 {
    FV_SCALE.load(Ordering::Relaxed)
}

/// Which YaneuraOu feature set a network uses.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum FeatureSet {
    /// HalfKP(Friend): own king square times BonaPiece (81 x 1548 inputs).
    HalfKp,
    /// K+P: BonaPiece, then own and enemy king squares (1548 + 162 inputs).
    KP,
}

impl FeatureSet {
    /// Number of inputs of the feature transformer.
    pub const fn inputs(self) -> usize {
        match self {
            FeatureSet::HalfKp => 81 * FE_END,
            FeatureSet::KP => FE_END + 2 * 81,
        }
    }

    /// The name users know the format by.
    pub fn file_kind(self, hidden1: usize, hidden2: usize) -> String {
        match self {
            FeatureSet::HalfKp => format!("halfkp_256x2-{hidden1}-{hidden2}"),
            FeatureSet::KP => format!("k_p_256x2-{hidden1}-{hidden2}"),
        }
    }
}

/// What a YaneuraOu network has beyond its transformer rows.
#[derive(Clone, Debug)]
pub struct YaneuraOuNet {
    pub features: FeatureSet,
    pub layers: Layers,
    /// The architecture string of the file.
    pub architecture: String,
}

impl YaneuraOuNet {
    /// Evaluation for the side to move from its accumulator half `us` and the other
    /// side's `them`: the output divided by `FV_SCALE`, clipped as YaneuraOu clips it.
    #[inline]
    pub fn evaluate(&self, us: &[i16; HALF], them: &[i16; HALF]) -> i32 {
        (self.layers.propagate(us, them) / fv_scale()).clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// The format's name (`halfkp_256x2-32-32`, ...).
    pub fn file_kind(&self) -> String {
        self.features.file_kind(self.layers.hidden1.outputs, self.layers.hidden2.outputs)
    }
}

/// Computes `persp`'s accumulator half from scratch.
pub(super) fn refresh_side(acc: &mut Accumulator, net: &Network, features: FeatureSet, pos: &Position, persp: Color) {
    let mut active = [0usize; MAX_ACTIVE];
    let n = features.active(pos, persp, &mut active);
    let a = &mut acc.v[persp.index()];
    a.copy_from_slice(&net.ft_bias);
    for &f in &active[..n] {
        add_row(a, net.row(f));
    }
}

/// Sets `acc` to `parent` updated by `m`, just played in `pos`; a perspective whose
/// king moved (HalfKP) starts afresh through `cache`.
#[inline(always)]
pub(super) fn update(acc: &mut Accumulator, parent: &Accumulator, net: &Network, features: FeatureSet, pos: &Position, m: Move, cache: &mut KingCache) {
    for persp in Color::ALL {
        if features.needs_refresh(pos, m, persp) {
            cache.refresh(net, pos, persp, &mut acc.v[persp.index()]);
            continue;
        }
        let (mut removed, mut added) = ([0usize; 2], [0usize; 2]);
        let (r, a) = features.changed(pos, m, persp, &mut removed, &mut added);
        let (src, dst) = (&parent.v[persp.index()], &mut acc.v[persp.index()]);
        match (r, a) {
            (2, 2) => copy_add2_sub2(dst, src, [net.row(added[0]), net.row(added[1])], [net.row(removed[0]), net.row(removed[1])]),
            (1, 1) => copy_add_sub(dst, src, net.row(added[0]), net.row(removed[0])),
            _ => dst.copy_from_slice(src),
        }
    }
}
