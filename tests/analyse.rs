//! `hisha analyse` and the record readers: each record format (CSA V2.2 with comments
//! and a resignation, CSA V3.0 with a handicap, Shift_JIS KIF with a handicap, UTF-8
//! KIF, USI lines), malformed records, the JSON schema, the KIF written back, the
//! graph files, `--shard` for analyse and `mate --file`, and the ply selection: `--from`,
//! `--to`, `--skip` and `--reverse` (checked against searches replayed through the
//! library in the order they must have been made).

use hisha::analyse::engine::{Analyser, Budget, PositionEval};
use hisha::position::Position;
use hisha::record::{self, GameRecord};
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/records");

fn rec(name: &str) -> String {
    format!("{DIR}/{name}")
}

fn read_one(name: &str) -> GameRecord {
    hisha::init();
    let mut games = record::read_file(&rec(name)).expect("file readable");
    assert_eq!(games.len(), 1, "{name}: one game");
    games.remove(0).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn moves(g: &GameRecord) -> Vec<&str> {
    g.moves.iter().map(|m| m.usi.as_str()).collect()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hisha-analyse-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d.join(name)
}

fn hisha(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hisha")).args(args).output().expect("run hisha")
}

fn json_lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"))).collect()
}

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

#[test]
fn csa_floodgate_record_with_comments_and_resignation() {
    let g = read_one("floodgate_toryo.csa");
    assert_eq!(g.start_sfen, START);
    assert_eq!(g.moves.len(), 30);
    assert_eq!(&moves(&g)[..4], &["7g7f", "3c3d", "2g2f", "8c8d"]);
    assert_eq!(g.black.as_deref(), Some("hisha_a"));
    assert_eq!(g.white.as_deref(), Some("hisha_b"));
    assert_eq!(g.result.as_deref(), Some("%TORYO"));
    // The line of each move is the line it stands on in the file.
    let text = std::fs::read_to_string(rec("floodgate_toryo.csa")).unwrap();
    let line = text.lines().nth(g.moves[5].line - 1).unwrap();
    assert_eq!(line, "-8485FU");
}

