//! Depth-first proof-number search (df-pn with the 1+epsilon trick and weak sums
//! against double counting): the node expansion (`mid`), the proof and disproof
//! numbers of a node from its children (`node_numbers`), proof and disproof hands,
//! repetition handling, and the periodic work of a long search (garbage collection
//! of the table, progress reports). Uses `keys`, `table`, `movegen` and `position`.

use super::*;

#[derive(Clone, Copy)]
pub(super) struct Child {
    pub(super) m: Move,
    pub(super) key: u64,
    pub(super) hand: Hand,
    pub(super) r: Res,
    /// Its chain of delayed moves (see `delay`; 0: it never waits).
    pub(super) chain: u8,
}

/// Work buffers kept by a `Solver` between searches (no allocation per search).
#[derive(Default)]
pub(super) struct Buffers {
    /// (board key, attacker hand) of the nodes on the current path, by ply.
    pub(super) path: Vec<(u64, Hand)>,
    /// Counting filter over the path keys (fast "no repetition" answer).
    pub(super) rep_filter: Vec<u16>,
    /// The children of every node on the path, frame after frame.
    pub(super) children: Vec<Child>,
    /// Futility tests given up at their node cap in this search (see `futile`).
    pub(super) gave_up: Vec<u64>,
    /// Limit checks (one per 1,024 nodes) since the table was last looked at for
    /// garbage collection, over all searches.
    pub(super) gc_ticks: u32,
}

/// Limit checks between two looks at the table's fill (about a million nodes).
const GC_TICKS: u32 = 1024;

/// Where a long solve reports how it stands (see `Solver::set_progress`).
pub(super) struct Reporter<'a> {
    pub(super) sink: &'a mut ProgressSink,
    pub(super) started: Instant,
    pub(super) every: Duration,
    pub(super) next: Instant,
    /// Nodes of the solve's earlier searches.
    pub(super) nodes_before: u64,
    /// The solve's root, whose line each report reads from the table (none outside
    /// a `solve`).
    pub(super) line_root: Option<&'a LineRoot>,
}

/// Limits and counters of one search.
pub(super) struct Dfpn<'a> {
    pub(super) tt: &'a mut MateTable,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    pub(super) max_nodes: u64,
    pub(super) nodes: u64,
    pub(super) aborted: bool,
    pub(super) b: Buffers,
    pub(super) scratch: MoveList,
    /// Key salt of this search (see `key_salt`).
    pub(super) salt: u64,
    /// Composers' conventions: futile interpositions are no defence (see `futile`).
    pub(super) conventions: bool,
    /// How far its futility tests look.
    pub(super) futility: Futility,
    /// Futility tests that ran out of nodes (their drops counted as real defences, so
    /// a disproof of this search may miss a conventional mate; see `futile`).
    pub(super) give_ups: u64,
    /// Nodes a futility test may spend, instead of its mode's cap: only in tests that
    /// need every test to run to its end.
    pub(super) futility_cap: Option<u64>,
    /// The progress sink of a long solve, if any.
    pub(super) reporter: Option<Reporter<'a>>,
    /// Proof and disproof numbers of the root after its latest child search.
    root: (u32, u32),
    /// Answer the nodes next to a bounded search's horizon directly (`leaves`); off
    /// only in the tests that compare the two.
    pub(super) leaves: bool,
    /// Delayed expansion of interpositions (see `delay`); off only in the tests that
    /// compare the two.
    pub(super) delay: bool,
}

#[inline]
pub(super) fn filter_index(key: u64) -> usize {
    (key >> 48) as usize
}

/// Appends the attacker's legal checks (or, at an AND node, all legal evasions).
pub(super) fn gen_node_moves(pos: &Position, or_node: bool, list: &mut MoveList, out: &mut Vec<Child>) {
    list.clear();
    if or_node {
        movegen::generate_checks(pos, list);
    } else {
        movegen::generate(pos, GenType::Legal, true, list);
    }
    for &m in list.iter() {
        out.push(Child { m, key: 0, hand: Hand::EMPTY, r: Res::unknown(1, 1), chain: 0 });
    }
}

