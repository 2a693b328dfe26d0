//! YaneuraOu's NNUE file format, read and written: a header (version, the whole
//! network's hash, the architecture string), the feature transformer (its hash, 256
//! 16-bit biases, 256 16-bit weights per input) and the layers (their hash, then from
//! the input side each affine layer's 32-bit biases and 8-bit weights, row by row over
//! the padded inputs), little-endian, nothing after. Every size is checked against the
//! file's length before anything is read.

use super::layers::{padded, Affine, Layers, MAX_HIDDEN};
use super::{FeatureSet, YaneuraOuNet, HALF};
use crate::eval::nnue::network::Reader;
use crate::eval::nnue::NetError;

/// The version word every YaneuraOu NNUE file starts with.
pub const VERSION: u32 = 0x7AF3_2F16;
/// The longest architecture string taken.
const MAX_ARCHITECTURE: usize = 4096;
/// The first layer's outputs (both halves), which the layers' input slice takes whole.
const TRANSFORMED: usize = 2 * HALF;

/// Whether `b` starts like a YaneuraOu NNUE file.
pub fn has_version(b: &[u8]) -> bool {
    b.len() >= 4 && u32::from_le_bytes([b[0], b[1], b[2], b[3]]) == VERSION
}

impl FeatureSet {
    /// The hash YaneuraOu gives the feature transformer of this feature set.
    pub const fn transformer_hash(self) -> u32 {
        let features = match self {
            FeatureSet::HalfKp => 0x5D69_D5B9 ^ 1,
            FeatureSet::KP => {
                const K: u32 = 0xD3CE_E169;
                const P: u32 = 0x764C_FB4B;
                K ^ (P << 1) ^ (P >> 31)
            }
        };
        features ^ TRANSFORMED as u32
    }

    /// The feature set's part of the architecture string.
    pub fn structure(self) -> String {
        let name = match self {
            FeatureSet::HalfKp => "HalfKP(Friend)",
            FeatureSet::KP => "K+P",
        };
        format!("{name}[{}->{HALF}x2]", self.inputs())
    }
}

/// The hash YaneuraOu gives layers of `hidden1` and `hidden2` neurons.
pub const fn layers_hash(hidden1: usize, hidden2: usize) -> u32 {
    const fn affine(outputs: usize, prev: u32) -> u32 {
        (0xCC03_DAE4u32.wrapping_add(outputs as u32)) ^ (prev >> 1) ^ (prev << 31)
    }
    const fn clipped_relu(prev: u32) -> u32 {
        0x538D_24C7u32.wrapping_add(prev)
    }
    let input_slice = 0xEC42_E90D ^ TRANSFORMED as u32;
    affine(1, clipped_relu(affine(hidden2, clipped_relu(affine(hidden1, input_slice)))))
}

/// The layers' part of the architecture string, as YaneuraOu writes it today (older
/// files say `AffineTransform` for the first layer too; both are read).
fn layers_structure(hidden1: usize, hidden2: usize) -> String {
    format!(
        "AffineTransform[1<-{hidden2}](ClippedReLU[{hidden2}](AffineTransform[{hidden2}<-{hidden1}](\
         ClippedReLU[{hidden1}](AffineTransformSparseInput[{hidden1}<-{TRANSFORMED}](InputSlice[{TRANSFORMED}(0:{TRANSFORMED})])))))"
    )
}

/// The whole architecture string.
pub fn architecture(features: FeatureSet, hidden1: usize, hidden2: usize) -> String {
    format!("Features={},Network={}", features.structure(), layers_structure(hidden1, hidden2))
}

/// Reads the feature set and the hidden sizes from an architecture string.
fn parse_architecture(arch: &str) -> Result<(FeatureSet, usize, usize), String> {
    let unknown = || {
        let shown: String = arch.chars().take(160).collect();
        format!(
            "architecture '{shown}' is not one Hisha reads (HalfKP(Friend) or K+P, 256x2, two hidden layers of at most {MAX_HIDDEN})"
        )
    };
    let features = [FeatureSet::HalfKp, FeatureSet::KP]
        .into_iter()
        .find(|f| arch.starts_with(&format!("Features={},Network=", f.structure())))
        .ok_or_else(unknown)?;
    // The affine layers' "[out<-in]" from the output down: [1<-h2], [h2<-h1], [h1<-512].
    let mut sizes = Vec::new();
    for part in arch.split('[').skip(1) {
        if let Some((out, rest)) = part.split_once("<-") {
            let inp = rest.split(']').next().unwrap_or("");
            match (out.parse::<usize>(), inp.parse::<usize>()) {
                (Ok(o), Ok(i)) => sizes.push((o, i)),
                _ => return Err(unknown()),
            }
        }
    }
    match sizes[..] {
        [(1, h2), (h2b, h1), (h1b, TRANSFORMED)] if h2 == h2b && h1 == h1b && (1..=MAX_HIDDEN).contains(&h1) && (1..=MAX_HIDDEN).contains(&h2) => {
            let normalised = arch.replace("AffineTransformSparseInput[", "AffineTransform[");
            if normalised == architecture(features, h1, h2).replace("AffineTransformSparseInput[", "AffineTransform[") {
                Ok((features, h1, h2))
            } else {
                Err(unknown())
            }
        }
        _ => Err(unknown()),
    }
}

/// Bytes of an affine layer in a file.
const fn affine(inputs: usize, outputs: usize) -> usize {
    4 * outputs + outputs * padded(inputs)
}

/// Bytes of the file of a network of this shape, with `arch_len` bytes of architecture.
const fn file_bytes(features: FeatureSet, h1: usize, h2: usize, arch_len: usize) -> usize {
    12 + arch_len + 4 + 2 * HALF * (1 + features.inputs()) + 4 + affine(TRANSFORMED, h1) + affine(h1, h2) + affine(h2, 1)
}