#[test]
fn csa_v3_with_handicap_and_fractional_times() {
    let g = read_one("v3_handicap.csa");
    assert_eq!(g.start_sfen, "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
    assert_eq!(moves(&g), ["5a4b", "7g7f", "6a5b", "2g2f", "4b3b"]);
    assert_eq!(g.result.as_deref(), Some("%CHUDAN"));
}

#[test]
fn kif_shift_jis_with_lance_handicap() {
    let bytes = std::fs::read(rec("handicap_sjis.kif")).unwrap();
    assert!(std::str::from_utf8(&bytes).is_err(), "the test file must really be Shift_JIS");
    let g = read_one("handicap_sjis.kif");
    assert_eq!(g.start_sfen, "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
    assert_eq!(g.moves.len(), 10);
    assert_eq!(&moves(&g)[..3], &["3c3d", "7g7f", "5a4b"]);
    assert_eq!(g.white.as_deref(), Some("hisha"));
    assert_eq!(g.black.as_deref(), Some("person"));
    assert_eq!(g.result.as_deref(), Some("投了"));
    assert_eq!(g.moves[0].line, 9);
}

#[test]
fn kif_utf8_with_drops_promotions_and_same_square() {
    let g = read_one("even_utf8.kifu");
    assert_eq!(moves(&g), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e", "6a5b", "5e7c+"]);
    assert_eq!(g.result.as_deref(), Some("中断"));
}

#[test]
fn usi_lines_are_games() {
    hisha::init();
    let games = record::read_file(&rec("games.usi")).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].as_ref().unwrap().moves.len(), 8);
    assert_eq!(moves(games[1].as_ref().unwrap()), ["2g2f", "8c8d", "2f2e", "8d8e"]);
}

#[test]
fn malformed_records_name_their_line() {
    hisha::init();
    let games = record::read_file(&rec("malformed_piece.csa")).unwrap();
    let e = games[0].as_ref().expect_err("wrong piece letter");
    assert_eq!(e.line, 30);
    // CSA: an illegal move, an unknown statement; several games split by '/'.
    let text = "V2.2\nPI\n+\n+7776FU\n-3334FU\n/\nPI\n+\n+7775FU\n/\nPI\n+\n+2726FU\nX\n";
    let r = record::csa::parse(text);
    assert_eq!(r.len(), 3);
    assert_eq!(r[0].as_ref().map(|g| g.moves.len()), Ok(2));
    assert_eq!(r[1].as_ref().map_err(|e| e.line), Err(9));
    assert_eq!(r[2].as_ref().map_err(|e| e.line), Err(14));
    // CSA: comma-joined statements, P lines with pieces in hand (00AL = the rest).
    let r = record::csa::parse("P1 *  *  *  *  *  *  *  * -OU\nP+59OU\nP+00KI\nP-00AL\n+\n+0012KI,T3\n%TSUMI\n");
    let g = r[0].as_ref().expect("tsume record");
    assert_eq!(g.start_sfen, "8k/9/9/9/9/9/9/9/4K4 b G2r2b3g4s4n4l18p 1");
    assert_eq!(moves(g), ["G*1b"]);
    // KIF: the line the parser cannot read is named, not silently dropped.
    let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(3X)\n   3 ２六歩(27)\n";
    let e = record::kif::parse(kif).expect_err("bad move line");
    assert_eq!(e.line, 4);
    // KIF: text that is no record at all.
    assert_eq!(record::kif::parse("garbage\nmore garbage\n").map_err(|e| e.line), Err(1));
    // USI: an illegal move.
    let e = record::usi::parse("position startpos moves 7g7f 7g7f")[0].clone().expect_err("illegal");
    assert_eq!(e.line, 1);
}

#[test]
fn batch_skips_a_malformed_record_in_the_middle() {
    // Sorted batch: even_utf8.kifu (game 0), malformed_piece.csa (1), v3_handicap.csa (2).
    let out = hisha(&["analyse", &rec("v3_handicap.csa"), &rec("malformed_piece.csa"), &rec("even_utf8.kifu"), "--depth", "1", "--json"]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("malformed_piece.csa:30:"), "stderr: {err}");
    let objs = json_lines(&out);
    let kinds: Vec<(&str, u64)> = objs.iter().filter(|o| o["type"] != "ply").map(|o| (o["type"].as_str().unwrap(), o["game"].as_u64().unwrap())).collect();
    assert_eq!(kinds, [("game", 0), ("error", 1), ("game", 2)]);
    let e = objs.iter().find(|o| o["type"] == "error").unwrap();
    assert_eq!(e["line"], 30);
    assert!(e["file"].as_str().unwrap().ends_with("malformed_piece.csa"));
    assert_eq!(objs.iter().filter(|o| o["type"] == "ply").count(), 7 + 5);
}

fn is_score(v: &Value) -> bool {
    match v.as_object() {
        Some(o) if o.len() == 1 => o["cp"].is_i64(),
        Some(o) if o.len() == 2 => o["mate"].is_u64() && (o["winner"] == "black" || o["winner"] == "white"),
        _ => false,
    }
}

#[test]
fn json_schema_of_plies_and_games() {
    let out = hisha(&["analyse", &rec("even_utf8.kifu"), "--depth", "2", "--multipv", "2", "--json"]);
    assert!(out.status.success());
    let objs = json_lines(&out);
    assert_eq!(objs.len(), 8);
    for (i, p) in objs[..7].iter().enumerate() {
        assert_eq!(p["type"], "ply");
        assert_eq!(p["ply"], i + 1);
        assert_eq!(p["game"], 0);
        assert_eq!(p["game_in_file"], 0);
        assert!(p["file"].is_string() && p["move"].is_string() && p["line"].is_u64());
        assert_eq!(p["side"], if i % 2 == 0 { "black" } else { "white" });
        assert!(is_score(&p["score_before"]) && is_score(&p["score_after"]), "{p}");
        for k in ["winrate_before", "winrate_after", "loss"] {
            let x = p[k].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&x), "{k} {x}");
        }
        assert!(p["mark"].is_null() || ["inaccuracy", "mistake", "blunder"].contains(&p["mark"].as_str().unwrap()));
        assert!(p["best"].is_string());
        let pv = p["pv"].as_array().unwrap();
        assert_eq!(pv[0], p["best"]);
        let multi = p["multipv"].as_array().unwrap();
        assert_eq!(multi.len(), 2, "two lines asked for");
        assert_eq!(multi[0]["move"], p["best"]);
        assert_ne!(multi[0]["move"], multi[1]["move"]);
        assert!(multi.iter().all(|l| is_score(&l["score"]) && l["pv"].is_array()));
        assert!(p["depth"].is_i64() && p["nodes"].is_u64());
    }
    // Score after ply k is the score before ply k+1.
    for w in objs[..7].windows(2) {
        assert_eq!(w[0]["score_after"], w[1]["score_before"]);
    }
    let g = &objs[7];
    assert_eq!(g["type"], "game");
    assert_eq!(g["plies"], 7);
    assert_eq!(g["black_player"], "sente");
    assert_eq!(g["result"], "中断");
    assert_eq!(g["start_sfen"], START);
    assert!(is_score(&g["final_score"]));
    for side in ["black", "white"] {
        let s = &g[side];
        let acc = s["accuracy"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&acc));
        for k in ["moves", "inaccuracies", "mistakes", "blunders"] {
            assert!(s[k].is_u64(), "{side}.{k}");
        }
    }
    assert_eq!(g["black"]["moves"], 4);
    assert_eq!(g["white"]["moves"], 3);
}

