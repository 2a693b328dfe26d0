//! Rules that need the board but no search: the repetition scan (sennichite, perpetual
//! check, superior and inferior repeats), the entering-king declaration (CSA 24- and
//! 27-point rules, their handicap variants, the try rule). Uses `core` and the position.

use super::Position;
use crate::core::bitboard::Bitboard;
use crate::core::attacks::king_attacks;
use crate::core::types::{Color, Move, PieceType, Square};

/// Which entering-king declaration rule applies (YaneuraOu's `EnteringKingRule` values).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum EnteringKingRule {
    /// No declaration.
    None,
    /// CSA 24-point rule (31 points declare a win).
    Csa24,
    /// The 24-point rule for handicap games: the side that gave the handicap (White,
    /// uwate) needs as many points fewer as the handicap removed.
    Csa24H,
    /// CSA 27-point rule (Black 28, White 27).
    Csa27,
    /// The 27-point rule for handicap games (see `Csa24H`).
    Csa27H,
    /// The try rule: a king that can move safely to the square where the enemy king
    /// started (5a for Black, 5i for White) wins by that move.
    Try,
}

/// How the side to move wins by the entering-king rule in force.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Declaration {
    /// Declares the win (`bestmove win`): the point rules are met.
    Win,
    /// Plays this king move onto the try square (the try rule).
    Try(Move),
}

/// Points of all pieces of both sides when none is missing (big pieces 5, every other
/// piece 1, the kings included), as a handicap is measured.
const FULL_SET_POINTS: u32 = 56;

/// Entering-king points of `pieces`: 5 for each rook, bishop, dragon or horse among
/// them, 1 for any other piece.
fn board_points(pos: &Position, pieces: Bitboard) -> u32 {
    let big = pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Dragon) | pos.pieces(PieceType::Bishop) | pos.pieces(PieceType::Horse);
    pieces.count() + 4 * (pieces & big).count()
}

/// Entering-king points of the pieces in `c`'s hand.
fn hand_points(pos: &Position, c: Color) -> u32 {
    let h = pos.hand(c);
    PieceType::HAND.iter().map(|&pt| if pt == PieceType::Rook || pt == PieceType::Bishop { 5 * h.count(pt) } else { h.count(pt) }).sum()
}

/// Points `us` needs to declare under a point rule. The handicap variants lower
/// White's need by the points missing from the full set (as YaneuraOu and AobaZero
/// take White for the handicap giver): two-piece handicap, White needs 27 - 10 = 17.
fn points_needed(pos: &Position, rule: EnteringKingRule, us: Color) -> u32 {
    let base = match rule {
        EnteringKingRule::Csa24 | EnteringKingRule::Csa24H => 31,
        EnteringKingRule::Csa27 | EnteringKingRule::Csa27H if us == Color::Black => 28,
        EnteringKingRule::Csa27 | EnteringKingRule::Csa27H => 27,
        EnteringKingRule::None | EnteringKingRule::Try => return u32::MAX,
    };
    if us == Color::Black || !matches!(rule, EnteringKingRule::Csa24H | EnteringKingRule::Csa27H) {
        return base;
    }
    let total = board_points(pos, pos.occupied()) + hand_points(pos, Color::Black) + hand_points(pos, Color::White);
    base.saturating_sub(FULL_SET_POINTS.saturating_sub(total))
}

/// Whether the side to move may declare a win under a point rule (the CSA entering-king
/// conditions: the king in the enemy camp, not in check, ten other pieces there, and
/// enough points counting the hand).
fn meets_point_rule(pos: &Position, rule: EnteringKingRule) -> bool {
    let us = pos.side_to_move();
    let zone = Bitboard::zone(us);
    if !zone.has(pos.king_square(us)) || pos.in_check() {
        return false;
    }
    let others = (pos.color_pieces(us) & zone).without(pos.king_square(us));
    others.count() >= 10 && board_points(pos, others) + hand_points(pos, us) >= points_needed(pos, rule, us)
}

/// The try rule's winning move, if the side to move's king can step onto the enemy
/// king's start square: empty of its own pieces and not attacked once the king has
/// left its square.
fn try_move(pos: &Position) -> Option<Move> {
    let us = pos.side_to_move();
    let target = if us == Color::Black { Square::new(4, 0) } else { Square::new(4, 8) };
    let king = pos.king_square(us);
    if !king_attacks(king).has(target) || pos.color_pieces(us).has(target) {
        return None;
    }
    let occ = pos.occupied().without(king);
    (!pos.is_attacked(target, us.flip(), occ)).then(|| Move::normal(king, target, false))
}

