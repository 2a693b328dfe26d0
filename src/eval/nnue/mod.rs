//! NNUE evaluation: king-bucketed piece-square and hand features seen from each side,
//! one hidden layer of `HIDDEN` neurons per side kept up to date move by move (the
//! accumulator), clipped ReLU, and one linear output in centipawns, to which optional
//! hidden layers (`mlp`) add their own output.
//!
//! Features of a perspective (Black, or White with the board turned round so that its
//! pieces too move towards rank a): every piece on the board, own or enemy, by kind and
//! square (kings included), and every hand count as a thermometer (the k-th pawn in hand
//! is one feature). The board is mirrored left-right when the perspective's king stands
//! on files 6-9, and the king's (mirrored) square picks one of `KING_BUCKETS` copies of
//! the whole feature set, so that the same piece counts differently in front of an
//! anaguma and a central king. The trainer (`hisha-tools train-nnue`) uses the functions
//! here, so engine and trainer can never disagree on the features.
//!
//! Files: `features` (inputs), `accumulator` (incremental first layer), `mlp` (hidden
//! layers), `network` (weights, file format, output layer); this file holds the network in use. Uses
//! `core` and `position`.

use crate::position::Position;
use crate::core::types::{Color, Hand, Move, Piece, PieceType, Square};
use once_cell::sync::Lazy;
use std::sync::{Arc, RwLock};

mod accumulator;
mod features;
mod mlp;
mod network;
pub mod yaneuraou;

pub use accumulator::*;
pub use features::*;
pub use mlp::*;
pub use network::*;
pub use yaneuraou::YaneuraOuNet;

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
        Network::from_bytes(&read_network_file(path)?)?
    };
    match ACTIVE.write() {
        Ok(mut g) => {
            *g = Some(Arc::new(net));
            Ok(())
        }
        Err(_) => Err(NetError("network lock poisoned".into())),
    }
}

/// The bytes of the network file at `path`, refused from its header or its size
/// before more than a network's worth is read (so `/dev/zero` or a 2 GB file is
/// refused at once and never fills memory).
fn read_network_file(path: &str) -> Result<Vec<u8>, NetError> {
    use std::io::Read;
    let cannot = |e: std::io::Error| NetError(format!("cannot read {path}: {e}"));
    let file = std::fs::File::open(path).map_err(cannot)?;
    if let Ok(meta) = file.metadata() {
        if meta.is_file() && meta.len() > MAX_ANY_FILE_BYTES as u64 {
            return Err(NetError(format!("{path} has {} bytes, a network at most {MAX_ANY_FILE_BYTES}", meta.len())));
        }
    }
    let mut head = Vec::new();
    (&file).take(8).read_to_end(&mut head).map_err(cannot)?;
    if !has_network_magic(&head) {
        return Err(NetError(format!("{path} is neither a Hisha network file nor a YaneuraOu NNUE file (bad magic)")));
    }
    let limit = if yaneuraou::has_version(&head) { yaneuraou::max_file_bytes() } else { MAX_FILE_BYTES };
    let mut bytes = head;
    file.take((limit + 1 - bytes.len()) as u64).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() > limit {
        return Err(NetError(format!("{path} is longer than a network ({limit} bytes at most)")));
    }
    Ok(bytes)
}