#[test]
fn mate_is_scored_as_mate() {
    // Black mates with G*1b at once; after it White is mated (mate 0, won by Black).
    let f = tmp("mate1.usi");
    std::fs::write(&f, "position sfen 8k/9/8P/9/9/9/9/9/4K4 b G 1 moves G*1b\n").unwrap();
    let out = hisha(&["analyse", f.to_str().unwrap(), "--depth", "3", "--json"]);
    let objs = json_lines(&out);
    assert_eq!(objs[0]["score_before"], serde_json::json!({ "mate": 1, "winner": "black" }));
    assert_eq!(objs[0]["score_after"], serde_json::json!({ "mate": 0, "winner": "black" }));
    assert_eq!(objs[0]["winrate_after"], 1.0);
    assert_eq!(objs[0]["best"], "G*1b");
}

#[test]
fn kif_output_reads_back_with_comments() {
    for name in ["floodgate_toryo.csa", "handicap_sjis.kif", "v3_handicap.csa"] {
        let out_kif = tmp(&format!("{name}.kif"));
        let out = hisha(&["analyse", &rec(name), "--depth", "1", "--json", "--kif", out_kif.to_str().unwrap()]);
        assert!(out.status.success());
        let original = read_one(name);
        hisha::init();
        let back = record::read_file(out_kif.to_str().unwrap()).unwrap().remove(0).expect("written KIF parses");
        assert_eq!(back.start_sfen, original.start_sfen, "{name}");
        assert_eq!(moves(&back), moves(&original), "{name}");
        let bytes = std::fs::read(&out_kif).unwrap();
        assert!(std::str::from_utf8(&bytes).is_err(), ".kif is written in Shift_JIS");
        let text = record::decode(&bytes).unwrap();
        let comments = text.lines().filter(|l| l.starts_with("*[Hisha]")).count();
        assert_eq!(comments, original.moves.len() + 1, "{name}: a comment before the game and under each move");
        let plies = json_lines(&out).into_iter().filter(|o| o["type"] == "ply").collect::<Vec<_>>();
        let marked = plies.iter().filter(|p| !p["mark"].is_null()).count();
        let marks_in_kif = text.lines().filter(|l| l.contains("疑問手") || l.contains("悪手")).count();
        assert_eq!(marked, marks_in_kif, "{name}: every mark is in the KIF");
    }
}

