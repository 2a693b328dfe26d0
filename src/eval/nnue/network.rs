//! The network's weights and their file format (`HISHANN1`: magic, then the first
//! layer's biases and weights, the output weights and bias, little-endian), and the
//! output layer (clipped ReLU and dot product). Uses `core`.

use super::*;

/// The network's weights, quantised.
pub struct Network {
    /// First layer, one row of `HIDDEN` per input.
    pub(super) ft_weights: Vec<i16>,
    /// First layer biases.
    pub(super) ft_bias: Vec<i16>,
    /// Output weights: side to move's half, then the other side's.
    pub(super) out_weights: Vec<i16>,
    /// Output bias (scaled by `QA * QB`).
    pub(super) out_bias: i32,
}

pub(super) const MAGIC: &[u8; 8] = b"HISHANN1";

/// Size in bytes of a network file for this build: magic, the two sizes, the
/// weights and the output bias.
pub const FILE_BYTES: usize = MAGIC.len() + 8 + 2 * (HIDDEN + INPUTS * HIDDEN + 2 * HIDDEN) + 4;

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
        let expect = FILE_BYTES;
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
    pub(super) fn row(&self, i: usize) -> &[i16; HIDDEN] {
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
pub(super) fn dot_crelu(acc: &[i16; HIDDEN], w: &[i16]) -> i32 {
    let w = &w[..HIDDEN];
    let mut sum = 0i32;
    for i in 0..HIDDEN {
        sum += (acc[i].clamp(0, QA as i16) as i32) * w[i] as i32;
    }
    sum
}
