//! KIF text written from a record: header (`手合割` for the even and handicap starts, a
//! board diagram otherwise), one numbered line per move in Japanese notation, and `*`
//! comment lines under each move (where `hisha analyse --kif` puts its analysis).

use super::kif::preset_first_rank;
use super::GameRecord;
use crate::position::Position;
use crate::core::types::{Color, Move, PieceType, Square};
use shogi_kifu_converter::jkf::Preset;

const FILES: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];
const RANKS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];

/// Japanese name of a piece type as KIF writes it.
fn piece_name(pt: PieceType) -> &'static str {
    match pt {
        PieceType::Pawn => "歩",
        PieceType::Lance => "香",
        PieceType::Knight => "桂",
        PieceType::Silver => "銀",
        PieceType::Gold => "金",
        PieceType::Bishop => "角",
        PieceType::Rook => "飛",
        PieceType::King => "玉",
        PieceType::ProPawn => "と",
        // One-character names: cshogi's KIF reader knows no `成銀`-style names.
        PieceType::ProLance => "杏",
        PieceType::ProKnight => "圭",
        PieceType::ProSilver => "全",
        PieceType::Horse => "馬",
        PieceType::Dragon => "龍",
    }
}

/// KIF text of legal move `m` in `pos` (`prev_to`: the previous move's destination,
/// written `同`), e.g. `７六歩(77)`, `同　銀(31)`, `２二角成(88)`, `５五角打`. A move
/// that could promote and does not gets no `不成` (cshogi's KIF reader refuses it;
/// the GUIs read the plain form as not promoting).
pub fn move_text(pos: &Position, m: Move, prev_to: Option<Square>) -> String {
    let to = m.to();
    let mut s = if prev_to == Some(to) {
        "同　".to_string()
    } else {
        format!("{}{}", FILES[to.file() as usize], RANKS[to.rank() as usize])
    };
    if m.is_drop() {
        s.push_str(piece_name(m.drop_piece()));
        s.push('打');
        return s;
    }
    let from = m.from();
    let pt = pos.piece_on(from).kind();
    s.push_str(piece_name(pt));
    if m.is_promotion() {
        s.push('成');
    }
    s.push_str(&format!("({}{})", from.file() + 1, from.rank() + 1));
    s
}

/// A line of moves from `pos` in KIF notation with ▲/△ marks (stops at an illegal move).
pub fn line_text(pos: &Position, usi: &[String]) -> String {
    let mut p = pos.clone();
    let mut prev: Option<Square> = None;
    let mut s = String::new();
    for u in usi {
        let Some(m) = p.parse_usi_move(u) else { break };
        s.push(if p.side_to_move() == Color::Black { '▲' } else { '△' });
        s.push_str(&move_text(&p, m, prev));
        prev = Some(m.to());
        p.do_move(m);
    }
    s
}

fn preset_name(p: Preset) -> &'static str {
    match p {
        Preset::PresetKY => "香落ち",
        Preset::PresetKYR => "右香落ち",
        Preset::PresetKA => "角落ち",
        Preset::PresetHI => "飛車落ち",
        Preset::PresetHIKY => "飛香落ち",
        Preset::Preset2 => "二枚落ち",
        Preset::Preset3 => "三枚落ち",
        Preset::Preset4 => "四枚落ち",
        Preset::Preset5 => "五枚落ち",
        Preset::Preset5L => "左五枚落ち",
        Preset::Preset6 => "六枚落ち",
        Preset::Preset7L => "左七枚落ち",
        Preset::Preset7R => "右七枚落ち",
        Preset::Preset8 => "八枚落ち",
        Preset::Preset10 => "十枚落ち",
        _ => "平手",
    }
}

const PRESETS: [Preset; 15] = [
    Preset::PresetKY,
    Preset::PresetKYR,
    Preset::PresetKA,
    Preset::PresetHI,
    Preset::PresetHIKY,
    Preset::Preset2,
    Preset::Preset3,
    Preset::Preset4,
    Preset::Preset5,
    Preset::Preset5L,
    Preset::Preset6,
    Preset::Preset7L,
    Preset::Preset7R,
    Preset::Preset8,
    Preset::Preset10,
];

/// The `手合割` name of a start position, or `None` when it is no standard start.
pub fn handicap_name(start: &Position) -> Option<&'static str> {
    let board = |s: &str| s.split(' ').next().unwrap_or("").to_string();
    let have = start.to_sfen();
    let (have_board, have_rest) = (board(&have), have.split(' ').skip(1).take(2).collect::<Vec<_>>().join(" "));
    if have_board == board(super::STARTPOS_SFEN) && have_rest == "b -" {
        return Some("平手");
    }
    PRESETS.into_iter().find_map(|p| {
        let (r1, r2) = preset_first_rank(p)?;
        let b = format!("{r1}/{r2}/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL");
        (b == have_board && have_rest == "w -").then(|| preset_name(p))
    })
}