#[test]
fn graphs_are_written() {
    let svg = tmp("g.svg");
    let png = tmp("g.png");
    let out = hisha(&["analyse", &rec("even_utf8.kifu"), "--depth", "1", "--svg", svg.to_str().unwrap(), "--png", png.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let s = std::fs::read_to_string(&svg).unwrap();
    assert!(s.contains("<svg") && s.contains("<polyline"));
    let p = std::fs::read(&png).unwrap();
    assert_eq!(&p[..8], b"\x89PNG\r\n\x1a\n");
    // The table names the game and ends with the accuracy summary.
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("sente (Black) vs gote (White), 7 plies"));
    assert!(table.contains("accuracy: Black"));
}

fn merged(mut lines: Vec<Value>) -> Vec<Value> {
    let kind = |o: &Value| match o["type"].as_str() {
        Some("error") => 0,
        Some("ply") => 1,
        _ => 2,
    };
    lines.sort_by_key(|o| (o["game"].as_u64().or(o["problem"].as_u64()), kind(o), o["ply"].as_u64()));
    lines
}

#[test]
fn shards_merge_to_the_whole_analysis() {
    let files: Vec<String> = ["games.usi", "v3_handicap.csa", "even_utf8.kifu", "malformed_piece.csa"].iter().map(|f| rec(f)).collect();
    // The same with a ply selection searched last to first: every shard plans its games
    // alike (the shortest game has 4 plies).
    for selection in [vec![], vec!["--from", "2", "--to", "4", "--skip", "3", "--reverse"]] {
        let run = |shard: Option<&str>| {
            let mut args: Vec<&str> = vec!["analyse"];
            args.extend(files.iter().map(String::as_str));
            args.extend(["--nodes", "1500", "--json"]);
            args.extend(selection.iter());
            if let Some(s) = shard {
                args.extend(["--shard", s]);
            }
            let out = hisha(&args);
            assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
            json_lines(&out)
        };
        let whole = run(None);
        let games: Vec<u64> = whole.iter().filter(|o| o["type"] != "ply").map(|o| o["game"].as_u64().unwrap()).collect();
        assert_eq!(games, [0, 1, 2, 3, 4], "five games in the batch, one unreadable");
        if !selection.is_empty() {
            let plies: Vec<u64> = whole.iter().filter(|o| o["type"] == "ply").map(|o| o["ply"].as_u64().unwrap()).collect();
            assert_eq!(plies, [2u64, 4].repeat(4), "{selection:?}: plies 2 and 4 of each readable game");
        }
        let mut parts = Vec::new();
        for i in 0..3 {
            let part = run(Some(&format!("{i}/3")));
            assert!(part.iter().all(|o| o["game"].as_u64().unwrap() % 3 == i));
            parts.extend(part);
        }
        assert_eq!(merged(parts), whole, "{selection:?}");
    }
    assert!(!hisha(&["analyse", &files[0], "--shard", "3/3"]).status.success());
}

#[test]
fn mate_file_shards_merge_to_the_whole() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/mate/mate_short.txt");
    let run = |shard: Option<&str>| {
        let mut args = vec!["mate", "--file", file, "--time", "30000", "--json"];
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        // Wall-clock time varies from run to run; node counts must not (each problem
        // gets a table of its own, whatever a shard solved before it).
        let mut lines = json_lines(&hisha(&args));
        for o in &mut lines {
            assert!(o["nodes"].is_u64() && o["proof_nodes"].is_u64(), "counts missing: {o}");
            assert!(o["seconds"].is_number(), "seconds missing: {o}");
            // The first proof comes within the solve (every problem here is solved).
            let (secs, proof_secs) = (o["seconds"].as_f64(), o["proof_seconds"].as_f64());
            assert!(matches!((secs, proof_secs), (Some(s), Some(p)) if p >= 0.0 && p <= s), "proof_seconds: {o}");
            o["seconds"] = Value::Null;
            o["proof_seconds"] = Value::Null;
        }
        lines
    };
    let whole = run(None);
    assert!(whole.len() >= 10);
    assert!(whole.iter().all(|o| o["verdict"] == "ok"));
    let mut parts = Vec::new();
    for i in 0..4 {
        parts.extend(run(Some(&format!("{i}/4"))));
    }
    assert_eq!(merged(parts), whole);
}

