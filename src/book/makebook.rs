//! `hisha makebook`: grows a book by Hisha's own search. Every position is scored
//! by a fixed-node search, the best unexpanded move of the cheapest line is played
//! out next (see `graph`), values are backed up by negamax, and the book is
//! written in YaneuraOu's format every so often and at the end. Running it again
//! on the same output file resumes from what the file holds.

use super::graph::{node_key, Frontier, Graph, Node};
use super::reader::{read_db, Entry};
use super::store::BookMove;
use super::writer::write_db;
use crate::movegen;
use crate::position::Position;
use crate::engine::Engine;
use crate::search::{Config, Limits, Report, Sink};
use crate::core::types::Move;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The handicap starts shipped in `positions/`.
pub const HANDICAPS: &str = include_str!("../../positions/handicaps.sfen");

/// What `makebook` is asked to do.
#[derive(Clone, Debug)]
pub struct MakebookConfig {
    /// Output (and resume) file.
    pub out: String,
    /// Start positions: (label, SFEN).
    pub starts: Vec<(String, String)>,
    /// Nodes per search.
    pub nodes: u64,
    /// Deepest position, in plies from its start.
    pub max_plies: u32,
    /// Stop at this many positions.
    pub max_positions: usize,
    /// Stop after this long.
    pub time_limit: Option<Duration>,
    /// Frontier moves this far below their position's value are never expanded.
    pub window: i32,
    /// Extra cost of every start after the first (spends most effort on the first).
    pub other_start_cost: i32,
    /// Cost of a ply of depth against centipawns given up (see `Graph::ply_cost`).
    pub ply_cost: i32,
    /// Hash size in MiB.
    pub hash_mb: usize,
}

/// Reads start lines: `startpos`, an SFEN, or `label | SFEN`; `#` starts a comment.
pub fn parse_starts(text: &str, origin: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (label, sfen) = match line.split_once('|') {
            Some((l, s)) => (l.trim().to_string(), s.trim().to_string()),
            None => (format!("{origin}:{}", i + 1), line.to_string()),
        };
        let sfen = if sfen == "startpos" { crate::position::START_SFEN.to_string() } else { sfen.trim_start_matches("sfen ").to_string() };
        Position::from_sfen(&sfen).map_err(|e| format!("{origin}:{}: bad start position: {e}", i + 1))?;
        out.push((label, sfen));
    }
    Ok(out)
}

struct Searcher {
    engine: Engine,
    nodes: u64,
    searches: u64,
}

impl Searcher {
    /// Best move among those not in `exclude` (`None` when none is left), and the
    /// position's value when it has no legal move or declares a win.
    fn search(&mut self, pos: &Position, exclude: &[Move]) -> (Option<Frontier>, i32, i32) {
        let legal = movegen::legal_moves(pos);
        let rest: Vec<Move> = legal.iter().copied().filter(|m| !exclude.contains(m)).collect();
        if rest.is_empty() && !legal.is_empty() {
            return (None, 0, 0);
        }
        let limits = Limits { nodes: Some(self.nodes), searchmoves: if exclude.is_empty() { Vec::new() } else { rest }, ..Limits::default() };
        let sink: Sink = Arc::new(|_: &Report| {});
        let r = self.engine.search(pos, &limits, sink);
        self.searches += 1;
        match pos.parse_usi_move(&r.best) {
            Some(mv) => {
                let ponder = r.ponder.unwrap_or(Move::NONE);
                let mut next = pos.clone();
                next.do_move(mv);
                let child = node_key(&next);
                (Some(Frontier { mv, value: r.score, depth: r.depth, ponder, child }), r.score, r.depth)
            }
            None => (None, r.score, r.depth),
        }
    }
}

/// Creates the node of `pos` if new; returns its key.
fn add_node(g: &mut Graph, s: &mut Searcher, pos: &Position, plies: u32) -> u64 {
    let k = node_key(pos);
    if let Some(n) = g.nodes.get_mut(&k) {
        n.plies = n.plies.min(plies);
        return k;
    }
    let (frontier, value, depth) = s.search(pos, &[]);
    g.nodes.insert(k, Node { sfen: pos.to_sfen(), plies, children: Vec::new(), frontier, terminal: value, depth });
    k
}

/// Plays out the frontier move of node `k` and finds the node's next frontier.
fn expand(g: &mut Graph, s: &mut Searcher, k: u64) -> Result<(), String> {
    let (sfen, plies, f) = match g.nodes.get(&k) {
        Some(n) => (n.sfen.clone(), n.plies, n.frontier),
        None => return Ok(()),
    };
    let Some(f) = f else { return Ok(()) };
    let mut pos = Position::from_sfen(&sfen).map_err(|e| format!("book position {sfen}: {e}"))?;
    pos.do_move(f.mv);
    let child = add_node(g, s, &pos, plies.saturating_add(1));
    pos.undo_move(f.mv);
    let mut done: Vec<Move> = Vec::new();
    if let Some(n) = g.nodes.get_mut(&k) {
        n.children.push((f.mv, child));
        done = n.children.iter().map(|c| c.0).collect();
    }
    let (next, _, _) = s.search(&pos, &done);
    if let Some(n) = g.nodes.get_mut(&k) {
        n.frontier = next;
    }
    Ok(())
}