/// How the side to move wins at once by `rule`, if it does.
pub fn declaration(pos: &Position, rule: EnteringKingRule) -> Option<Declaration> {
    match rule {
        EnteringKingRule::None => None,
        EnteringKingRule::Try => try_move(pos).map(Declaration::Try),
        _ => meets_point_rule(pos, rule).then_some(Declaration::Win),
    }
}

/// Whether the side to move may declare a win (`bestmove win`) under a point rule.
pub fn can_declare_win(pos: &Position, rule: EnteringKingRule) -> bool {
    declaration(pos, rule) == Some(Declaration::Win)
}

/// Outcome of the repetition scan.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Repetition {
    /// No repetition.
    None,
    /// Plain repetition: draw.
    Draw,
    /// The opponent gave perpetual check: win for the side to move.
    Win,
    /// The side to move gave perpetual check: loss.
    Lose,
    /// Same board, side to move holds strictly more in hand.
    Superior,
    /// Same board, side to move holds strictly less in hand.
    Inferior,
}

/// How far back (in plies) `repetition` looks: cycles longer than this are rare, and
/// the cap keeps the scan cheap in long games.
pub const REPETITION_SCAN: usize = 32;

/// Looks for an earlier occurrence of the current board (same side to move), every
/// earlier position counting: the game-level view (self-play games end on the first
/// repeat).
pub fn repetition(pos: &Position) -> Repetition {
    repetition_in_search(pos, usize::MAX, 2)
}