#[test]
fn bad_options_are_refused() {
    let f = rec("games.usi");
    for args in [vec!["--multipv", "0"], vec!["--depth", "0"], vec!["--shard", "1/0"], vec!["--threads", "0"]] {
        let mut a = vec!["analyse", f.as_str()];
        a.extend(args.iter());
        let out = hisha(&a);
        assert!(!out.status.success(), "{args:?} accepted");
        assert!(String::from_utf8_lossy(&out.stderr).contains("error"));
    }
    // A missing file is reported and skipped; the run goes on.
    let out = hisha(&["analyse", "/nonexistent/x.csa", &f, "--depth", "1", "--json"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/x.csa"));
    assert_eq!(json_lines(&out).iter().filter(|o| o["type"] == "game").count(), 2);
}

/// The `"ply"` objects of a `--json` run, and its game object.
fn plies_and_game(out: &Output) -> (Vec<Value>, Value) {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let objs = json_lines(out);
    let game = objs.iter().find(|o| o["type"] == "game").expect("a game object").clone();
    (objs.into_iter().filter(|o| o["type"] == "ply").collect(), game)
}

fn ply_numbers(plies: &[Value]) -> Vec<u64> {
    plies.iter().map(|p| p["ply"].as_u64().unwrap()).collect()
}

#[test]
fn a_ply_range_analyses_only_its_plies() {
    let name = "floodgate_toryo.csa";
    let record = read_one(name);
    let out = hisha(&["analyse", &rec(name), "--from", "5", "--to", "9", "--depth", "1", "--json"]);
    let (plies, game) = plies_and_game(&out);
    assert_eq!(ply_numbers(&plies), [5, 6, 7, 8, 9]);
    for p in &plies {
        let k = p["ply"].as_u64().unwrap() as usize;
        assert_eq!(p["move"], record.moves[k - 1].usi, "ply {k} is the record's move {k}");
        assert_eq!(p["side"], if k % 2 == 1 { "black" } else { "white" });
    }
    for w in plies.windows(2) {
        assert_eq!(w[0]["score_after"], w[1]["score_before"]);
    }
    assert_eq!(game["plies"], 30, "the game's length, not the number analysed");
    assert_eq!(game["analysed_plies"], 5);
    assert_eq!(game["search_order"], "game");
    assert_eq!(game["black"]["moves"].as_u64().unwrap() + game["white"]["moves"].as_u64().unwrap(), 5, "accuracy over the plies analysed");
    assert!(game["final_score"].is_null(), "the final position was not searched");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("; 6 positions"), "positions 4..9 searched, no others: {err}");
    // The end of the game: --from alone runs to the last ply, which scores the final position.
    let (plies, game) = plies_and_game(&hisha(&["analyse", &rec(name), "--from", "29", "--depth", "1", "--json"]));
    assert_eq!(ply_numbers(&plies), [29, 30]);
    assert_eq!(game["final_score"], plies[1]["score_after"]);
    // The table says which plies it shows.
    let table = hisha(&["analyse", &rec(name), "--to", "3", "--depth", "1"]);
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.contains("30 plies, ended %TORYO; analysed plies 1-3 (3 of them)"), "{text}");
    let rows: Vec<&str> = text.lines().filter(|l| l.contains('▲') || l.contains('△')).collect();
    assert_eq!(rows.len(), 3, "{text}");
    assert!(text.contains("final score - (not searched)"), "{text}");
}