/// The largest file this reader takes (a HalfKP network with the widest hidden layers).
pub const fn max_file_bytes() -> usize {
    file_bytes(FeatureSet::HalfKp, MAX_HIDDEN, MAX_HIDDEN, MAX_ARCHITECTURE)
}

/// An affine layer as the file stores it: the biases, then the weights row by row.
fn read_affine(r: &mut Reader, inputs: usize, outputs: usize) -> Affine {
    let bias = r.i32s(outputs);
    let weights = r.i8s(outputs * padded(inputs));
    Affine { inputs, outputs, bias, weights }
}

/// A network read from a file: the transformer's biases and weights (one row of
/// `HALF` per input) and the rest.
pub struct Parsed {
    pub ft_bias: Vec<i16>,
    pub ft_weights: Vec<i16>,
    pub net: YaneuraOuNet,
}

/// Parses a YaneuraOu NNUE file, refusing it with what is wrong in it.
pub fn parse(b: &[u8]) -> Result<Parsed, NetError> {
    let err = |s: String| NetError(format!("YaneuraOu network: {s}"));
    if b.len() < 12 {
        return Err(err(format!("{} bytes, shorter than the header", b.len())));
    }
    let mut r = Reader { b, at: 0 };
    let version = r.u32();
    if version != VERSION {
        return Err(err(format!("version 0x{version:08X}, not 0x{VERSION:08X}")));
    }
    let hash = r.u32();
    let arch_len = r.u32() as usize;
    if arch_len > MAX_ARCHITECTURE {
        return Err(err(format!("architecture string of {arch_len} bytes (at most {MAX_ARCHITECTURE} taken)")));
    }
    if 12 + arch_len > b.len() {
        return Err(err(format!("truncated: the architecture string of {arch_len} bytes runs past the end of the file ({} bytes)", b.len())));
    }
    let arch = String::from_utf8_lossy(&b[12..12 + arch_len]).into_owned();
    r.at += arch_len;
    let (features, h1, h2) = parse_architecture(&arch).map_err(err)?;
    let expect = features.transformer_hash() ^ layers_hash(h1, h2);
    if hash != expect {
        return Err(err(format!("hash 0x{hash:08X} does not match its architecture (0x{expect:08X}); the file is corrupt or of another kind")));
    }
    let size = file_bytes(features, h1, h2, arch_len);
    if b.len() != size {
        let what = if b.len() < size { "truncated" } else { "longer than its architecture says" };
        return Err(err(format!("{} bytes where {} has {size}: {what}", b.len(), features.structure())));
    }
    let ft_hash = r.u32();
    if ft_hash != features.transformer_hash() {
        return Err(err(format!("feature transformer hash 0x{ft_hash:08X}, expected 0x{:08X}", features.transformer_hash())));
    }
    let ft_bias = r.i16s(HALF);
    let ft_weights = r.i16s(HALF * features.inputs());
    let net_hash = r.u32();
    if net_hash != layers_hash(h1, h2) {
        return Err(err(format!("layers hash 0x{net_hash:08X}, expected 0x{:08X}", layers_hash(h1, h2))));
    }
    let hidden1 = read_affine(&mut r, TRANSFORMED, h1);
    let hidden2 = read_affine(&mut r, h1, h2);
    let output = read_affine(&mut r, h2, 1);
    let layers = super::layers::Layers::new(hidden1, hidden2, output);
    Ok(Parsed { ft_bias, ft_weights, net: YaneuraOuNet { features, layers, architecture: arch } })
}

/// Writes a network in YaneuraOu's format (`ft_weights`: one row of `HALF` per input).
pub fn write(features: FeatureSet, ft_bias: &[i16], ft_weights: &[i16], layers: &Layers) -> Result<Vec<u8>, NetError> {
    let (h1, h2) = (layers.hidden1.outputs, layers.hidden2.outputs);
    let shapes_ok = ft_bias.len() == HALF
        && ft_weights.len() == HALF * features.inputs()
        && layers.hidden1.inputs == TRANSFORMED
        && layers.hidden2.inputs == h1
        && layers.output.inputs == h2
        && layers.output.outputs == 1
        && (1..=MAX_HIDDEN).contains(&h1)
        && (1..=MAX_HIDDEN).contains(&h2)
        && [&layers.hidden1, &layers.hidden2, &layers.output].iter().all(|a| a.bias.len() == a.outputs && a.weights.len() == a.outputs * padded(a.inputs));
    if !shapes_ok {
        return Err(NetError("YaneuraOu network: layer sizes do not fit together".into()));
    }
    let arch = architecture(features, h1, h2);
    let mut v = Vec::with_capacity(file_bytes(features, h1, h2, arch.len()));
    v.extend_from_slice(&VERSION.to_le_bytes());
    v.extend_from_slice(&(features.transformer_hash() ^ layers_hash(h1, h2)).to_le_bytes());
    v.extend_from_slice(&(arch.len() as u32).to_le_bytes());
    v.extend_from_slice(arch.as_bytes());
    v.extend_from_slice(&features.transformer_hash().to_le_bytes());
    ft_bias.iter().chain(ft_weights).for_each(|x| v.extend_from_slice(&x.to_le_bytes()));
    v.extend_from_slice(&layers_hash(h1, h2).to_le_bytes());
    for a in [&layers.hidden1, &layers.hidden2, &layers.output] {
        a.bias.iter().for_each(|x| v.extend_from_slice(&x.to_le_bytes()));
        v.extend(a.weights.iter().map(|&x| x as u8));
    }
    Ok(v)
}
