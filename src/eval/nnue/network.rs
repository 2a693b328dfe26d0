//! The network's weights and their file format (`HISHANN2`: magic, sizes, then the
//! first layer's biases and weights, the output weights and biases of each output
//! bucket, little-endian; the older `HISHANN1` with one output layer is read too), and
//! the output layer (clipped ReLU and dot product). Uses `core` and `position`.

use super::*;

/// The network's weights, quantised.
pub struct Network {
    /// First layer, one row of `HIDDEN` per input.
    pub(super) ft_weights: Vec<i16>,
    /// First layer biases.
    pub(super) ft_bias: Vec<i16>,
    /// Output weights of each output bucket: side to move's half, then the other side's.
    pub(super) out_weights: Vec<i16>,
    /// Output bias of each output bucket (scaled by `QA * QB`).
    pub(super) out_bias: Vec<i32>,
}

/// The first format: one output layer for every position.
pub(super) const MAGIC_V1: &[u8; 8] = b"HISHANN1";
/// The current format: one output layer per output bucket.
pub(super) const MAGIC: &[u8; 8] = b"HISHANN2";

/// Size in bytes of a network file for this build with `buckets` output buckets: the
/// magic, the sizes, the first layer, the output weights and biases.
pub const fn file_bytes(buckets: usize) -> usize {
    MAGIC.len() + 12 + 2 * (HIDDEN + INPUTS * HIDDEN + buckets * 2 * HIDDEN) + 4 * buckets
}

/// Size of a `HISHANN1` file (one output layer, no bucket count in its header).
const V1_FILE_BYTES: usize = file_bytes(1) - 4;

/// The largest network file this build reads.
pub const MAX_FILE_BYTES: usize = file_bytes(OUTPUT_BUCKETS);

/// Why a network file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetError(pub String);

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn le_u32(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]) as usize
}

impl Network {
    /// Parses a network file: magic, input and hidden sizes and (`HISHANN2`) the number
    /// of output buckets (u32), then little-endian i16 first-layer biases and weights,
    /// i16 output weights and i32 output biases.
    pub fn from_bytes(b: &[u8]) -> Result<Network, NetError> {
        let v1 = b.starts_with(MAGIC_V1);
        if b.len() < 20 || !(v1 || b.starts_with(MAGIC)) {
            return Err(NetError("not a Hisha network file (bad magic)".into()));
        }
        let (inputs, hidden) = (le_u32(b, 8), le_u32(b, 12));
        if inputs != INPUTS || hidden != HIDDEN {
            return Err(NetError(format!(
                "network is {inputs}x{hidden}, this build expects {INPUTS}x{HIDDEN}"
            )));
        }
        let buckets = if v1 { 1 } else { le_u32(b, 16) };
        if buckets != 1 && buckets != OUTPUT_BUCKETS {
            return Err(NetError(format!("network has {buckets} output buckets, this build reads 1 or {OUTPUT_BUCKETS}")));
        }
        let expect = if v1 { V1_FILE_BYTES } else { file_bytes(buckets) };
        if b.len() != expect {
            return Err(NetError(format!("network file has {} bytes, {expect} expected", b.len())));
        }
        let mut at = if v1 { 16 } else { 20 };
        let mut take16 = |n: usize| -> Vec<i16> {
            let v = b[at..at + 2 * n].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
            at += 2 * n;
            v
        };
        let ft_bias = take16(HIDDEN);
        let ft_weights = take16(INPUTS * HIDDEN);
        let out_weights = take16(buckets * 2 * HIDDEN);
        let out_bias = b[b.len() - 4 * buckets..].chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        Ok(Network { ft_weights, ft_bias, out_weights, out_bias })
    }

    /// Serialises the network in the current format (`HISHANN2`), with as many output
    /// buckets as `out_bias` has entries.
    pub fn to_bytes(ft_bias: &[i16], ft_weights: &[i16], out_weights: &[i16], out_bias: &[i32]) -> Vec<u8> {
        let mut v = Vec::with_capacity(file_bytes(out_bias.len()));
        v.extend_from_slice(MAGIC);
        for n in [INPUTS, HIDDEN, out_bias.len()] {
            v.extend_from_slice(&(n as u32).to_le_bytes());
        }
        for x in ft_bias.iter().chain(ft_weights).chain(out_weights) {
            v.extend_from_slice(&x.to_le_bytes());
        }
        for x in out_bias {
            v.extend_from_slice(&x.to_le_bytes());
        }
        v
    }

    /// Number of output buckets (1, or `OUTPUT_BUCKETS`).
    pub fn output_buckets(&self) -> usize {
        self.out_bias.len()
    }

    /// The quantised weights, in file order: first-layer biases, first-layer weights,
    /// output weights, output biases (for the trainer).
    pub fn weights(&self) -> (&[i16], &[i16], &[i16], &[i32]) {
        (&self.ft_bias, &self.ft_weights, &self.out_weights, &self.out_bias)
    }

    #[inline(always)]
    pub(super) fn row(&self, i: usize) -> &[i16; HIDDEN] {
        let s = &self.ft_weights[i * HIDDEN..(i + 1) * HIDDEN];
        match s.try_into() {
            Ok(r) => r,
            Err(_) => unreachable!("rows are HIDDEN long"),
        }
    }

    /// Evaluation in centipawns for the side to move of `pos`, from its up-to-date
    /// accumulator.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, pos: &Position) -> i32 {
        let stm = pos.side_to_move();
        let bucket = if self.out_bias.len() == 1 { 0 } else { output_bucket(pos) };
        let w = &self.out_weights[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN];
        let (us, them) = (&acc.v[stm.index()], &acc.v[stm.flip().index()]);
        let sum = self.out_bias[bucket] + dot_crelu(us, &w[..HIDDEN]) + dot_crelu(them, &w[HIDDEN..]);
        (sum as i64 * OUTPUT_SCALE as i64 / (QA * QB) as i64) as i32
    }
}

#[inline(always)]
pub(super) fn dot_crelu(acc: &[i16; HIDDEN], w: &[i16]) -> i32 {
    let w = &w[..HIDDEN];
    let mut sum = 0i32;
    for i in 0..HIDDEN {
        sum += (acc[i].clamp(0, QA as i16) as i32) * w[i] as i32;
    }
    sum
}