#[test]
fn skipped_plies_are_left_out_of_every_output() {
    let name = "floodgate_toryo.csa";
    let kif = tmp("skip.kif");
    let svg = tmp("skip.svg");
    let out = hisha(&["analyse", &rec(name), "--to", "8", "--skip", "2,4-6", "--depth", "1", "--json", "--kif", kif.to_str().unwrap(), "--svg", svg.to_str().unwrap()]);
    let (plies, game) = plies_and_game(&out);
    assert_eq!(ply_numbers(&plies), [1, 3, 7, 8]);
    assert_eq!(game["analysed_plies"], 4);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("; 7 positions"), "positions 0-3 and 6-8 only: {err}");
    // The KIF keeps every move but comments only the analysed ones, under their moves.
    let text = record::decode(&std::fs::read(&kif).unwrap()).unwrap();
    let back = record::read_file(kif.to_str().unwrap()).unwrap().remove(0).expect("written KIF parses");
    assert_eq!(back.moves.len(), 30);
    let mut commented = Vec::new();
    let mut ply = 0;
    for line in text.lines() {
        if line.trim_start().split_whitespace().next().and_then(|t| t.parse::<usize>().ok()).is_some_and(|k| k == ply + 1) {
            ply += 1;
        } else if line.starts_with("*[Hisha] 評価値") {
            commented.push(ply);
        }
    }
    assert_eq!(commented, [1, 3, 7, 8], "{text}");
    assert!(text.contains("解析した手: 1, 3, 7-8手目"));
    // The curve has three pieces (ply 1, ply 3, plies 7-8) where it has one without --skip.
    let polylines = |path: &PathBuf| std::fs::read_to_string(path).unwrap().matches("<polyline").count();
    let whole_svg = tmp("noskip.svg");
    assert!(hisha(&["analyse", &rec(name), "--to", "8", "--depth", "1", "--svg", whole_svg.to_str().unwrap()]).status.success());
    assert_eq!(polylines(&svg), polylines(&whole_svg) + 2, "gaps in the curve at the skipped plies");
    // Repeated --skip flags add up.
    let (plies, _) = plies_and_game(&hisha(&["analyse", &rec(name), "--to", "6", "--skip", "2", "--skip", "4-5", "--depth", "1", "--json"]));
    assert_eq!(ply_numbers(&plies), [1, 3, 6]);
}

/// Searches the positions `order` of the game (position k after k moves) one after the
/// other with one engine whose table is kept, as `hisha analyse` must.
fn replay(game: &GameRecord, order: &[usize], depth: i32) -> Vec<Option<PositionEval>> {
    let mut engine = Analyser::new(Budget::Depth(depth), 1, 1, 16);
    engine.new_game();
    let mut evals = vec![None; game.moves.len() + 1];
    for &k in order {
        let mut pos = Position::from_sfen(&game.start_sfen).unwrap();
        for rm in &game.moves[..k] {
            let m = pos.parse_usi_move(&rm.usi).unwrap();
            pos.do_move(m);
        }
        evals[k] = Some(engine.evaluate(&pos));
    }
    evals
}

/// Whether every ply object is what the replayed searches found.
fn matches_replay(plies: &[Value], evals: &[Option<PositionEval>]) -> bool {
    plies.iter().all(|p| {
        let k = p["ply"].as_u64().unwrap() as usize;
        let (e0, e1) = (evals[k - 1].as_ref().unwrap(), evals[k].as_ref().unwrap());
        p["score_before"] == e0.score.to_json()
            && p["score_after"] == e1.score.to_json()
            && p["best"] == serde_json::json!(e0.best.as_ref().map(|b| b.mv.clone()))
            && p["depth"] == e0.depth
            && p["nodes"] == e0.nodes
    })
}

