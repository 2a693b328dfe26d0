//! The options analysis clients and servers set (issue 48): what each one changes in
//! the engine's answers, driven over USI as a GUI would.
mod common;

use common::Engine;
use hisha::position::Position;
use std::time::Duration;

/// The `info ... pv` lines among `lines`.
fn pv_lines(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info") && l.contains(" pv ")).collect()
}

/// The depth of an `info depth N ...` line.
fn depth_of(line: &str) -> Option<i32> {
    let t: Vec<&str> = line.split_whitespace().collect();
    t.iter().position(|&x| x == "depth").and_then(|i| t.get(i + 1)?.parse().ok())
}

/// The moves after `pv`, checked legal from `pos` one by one.
fn legal_pv(pos: &Position, line: &str) -> Vec<String> {
    let moves: Vec<String> = line.split(" pv ").nth(1).unwrap_or("").split_whitespace().map(str::to_string).collect();
    let mut p = pos.clone();
    for m in &moves {
        let mv = p.parse_usi_move(m).unwrap_or_else(|| panic!("illegal move {m} in {line}"));
        p.do_move(mv);
    }
    moves
}

#[test]
fn pv_interval_holds_back_iterations_but_never_the_last_one() {
    let mut e = Engine::ready();
    e.send("setoption name PvInterval value 0");
    e.send("position startpos");
    let (_, _, every) = e.go("depth 8");
    let depths: Vec<i32> = pv_lines(&every).iter().filter_map(|l| depth_of(l)).collect();
    assert_eq!(depths, (1..=8).collect::<Vec<_>>(), "PvInterval 0 reports every iteration");

    e.send("setoption name PvInterval value 100000");
    e.send("usinewgame");
    let (_, _, held) = e.go("depth 8");
    let held = pv_lines(&held);
    assert_eq!(held.len(), 1, "only the final lines: {held:?}");
    assert_eq!(depth_of(held[0]), Some(8));

    // `go infinite` is analysis: every iteration whatever the interval.
    e.send("go infinite");
    let lines = e.expect(|l| depth_of(l) == Some(3));
    e.send("stop");
    let rest = e.expect(|l| l.starts_with("bestmove"));
    let depths: Vec<i32> = pv_lines(&lines).iter().filter_map(|l| depth_of(l)).collect();
    assert_eq!(depths, vec![1, 2, 3], "{rest:?}");
}

#[test]
fn consideration_mode_continues_lines_from_the_table() {
    let mut e = Engine::ready();
    e.send("setoption name PvInterval value 0");
    let moves = "7g7f 3c3d 2g2f 8c8d";
    e.send(&format!("position startpos moves {moves}"));
    let mut pos = Position::startpos();
    for m in moves.split_whitespace() {
        let mv = pos.parse_usi_move(m).expect("legal");
        pos.do_move(mv);
    }
    e.go("depth 10");
    let (_, _, plain) = e.go("depth 1");
    let plain = legal_pv(&pos, pv_lines(&plain).last().expect("a line"));
    e.send("setoption name ConsiderationMode value true");
    let (_, _, full) = e.go("depth 1");
    let full = legal_pv(&pos, pv_lines(&full).last().expect("a line"));
    assert!(plain.len() <= 2, "{plain:?}");
    assert!(full.len() >= 6, "the table's line after a depth-10 search: {full:?}");
}

#[test]
fn output_fail_lh_pv_false_prints_no_bound_lines() {
    let mut e = Engine::ready();
    e.send("setoption name OutputFailLHPV value false");
    e.send("setoption name PvInterval value 0");
    // A sharp middle game in which the score moves from iteration to iteration.
    e.send("position sfen l4S2l/4g1gs1/5p1p1/pr2N1pkp/4Gn3/PP3PPPP/2GPP4/1K7/L3r+s2L w BS2N5Pb 1");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(4000));
    e.send("stop");
    let lines = e.expect(|l| l.starts_with("bestmove"));
    // The last line reports where `stop` found the search, a bound if it stopped in a
    // re-search; the lines before it are iterations, never aspiration failures.
    let pvs = pv_lines(&lines);
    let (_, during) = pvs.split_last().expect("lines");
    let bounds: Vec<&&String> = during.iter().filter(|l| l.contains("lowerbound") || l.contains("upperbound")).collect();
    assert!(bounds.is_empty(), "{bounds:?}");
    assert!(during.len() >= 5, "{pvs:?}");
}

#[test]
fn the_new_options_refuse_bad_values() {
    let mut e = Engine::ready();
    for (name, bad) in [("PvInterval", "-1"), ("ConsiderationMode", "maybe"), ("OutputFailLHPV", "2")] {
        e.send(&format!("setoption name {name} value {bad}"));
        e.send("isready");
        let lines = e.expect(|l| l == "readyok");
        assert!(lines.iter().any(|l| l.starts_with("info string error: option") && l.contains(name)), "{name}: {lines:?}");
    }
}

/// Plays `moves` from the start position.
fn startpos_after(moves: &str) -> Position {
    let mut pos = Position::startpos();
    for m in moves.split_whitespace() {
        let mv = pos.parse_usi_move(m).expect("legal");
        pos.do_move(mv);
    }
    pos
}

