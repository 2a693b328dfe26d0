//! `hisha gensfen` end to end: reproducible files for a seed and shard (whatever the
//! thread count), resuming after a torn write or a kill, refusing foreign files and
//! changed settings, and `psv-dump`'s errors on bad files; `hisha rescore` likewise.

use hisha::psv::{PackedSfenValue, PsvReader, RECORD_BYTES};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("hisha-gensfen-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn fresh(name: &str) -> PathBuf {
    let p = dir().join(name);
    let _ = std::fs::remove_file(&p);
    let _ = std::fs::remove_file(p.with_extension("bin.settings"));
    p
}

fn gensfen(out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["gensfen", "--nodes", "150", "--random-max", "8", "--handicap-rate", "0.3", "--hash", "2", "--out"];
    args.push(out.to_str().unwrap());
    args.extend_from_slice(extra);
    Command::new(env!("CARGO_BIN_EXE_hisha")).args(&args).output().unwrap()
}

fn ok(out: &Path, extra: &[&str]) -> Vec<u8> {
    let o = gensfen(out, extra);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read(out).unwrap()
}

fn records(bytes: &[u8]) -> Vec<PackedSfenValue> {
    assert_eq!(bytes.len() % RECORD_BYTES, 0);
    bytes.chunks(RECORD_BYTES).map(|c| PackedSfenValue::from_bytes(c.try_into().unwrap())).collect()
}

/// The records of each game by its number in the file (from the markers; files here
/// hold fewer than 128 games), without the markers.
fn games(bytes: &[u8], count: usize) -> Vec<Vec<[u8; 39]>> {
    let mut out: Vec<Vec<[u8; 39]>> = vec![Vec::new(); count];
    for r in records(bytes) {
        out[(r.padding & 0x7f) as usize].push(r.to_bytes()[..39].try_into().unwrap());
    }
    out
}

#[test]
fn same_seed_and_shard_give_the_same_file() {
    let a = ok(&fresh("a.bin"), &["--games", "4", "--seed", "5", "--threads", "1"]);
    let b = ok(&fresh("b.bin"), &["--games", "4", "--seed", "5", "--threads", "1"]);
    let c = ok(&fresh("c.bin"), &["--games", "4", "--seed", "5", "--threads", "2"]);
    let d = ok(&fresh("d.bin"), &["--games", "4", "--seed", "6", "--threads", "1"]);
    assert!(a.len() > 40 * 20);
    assert_eq!(a, b, "same seed, same file");
    assert_eq!(a, c, "two threads write the same games in the same order");
    assert_ne!(a, d, "another seed, other games");
    // Every record decodes to a legal position and move; four marked games.
    let recs = records(&a);
    for r in &recs {
        let (pos, m) = r.decode().unwrap();
        assert!(m.is_some() && !pos.in_check());
    }
    assert!(recs.iter().filter(|r| r.ends_game()).count() >= 3);
    // Shards split the seed's games: shard 1/2 plays games 1 and 3.
    let s1 = ok(&fresh("s1.bin"), &["--games", "2", "--seed", "5", "--threads", "1", "--shard", "1/2"]);
    let all = games(&a, 4);
    let halves = games(&s1, 2);
    assert_eq!(halves, vec![all[1].clone(), all[3].clone()]);
}

#[test]
fn resumes_after_a_torn_write_with_the_same_games() {
    let full = ok(&fresh("full.bin"), &["--games", "5", "--seed", "9", "--threads", "1"]);
    let recs = records(&full);
    let ends: Vec<usize> = recs.iter().enumerate().filter(|(_, r)| r.ends_game()).map(|(i, _)| i).collect();
    // Some games may have no record left after the filters; the markers number them.
    assert!(ends.len() >= 4);
    let kept = recs[ends[2]].padding as u64 % 128 + 1;
    let p = fresh("torn.bin");
    std::fs::copy(dir().join("full.bin.settings"), p.with_extension("bin.settings")).unwrap();
    // Cut inside a record of the fourth game, and at a record boundary inside it.
    for cut in [(ends[2] + 2) * RECORD_BYTES + 17, (ends[2] + 1) * RECORD_BYTES + RECORD_BYTES] {
        std::fs::write(&p, &full[..cut]).unwrap();
        let o = gensfen(&p, &["--games", "5", "--seed", "9", "--threads", "2"]);
        assert!(o.status.success());
        let log = String::from_utf8_lossy(&o.stderr);
        assert!(log.contains("resuming") && log.contains(&format!(" {kept} games")) && log.contains("dropped"), "{log}");
        assert_eq!(std::fs::read(&p).unwrap(), full, "cut at {cut}");
    }
    // A finished file is left as it is.
    let o = gensfen(&p, &["--games", "5", "--seed", "9"]);
    assert!(o.status.success() && String::from_utf8_lossy(&o.stderr).contains("already holds"));
    assert_eq!(std::fs::read(&p).unwrap(), full);
}

