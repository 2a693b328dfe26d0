//! The network's weights and their file format, and the output layer (clipped ReLU and
//! dot product, plus the hidden layers where the network has them). Files are
//! little-endian: the magic, the sizes, the first layer's biases and weights, the
//! output weights and biases of each output bucket, then (`HISHANN3` only) the hidden
//! layers' weights and biases. `HISHANN3` is written only for a network with hidden
//! layers, `HISHANN2` otherwise; `HISHANN1` (one output layer, no bucket count) is still
//! read. Uses `mlp`, `core` and `position`.

use super::*;
use crate::core::large_pages;

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
    /// Hidden layers whose output is added to the linear output, if any.
    pub(super) mlp: Option<Mlp>,
    /// A YaneuraOu network: its feature set and layers replace the output layer
    /// above (then empty); the first layer's rows are its feature transformer.
    pub(super) yaneuraou: Option<Box<YaneuraOuNet>>,
}

/// The first format: one output layer for every position.
pub(super) const MAGIC_V1: &[u8; 8] = b"HISHANN1";
/// One output layer per output bucket.
pub(super) const MAGIC: &[u8; 8] = b"HISHANN2";
/// As `HISHANN2`, with hidden layers after the accumulator.
pub(super) const MAGIC_V3: &[u8; 8] = b"HISHANN3";

/// Size of a network file's header: the magic and its u32 sizes.
const fn header_bytes(magic: &[u8; 8]) -> usize {
    match magic[7] {
        b'1' => 16,
        b'2' => 20,
        _ => 28,
    }
}

/// Size in bytes of a `HISHANN2` network file for this build with `buckets` output
/// buckets: the header, the first layer, the output weights and biases.
pub const fn file_bytes(buckets: usize) -> usize {
    header_bytes(MAGIC) + 2 * (HIDDEN + INPUTS * HIDDEN + buckets * 2 * HIDDEN) + 4 * buckets
}

/// Size of a `HISHANN1` file (one output layer, no bucket count in its header).
const V1_FILE_BYTES: usize = file_bytes(1) - 4;

/// Size of a `HISHANN3` file: a `HISHANN2` one with two more sizes and the hidden layers.
const fn v3_file_bytes(buckets: usize) -> usize {
    file_bytes(buckets) + 8 + 2 * MLP_WEIGHTS + 4 * MLP_BIASES
}

/// The largest Hisha network file this build reads.
pub const MAX_FILE_BYTES: usize = v3_file_bytes(OUTPUT_BUCKETS);

/// The largest network file of any format this build reads (YaneuraOu's HalfKP files
/// are the largest, about 64 MB).
pub const MAX_ANY_FILE_BYTES: usize = if yaneuraou::max_file_bytes() > MAX_FILE_BYTES { yaneuraou::max_file_bytes() } else { MAX_FILE_BYTES };

/// The magics of the network files this build reads.
const MAGICS: [&[u8; 8]; 3] = [MAGIC_V1, MAGIC, MAGIC_V3];

/// Whether `b` starts like a network file this build reads (Hisha's or YaneuraOu's).
pub(super) fn has_network_magic(b: &[u8]) -> bool {
    MAGICS.iter().any(|m| b.starts_with(&m[..])) || yaneuraou::has_version(b)
}

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

/// Reads a network file front to back; lengths are checked before it is made.
pub(super) struct Reader<'a> {
    pub(super) b: &'a [u8],
    pub(super) at: usize,
}

impl Reader<'_> {
    pub(super) fn u32(&mut self) -> u32 {
        let v = u32::from_le_bytes([self.b[self.at], self.b[self.at + 1], self.b[self.at + 2], self.b[self.at + 3]]);
        self.at += 4;
        v
    }

    pub(super) fn i8s(&mut self, n: usize) -> Vec<i8> {
        let v = self.b[self.at..self.at + n].iter().map(|&x| x as i8).collect();
        self.at += n;
        v
    }

    /// `n` little-endian i16s; a large array (the feature weights) goes to memory
    /// advised to huge pages (`core::large_pages`), since the accumulator updates read
    /// rows all over it.
    pub(super) fn i16s(&mut self, n: usize) -> Vec<i16> {
        let mut words = self.b[self.at..self.at + 2 * n].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
        self.at += 2 * n;
        large_pages::try_vec(n, || words.next().unwrap_or(0)).unwrap_or_else(|| words.collect())
    }

    pub(super) fn i32s(&mut self, n: usize) -> Vec<i32> {
        let v = self.b[self.at..self.at + 4 * n].chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        self.at += 4 * n;
        v
    }
}

