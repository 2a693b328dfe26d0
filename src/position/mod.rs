//! The position: board, hands, side to move, SFEN in and out, do/undo with an
//! incrementally updated Zobrist key, and the attack queries search and movegen need.
//! `sfen` holds SFEN parsing and printing, `rules` the rules that need the board. Uses `core` only.

use crate::core::attacks::*;
use crate::core::bitboard::Bitboard;
use crate::core::types::{Color, Hand, Move, Piece, PieceType, Square};
use crate::core::zobrist;
use std::fmt;

mod class_keys;
pub mod rules;
pub mod see;
mod sfen;

pub use class_keys::ClassKeys;
pub use sfen::{write_sfen, SfenError};

/// SFEN of the even-game start position.
pub const START_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// What changes with every move and must be restored on undo.
#[derive(Clone, Copy, Debug)]
pub struct StateInfo {
    /// Full key: board, both hands and side to move.
    pub key: u64,
    /// Key of the board and side to move only (for superior/inferior detection).
    pub board_key: u64,
    /// Keys of the pawns, the minor pieces and each side's other pieces with its hand.
    pub class_keys: ClassKeys,
    /// Hand of the side to move in this state.
    pub hand: Hand,
    /// Enemy pieces giving check to the side to move.
    pub checkers: Bitboard,
    /// Pieces of the side to move pinned to their own king.
    pub pinned: Bitboard,
    /// Piece captured by the move that led here (NONE if none).
    pub captured: Piece,
    /// The move that led here (NONE at the root).
    pub last_move: Move,
    /// Consecutive checks given by each colour up to this state, counted in its moves.
    pub continuous_check: [u16; 2],
    /// Plies since the last null move (or since the root), bounding repetition scans.
    pub plies_from_null: u16,
}

/// A shogi position with its history of states.
#[derive(Clone)]
pub struct Position {
    board: [Piece; 81],
    by_type: [Bitboard; PieceType::NUM],
    by_color: [Bitboard; 2],
    gold_movers: Bitboard,
    hands: [Hand; 2],
    side: Color,
    king_sq: [Square; 2],
    game_ply: u32,
    states: Vec<StateInfo>,
}

impl Default for Position {
    fn default() -> Self {
        Self::startpos()
    }
}

impl Position {
    /// The even-game start position.
    pub fn startpos() -> Position {
        match Position::from_sfen(START_SFEN) {
            Ok(p) => p,
            Err(e) => unreachable!("start SFEN is valid: {e}"),
        }
    }

    fn empty() -> Position {
        Position {
            board: [Piece::NONE; 81],
            by_type: [Bitboard::EMPTY; PieceType::NUM],
            by_color: [Bitboard::EMPTY; 2],
            gold_movers: Bitboard::EMPTY,
            hands: [Hand::EMPTY; 2],
            side: Color::Black,
            king_sq: [Square::from_index(0); 2],
            game_ply: 1,
            states: Vec::with_capacity(1024),
        }
    }


    fn init_state(&mut self) {
        let mut board_key = 0;
        let mut class_keys = ClassKeys::default();
        for sq in self.occupied() {
            board_key ^= zobrist::piece_key(self.board[sq.index()], sq);
            class_keys.toggle_piece(self.board[sq.index()], sq);
        }
        if self.side == Color::White {
            board_key ^= zobrist::side_key();
        }
        let mut key = board_key;
        for c in Color::ALL {
            for pt in PieceType::HAND {
                key ^= zobrist::hand_key(c, pt, self.hands[c.index()].count(pt));
                class_keys.change_hand(c, pt, 0, self.hands[c.index()].count(pt));
            }
        }
        let mut st = StateInfo {
            key,
            board_key,
            class_keys,
            hand: self.hands[self.side.index()],
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            captured: Piece::NONE,
            last_move: Move::NONE,
            continuous_check: [0; 2],
            plies_from_null: 0,
        };
        if self.has_king(self.side) {
            st.checkers = self.attackers_to(self.king_square(self.side), self.side.flip(), self.occupied());
        }
        st.pinned = self.compute_pinned(self.side);
        if st.checkers.any() {
            st.continuous_check[self.side.flip().index()] = 1;
        }
        self.states.clear();
        self.states.push(st);
    }


    #[inline(always)]
    fn put_piece(&mut self, pc: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        let pt = pc.kind();
        self.board[sq.index()] = pc;
        self.by_type[pt.index()] ^= b;
        self.by_color[pc.color().index()] ^= b;
        if pt.moves_like_gold() {
            self.gold_movers ^= b;
        }
        if pt == PieceType::King {
            self.king_sq[pc.color().index()] = sq;
        }
    }