#[test]
fn resumes_after_a_kill() {
    let want = ok(&fresh("want.bin"), &["--games", "6", "--seed", "11", "--threads", "1"]);
    let p = fresh("killed.bin");
    let mut child = Command::new(env!("CARGO_BIN_EXE_hisha"))
        .args(["gensfen", "--nodes", "150", "--random-max", "8", "--handicap-rate", "0.3", "--hash", "2", "--seed", "11", "--threads", "2", "--out"])
        .arg(&p)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once it has written something (it has no game limit).
    let mut spins = 0;
    while std::fs::metadata(&p).map_or(0, |m| m.len()) == 0 && spins < 12_000 {
        std::thread::sleep(std::time::Duration::from_millis(5));
        spins += 1;
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let o = gensfen(&p, &["--games", "6", "--seed", "11", "--threads", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&p).unwrap(), want);
}

#[test]
fn refuses_foreign_files_and_other_settings() {
    let p = fresh("foreign.bin");
    std::fs::write(&p, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\t0\t1\n").unwrap();
    let o = gensfen(&p, &["--games", "1"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a PackedSfenValue file"));
    let p = fresh("settings.bin");
    ok(&p, &["--games", "1", "--seed", "3", "--threads", "1"]);
    let o = gensfen(&p, &["--games", "2", "--seed", "4", "--threads", "1"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("other settings"));
}

#[test]
fn multipv_openings_are_reproducible_and_change_the_games() {
    let multipv = ["--games", "4", "--seed", "7", "--multipv-plies", "6", "--threads"];
    let a = ok(&fresh("mpv-a.bin"), &[&multipv[..], &["1"]].concat());
    let b = ok(&fresh("mpv-b.bin"), &[&multipv[..], &["2"]].concat());
    let plain = ok(&fresh("mpv-plain.bin"), &["--games", "4", "--seed", "7", "--threads", "1"]);
    assert_eq!(a, b, "the drawn moves follow from the seed alone, whatever the threads");
    assert_ne!(a, plain, "drawn moves change the games");
    assert!(records(&a).iter().all(|r| r.decode().unwrap().1.is_some()));
    let p = fresh("mpv-resume.bin");
    ok(&p, &[&multipv[..], &["1"]].concat());
    let o = gensfen(&p, &["--games", "5", "--seed", "7", "--threads", "1"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("other settings"), "resuming without the option is refused");
    let o = gensfen(&fresh("mpv-bad.bin"), &["--games", "1", "--multipv-lines", "0"]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("--multipv-lines"));
}

#[test]
fn psv_dump_reads_good_files_and_explains_bad_ones() {
    let p = fresh("dump.bin");
    let bytes = ok(&p, &["--games", "3", "--seed", "2", "--threads", "1"]);
    assert!(bytes.len() >= 10 * RECORD_BYTES);
    let o = Command::new(env!("CARGO_BIN_EXE_hisha")).args(["psv-dump"]).arg(&p).output().unwrap();
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(text.lines().count(), bytes.len() / RECORD_BYTES);
    assert!(PsvReader::open(&p).is_ok());
    let bad = fresh("trunc.bin");
    std::fs::write(&bad, &bytes[..bytes.len() - 3]).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_hisha")).args(["psv-dump"]).arg(&bad).output().unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("truncated or not a PSV file"));
}

fn rescore(input: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["rescore", "--nodes", "300", "--hash", "2", "--in", input.to_str().unwrap(), "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    Command::new(env!("CARGO_BIN_EXE_hisha")).args(&args).output().unwrap()
}

fn rescored(input: &Path, out: &Path, extra: &[&str]) -> Vec<u8> {
    let o = rescore(input, out, extra);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read(out).unwrap()
}

#[test]
fn rescore_keeps_positions_and_results_and_is_reproducible() {
    let input = fresh("rescore-in.bin");
    let old = records(&ok(&input, &["--games", "5", "--seed", "9", "--threads", "1"]));
    let one = rescored(&input, &fresh("rescore-1.bin"), &["--threads", "1"]);
    let two = rescored(&input, &fresh("rescore-2.bin"), &["--threads", "2"]);
    assert_eq!(one, two, "the thread count does not change the output");
    let new = records(&one);
    assert_eq!(new.len(), old.len());
    let mut changed = 0;
    for (n, o) in new.iter().zip(&old) {
        assert_eq!((n.sfen, n.game_ply, n.game_result, n.padding), (o.sfen, o.game_ply, o.game_result, o.padding));
        let (pos, m) = n.decode().unwrap();
        assert!(m.is_some_and(|m| hisha::movegen::legal_moves(&pos).as_slice().contains(&m)));
        changed += (n.score != o.score) as usize;
    }
    assert!(changed > new.len() / 4, "a deeper search changes most scores: {changed} of {}", new.len());
    // Cut inside a game, the same command redoes that game and ends with the same file.
    let cut = fresh("rescore-cut.bin");
    std::fs::copy(dir().join("rescore-1.bin.settings"), dir().join("rescore-cut.bin.settings")).unwrap();
    let settings = std::fs::read_to_string(dir().join("rescore-cut.bin.settings")).unwrap();
    assert!(settings.contains("nodes=300"), "{settings}");
    std::fs::write(&cut, &one[..one.len() / 2 + 17]).unwrap();
    assert_eq!(rescored(&input, &cut, &["--threads", "2"]), one);
    // Another node count is refused on that file; a text file is refused as input.
    let o = Command::new(env!("CARGO_BIN_EXE_hisha"))
        .args(["rescore", "--nodes", "301", "--hash", "2", "--in", input.to_str().unwrap(), "--out", cut.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("other settings"));
    // Another file as the output is refused, whole.
    let other = fresh("rescore-other.bin");
    std::fs::write(&other, &one[40..]).unwrap();
    let o = rescore(&input, &other, &[]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("not a rescore output"));
    std::fs::write(dir().join("rescore-other.bin.settings"), &settings).unwrap();
    let o = rescore(&input, &other, &[]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("not its rescored copy"), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&other).unwrap(), &one[40..]);
    let text = fresh("rescore-text.bin");
    std::fs::write(&text, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\t0\t1\n").unwrap();
    let o = rescore(&text, &fresh("rescore-x.bin"), &[]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("PackedSfenValue"));
}
