//! Tests of the YaneuraOu network reader: files the tests write themselves (both
//! feature sets), refusals, incremental updates against refreshes, the vector path
//! against the scalar one, and the feature numbering.

use super::*;
use crate::eval::nnue::{Accumulator, Network, RefreshCache};
use crate::movegen::legal_moves;
use rand::{Rng, SeedableRng};

fn random_affine(rng: &mut rand::rngs::SmallRng, inputs: usize, outputs: usize, bias: i32) -> Affine {
    random_affine_within(rng, inputs, outputs, bias, 40)
}

fn random_affine_within(rng: &mut rand::rngs::SmallRng, inputs: usize, outputs: usize, bias: i32, w: i8) -> Affine {
    let mut a = Affine::zeros(inputs, outputs);
    let p = padded(inputs);
    for o in 0..outputs {
        a.bias[o] = rng.gen_range(-bias..=bias);
        for j in 0..inputs {
            a.weights[o * p + j] = if w == i8::MAX && rng.gen_bool(0.05) { i8::MIN } else { rng.gen_range(-w..=w) };
        }
    }
    a
}

/// A network file of `features` with random weights sized so that the activations
/// spread over the clipped range.
pub(crate) fn random_file(features: FeatureSet, seed: u64, h1: usize, h2: usize) -> Vec<u8> {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let ft_bias: Vec<i16> = (0..HALF).map(|_| rng.gen_range(0..=60)).collect();
    let ft_weights: Vec<i16> = (0..HALF * features.inputs()).map(|_| rng.gen_range(-12..=14)).collect();
    let layers = Layers::new(
        random_affine(&mut rng, 2 * HALF, h1, 3000),
        random_affine(&mut rng, h1, h2, 3000),
        random_affine(&mut rng, h2, 1, 3000),
    );
    match write(features, &ft_bias, &ft_weights, &layers) {
        Ok(b) => b,
        Err(e) => panic!("{e}"),
    }
}

const SFENS: [&str; 5] = [
    crate::position::START_SFEN,
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    "4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
    // A handicap (two pieces nowhere) and a position in check.
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/1r5b1/pppp1pppp/9/4p4/9/PPPPLPPPP/1B5R1/LNSGKGSN1 w - 1",
];

#[test]
fn files_of_both_feature_sets_load_and_name_themselves() {
    crate::init();
    for (features, kind) in [(FeatureSet::HalfKp, "halfkp_256x2-32-32"), (FeatureSet::KP, "k_p_256x2-32-32")] {
        let bytes = random_file(features, 1, 32, 32);
        let net = Network::from_bytes(&bytes).unwrap();
        let y = net.yaneuraou().expect("a YaneuraOu network");
        assert_eq!((y.features, y.file_kind()), (features, kind.to_string()));
        assert_eq!(y.architecture, architecture(features, 32, 32));
        let pos = crate::position::Position::startpos();
        let mut acc = Accumulator::default();
        acc.refresh(&net, &pos);
        assert_ne!(net.evaluate(&acc, &pos), 0);
    }
}

#[test]
fn hashes_are_yaneuraous() {
    // The values YaneuraOu 9.70 writes into (and expects of) its 256x2-32-32 files.
    assert_eq!(FeatureSet::HalfKp.transformer_hash(), 0x5D69_D7B8);
    assert_eq!(FeatureSet::KP.transformer_hash(), 0x3F57_15FF);
    assert_eq!(FeatureSet::HalfKp.transformer_hash() ^ layers_hash(32, 32), 0x3E5A_A6EE);
}

#[test]
fn truncated_corrupt_and_unknown_files_are_refused() {
    let good = random_file(FeatureSet::KP, 2, 32, 32);
    let refuse = |b: &[u8], says: &str| {
        let e = Network::from_bytes(b).err().unwrap_or_else(|| panic!("accepted; expected '{says}'"));
        assert!(e.0.contains(says), "'{e}' does not say '{says}'");
    };
    refuse(&good[..good.len() - 1], "truncated");
    refuse(&good[..100], "truncated");
    refuse(&good[..10], "shorter than the header");
    let mut longer = good.clone();
    longer.push(0);
    refuse(&longer, "longer than its architecture says");
    let mut wrong_hash = good.clone();
    wrong_hash[4] ^= 1;
    refuse(&wrong_hash, "does not match its architecture");
    let mut wrong_ft_hash = good.clone();
    let at = 12 + architecture(FeatureSet::KP, 32, 32).len();
    wrong_ft_hash[at] ^= 1;
    refuse(&wrong_ft_hash, "feature transformer hash");
    // Another YaneuraOu architecture: HalfKPE9 (its hash would not match either).
    let arch = architecture(FeatureSet::HalfKp, 32, 32).replace("HalfKP(Friend)[125388", "HalfKPE9(Friend)[1128492");
    let mut other = Vec::new();
    other.extend_from_slice(&VERSION.to_le_bytes());
    other.extend_from_slice(&0u32.to_le_bytes());
    other.extend_from_slice(&(arch.len() as u32).to_le_bytes());
    other.extend_from_slice(arch.as_bytes());
    refuse(&other, "is not one Hisha reads");
    // An architecture string longer than the file.
    let mut huge = good[..8].to_vec();
    huge.extend_from_slice(&u32::MAX.to_le_bytes());
    refuse(&huge, "architecture string of");
}

#[test]
fn other_hidden_sizes_round_trip() {
    crate::init();
    let bytes = random_file(FeatureSet::KP, 3, 8, 32);
    let net = Network::from_bytes(&bytes).unwrap();
    let y = net.yaneuraou().unwrap();
    assert_eq!(y.file_kind(), "k_p_256x2-8-32");
    let (b, w) = (&net.ft_bias, &net.ft_weights);
    assert_eq!(write(FeatureSet::KP, b, w, &y.layers).unwrap(), bytes);
}