    #[inline(always)]
    fn remove_piece(&mut self, pc: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        let pt = pc.kind();
        self.board[sq.index()] = Piece::NONE;
        self.by_type[pt.index()] ^= b;
        self.by_color[pc.color().index()] ^= b;
        if pt.moves_like_gold() {
            self.gold_movers ^= b;
        }
    }

    // ----- accessors -----

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `sq` (NONE if empty).
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// The hand of `c`.
    #[inline(always)]
    pub fn hand(&self, c: Color) -> Hand {
        self.hands[c.index()]
    }

    /// All pieces of kind `pt`, both colours.
    #[inline(always)]
    pub fn pieces(&self, pt: PieceType) -> Bitboard {
        self.by_type[pt.index()]
    }

    /// All pieces of kind `pt` owned by `c`.
    #[inline(always)]
    pub fn pieces_of(&self, c: Color, pt: PieceType) -> Bitboard {
        self.by_type[pt.index()] & self.by_color[c.index()]
    }

    /// All pieces of `c`.
    #[inline(always)]
    pub fn color_pieces(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    /// Pieces that move like a gold (gold, tokin, promoted lance/knight/silver).
    #[inline(always)]
    pub fn gold_movers(&self) -> Bitboard {
        self.gold_movers
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Whether `c` has a king on the board (a tsume attacker may have none).
    #[inline(always)]
    pub fn has_king(&self, c: Color) -> bool {
        (self.by_type[PieceType::King.index()] & self.by_color[c.index()]).any()
    }

    /// Square of `c`'s king (meaningless, but a valid square, when `!has_king(c)`).
    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Square {
        self.king_sq[c.index()]
    }

    /// The current state.
    #[inline(always)]
    pub fn state(&self) -> &StateInfo {
        // The stack always holds the root state.
        &self.states[self.states.len() - 1]
    }

    /// The state `back` plies ago (0 = current), if recorded.
    #[inline(always)]
    pub fn state_back(&self, back: usize) -> Option<&StateInfo> {
        self.states.len().checked_sub(back + 1).map(|i| &self.states[i])
    }

    /// Full Zobrist key (board, hands, side to move).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.state().key
    }

    /// Enemy pieces giving check.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.state().checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.state().checkers.any()
    }

