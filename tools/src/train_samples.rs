//! The training positions of `train-nnue` in memory: each distinct position of the data
//! files (optionally moved to its quiet leaf, see `leaf`, and with its left-right
//! reflection, see `mirror`) as its active features and one `Sample`.

use crate::data;
use crate::train_data::{self, parse_input, Input, Record};
use hisha::eval::nnue::{self, MAX_ACTIVE};
use hisha::position::Position;
use hisha::search::leaf::QuietLeaf;
use rayon::prelude::*;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};

/// One training position: its features (side to move's, then the other side's), search
/// score and game result from the side to move's view.
pub(crate) struct Sample {
    pub(crate) start: u32,
    pub(crate) n_us: u8,
    pub(crate) n_them: u8,
    pub(crate) score: f32,
    pub(crate) result: f32,
    /// The hand-made evaluation, for comparison.
    pub(crate) classical: f32,
    /// Whether the position came from the first data file.
    pub(crate) from_first_file: bool,
    /// The low half of its game's (PSV) or block's (text) key: validation holds out whole groups.
    pub(crate) group: u32,
    /// Its output bucket (`nnue::output_bucket`).
    pub(crate) bucket: u8,
    /// Whether it is the reflection of a stored position (`--mirror`; never validated).
    pub(crate) mirrored: bool,
}

pub(crate) struct Data {
    pub(crate) feats: Vec<u16>,
    pub(crate) samples: Vec<Sample>,
}

/// The key for dropping the same position met again (in any game or file).
pub(crate) fn duplicate_key(input: &Input) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    match &input.record {
        Record::Line(line) => data::position_key(line).hash(&mut h),
        Record::Psv(rec, _) => rec.sfen.hash(&mut h),
    }
    h.finish()
}

/// The features and sample of one position (`mirrored`: the reflected copy of a stored one).
fn sample_of(pos: &Position, score: i32, result: f32, input: &Input, mirrored: bool) -> (Vec<u16>, Sample) {
    let stm = pos.side_to_move();
    let mut a = [0u16; MAX_ACTIVE];
    let mut b = [0u16; MAX_ACTIVE];
    let na = nnue::active_features(pos, stm, &mut a);
    let nb = nnue::active_features(pos, stm.flip(), &mut b);
    let mut v = Vec::with_capacity(na + nb);
    v.extend_from_slice(&a[..na]);
    v.extend_from_slice(&b[..nb]);
    let sample = Sample {
        start: 0,
        n_us: na as u8,
        n_them: nb as u8,
        score: score as f32,
        result,
        classical: hisha::eval::evaluate(pos) as f32,
        from_first_file: input.file == 0,
        group: input.group as u32,
        bucket: nnue::output_bucket(pos) as u8,
        mirrored,
    };
    (v, sample)
}

/// Every distinct position of `files` (with `qsearch_leaf`, moved to its quiet leaf); with
/// `mirror`, also the reflection of each whose king stands on file 5 (see `crate::mirror`).
pub(crate) fn load(files: &[String], max_score: i32, mirror: bool, qsearch_leaf: bool) -> Result<Data, String> {
    let mut seen: HashSet<u64> = HashSet::new();
    let mut inputs: Vec<Input> = Vec::new();
    let mut dup = 0usize;
    for input in train_data::read_inputs(files)? {
        if seen.insert(duplicate_key(&input)) {
            inputs.push(input);
        } else {
            dup += 1;
        }
    }
    eprintln!("{} distinct positions ({dup} duplicates dropped)", inputs.len());
    let moved = AtomicUsize::new(0);
    let parsed: Vec<Vec<(Vec<u16>, Sample)>> = inputs
        .par_iter()
        .map_init(|| qsearch_leaf.then(|| QuietLeaf::new(crate::leaf::LEAF_NODE_LIMIT)), |leaf, input| {
            let Some((mut pos, mut score, mut result)) = parse_input(input, files, max_score)? else { return Ok(Vec::new()) };
            if let Some(leaf) = leaf.as_mut() {
                let plies;
                (pos, score, result, plies) = crate::leaf::to_leaf(leaf, pos, score, result);
                moved.fetch_add(usize::from(plies > 0), Ordering::Relaxed);
            }
            let mut out = vec![sample_of(&pos, score, result, input, false)];
            if let Some(m) = mirror.then(|| mirrored_if_new(&pos)).flatten() {
                out.push(sample_of(&m, score, result, input, true));
            }
            Ok(out)
        })
        .collect::<Result<_, String>>()?;
    if qsearch_leaf {
        eprintln!("{} positions moved to their quiet leaf", moved.into_inner());
    }
    let (feats, samples) = pack(parsed.into_iter().flatten(), |s, start| s.start = start);
    Ok(Data { feats, samples })
}

/// Every position's features in one array, in order, and its sample told where its
/// own run starts (`place`).
pub(crate) fn pack<F: Copy, S>(parsed: impl IntoIterator<Item = (Vec<F>, S)>, place: impl Fn(&mut S, u32)) -> (Vec<F>, Vec<S>) {
    let mut feats = Vec::new();
    let mut samples = Vec::new();
    for (v, mut s) in parsed {
        place(&mut s, feats.len() as u32);
        samples.push(s);
        feats.extend_from_slice(&v);
    }
    (feats, samples)
}

/// The reflection of `pos` when the network's inputs see it differently (a king on file
/// 5) and it is another position (not a symmetric one). A reflection that happens to be
/// a held-out position elsewhere is not caught: rare enough to leave.
fn mirrored_if_new(pos: &Position) -> Option<Position> {
    if !crate::mirror::king_on_file_5(pos) {
        return None;
    }
    crate::mirror::mirrored(pos).filter(|m| m.to_sfen() != pos.to_sfen())
}