#[test]
fn reverse_searches_from_the_end_and_writes_in_game_order() {
    hisha::init();
    let name = "floodgate_toryo.csa";
    let game = read_one(name);
    let depth = 4;
    let args = |reverse: bool| {
        let mut a = vec!["analyse".to_string(), rec(name), "--from".into(), "21".into(), "--skip".into(), "25".into()];
        a.extend(["--depth", "4", "--hash", "16", "--threads", "1", "--json"].map(String::from));
        if reverse {
            a.push("--reverse".into());
        }
        a
    };
    let run = |reverse: bool| {
        let a = args(reverse);
        plies_and_game(&hisha(&a.iter().map(String::as_str).collect::<Vec<_>>()))
    };
    let (back, game_json) = run(true);
    let (fwd, _) = run(false);
    let wanted: Vec<u64> = (21..=30).filter(|&k| k != 25).collect();
    assert_eq!(ply_numbers(&back), wanted, "written in game order");
    assert_eq!(ply_numbers(&fwd), wanted);
    assert_eq!(game_json["search_order"], "reverse");
    // Positions 20..=30 (ply 25's positions are its neighbours'), last to first.
    let last_to_first: Vec<usize> = (20..=30).rev().collect();
    let first_to_last: Vec<usize> = (20..=30).collect();
    let (rev_evals, fwd_evals) = (replay(&game, &last_to_first, depth), replay(&game, &first_to_last, depth));
    assert!(!matches_replay(&fwd, &rev_evals), "the two orders must be told apart by the table they leave");
    assert!(matches_replay(&back, &rev_evals), "--reverse searched the positions last to first");
    assert!(matches_replay(&fwd, &fwd_evals), "without it, first to last");
    let table = hisha(&["analyse", &rec(name), "--from", "29", "--depth", "1", "--reverse"]);
    assert!(String::from_utf8_lossy(&table.stdout).contains("analysed plies 29-30 (2 of them), searched last to first"));
}

#[test]
fn bad_ply_selections_are_refused_before_any_search() {
    let f = rec("floodgate_toryo.csa");
    let cases: [(&[&str], &str); 10] = [
        (&["--from", "5", "--to", "4"], "--from 5 is after --to 4"),
        (&["--from", "0"], "numbered from 1"),
        (&["--to", "31"], "--to 31 is beyond the game's last ply (30)"),
        (&["--from", "31"], "--from 31 is beyond"),
        (&["--skip", "31"], "--skip 31 is beyond"),
        (&["--skip", "3-x"], "'3-x' is not a ply"),
        (&["--skip", "9-7"], "runs backwards"),
        (&["--skip", "1-30"], "no ply to analyse"),
        (&["--from", "x"], "invalid value 'x'"),
        (&["--to", "-3"], "error"),
    ];
    for (extra, message) in cases {
        let mut a = vec!["analyse", f.as_str(), "--depth", "1"];
        a.extend(extra);
        let out = hisha(&a);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{extra:?} accepted");
        assert!(out.status.code().is_some_and(|c| c != 101), "{extra:?}: no panic exit: {err}");
        assert!(err.contains("error") && err.contains(message), "{extra:?}: {err}");
        assert!(!err.contains("panicked"), "{extra:?}: {err}");
        assert!(out.stdout.is_empty(), "{extra:?}: nothing analysed");
    }
    // A batch: every game must have the plies named; the short one is named.
    let out = hisha(&["analyse", &rec("games.usi"), "--to", "6", "--depth", "1", "--json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("games.usi (game 2 of the file, 4 plies): --to 6 is beyond the game's last ply (4)"), "{err}");
    assert!(!err.contains("game 1 of the file"), "{err}");
    assert!(out.stdout.is_empty());
}