fn play_random_games(features: FeatureSet, seed: u64) {
    crate::init();
    let net = Network::from_bytes(&random_file(features, seed, 32, 32)).unwrap();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut cache = RefreshCache::default();
    for start in SFENS {
        let mut pos = crate::position::Position::from_sfen(start).unwrap();
        let mut acc = Accumulator::default();
        acc.refresh(&net, &pos);
        for _ in 0..300 {
            let list = legal_moves(&pos);
            if list.is_empty() {
                break;
            }
            // Captures first where there are some, so that hands fill up.
            let captures: Vec<_> = list.iter().copied().filter(|m| !m.is_drop() && pos.piece_on(m.to()).is_some()).collect();
            let m = if !captures.is_empty() && rng.gen_bool(0.5) { captures[rng.gen_range(0..captures.len())] } else { list.as_slice()[rng.gen_range(0..list.len())] };
            pos.do_move(m);
            let mut next = Accumulator::default();
            next.update(&acc, &net, &pos, m, &mut cache);
            let mut fresh = Accumulator::default();
            fresh.refresh(&net, &pos);
            assert_eq!(next.v, fresh.v, "{features:?} after {m} in {}", pos.to_sfen());
            acc = next;
        }
    }
}

#[test]
fn halfkp_incremental_updates_match_refreshes() {
    play_random_games(FeatureSet::HalfKp, 5);
}

#[test]
fn kp_incremental_updates_match_refreshes() {
    play_random_games(FeatureSet::KP, 6);
}

#[test]
fn vector_layers_equal_the_scalar_ones() {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(9);
    // Weights of the whole 8-bit range, -128 included: the vector path's pair sums come
    // closest to 16 bits there. Small weights as trained networks have (at most 10):
    // the sparse pass sums 12 groups in 16 bits before widening, right at the bound.
    for (h1, h2, w1) in [(32, 32, 127), (8, 32, 127), (16, 32, 127), (32, 32, 10), (16, 32, 10), (32, 32, 64)] {
        let layers = Layers::new(
            random_affine_within(&mut rng, 2 * HALF, h1, 5000, w1),
            random_affine_within(&mut rng, h1, h2, 5000, 127),
            random_affine_within(&mut rng, h2, 1, 5000, 127),
        );
        for _ in 0..50 {
            // Accumulator entries beyond both clipping bounds too.
            let mut half = || -> [i16; HALF] { std::array::from_fn(|_| rng.gen_range(-200..=300)) };
            let (us, them) = (half(), half());
            assert_eq!(layers.propagate(&us, &them), layers.propagate_scalar(&us, &them));
        }
    }
}

#[test]
fn the_sparse_pass_widens_before_16_bits_overflow() {
    // Every weight at the extreme and every input at 127: each group adds the most a
    // 16-bit lane can take, so a batch one group too long would wrap.
    let mut rng = rand::rngs::SmallRng::seed_from_u64(10);
    for w in [10i8, -10, 11, 64, -65, 127, -128] {
        let mut hidden1 = Affine::zeros(2 * HALF, 32);
        hidden1.weights.fill(w);
        let layers = Layers::new(hidden1, random_affine(&mut rng, 32, 32, 5000), random_affine(&mut rng, 32, 1, 5000));
        let full = [127i16; HALF];
        assert_eq!(layers.propagate(&full, &full), layers.propagate_scalar(&full, &full), "weights {w}");
    }
}

#[test]
fn bonapieces_follow_yaneuraou_numbering() {
    use crate::core::types::{Color, Piece, PieceType, Square};
    let sq = |i: usize| Square::from_index(i);
    // Black's pawn on 7g (square 6*9+6 = 60): f_pawn + 60 for Black, e_pawn + 20 for White.
    let pawn = Piece::new(Color::Black, PieceType::Pawn);
    assert_eq!(board_piece(Color::Black, pawn, sq(60)), 90 + 60);
    assert_eq!(board_piece(Color::White, pawn, sq(60)), 171 + 20);
    // Promoted minor pieces count as golds; horses and dragons have their own runs.
    let tokin = Piece::new(Color::White, PieceType::ProPawn);
    assert_eq!(board_piece(Color::White, tokin, sq(0)), 738 + 80);
    assert_eq!(board_piece(Color::Black, Piece::new(Color::Black, PieceType::Dragon), sq(0)), 1386);
    // The third pawn in White's hand, from each side; the second rook in Black's.
    assert_eq!(hand_piece(Color::White, Color::White, PieceType::Pawn, 2), 3);
    assert_eq!(hand_piece(Color::Black, Color::White, PieceType::Pawn, 2), 22);
    assert_eq!(hand_piece(Color::Black, Color::Black, PieceType::Rook, 1), 86);
    assert_eq!(hand_piece(Color::Black, Color::Black, PieceType::Gold, 0), 69);
}

#[test]
fn missing_pieces_count_as_bonapiece_zero() {
    crate::init();
    let net = Network::from_bytes(&random_file(FeatureSet::HalfKp, 4, 32, 32)).unwrap();
    let y = net.yaneuraou().unwrap();
    let pos = crate::position::Position::from_sfen(SFENS[3]).unwrap();
    let mut f = [0usize; MAX_ACTIVE];
    let n = y.features.active(&pos, pos.side_to_move(), &mut f);
    assert_eq!(n, PIECES);
    // White's king on 5a is square 4*9 = 36, 44 from White's side: two rook and bishop slots at 44*1548.
    assert_eq!(f[..n].iter().filter(|&&i| i == 44 * FE_END).count(), 2);
}
