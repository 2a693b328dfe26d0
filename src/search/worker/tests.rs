//! Tests of what the main search learns and leaves behind.

use super::*;
use crate::search::tt::TranspositionTable;

/// A worker of its own on the start position, with an empty table and fresh histories.
fn fresh_worker() -> Worker {
    let (tt, _) = TranspositionTable::new(1);
    let shared = Arc::new(Shared::new(Arc::new(tt), 1));
    let cfg = Config { threads: 1, verbose: false, ..Config::default() };
    let sink: Sink = Arc::new(|_: &crate::search::Report| {});
    Worker::new(0, Position::startpos(), shared, cfg, sink, Vec::new(), ThreadTables::new())
}

/// The quiet move before a node that fails low refuted the other side's choices: the
/// histories reward it at its own ply. A capture before such a node is left alone.
#[test]
fn a_node_failing_low_rewards_the_quiet_move_that_led_to_it() {
    crate::init();
    for (usi, rewarded) in [("7g7f", true), ("8h2b+", false)] {
        let mut w = fresh_worker();
        if !rewarded {
            // 7g7f 3c3d opens the bishops' diagonal: 8h2b+ then takes a bishop.
            for m in ["7g7f", "3c3d"] {
                w.pos.do_move(Move::from_usi(m).expect("a move"));
            }
        }
        let m = Move::from_usi(usi).expect("a move");
        assert!(crate::movegen::is_legal(&w.pos, m), "{usi}");
        w.cont_idx[0] = piece_to(&w.pos, m);
        let before = w.tables.histories.quiet_score(&w.pos, m, &w.cont_idx, 0);
        w.pos.do_move(m);
        w.acc[1].refresh(&w.net, &w.pos);
        // No reply reaches 20,000: the node fails low.
        let v = w.search(20_000, 20_001, 1, 1, true, false);
        assert!(v < 20_000, "{usi}: {v}");
        w.pos.undo_move(m);
        let after = w.tables.histories.quiet_score(&w.pos, m, &w.cont_idx, 0);
        if rewarded {
            assert!(after > before, "{usi}: {before} -> {after}");
        } else {
            assert_eq!(after, before, "{usi}");
        }
    }
}

/// Where an earlier search's exact score replaces a node's evaluation, the table still
/// keeps the network's own evaluation of the position for the next visit, not that
/// score (which would then come back as a static evaluation, corrected a second time).
#[test]
fn the_table_keeps_the_raw_evaluation_under_a_sharpened_one() {
    crate::init();
    let mut w = fresh_worker();
    w.acc[0].refresh(&w.net, &w.pos);
    let m = Move::from_usi("7g7f").expect("a move");
    w.pos.do_move(m);
    w.acc[1].refresh(&w.net, &w.pos);
    let raw = w.static_eval(1);
    let key = w.pos.key();
    // An exact score far from the evaluation, from a search shallower than the next.
    w.shared.tt.store(key, Move::NONE, to_tt(raw + 400, 1), raw, 1, Bound::Exact);
    let (eval, _, _) = w.node_eval(false, w.shared.tt.probe(key), 1);
    assert_eq!(eval, raw + 400, "the node's evaluation takes the exact score");
    w.search(-VALUE_INF, VALUE_INF, 3, 1, true, false);
    let e = w.shared.tt.probe(key).expect("the node's entry");
    assert!(e.depth >= 3, "the search stored its own entry: depth {}", e.depth);
    assert_eq!(e.eval, raw);
}