/// Rebuilds the graph from a book this command wrote before.
fn resume(g: &mut Graph, path: &str) -> Result<usize, String> {
    let f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(format!("{path}: {e}")),
    };
    let mut read: Vec<(String, Vec<BookMove>)> = Vec::new();
    let rep = read_db(std::io::BufReader::new(f), path, &mut |e| match e {
        Entry::Position(k, ply) => read.push((k.to_sfen(ply.unwrap_or(1)), Vec::new())),
        Entry::Move(m) => {
            if let Some(last) = read.last_mut() {
                last.1.push(m)
            }
        }
    })?;
    if let Some(e) = rep.errors.first() {
        return Err(format!("{e} (refusing to resume from a damaged book)"));
    }
    let mut positions = Vec::with_capacity(read.len());
    for (sfen, moves) in read {
        let pos = Position::from_sfen(&sfen).map_err(|e| format!("{path}: position {sfen}: {e}"))?;
        positions.push((node_key(&pos), pos, moves));
    }
    let known: std::collections::HashSet<u64> = positions.iter().map(|p| p.0).collect();
    for (k, mut pos, moves) in positions {
        let mut node = Node { sfen: pos.to_sfen(), plies: u32::MAX, children: Vec::new(), frontier: None, terminal: 0, depth: 0 };
        for m in moves {
            if !movegen::is_legal(&pos, m.mv) {
                continue;
            }
            node.depth = node.depth.max(m.depth);
            pos.do_move(m.mv);
            let ck = node_key(&pos);
            pos.undo_move(m.mv);
            if known.contains(&ck) {
                node.children.push((m.mv, ck));
            } else if node.frontier.is_none_or(|f| m.value > f.value) {
                node.frontier = Some(Frontier { mv: m.mv, value: m.value, depth: m.depth, ponder: m.ponder, child: ck });
            }
        }
        g.nodes.insert(k, node);
    }
    Ok(g.nodes.len())
}

/// After a resume, finds a new frontier move for positions whose written moves
/// were all expanded (the file does not say what the next best move would be).
fn refresh_frontiers(g: &mut Graph, s: &mut Searcher, max_plies: u32) -> Result<(), String> {
    let stale: Vec<u64> = g.nodes.iter().filter(|(_, n)| n.frontier.is_none() && !n.children.is_empty() && n.plies < max_plies).map(|(k, _)| *k).collect();
    for k in stale {
        let Some(n) = g.nodes.get(&k) else { continue };
        let pos = Position::from_sfen(&n.sfen).map_err(|e| format!("book position {}: {e}", n.sfen))?;
        let done: Vec<Move> = n.children.iter().map(|c| c.0).collect();
        let (next, _, _) = s.search(&pos, &done);
        if let Some(n) = g.nodes.get_mut(&k) {
            n.frontier = next;
        }
    }
    Ok(())
}

/// Runs `makebook`; progress goes to stderr.
pub fn run(c: &MakebookConfig) -> Result<(), String> {
    let start = Instant::now();
    let engine = Engine::new(Config { threads: 1, verbose: false, ..Config::default() }, c.hash_mb);
    let mut s = Searcher { engine, nodes: c.nodes, searches: 0 };
    let mut g = Graph { ply_cost: c.ply_cost, ..Graph::default() };
    let resumed = resume(&mut g, &c.out)?;
    if resumed > 0 {
        eprintln!("makebook: resuming from {} ({resumed} positions)", c.out);
    }
    for (i, (label, sfen)) in c.starts.iter().enumerate() {
        let pos = Position::from_sfen(sfen).map_err(|e| format!("start {label}: {e}"))?;
        let k = add_node(&mut g, &mut s, &pos, 0);
        g.roots.push((k, if i == 0 { 0 } else { c.other_start_cost }));
    }
    g.set_plies();
    refresh_frontiers(&mut g, &mut s, c.max_plies)?;
    let comments = vec![
        format!(
            "built by hisha makebook {}: {} nodes per search, {} plies at most, window {}, ply cost {}, {} start position(s)",
            crate::ENGINE_VERSION,
            c.nodes,
            c.max_plies,
            c.window,
            c.ply_cost,
            c.starts.len()
        ),
        "values are backed up by negamax over the book; count 1 means one search".to_string(),
    ];
    let (mut last_save, mut last_report) = (Instant::now(), Instant::now());
    let mut expansions = 0u64;
    while g.nodes.len() < c.max_positions && c.time_limit.is_none_or(|t| start.elapsed() < t) {
        let Some(k) = g.next_expansion(c.window, c.max_plies) else {
            eprintln!("makebook: nothing left to expand within the window and ply limit");
            break;
        };
        expand(&mut g, &mut s, k)?;
        expansions += 1;
        if last_report.elapsed() >= Duration::from_secs(2) {
            progress(&g, &s, expansions, start);
            last_report = Instant::now();
        }
        if last_save.elapsed() >= Duration::from_secs(60) {
            write_db(&c.out, &comments, &mut g.export()).map_err(|e| format!("{}: {e}", c.out))?;
            last_save = Instant::now();
        }
    }
    write_db(&c.out, &comments, &mut g.export()).map_err(|e| format!("{}: {e}", c.out))?;
    progress(&g, &s, expansions, start);
    eprintln!("makebook: wrote {}", c.out);
    Ok(())
}

fn progress(g: &Graph, s: &Searcher, expansions: u64, start: Instant) {
    let v = g.values();
    let root = g.roots.first().and_then(|r| v.get(&r.0)).copied().unwrap_or(0);
    eprintln!(
        "makebook: {} positions, {} expansions, {} searches, first start value {root}, {:.0} s",
        g.nodes.len(),
        expansions,
        s.searches,
        start.elapsed().as_secs_f64()
    );
}