#[test]
fn stochastic_ponder_searches_the_position_before_the_predicted_move() {
    let mut e = Engine::ready();
    e.send("setoption name Stochastic_Ponder value true");
    e.send("setoption name PvInterval value 0");
    let before = startpos_after("7g7f 3c3d");
    let actual = startpos_after("7g7f 3c3d 2g2f");
    e.send("position startpos moves 7g7f 3c3d 2g2f");
    e.send("go ponder btime 0 wtime 0 byoyomi 300");
    let pondering = e.expect(|l| depth_of(l) == Some(4));
    // While pondering, the lines are White's: the position before 2g2f is Black to move,
    // so its lines start with Black's moves, and none of them is legal for White.
    for l in pv_lines(&pondering) {
        legal_pv(&before, l);
    }
    e.send("ponderhit");
    let after = e.expect(|l| l.starts_with("bestmove"));
    let best = after.last().and_then(|l| l.split_whitespace().nth(1)).expect("a move").to_string();
    assert!(actual.parse_usi_move(&best).is_some(), "bestmove {best} after ponderhit: {after:?}");
    assert_eq!(after.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
    assert!(e.drain(Duration::from_millis(300)).iter().all(|l| !l.starts_with("bestmove")), "one answer only");

    // The opponent plays something else: `stop` gets one legal move of the sent position.
    e.send("position startpos moves 7g7f 3c3d 2g2f 8c8d");
    e.send("go ponder btime 0 wtime 0 byoyomi 300");
    e.expect(|l| depth_of(l) == Some(3));
    e.send("stop");
    let stopped = e.expect(|l| l.starts_with("bestmove"));
    let best = stopped.last().and_then(|l| l.split_whitespace().nth(1)).expect("a move").to_string();
    assert!(startpos_after("7g7f 3c3d 2g2f 8c8d").parse_usi_move(&best).is_some(), "{stopped:?}");
    assert!(e.drain(Duration::from_millis(300)).iter().all(|l| !l.starts_with("bestmove")), "one answer only");
}

#[test]
fn skill_level_zero_plays_shallow_and_varied_moves() {
    let mut e = Engine::ready();
    e.send("setoption name SkillLevel value 0");
    e.send("setoption name PvInterval value 0");
    e.send("position startpos");
    let mut played = std::collections::BTreeSet::new();
    for _ in 0..12 {
        let (best, _, lines) = e.go("byoyomi 1000");
        assert!(pv_lines(&lines).iter().all(|l| depth_of(l) == Some(1)), "{lines:?}");
        assert!(Position::startpos().parse_usi_move(&best).is_some());
        played.insert(best);
    }
    assert!(played.len() >= 2, "twelve searches at level 0 played only {played:?}");
    // Full strength: the normal search, deeper than the handicapped one.
    e.send("setoption name SkillLevel value 20");
    let (_, _, lines) = e.go("depth 6");
    assert_eq!(pv_lines(&lines).iter().filter_map(|l| depth_of(l)).max(), Some(6));
}

/// ShogiHome's reading of one `option` line (its engine process's `onOption`): the text
/// after `option ` split on single spaces; at least four words, `name` first and `type`
/// third, so the name is exactly one word; then `key value` pairs from the fifth word
/// (`default`, `min`, `max`, `var`), none for a button. Returns (name, type, pairs) or
/// why ShogiHome would drop the line.
fn shogihome_option(line: &str) -> Result<(String, String, Vec<(String, String)>), String> {
    let rest = line.strip_prefix("option ").ok_or("not an option line")?;
    let args: Vec<&str> = rest.split(' ').collect();
    if args.len() < 4 || args[0] != "name" || args[2] != "type" {
        return Err("dropped: needs 'name <one word> type <type>'".into());
    }
    let kind = args[3].to_string();
    let mut pairs = Vec::new();
    if kind != "button" {
        let mut i = 4;
        while i + 1 < args.len() {
            pairs.push((args[i].to_string(), args[i + 1].to_string()));
            i += 2;
        }
        if i < args.len() {
            return Err(format!("a word without a value: '{}'", args[i]));
        }
    } else if args.len() > 4 {
        return Err("a button with more words".into());
    }
    Ok((args[1].to_string(), kind, pairs))
}

#[test]
fn every_option_line_reads_back_through_shogihomes_parser() {
    let mut e = Engine::start();
    e.send("usi");
    let lines = e.expect(|l| l == "usiok");
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    assert!(options.len() >= 30, "{options:?}");
    let mut names = std::collections::BTreeSet::new();
    for line in options {
        let (name, kind, pairs) = shogihome_option(line).unwrap_or_else(|why| panic!("{line}: {why}"));
        assert!(names.insert(name.clone()), "{name} declared twice");
        assert!(["check", "spin", "combo", "button", "string", "filename"].contains(&kind.as_str()), "{line}");
        let values = |key: &str| pairs.iter().filter(|(k, _)| k == key).map(|(_, v)| v.clone()).collect::<Vec<_>>();
        for (key, value) in &pairs {
            assert!(["default", "min", "max", "var"].contains(&key.as_str()), "{line}: ShogiHome skips '{key} {value}'");
            assert!(!value.is_empty(), "{line}: an empty word (two spaces)");
        }
        if kind == "button" {
            continue;
        }
        let default = values("default");
        assert_eq!(default.len(), 1, "{line}: one default");
        match kind.as_str() {
            "spin" => {
                let num = |k: &str| values(k).first().and_then(|v| v.parse::<i64>().ok()).unwrap_or_else(|| panic!("{line}: {k}"));
                assert!(num("min") <= num("default") && num("default") <= num("max"), "{line}");
            }
            "check" => assert!(default[0] == "true" || default[0] == "false", "{line}"),
            "combo" => assert!(values("var").contains(&default[0]), "{line}: the default is one of the vars"),
            _ => {}
        }
        // The GUI sends the name back as it read it; the engine takes it.
        if kind != "button" {
            e.send(&format!("setoption name {name} value {}", default[0]));
        }
    }
    e.send("isready");
    let answers = e.expect(|l| l == "readyok");
    assert!(answers.iter().all(|l| !l.contains("error")), "{answers:?}");
}
