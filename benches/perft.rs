//! Criterion benches of perft, which times legal move generation together with
//! do/undo of every move but the last ply (counted by list length): the start position
//! to depths 4 and 6 (547,581,517 leaves) and a middle-game position to depth 3.
//! Run with `cargo bench --bench perft`; the search speed is `hisha bench`.

use criterion::{criterion_group, criterion_main, Criterion};
use hisha::movegen::perft;
use hisha::position::Position;

fn bench_perft(c: &mut Criterion) {
    hisha::init();
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    let mut start = Position::startpos();
    g.bench_function("startpos_d4", |b| b.iter(|| perft(&mut start, 4)));
    g.bench_function("startpos_d6", |b| b.iter(|| perft(&mut start, 6)));
    let mut matsuri =
        Position::from_sfen("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1").unwrap();
    g.bench_function("matsuri_d3", |b| b.iter(|| perft(&mut matsuri, 3)));
    g.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