/// A KIF board diagram (`BOD`) of `pos`, for starts that are not standard.
fn board_diagram(pos: &Position) -> String {
    let hand = |c: Color| {
        let h = pos.hand(c);
        let parts: Vec<String> = PieceType::HAND_SFEN_ORDER
            .iter()
            .filter(|&&pt| h.count(pt) > 0)
            .map(|&pt| {
                let n = h.count(pt);
                if n > 1 { format!("{}{}", piece_name(pt), kanji_number(n)) } else { piece_name(pt).to_string() }
            })
            .collect();
        if parts.is_empty() { "なし".to_string() } else { parts.join("　") }
    };
    let mut s = format!("後手の持駒：{}\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n", hand(Color::White));
    for rank in 0..9u8 {
        s.push('|');
        for file in (0..9u8).rev() {
            let p = pos.piece_on(Square::new(file, rank));
            if p.is_none() {
                s.push_str(" ・");
            } else {
                s.push(if p.color() == Color::White { 'v' } else { ' ' });
                let name = match p.kind() {
                    PieceType::ProLance => "杏",
                    PieceType::ProKnight => "圭",
                    PieceType::ProSilver => "全",
                    k => piece_name(k),
                };
                s.push_str(name);
            }
        }
        s.push_str(&format!("|{}\n", RANKS[rank as usize]));
    }
    s.push_str(&format!("+---------------------------+\n先手の持駒：{}\n", hand(Color::Black)));
    if pos.side_to_move() == Color::White {
        s.push_str("後手番\n");
    }
    s
}

fn kanji_number(n: u32) -> String {
    const D: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    match n {
        0..=9 => D[n as usize].to_string(),
        10 => "十".to_string(),
        _ => format!("十{}", D[(n % 10) as usize]),
    }
}

/// KIF text of `game` with `comments[k]` under move `k` (index 0: before the first
/// move; at most `moves + 1` entries are used).
pub fn write(game: &GameRecord, comments: &[Vec<String>]) -> Result<String, String> {
    let mut pos = Position::from_sfen(&game.start_sfen).map_err(|e| e.to_string())?;
    let mut s = String::from("# KIF written by Hisha (hisha analyse)\n");
    let handicap = handicap_name(&pos);
    match handicap {
        Some(name) => s.push_str(&format!("手合割：{name}\n")),
        None => s.push_str(&board_diagram(&pos)),
    }
    let even = handicap == Some("平手") || handicap.is_none();
    let (bk, wk) = if even { ("先手", "後手") } else { ("下手", "上手") };
    s.push_str(&format!("{bk}：{}\n{wk}：{}\n", game.black.as_deref().unwrap_or(""), game.white.as_deref().unwrap_or("")));
    s.push_str("手数----指手---------消費時間--\n");
    let push_comments = |s: &mut String, k: usize| {
        for c in comments.get(k).into_iter().flatten() {
            for line in c.lines() {
                s.push_str(&format!("*{line}\n"));
            }
        }
    };
    push_comments(&mut s, 0);
    let mut prev = None;
    for (i, rm) in game.moves.iter().enumerate() {
        let m = pos.parse_usi_move(&rm.usi).ok_or_else(|| format!("illegal move {} at ply {}", rm.usi, i + 1))?;
        let text = move_text(&pos, m, prev);
        s.push_str(&format!("{:>4} {}   ( 0:00/00:00:00)\n", i + 1, text));
        prev = Some(m.to());
        pos.do_move(m);
        push_comments(&mut s, i + 1);
    }
    if let Some(end) = game.result.as_deref().and_then(kif_ending) {
        s.push_str(&format!("{:>4} {}   ( 0:00/00:00:00)\n", game.moves.len() + 1, end));
        let n = game.moves.len();
        let to_move = pos.side_to_move();
        let name = |c: Color| match (c, even) {
            (Color::Black, true) => "先手",
            (Color::White, true) => "後手",
            (Color::Black, false) => "下手",
            (Color::White, false) => "上手",
        };
        let tail = match end {
            "千日手" | "持将棋" | "中断" => end.to_string(),
            "入玉勝ち" => format!("{}の勝ち", name(to_move)),
            _ => format!("{}の勝ち", name(to_move.flip())),
        };
        s.push_str(&format!("まで{n}手で{tail}\n"));
    }
    Ok(s)
}

/// KIF ending word for a CSA `%` code or a KIF ending already in Japanese.
fn kif_ending(result: &str) -> Option<&'static str> {
    Some(match result {
        "%TORYO" | "投了" => "投了",
        "%CHUDAN" | "中断" => "中断",
        "%SENNICHITE" | "千日手" => "千日手",
        "%TIME_UP" | "切れ負け" => "切れ負け",
        "%JISHOGI" | "持将棋" => "持将棋",
        "%KACHI" | "入玉勝ち" => "入玉勝ち",
        "%TSUMI" | "詰み" => "詰み",
        _ => return None,
    })
}

/// The bytes of KIF `text` for a file named `path`: UTF-8 for `.kifu`, otherwise
/// Shift_JIS (what `.kif` means to the GUIs; characters it lacks become `&#N;`).
pub fn encode_for(path: &str, text: &str) -> Vec<u8> {
    if path.to_ascii_lowercase().ends_with(".kifu") {
        return text.as_bytes().to_vec();
    }
    encoding_rs::SHIFT_JIS.encode(text).0.into_owned()
}