/// Evaluation of `pos` for the side to move, from scratch.
pub fn evaluate(pos: &Position) -> i32 {
    let net = network();
    let mut acc = Accumulator::default();
    acc.refresh(&net, pos);
    net.evaluate(&acc, pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use rand::{Rng, SeedableRng};

    fn random_network(seed: u64) -> Network {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut r = |n: usize, m: i16| -> Vec<i16> { (0..n).map(|_| rng.gen_range(-m..=m)).collect() };
        Network { ft_bias: r(HIDDEN, 100), ft_weights: r(INPUTS * HIDDEN, 60), out_weights: r(OUTPUT_BUCKETS * 2 * HIDDEN, 60), out_bias: (0..OUTPUT_BUCKETS as i32).map(|b| 1234 + 100 * b).collect(), mlp: None, yaneuraou: None }
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
                assert_eq!(net.evaluate(&next, &pos), net.evaluate(&fresh, &pos));
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
        assert_eq!(net.evaluate(&x, &a), net.evaluate(&y, &b));
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
        let bytes = Network::to_bytes(&net.ft_bias, &net.ft_weights, &net.out_weights, &net.out_bias);
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.ft_weights, net.ft_weights);
        assert_eq!(back.out_weights, net.out_weights);
        assert_eq!(back.out_bias, net.out_bias);
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(Network::from_bytes(b"garbage").is_err());
        let mut wrong = bytes.clone();
        wrong[12] = 128;
        assert!(Network::from_bytes(&wrong).is_err());
    }

    #[test]
    fn output_bucket_grows_with_the_pieces_in_hand() {
        crate::init();
        let bucket = |sfen: &str| output_bucket(&Position::from_sfen(sfen).unwrap());
        assert_eq!(bucket(crate::position::START_SFEN), 0);
        // G R in Black's hand, 5P N S G in White's: 10 pieces.
        assert_eq!(bucket("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"), 6);
        // Everything but the kings in hand.
        assert_eq!(bucket("4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1"), OUTPUT_BUCKETS - 1);
        let table: Vec<usize> = (0..39).map(|n| BUCKET_OF_HAND_TOTAL[n] as usize).collect();
        assert!(table.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
        assert_eq!((table[0], table[38]), (0, OUTPUT_BUCKETS - 1));
    }

    #[test]
    fn one_output_layer_copied_to_every_bucket_evaluates_the_same() {
        crate::init();
        let one = network();
        let (b1, w1, w2, bias) = one.weights();
        let (w2, bias) = (&w2[..2 * HIDDEN], bias[0]);
        let v2_single = Network::from_bytes(&Network::to_bytes(b1, w1, w2, &[bias])).unwrap();
        let w2_all: Vec<i16> = (0..OUTPUT_BUCKETS).flat_map(|_| w2.iter().copied()).collect();
        let bucketed = Network::from_bytes(&Network::to_bytes(b1, w1, &w2_all, &[bias; OUTPUT_BUCKETS])).unwrap();
        assert_eq!((v2_single.output_buckets(), bucketed.output_buckets()), (1, OUTPUT_BUCKETS));
        for sfen in [
            crate::position::START_SFEN,
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
            "4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
        ] {
            let pos = Position::from_sfen(sfen).unwrap();
            let mut acc = Accumulator::default();
            acc.refresh(&one, &pos);
            let e = one.evaluate(&acc, &pos);
            assert_eq!(v2_single.evaluate(&acc, &pos), e);
            assert_eq!(bucketed.evaluate(&acc, &pos), e);
        }
        // A different output layer for one bucket changes only that bucket's positions.
        let mut w2_other = w2_all.clone();
        w2_other[2 * HIDDEN * OUTPUT_BUCKETS - 1] = w2_other[2 * HIDDEN * OUTPUT_BUCKETS - 1].wrapping_add(2000);
        let mut bias_other = [bias; OUTPUT_BUCKETS];
        bias_other[OUTPUT_BUCKETS - 1] += 100_000;
        let other = Network::from_bytes(&Network::to_bytes(b1, w1, &w2_other, &bias_other)).unwrap();
        for (sfen, changed) in [(crate::position::START_SFEN, false), ("4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1", true)] {
            let pos = Position::from_sfen(sfen).unwrap();
            let mut acc = Accumulator::default();
            acc.refresh(&one, &pos);
            assert_eq!(other.evaluate(&acc, &pos) != one.evaluate(&acc, &pos), changed, "{sfen}");
        }
    }

    #[test]
    fn network_files_with_other_bucket_counts_are_refused() {
        let net = random_network(9);
        let w2 = &net.out_weights[..3 * 2 * HIDDEN];
        let bytes = Network::to_bytes(&net.ft_bias, &net.ft_weights, w2, &[0, 0, 0]);
        let err = Network::from_bytes(&bytes).err().unwrap();
        assert!(err.0.contains("3 output buckets"), "{err}");
    }

    /// Hidden layers with random weights, the last layer's scaled by `last`.
    fn random_mlp(seed: u64, last: i16) -> Mlp {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut w: Vec<i16> = (0..MLP_WEIGHTS).map(|_| rng.gen_range(-150..=150)).collect();
        let n = w.len();
        w[n - L2..].iter_mut().for_each(|x| *x = x.saturating_mul(last));
        let mut b: Vec<i32> = (0..MLP_BIASES).map(|_| rng.gen_range(0..=QA * QH / 2)).collect();
        b[MLP_BIASES - 1] *= last as i32;
        Mlp::from_parts(&w, &b).unwrap()
    }

    fn with_mlp(net: &Network, mlp: Option<Mlp>) -> Network {
        let bytes = Network::to_bytes_with(&net.ft_bias, &net.ft_weights, &net.out_weights, &net.out_bias, mlp.as_ref());
        Network::from_bytes(&bytes).unwrap()
    }

    const SAMPLE_SFENS: [&str; 3] = [
        crate::position::START_SFEN,
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        "4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
    ];

    #[test]
    fn hidden_layers_with_a_zero_last_layer_change_nothing() {
        crate::init();
        let plain = random_network(21);
        let layered = with_mlp(&plain, Some(random_mlp(4, 0)));
        let live = with_mlp(&plain, Some(random_mlp(4, 1)));
        assert!(layered.mlp().is_some());
        let mut changed = 0;
        for sfen in SAMPLE_SFENS {
            let pos = Position::from_sfen(sfen).unwrap();
            let mut acc = Accumulator::default();
            acc.refresh(&plain, &pos);
            assert_eq!(layered.evaluate(&acc, &pos), plain.evaluate(&acc, &pos), "{sfen}");
            changed += (live.evaluate(&acc, &pos) != plain.evaluate(&acc, &pos)) as usize;
        }
        assert!(changed >= 2, "live hidden layers changed only {changed} evaluations");
    }

    /// The hidden layers in floating point, as the trainer computes them.
    fn float_forward(mlp: &Mlp, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> f64 {
        let (w, b) = mlp.parts();
        let (qa, qh) = (QA as f64, QH as f64);
        let x: Vec<f64> = us.iter().chain(them).map(|&a| (a as f64 / qa).clamp(0.0, 1.0)).collect();
        let layer = |x: &[f64], w: &[i16], b: &[i32], clip: bool| -> Vec<f64> {
            b.iter()
                .enumerate()
                .map(|(j, &bj)| {
                    let z = bj as f64 / (qa * qh) + x.iter().zip(&w[j * x.len()..]).map(|(xi, &wi)| xi * wi as f64 / qh).sum::<f64>();
                    if clip { z.clamp(0.0, 1.0) } else { z }
                })
                .collect()
        };
        let h1 = layer(&x, &w[..L1 * 2 * HIDDEN], &b[..L1], true);
        let h2 = layer(&h1, &w[L1 * 2 * HIDDEN..L1 * 2 * HIDDEN + L2 * L1], &b[L1..L1 + L2], true);
        layer(&h2, &w[MLP_WEIGHTS - L2..], &b[L1 + L2..], false)[0]
    }

    #[test]
    fn quantised_hidden_layers_follow_the_float_ones() {
        crate::init();
        let net = random_network(8);
        for seed in 0..6 {
            let mlp = random_mlp(seed, 20);
            for sfen in SAMPLE_SFENS {
                let pos = Position::from_sfen(sfen).unwrap();
                let mut acc = Accumulator::default();
                acc.refresh(&net, &pos);
                let (us, them) = (&acc.v[pos.side_to_move().index()], &acc.v[pos.side_to_move().flip().index()]);
                let exact = float_forward(&mlp, us, them) * (QA * QB) as f64;
                let quantised = mlp.forward(us, them) as f64;
                // Activations are rounded to 1/QA: within 3 centipawns and 1%.
                let cp = (QA * QB / OUTPUT_SCALE) as f64;
                assert!((exact - quantised).abs() <= 0.01 * exact.abs() + 3.0 * cp, "seed {seed} {sfen}: {exact} vs {quantised}");
            }
        }
    }

    #[test]
    fn vector_hidden_layers_equal_the_scalar_ones() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(77);
        for seed in 0..8 {
            let mlp = random_mlp(seed, 30);
            for _ in 0..20 {
                // Accumulator entries beyond both clipping bounds too.
                let mut half = || -> [i16; HIDDEN] { std::array::from_fn(|_| rng.gen_range(-400..=700)) };
                let (us, them) = (half(), half());
                assert_eq!(mlp.forward(&us, &them), mlp.forward_scalar(&us, &them), "seed {seed}");
            }
        }
    }

    #[test]
    fn layered_network_file_round_trips_and_bad_hidden_layers_are_refused() {
        let net = random_network(12);
        let mlp = random_mlp(2, 3);
        let bytes = Network::to_bytes_with(&net.ft_bias, &net.ft_weights, &net.out_weights, &net.out_bias, Some(&mlp));
        assert!(bytes.starts_with(b"HISHANN3"));
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.mlp(), Some(&mlp));
        assert_eq!(back.out_bias, net.out_bias);
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        // A first hidden weight that could overflow the layer's sum.
        let mut bad = bytes.clone();
        let first_hidden = bytes.len() - 2 * MLP_WEIGHTS - 4 * MLP_BIASES;
        bad[first_hidden..first_hidden + 2].copy_from_slice(&i16::MIN.to_le_bytes());
        assert!(Network::from_bytes(&bad).err().unwrap().0.contains("hidden weight"));
        // Other layer sizes.
        let mut other = bytes.clone();
        other[20] = 8;
        assert!(Network::from_bytes(&other).err().unwrap().0.contains("hidden layers 8x32"));
    }
}