impl Network {
    /// Parses a network file (any of the formats above).
    pub fn from_bytes(b: &[u8]) -> Result<Network, NetError> {
        if yaneuraou::has_version(b) {
            let p = yaneuraou::parse(b)?;
            return Ok(Network::from_yaneuraou(p));
        }
        let Some(magic) = MAGICS.into_iter().find(|m| b.starts_with(&m[..])) else {
            return Err(NetError("not a Hisha network file (bad magic)".into()));
        };
        let header = header_bytes(magic);
        if b.len() < header {
            return Err(NetError("network file shorter than its header".into()));
        }
        let (inputs, hidden) = (le_u32(b, 8), le_u32(b, 12));
        if inputs != INPUTS || hidden != HIDDEN {
            return Err(NetError(format!(
                "network is {inputs}x{hidden}, this build expects {INPUTS}x{HIDDEN}"
            )));
        }
        let buckets = if magic == MAGIC_V1 { 1 } else { le_u32(b, 16) };
        if buckets != 1 && buckets != OUTPUT_BUCKETS {
            return Err(NetError(format!("network has {buckets} output buckets, this build reads 1 or {OUTPUT_BUCKETS}")));
        }
        let layered = magic == MAGIC_V3;
        if layered && (le_u32(b, 20), le_u32(b, 24)) != (L1, L2) {
            let (l1, l2) = (le_u32(b, 20), le_u32(b, 24));
            return Err(NetError(format!("network has hidden layers {l1}x{l2}, this build expects {L1}x{L2}")));
        }
        let expect = match magic[7] {
            b'1' => V1_FILE_BYTES,
            b'2' => file_bytes(buckets),
            _ => v3_file_bytes(buckets),
        };
        if b.len() != expect {
            return Err(NetError(format!("network file has {} bytes, {expect} expected", b.len())));
        }
        let mut r = Reader { b, at: header };
        let ft_bias = r.i16s(HIDDEN);
        let ft_weights = r.i16s(INPUTS * HIDDEN);
        let out_weights = r.i16s(buckets * 2 * HIDDEN);
        let out_bias = r.i32s(buckets);
        let mlp = if layered { Some(Mlp::from_parts(&r.i16s(MLP_WEIGHTS), &r.i32s(MLP_BIASES))?) } else { None };
        Ok(Network { ft_weights, ft_bias, out_weights, out_bias, mlp, yaneuraou: None })
    }

    /// A network from a parsed YaneuraOu file.
    pub fn from_yaneuraou(p: yaneuraou::Parsed) -> Network {
        Network { ft_weights: p.ft_weights, ft_bias: p.ft_bias, out_weights: Vec::new(), out_bias: Vec::new(), mlp: None, yaneuraou: Some(Box::new(p.net)) }
    }

    /// The YaneuraOu network's feature set and layers, when this is one.
    pub fn yaneuraou(&self) -> Option<&YaneuraOuNet> {
        self.yaneuraou.as_deref()
    }

    /// What kind of network this is, for `info string` lines.
    pub fn describe(&self) -> String {
        match &self.yaneuraou {
            Some(y) => format!("YaneuraOu {} (FV_SCALE {})", y.file_kind(), yaneuraou::fv_scale()),
            None if self.mlp.is_some() => "Hisha HISHANN3".into(),
            None => "Hisha HISHANN2".into(),
        }
    }

    /// Serialises a network without hidden layers (`HISHANN2`), with as many output
    /// buckets as `out_bias` has entries.
    pub fn to_bytes(ft_bias: &[i16], ft_weights: &[i16], out_weights: &[i16], out_bias: &[i32]) -> Vec<u8> {
        Network::to_bytes_with(ft_bias, ft_weights, out_weights, out_bias, None)
    }

    /// Serialises a network, with hidden layers (`HISHANN3`) or without (`HISHANN2`).
    pub fn to_bytes_with(ft_bias: &[i16], ft_weights: &[i16], out_weights: &[i16], out_bias: &[i32], mlp: Option<&Mlp>) -> Vec<u8> {
        let buckets = out_bias.len();
        let mut v = Vec::with_capacity(v3_file_bytes(buckets));
        v.extend_from_slice(if mlp.is_some() { MAGIC_V3 } else { MAGIC });
        let sizes: &[usize] = if mlp.is_some() { &[INPUTS, HIDDEN, buckets, L1, L2] } else { &[INPUTS, HIDDEN, buckets] };
        for &n in sizes {
            v.extend_from_slice(&(n as u32).to_le_bytes());
        }
        for x in ft_bias.iter().chain(ft_weights).chain(out_weights) {
            v.extend_from_slice(&x.to_le_bytes());
        }
        for x in out_bias {
            v.extend_from_slice(&x.to_le_bytes());
        }
        if let Some(mlp) = mlp {
            let (w, b) = mlp.parts();
            w.iter().for_each(|x| v.extend_from_slice(&x.to_le_bytes()));
            b.iter().for_each(|x| v.extend_from_slice(&x.to_le_bytes()));
        }
        v
    }

    /// The hidden layers, if the network has them.
    pub fn mlp(&self) -> Option<&Mlp> {
        self.mlp.as_ref()
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
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { self.evaluate_avx2(acc, pos) };
        }
        self.evaluate_any(acc, pos)
    }

    /// `evaluate` compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn evaluate_avx2(&self, acc: &Accumulator, pos: &Position) -> i32 {
        self.evaluate_any(acc, pos)
    }

    #[inline(always)]
    fn evaluate_any(&self, acc: &Accumulator, pos: &Position) -> i32 {
        let stm = pos.side_to_move();
        if let Some(y) = &self.yaneuraou {
            return y.evaluate(&acc.v[stm.index()], &acc.v[stm.flip().index()]);
        }
        let bucket = if self.out_bias.len() == 1 { 0 } else { output_bucket(pos) };
        let w = &self.out_weights[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN];
        let (us, them) = (&acc.v[stm.index()], &acc.v[stm.flip().index()]);
        let mut sum = self.out_bias[bucket] + dot_crelu(us, &w[..HIDDEN]) + dot_crelu(them, &w[HIDDEN..]);
        if let Some(mlp) = &self.mlp {
            sum += mlp.forward(us, them);
        }
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