    /// Pieces of the side to move pinned to their king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.state().pinned
    }

    /// Move number as given by the SFEN plus moves played since.
    pub fn game_ply(&self) -> u32 {
        self.game_ply
    }

    /// Number of moves made since the position was set up.
    pub fn plies_played(&self) -> usize {
        self.states.len() - 1
    }

    // ----- attacks -----

    /// Pieces of `c` attacking `sq` with a step: every attack but the long moves of
    /// lances, rooks, bishops and their promotions (a horse or dragon steps like a king).
    #[inline(always)]
    fn step_attackers(&self, sq: Square, c: Color) -> Bitboard {
        let them = c.flip();
        let hdk = self.by_type[PieceType::Horse.index()]
            | self.by_type[PieceType::Dragon.index()]
            | self.by_type[PieceType::King.index()];
        let steps = (pawn_attacks(them, sq) & self.by_type[PieceType::Pawn.index()])
            | (knight_attacks(them, sq) & self.by_type[PieceType::Knight.index()])
            | (silver_attacks(them, sq) & self.by_type[PieceType::Silver.index()])
            | (gold_attacks(them, sq) & self.gold_movers)
            | (king_attacks(sq) & hdk);
        steps & self.by_color[c.index()]
    }

    /// Pieces of `c` attacking `sq`, with occupancy `occ` for sliders (a slider's
    /// attack is looked up only when one stands on a line through `sq`).
    #[inline]
    pub fn attackers_to(&self, sq: Square, c: Color, occ: Bitboard) -> Bitboard {
        self.step_attackers(sq, c) | self.slider_attacks_to(sq, c, occ)
    }

    /// Whether any piece of `c` attacks `sq` given occupancy `occ`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, c: Color, occ: Bitboard) -> bool {
        self.step_attackers(sq, c).any() || self.slider_attacks_to(sq, c, occ).any()
    }

    /// Sliding pieces of `c` (lance, rook, bishop and promoted) attacking `sq`.
    #[inline]
    pub fn slider_attacks_to(&self, sq: Square, c: Color, occ: Bitboard) -> Bitboard {
        let own = self.by_color[c.index()];
        let rooks = (self.by_type[PieceType::Rook.index()] | self.by_type[PieceType::Dragon.index()]) & own;
        let bishops = (self.by_type[PieceType::Bishop.index()] | self.by_type[PieceType::Horse.index()]) & own;
        let lances = self.by_type[PieceType::Lance.index()] & own;
        let mut a = Bitboard::EMPTY;
        if (lances & lance_ray(c.flip(), sq)).any() {
            a |= lance_attacks(c.flip(), sq, occ) & lances;
        }
        if (rooks & rook_pseudo_attacks(sq)).any() {
            a |= rook_attacks(sq, occ) & rooks;
        }
        if (bishops & bishop_pseudo_attacks(sq)).any() {
            a |= bishop_attacks(sq, occ) & bishops;
        }
        a
    }

    /// Pieces (of either colour) that alone stand between `c`'s king and an enemy slider.
    /// Returns `(blockers, pinners)`.
    pub fn slider_blockers(&self, c: Color, ksq: Square) -> (Bitboard, Bitboard) {
        let them = c.flip();
        let enemy = self.by_color[them.index()];
        let snipers = ((self.by_type[PieceType::Lance.index()] & lance_ray(c, ksq))
            | ((self.by_type[PieceType::Rook.index()] | self.by_type[PieceType::Dragon.index()])
                & rook_pseudo_attacks(ksq))
            | ((self.by_type[PieceType::Bishop.index()] | self.by_type[PieceType::Horse.index()])
                & bishop_pseudo_attacks(ksq)))
            & enemy;
        let occ = self.occupied();
        let mut blockers = Bitboard::EMPTY;
        let mut pinners = Bitboard::EMPTY;
        for s in snipers {
            let b = between(ksq, s) & occ;
            if b.any() && !b.more_than_one() {
                blockers |= b;
                pinners |= Bitboard::from_square(s);
            }
        }
        (blockers, pinners)
    }

    /// The pieces checking the king on `ksq` right after the side that is no longer to
    /// move played `m`: the moved piece itself, and sliders behind the square it left
    /// (a discovered check needs that square in line with the king). The same set as
    /// `attackers_to(ksq, ..)`, at a fraction of its cost.
    #[inline]
    fn checkers_after(&self, m: Move, ksq: Square) -> Bitboard {
        let us = self.side.flip();
        let (to, occ) = (m.to(), self.occupied());
        let direct = piece_attacks(us, self.board[to.index()].kind(), to, occ).has(ksq);
        let mut checkers = if direct { Bitboard::from_square(to) } else { Bitboard::EMPTY };
        if !m.is_drop() && line_through(m.from(), ksq).any() {
            checkers |= self.slider_attacks_to(ksq, us, occ);
        }
        checkers
    }

    fn compute_pinned(&self, c: Color) -> Bitboard {
        if !self.has_king(c) {
            return Bitboard::EMPTY;
        }
        self.slider_blockers(c, self.king_sq[c.index()]).0 & self.by_color[c.index()]
    }

    // ----- making moves -----

    /// Plays a legal move `m`.
    pub fn do_move(&mut self, m: Move) {
        let us = self.side;
        let them = us.flip();
        let prev = *self.state();
        let mut key = prev.key ^ zobrist::side_key();
        let mut board_key = prev.board_key ^ zobrist::side_key();
        let mut class_keys = prev.class_keys;
        let to = m.to();
        let mut captured = Piece::NONE;
        if m.is_drop() {
            let pt = m.drop_piece();
            let hand = &mut self.hands[us.index()];
            let n = hand.count(pt);
            key ^= zobrist::hand_key(us, pt, n) ^ zobrist::hand_key(us, pt, n - 1);
            class_keys.change_hand(us, pt, n, n - 1);
            hand.remove(pt);
            let pc = Piece::new(us, pt);
            self.put_piece(pc, to);
            key ^= zobrist::piece_key(pc, to);
            board_key ^= zobrist::piece_key(pc, to);
            class_keys.toggle_piece(pc, to);
        } else {
            let from = m.from();
            let pc = self.board[from.index()];
            captured = self.board[to.index()];
            if captured.is_some() {
                self.remove_piece(captured, to);
                let hpt = captured.kind().unpromote();
                let hand = &mut self.hands[us.index()];
                let n = hand.count(hpt);
                key ^= zobrist::hand_key(us, hpt, n) ^ zobrist::hand_key(us, hpt, n + 1);
                class_keys.change_hand(us, hpt, n, n + 1);
                hand.add(hpt);
                let k = zobrist::piece_key(captured, to);
                key ^= k;
                board_key ^= k;
                class_keys.toggle_piece(captured, to);
            }
            self.remove_piece(pc, from);
            let moved = if m.is_promotion() { Piece::new(us, pc.kind().promote()) } else { pc };
            self.put_piece(moved, to);
            let k = zobrist::piece_key(pc, from) ^ zobrist::piece_key(moved, to);
            key ^= k;
            board_key ^= k;
            class_keys.toggle_piece(pc, from);
            class_keys.toggle_piece(moved, to);
        }
        self.side = them;
        self.game_ply += 1;
        let checkers = if self.has_king(them) { self.checkers_after(m, self.king_sq[them.index()]) } else { Bitboard::EMPTY };
        let mut cc = prev.continuous_check;
        cc[us.index()] = if checkers.any() { cc[us.index()] + 1 } else { 0 };
        let st = StateInfo {
            key,
            board_key,
            class_keys,
            hand: self.hands[them.index()],
            checkers,
            pinned: self.compute_pinned(them),
            captured,
            last_move: m,
            continuous_check: cc,
            plies_from_null: prev.plies_from_null.saturating_add(1),
        };
        self.states.push(st);
    }

    /// Takes back `m`, which must be the last move played.
    pub fn undo_move(&mut self, m: Move) {
        let st = match self.states.pop() {
            Some(st) => st,
            None => return,
        };
        self.side = self.side.flip();
        self.game_ply -= 1;
        let us = self.side;
        let to = m.to();
        if m.is_drop() {
            let pt = m.drop_piece();
            let pc = self.board[to.index()];
            self.remove_piece(pc, to);
            self.hands[us.index()].add(pt);
        } else {
            let from = m.from();
            let moved = self.board[to.index()];
            self.remove_piece(moved, to);
            let orig = if m.is_promotion() { Piece::new(us, moved.kind().unpromote()) } else { moved };
            self.put_piece(orig, from);
            if st.captured.is_some() {
                self.put_piece(st.captured, to);
                self.hands[us.index()].remove(st.captured.kind().unpromote());
            }
        }
    }

    /// Passes the turn (for null-move pruning); the side to move must not be in check.
    pub fn do_null_move(&mut self) {
        let prev = *self.state();
        self.side = self.side.flip();
        let st = StateInfo {
            key: prev.key ^ zobrist::side_key(),
            board_key: prev.board_key ^ zobrist::side_key(),
            class_keys: prev.class_keys,
            hand: self.hands[self.side.index()],
            checkers: Bitboard::EMPTY,
            pinned: self.compute_pinned(self.side),
            captured: Piece::NONE,
            last_move: Move::NULL,
            continuous_check: [0; 2],
            plies_from_null: 0,
        };
        self.states.push(st);
    }

    /// Takes back a null move.
    pub fn undo_null_move(&mut self) {
        self.states.pop();
        self.side = self.side.flip();
    }

    /// Forgets the move history (keeps the position); used after long games so
    /// the state stack stays small. Repetition detection then starts afresh.
    pub fn clear_history(&mut self) {
        let st = *self.state();
        self.states.clear();
        self.states.push(StateInfo { plies_from_null: 0, ..st });
    }

    /// Forgets all but the last `plies` states once the history has grown to twice
    /// that (amortised O(1) a move), so that a game of millions of plies costs neither
    /// memory nor time to copy. Repetition scans look back at most
    /// `rules::REPETITION_SCAN` plies, so keeping more than that changes nothing.
    pub fn trim_history(&mut self, plies: usize) {
        let keep = plies.max(1);
        if self.states.len() >= 2 * keep {
            self.states.drain(..self.states.len() - keep);
        }
    }

    /// The piece that moves or is dropped by `m`.
    #[inline(always)]
    pub fn moved_piece(&self, m: Move) -> Piece {
        if m.is_drop() {
            Piece::new(self.side, m.drop_piece())
        } else {
            self.board[m.from().index()]
        }
    }

    /// Whether `m` captures a piece.
    #[inline(always)]
    pub fn is_capture(&self, m: Move) -> bool {
        !m.is_drop() && self.board[m.to().index()].is_some()
    }

    /// Parses a USI move and returns it only if it is legal here.
    pub fn parse_usi_move(&self, s: &str) -> Option<Move> {
        let m = Move::from_usi(s)?;
        if crate::movegen::is_legal(self, m) {
            Some(m)
        } else {
            None
        }
    }

    /// Board diagram with hands and side to move, for the `d` command.
    pub fn pretty(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!("White hand: {:?}\n", self.hands[1]));
        s.push_str("  9  8  7  6  5  4  3  2  1\n");
        for r in 0..9u8 {
            s.push('|');
            for f in (0..9u8).rev() {
                let pc = self.board[Square::new(f, r).index()];
                let t = if pc.is_none() { " .".to_string() } else { format!("{:>2}", pc.sfen()) };
                s.push_str(&t);
                s.push(' ');
            }
            s.push_str(&format!("| {}\n", (b'a' + r) as char));
        }
        s.push_str(&format!("Black hand: {:?}\n", self.hands[0]));
        s.push_str(&format!("Side to move: {}\n", if self.side == Color::Black { "Black (b)" } else { "White (w)" }));
        s.push_str(&format!("SFEN: {}\nKey: {:016x}\n", self.to_sfen(), self.key()));
        s
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.pretty())
    }
}