/// The repetition scan as a search `ply` plies below its root sees it. An earlier
/// occurrence strictly inside the tree (fewer than `ply` plies back) ends the node:
/// draw, perpetual-check win or loss, superior or inferior repeat. An occurrence at
/// the root or before it is only history: the game goes on (the rules end it at the
/// fourth occurrence), so the node ends only once the game has seen the position
/// `draw_at` times, this one included.
pub fn repetition_in_search(pos: &Position, ply: usize, draw_at: u32) -> Repetition {
    let st = pos.state();
    let end = (st.plies_from_null as usize).min(REPETITION_SCAN);
    let us = pos.side_to_move();
    let mut seen = 1;
    let mut nearest = 0;
    let mut i = 4;
    while i <= end {
        let Some(s) = pos.state_back(i) else { break };
        if s.board_key == st.board_key {
            if s.hand == st.hand {
                if nearest == 0 {
                    nearest = i;
                }
                seen += 1;
                if i < ply || seen >= draw_at {
                    return if st.continuous_check[us.index()] as usize * 2 >= nearest {
                        Repetition::Lose
                    } else if st.continuous_check[us.flip().index()] as usize * 2 >= nearest {
                        Repetition::Win
                    } else {
                        Repetition::Draw
                    };
                }
            } else if i < ply && nearest == 0 {
                if st.hand.is_superset_of(s.hand) {
                    return Repetition::Superior;
                }
                if s.hand.is_superset_of(st.hand) {
                    return Repetition::Inferior;
                }
            }
        }
        i += 2;
    }
    Repetition::None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declaration_rules() {
        crate::init();
        let p28 = Position::from_sfen("RRBB1GGGG/4KSS2/9/9/9/9/9/9/4k4 b 2P 1").unwrap();
        let p33 = Position::from_sfen("RRBB1GGGG/4KSS2/9/9/9/9/9/9/4k4 b 7P 1").unwrap();
        let p9 = Position::from_sfen("RRBB1GGG1/4KSS2/9/9/9/9/9/9/4k4 b 9P 1").unwrap();
        assert!(can_declare_win(&p28, EnteringKingRule::Csa27));
        assert!(!can_declare_win(&p28, EnteringKingRule::Csa24));
        assert!(can_declare_win(&p33, EnteringKingRule::Csa24));
        assert!(!can_declare_win(&p9, EnteringKingRule::Csa27));
        assert!(!can_declare_win(&p33, EnteringKingRule::None));
    }

    /// Two-piece handicap (White gave rook and bishop): White's king in Black's camp with
    /// ten pieces there; `white_hand_pawns` pawns in White's hand (3 makes 17 points).
    fn handicap_entry(white_hand_pawns: u32) -> Position {
        let black_pawns = 12 - white_hand_pawns;
        let sfen = format!("4K4/9/9/9/9/9/+p+p+p+p+p+p3/1gs1k1sg1/9 w RB2G2S2N2L{black_pawns}P2n2l{white_hand_pawns}p 1");
        Position::from_sfen(&sfen).unwrap()
    }

    #[test]
    fn handicap_point_rules_lower_whites_need_by_the_missing_points() {
        crate::init();
        let exact = handicap_entry(3);
        assert_eq!(points_needed(&exact, EnteringKingRule::Csa27H, Color::White), 17);
        assert_eq!(points_needed(&exact, EnteringKingRule::Csa24H, Color::White), 21);
        assert_eq!(points_needed(&exact, EnteringKingRule::Csa27H, Color::Black), 28);
        assert_eq!(points_needed(&exact, EnteringKingRule::Csa24H, Color::Black), 31);
        assert_eq!(points_needed(&exact, EnteringKingRule::Csa27, Color::White), 27);
        assert_eq!(declaration(&exact, EnteringKingRule::Csa27H), Some(Declaration::Win));
        assert_eq!(declaration(&exact, EnteringKingRule::Csa24H), None);
        assert_eq!(declaration(&exact, EnteringKingRule::Csa27), None, "17 points are not 27");
        let short = handicap_entry(2);
        assert_eq!(declaration(&short, EnteringKingRule::Csa27H), None, "one point short");
        // Even game: the handicap variants are the plain rules.
        let even = Position::startpos();
        for (h, plain) in [(EnteringKingRule::Csa27H, EnteringKingRule::Csa27), (EnteringKingRule::Csa24H, EnteringKingRule::Csa24)] {
            for c in [Color::Black, Color::White] {
                assert_eq!(points_needed(&even, h, c), points_needed(&even, plain, c));
            }
        }
    }

    #[test]
    fn the_try_rule_wins_by_a_safe_king_step_onto_the_enemy_kings_start() {
        crate::init();
        let decl = |sfen: &str| declaration(&Position::from_sfen(sfen).unwrap(), EnteringKingRule::Try);
        let win = decl("9/4K4/9/9/9/9/9/9/k8 b - 1");
        assert_eq!(win, Some(Declaration::Try(Move::normal(Square::new(4, 1), Square::new(4, 0), false))));
        assert_eq!(decl("9/9/4K4/9/9/9/9/9/k8 b - 1"), None, "two steps away");
        assert_eq!(decl("3g5/4K4/9/9/9/9/9/9/k8 b - 1"), None, "a gold guards 5a");
        assert_eq!(decl("4G4/4K4/9/9/9/9/9/9/k8 b - 1"), None, "its own piece stands there");
        assert_eq!(decl("9/4K4/9/9/9/9/9/9/k3r4 b - 1"), None, "the rook sees 5a once the king leaves 5b");
        assert_eq!(decl("9/9/9/9/9/9/9/4k4/K8 w - 1"), Some(Declaration::Try(Move::normal(Square::new(4, 7), Square::new(4, 8), false))));
        assert!(!can_declare_win(&Position::from_sfen("9/4K4/9/9/9/9/9/9/k8 b - 1").unwrap(), EnteringKingRule::Try));
    }

    #[test]
    fn repetition_kinds() {
        crate::init();
        let mut pos = Position::startpos();
        for m in ["5i4h", "5a4b", "4h5i", "4b5a"] {
            let mv = pos.parse_usi_move(m).unwrap();
            pos.do_move(mv);
        }
        assert_eq!(repetition(&pos), Repetition::Draw);
    }

    fn play(sfen_moves: &str) -> Position {
        let mut pos = Position::startpos();
        for m in sfen_moves.split_whitespace() {
            let mv = pos.parse_usi_move(m).unwrap();
            pos.do_move(mv);
        }
        pos
    }

    #[test]
    fn a_repeat_of_a_position_before_the_root_is_not_a_draw() {
        crate::init();
        // The issue-45 game: 7g6h brings back the position after 7f7e.
        let game = "7g7f 8c8d 6g6f 3c3d 6f6e 7a6b 7i6h 5a4b 7f7e 8b8c 6h7g 8c8b";
        let pos = play(&format!("{game} 7g6h"));
        // Inside the tree (the earlier occurrence 4 plies back, the root 5 back): draw.
        assert_eq!(repetition_in_search(&pos, 5, 4), Repetition::Draw);
        // The root was the position before 7g6h: the earlier one is history.
        assert_eq!(repetition_in_search(&pos, 1, 4), Repetition::None);
        assert_eq!(repetition_in_search(&pos, 1, 3), Repetition::None);
        assert_eq!(repetition_in_search(&pos, 4, 4), Repetition::None, "at the root: history");
        // The same cycle twice more: the fourth occurrence ends the game.
        let cycle = "8b8c 6h7g 8c8b 7g6h";
        let third = play(&format!("{game} 7g6h {cycle}"));
        assert_eq!(repetition_in_search(&third, 1, 4), Repetition::None);
        assert_eq!(repetition_in_search(&third, 1, 3), Repetition::Draw);
        let fourth = play(&format!("{game} 7g6h {cycle} {cycle}"));
        assert_eq!(repetition_in_search(&fourth, 1, 4), Repetition::Draw);
    }
}