/// Whether the check on the defender (to move) could be blocked by a drop.
pub(super) fn check_is_blockable(pos: &Position) -> bool {
    let checkers = pos.checkers();
    if checkers.more_than_one() || checkers.is_empty() {
        return false;
    }
    let ksq = pos.king_square(pos.side_to_move());
    between(ksq, checkers.lsb()).any()
}

/// Proof hand at an AND node: when the defender could interpose by a drop, every kind
/// it lacks must stay in the attacker's hand (otherwise the defender would hold one).
pub(super) fn and_proof_hand_adjust(pos: &Position, ph: Hand) -> Hand {
    if !check_is_blockable(pos) {
        return ph;
    }
    let def = pos.side_to_move();
    let dh = pos.hand(def);
    let ah = pos.hand(def.flip());
    let mut h = ph;
    for pt in PieceType::HAND {
        if dh.count(pt) == 0 {
            h.set(pt, ah.count(pt));
        }
    }
    h
}

/// Disproof hand at an OR node: kinds the attacker lacks stay absent (one more would
/// add drops); other counts may grow up to `dh`.
pub(super) fn or_disproof_hand_adjust(pos: &Position, dh: Hand) -> Hand {
    let ah = pos.hand(pos.side_to_move());
    let mut h = dh;
    for pt in PieceType::HAND {
        if ah.count(pt) == 0 {
            h.set(pt, 0);
        }
    }
    hand_max(h, ah)
}

/// Every piece not on the board (attacker's hand + defender's hand).
pub(super) fn all_hand_pieces(pos: &Position) -> Hand {
    hand_sum(pos.hand(Color::Black), pos.hand(Color::White))
}

/// A child's proof or disproof hand seen from the attacker's node before its check
/// `m` (`captured`: the kind `m` takes, if any): a dropped piece was still in hand, a
/// captured one not yet.
#[inline]
pub(super) fn hand_before_check(mut h: Hand, m: Move, captured: Option<PieceType>) -> Hand {
    if m.is_drop() {
        h.add(m.drop_piece());
    } else if let Some(pt) = captured {
        if h.count(pt) > 0 {
            h.remove(pt);
        }
    }
    h
}

/// A disproof's depth one ply above the child that holds to `ddepth`.
#[inline]
pub(super) fn ply_above(ddepth: u16) -> u16 {
    if ddepth == DEPTH_INF {
        DEPTH_INF
    } else {
        ddepth + 1
    }
}

/// A child's disproof hand seen from the defender's node before its refuting evasion
/// `e`, the attacker holding `hand`: when `e` drops a piece the defender must keep
/// one, so the attacker may not hold more of that kind than now.
#[inline]
pub(super) fn hand_before_evasion(mut dh: Hand, e: Move, hand: Hand) -> Hand {
    if e.is_drop() {
        let pt = e.drop_piece();
        dh.set(pt, dh.count(pt).min(hand.count(pt)));
    }
    dh
}

/// The disproof hand of a defender's node in check that is not mated and has no time
/// left to be (the attacker holding `hand`): with a bigger attacker hand the defender
/// might lack its interposing pieces, so only a check that cannot be blocked frees the
/// hand.
#[inline]
pub(super) fn unmated_hand(pos: &Position, hand: Hand) -> Hand {
    if check_is_blockable(pos) {
        hand
    } else {
        all_hand_pieces(pos)
    }
}

/// The weak sum of the open children's numbers (Ueda et al.'s weak proof numbers):
/// the largest plus one for each other open child. A plain sum counts a subtree
/// reached by transposition once per path (shogi's drops make such DAGs everywhere)
/// and so overstates how hard a node is; measured on the classics, see docs/tsume.md.
#[inline]
fn weak_sum(max: u32, open: u32) -> u32 {
    max.saturating_add(open.saturating_sub(1)).min(INF_M1)
}

#[inline]
pub(super) fn eps_threshold(second: u32) -> u32 {
    // 1 + epsilon trick (epsilon = 1/4): give the best child some slack beyond the
    // second best so that the search does not thrash between close siblings.
    if second >= INF_M1 {
        return INF_M1;
    }
    (second + 1).max(second.saturating_add(second / 4)).min(INF_M1)
}

impl<'a> Dfpn<'a> {
    pub(super) fn new(tt: &'a mut MateTable, mut b: Buffers, stop: &'a AtomicBool, deadline: Option<Instant>, max_nodes: u64, conventions: bool) -> Dfpn<'a> {
        if b.rep_filter.len() != 1 << 16 {
            b.rep_filter = vec![0; 1 << 16];
            b.path = Vec::with_capacity(MAX_DEPTH as usize + 2);
            b.children = Vec::with_capacity(1 << 14);
        }
        if conventions {
            // A new search may run under another key salt: old give-ups do not apply.
            b.gave_up.clear();
            b.gave_up.resize(super::futile::GAVE_UP_SLOTS, 0);
        }
        Dfpn {
            tt,
            stop,
            deadline,
            max_nodes,
            nodes: 0,
            aborted: false,
            b,
            scratch: MoveList::new(),
            salt: 0,
            conventions,
            futility: Futility::Capped,
            give_ups: 0,
            futility_cap: None,
            reporter: None,
            root: (1, 1),
            leaves: true,
            delay: true,
        }
    }

    pub(super) fn check_limits(&mut self) {
        if self.nodes >= self.max_nodes || self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
            return;
        }
        if let Some(d) = self.deadline {
            if Instant::now() >= d {
                self.aborted = true;
            }
        }
        self.b.gc_ticks += 1;
        if self.b.gc_ticks >= GC_TICKS {
            self.b.gc_ticks = 0;
            self.tt.collect_garbage();
        }
        self.report();
    }

    /// Calls the progress sink when its interval has passed.
    fn report(&mut self) {
        let Some(r) = &mut self.reporter else { return };
        let now = Instant::now();
        if now < r.next {
            return;
        }
        r.next = now + r.every;
        // Once per report, so the walk's cost (a move generation and a probe per child
        // along at most `MAX_PV_PLIES` plies) does not count against the search.
        let (line, mate_proved) = match r.line_root {
            Some(root) => (super::pv::table_line(self.tt, &root.pos, root.salt, MAX_PV_PLIES), root.proved),
            None => (Vec::new(), false),
        };
        let p = Progress {
            nodes: r.nodes_before + self.nodes,
            seconds: (now - r.started).as_secs_f64(),
            hashfull: self.tt.hashfull(),
            root_pn: self.root.0,
            root_dn: self.root.1,
            line,
            mate_proved,
        };
        (r.sink)(&p);
    }

    /// Searches `pos` (an OR node if `or_node`) with `depth` plies left until it is
    /// resolved or the limits hit. Returns the root value.
    pub(super) fn run(&mut self, pos: &mut Position, depth: u16, or_node: bool) -> Res {
        if !self.b.path.is_empty() {
            // Pushes and pops are balanced, so this only happens after a panic.
            self.b.path.clear();
            self.b.rep_filter.iter_mut().for_each(|v| *v = 0);
        }
        self.b.children.clear();
        let attacker = if or_node { pos.side_to_move() } else { pos.side_to_move().flip() };
        self.salt = mode_salt(key_salt(pos, attacker), self.conventions, self.futility);
        // `mid` puts the root on the path itself.
        self.mid(pos, INF, INF, 0, depth, or_node)
    }

    #[inline]
    fn push_path(&mut self, key: u64, hand: Hand) {
        self.b.path.push((key, hand));
        self.b.rep_filter[filter_index(key)] += 1;
    }

    #[inline]
    fn pop_path(&mut self) {
        if let Some((k, _)) = self.b.path.pop() {
            self.b.rep_filter[filter_index(k)] -= 1;
        }
    }

    /// Ply of an ancestor equal to (key, hand), if any.
    #[inline]
    pub(super) fn find_repetition(&self, key: u64, hand: Hand) -> Option<u16> {
        if self.b.rep_filter[filter_index(key)] == 0 {
            return None;
        }
        self.b.path.iter().rposition(|&(k, h)| k == key && h == hand).map(|i| i as u16)
    }

    /// Ply of the nearest ancestor with the same board and side to move and at least
    /// `hand` in the attacker's hand, if any: a repetition, or an inferior position
    /// (GPS Shogi's and KomoringHeights' rule): the attacker has gone round to the same
    /// board with no more to drop, so a mate from here is a mate of that ancestor
    /// without the detour, and this path is a loss for the attacker like a repetition.
    /// Plain-rule searches only (every solve's first proof among them): under the
    /// conventions it cost tests/mate.rs's pieces-to-spare case its exact answer, so
    /// they, and the futility tests, keep to repetitions (`find_repetition`). On 14
    /// middle-length classics at 20 s each: 164 s -> 147 s, proof nodes 20.9M -> 12.8M.
    #[inline]
    pub(super) fn find_repetition_or_inferior(&self, key: u64, hand: Hand) -> Option<u16> {
        if self.conventions {
            return self.find_repetition(key, hand);
        }
        if self.b.rep_filter[filter_index(key)] == 0 {
            return None;
        }
        self.b.path.iter().rposition(|&(k, h)| k == key && h.is_superset_of(hand)).map(|i| i as u16)
    }

    /// The df-pn multiple-iterative-deepening step.
    pub(super) fn mid(&mut self, pos: &mut Position, th_pn: u32, th_dn: u32, ply: u16, depth: u16, or_node: bool) -> Res {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        } else if self.nodes >= self.max_nodes {
            self.aborted = true;
        }
        let attacker = if or_node { pos.side_to_move() } else { pos.side_to_move().flip() };
        let key = node_key(pos, self.salt);
        let hand = pos.hand(attacker);
        let start_nodes = self.nodes;

        if or_node && (depth == 0 || ply >= MAX_DEPTH) {
            return Res { pn: INF, dn: 0, len: NO_LEN, ddepth: depth, ph: all_hand_pieces(pos), rep: NO_REP };
        }

        let base = self.b.children.len();
        gen_node_moves(pos, or_node, &mut self.scratch, &mut self.b.children);
        let mut n = self.b.children.len() - base;
        // Conventions: a drop's square is tested for futility only when the drop would
        // refute the node; out of budget that is at once, when every evasion is a drop.
        let conventional_and = self.conventions && !or_node && check_is_blockable(pos);
        let (mut futile_ph, mut futile_len) = (Hand::EMPTY, 0);
        if conventional_and && depth < 2 && self.b.children[base..base + n].iter().all(|c| c.m.is_drop()) {
            (futile_ph, futile_len) = self.remove_futile_drops(pos, (base, &mut n), (ply, depth), |_| true);
        }
        if n == 0 {
            let r = if or_node {
                let dh = or_disproof_hand_adjust(pos, all_hand_pieces(pos));
                self.tt.store_disproof(key, dh, DEPTH_INF, 1);
                Res { pn: INF, dn: 0, len: NO_LEN, ddepth: DEPTH_INF, ph: dh, rep: NO_REP }
            } else {
                // Mated, or (conventions) left with futile interpositions only.
                let ph = and_proof_hand_adjust(pos, futile_ph);
                self.tt.store_proof(key, ph, futile_len, 1);
                Res { pn: 0, dn: INF, len: futile_len, ddepth: 0, ph, rep: NO_REP }
            };
            return r;
        }
        if let Some(res) = self.horizon_leaf(pos, (base, n), hand, depth, or_node) {
            self.b.children.truncate(base);
            self.store(key, hand, &res, 1);
            return res;
        }
        if !or_node && depth < 2 {
            self.b.children.truncate(base);
            // Not mated yet and no time to mate.
            return Res { pn: INF, dn: 0, len: NO_LEN, ddepth: depth, ph: unmated_hand(pos, hand), rep: NO_REP };
        }

        // Initialise the children from the table (and the path, for repetitions).
        // Keys first, each bucket prefetched, so that the probes' cache misses overlap.
        let cdepth = depth - 1;
        for c in &mut self.b.children[base..base + n] {
            c.key = board_key_after(pos, c.m, self.salt);
            c.hand = if or_node { hand_after_attack(pos, hand, c.m) } else { hand };
            self.tt.prefetch(c.key);
        }
        for i in base..base + n {
            let Child { key: ck, hand: chand, .. } = self.b.children[i];
            self.b.children[i].r = match self.find_repetition_or_inferior(ck, chand) {
                Some(p) => Res { pn: INF, dn: 0, len: NO_LEN, ddepth: DEPTH_INF, ph: chand, rep: p },
                // Plain rules only: under the conventions (which drops are futile depends on
                // the whole hand) it cost tests/mate.rs's pieces-to-spare case its 7 plies.
                None => self.tt.probe_with(ck, chand, cdepth, !self.conventions),
            };
        }
        if conventional_and {
            let (h, l) = self.remove_futile_drops(pos, (base, &mut n), (ply, depth), |c| c.r.dn == 0);
            futile_ph = hand_max(futile_ph, h);
            futile_len = futile_len.max(l);
        }

        let delayed = !or_node && self.delay && chain_interpositions(pos, &mut self.b.children[base..base + n]);

        // This node's place on the path: a repetition found below it at this place or
        // deeper lies inside its subtree, one above it does not (see `node_numbers`).
        let here = self.b.path.len() as u16;
        self.push_path(key, hand);
        let mut res;
        loop {
            if n == 0 {
                // Conventions: only futile interpositions were left.
                res = Res { pn: 0, dn: INF, len: futile_len, ddepth: 0, ph: futile_ph, rep: NO_REP };
                break;
            }
            res = self.node_numbers(pos, base, n, or_node, here, hand, delayed);
            if ply == 0 {
                self.root = (res.pn, res.dn);
            }
            if res.pn >= th_pn || res.dn >= th_dn || self.aborted {
                break;
            }
            // Select the most promising child and the runner-up.
            let (best, second) = self.select(base, n, or_node, delayed);
            let c = self.b.children[best];
            let (cth_pn, cth_dn) = if or_node {
                let others = res.dn.saturating_sub(c.r.dn);
                (th_pn.min(eps_threshold(second)), if th_dn >= INF { INF } else { th_dn - others.min(th_dn - 1) })
            } else {
                let others = res.pn.saturating_sub(c.r.pn);
                (if th_pn >= INF { INF } else { th_pn - others.min(th_pn - 1) }, th_dn.min(eps_threshold(second)))
            };
            pos.do_move(c.m);
            let r = self.mid(pos, cth_pn, cth_dn, ply + 1, cdepth, !or_node);
            pos.undo_move(c.m);
            self.b.children[best].r = r;
            if conventional_and && c.m.is_drop() && r.dn == 0 {
                let sq = c.m.to();
                let (h, l) = self.remove_futile_drops(pos, (base, &mut n), (ply, depth), |d| d.m.to() == sq);
                futile_ph = hand_max(futile_ph, h);
                futile_len = futile_len.max(l);
            }
        }
        self.pop_path();
        if conventional_and {
            if res.pn == 0 {
                res.ph = and_proof_hand_adjust(pos, hand_max(res.ph, futile_ph));
                res.len = res.len.max(futile_len);
            } else if res.dn == 0 && res.rep == NO_REP {
                // Which drops are futile depends on the whole hand: no superiority.
                res.ph = hand;
                // Nor, where a drop refutes, on a larger budget: its futility test
                // failed within this node's budget and may succeed within a larger one.
                let refuting = self.b.children[base..base + n].iter().filter(|c| c.r.dn == 0 && c.r.rep == NO_REP);
                let holds = refuting.map(|c| if c.m.is_drop() { ply_above(c.r.ddepth).min(depth) } else { ply_above(c.r.ddepth) }).max();
                res.ddepth = res.ddepth.min(holds.unwrap_or(depth));
            }
        }

        let amount = (self.nodes - start_nodes).min(u32::MAX as u64) as u32;
        if !self.aborted || res.pn == 0 || res.dn == 0 {
            self.store(key, hand, &res, amount);
        }
        self.b.children.truncate(base);
        res
    }

    /// Stores a node's value (`hand`: the attacker's) worth `amount` of search: a proof,
    /// a disproof unless it depends on the path, or the open numbers.
    fn store(&mut self, key: u64, hand: Hand, res: &Res, amount: u32) {
        if res.pn == 0 {
            self.tt.store_proof(key, res.ph, res.len, amount);
        } else if res.dn == 0 {
            if res.rep == NO_REP {
                self.tt.store_disproof(key, res.ph, res.ddepth, amount);
            }
        } else {
            self.tt.store_unknown(key, hand, res.pn, res.dn, amount);
        }
    }

    /// The node's value from its children's; `here`: the node's place on the path. A
    /// disproof that rests on a repetition of (or a position inferior to) the path's
    /// entry at place `rep` holds wherever the node is met when that entry is the node
    /// itself or lies below it, so it becomes path-independent (and is stored) only
    /// from `rep >= here`; a repetition of the node's parent or anything above keeps
    /// it path-dependent.
    #[inline]
    pub(super) fn node_numbers(&self, pos: &Position, base: usize, n: usize, or_node: bool, here: u16, hand: Hand, delayed: bool) -> Res {
        let ch = &self.b.children[base..base + n];
        if or_node {
            let mut pn = INF;
            let mut best_len = NO_LEN;
            let mut best_i = usize::MAX;
            let (mut max_dn, mut open) = (0u32, 0u32);
            for (i, c) in ch.iter().enumerate() {
                pn = pn.min(c.r.pn);
                if c.r.dn > 0 {
                    max_dn = max_dn.max(c.r.dn);
                    open += 1;
                }
                if c.r.pn == 0 && c.r.len < best_len {
                    best_len = c.r.len;
                    best_i = i;
                }
            }
            if best_i != usize::MAX {
                // Proved: proof hand of the child, plus the dropped piece, minus the capture.
                let c = &ch[best_i];
                let ph = hand_min(hand_before_check(c.r.ph, c.m, captured_kind(pos, c.m)), hand);
                return Res { pn: 0, dn: INF, len: best_len.saturating_add(1), ddepth: 0, ph, rep: NO_REP };
            }
            if open == 0 {
                // Disproved: every check fails.
                let mut dh = all_hand_pieces(pos);
                let mut dd = DEPTH_INF;
                let mut rep = NO_REP;
                for c in ch {
                    dh = hand_min(dh, hand_before_check(c.r.ph, c.m, captured_kind(pos, c.m)));
                    dd = dd.min(ply_above(c.r.ddepth));
                    rep = rep.min(c.r.rep);
                }
                if rep != NO_REP && rep >= here {
                    rep = NO_REP;
                }
                let dh = if rep == NO_REP { or_disproof_hand_adjust(pos, dh) } else { hand };
                return Res { pn: INF, dn: 0, len: NO_LEN, ddepth: dd, ph: dh, rep };
            }
            Res::unknown(pn, weak_sum(max_dn, open))
        } else {
            let mut dn = INF;
            let mut dis_i = usize::MAX;
            let (mut max_pn, mut open) = (0u32, 0u32);
            let mut waiting = Waiting::new();
            let mut waiters = 0u32;
            for (i, c) in ch.iter().enumerate() {
                if delayed && waiting.waits(c) {
                    waiters += 1;
                    continue;
                }
                dn = dn.min(c.r.dn);
                if c.r.pn > 0 {
                    max_pn = max_pn.max(c.r.pn);
                    open += 1;
                }
                if c.r.dn == 0 {
                    // Prefer a path-independent disproof, then the deepest one.
                    let better = match ch.get(dis_i) {
                        None => true,
                        Some(d) => {
                            (c.r.rep == NO_REP && d.r.rep != NO_REP)
                                || (c.r.rep == NO_REP) == (d.r.rep == NO_REP) && c.r.ddepth > d.r.ddepth
                        }
                    };
                    if better {
                        dis_i = i;
                    }
                }
            }
            if let Some(c) = ch.get(dis_i) {
                let dd = ply_above(c.r.ddepth);
                let mut rep = c.r.rep;
                if rep != NO_REP && rep >= here {
                    rep = NO_REP;
                }
                let dh = hand_before_evasion(if rep == NO_REP { c.r.ph } else { hand }, c.m, hand);
                return Res { pn: INF, dn: 0, len: NO_LEN, ddepth: dd, ph: dh, rep };
            }
            if open == 0 {
                let mut ph = Hand::EMPTY;
                let mut len = 0u16;
                for c in ch {
                    ph = hand_max(ph, c.r.ph);
                    len = len.max(c.r.len);
                }
                let ph = and_proof_hand_adjust(pos, ph);
                return Res { pn: 0, dn: INF, len: len.saturating_add(1), ddepth: 0, ph, rep: NO_REP };
            }
            Res::unknown(weak_sum(max_pn, open).saturating_add(waiting_penalty(waiters)).min(INF_M1), dn)
        }
    }

    /// Index of the child to search and the runner-up's number (pn at OR, dn at AND).
    #[inline]
    pub(super) fn select(&self, base: usize, n: usize, or_node: bool, delayed: bool) -> (usize, u32) {
        let mut best = base;
        let mut best_v = INF + 1;
        let mut best_o = 0u32;
        let mut second = INF;
        let mut waiting = Waiting::new();
        for i in base..base + n {
            if delayed && waiting.waits(&self.b.children[i]) {
                continue;
            }
            let r = &self.b.children[i].r;
            let (v, o) = if or_node { (r.pn, r.dn) } else { (r.dn, r.pn) };
            // Ties: prefer the child that is harder for the other side to refute.
            if v < best_v || (v == best_v && o > best_o) {
                second = second.min(best_v);
                best = i;
                best_v = v;
                best_o = o;
            } else if v < second {
                second = v;
            }
        }
        (best, second.min(INF))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `node_numbers` of a node (OR if `or_node`) at path place `here` whose children
    /// are all disproved by a repetition of the path's entry at place `rep`.
    fn all_repeating(sfen: &str, or_node: bool, here: u16, rep: u16) -> Res {
        let pos = Position::from_sfen(sfen).expect("sfen");
        let never = AtomicBool::new(false);
        let mut tt = MateTable::new(1);
        let mut s = Dfpn::new(&mut tt, Buffers::default(), &never, None, 1_000, false);
        let hand = pos.hand(if or_node { pos.side_to_move() } else { pos.side_to_move().flip() });
        let mut list = MoveList::new();
        gen_node_moves(&pos, or_node, &mut list, &mut s.b.children);
        let n = s.b.children.len();
        assert!(n > 0, "{sfen}: no moves");
        for c in &mut s.b.children {
            c.r = Res { pn: INF, dn: 0, len: NO_LEN, ddepth: DEPTH_INF, ph: hand, rep };
        }
        s.node_numbers(&pos, 0, n, or_node, here, hand, false)
    }

    #[test]
    fn a_repetition_above_the_node_leaves_its_disproof_path_dependent() {
        crate::init();
        // An attacker's node with checks, and a defender's node in check.
        let or_sfen = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
        let and_sfen = "4k4/4G4/9/9/9/9/9/9/9 w 2r2b3g4s4n4l18p 1";
        for (sfen, or_node) in [(or_sfen, true), (and_sfen, false)] {
            for here in [0u16, 1, 6] {
                for rep in [here.saturating_sub(2), here.saturating_sub(1), here, here + 2] {
                    let r = all_repeating(sfen, or_node, here, rep);
                    assert_eq!(r.dn, 0, "{sfen}: disproved");
                    // Only a repetition of the node itself or of a position below it
                    // holds wherever the node is met: the session-47 false "no mate"
                    // of Ran came from taking one of the parent's as such.
                    assert_eq!(r.rep == NO_REP, rep >= here, "{sfen}: place {here}, repetition at {rep}");
                }
            }
        }
    }
}
