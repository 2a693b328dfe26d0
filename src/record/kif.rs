//! KIF records (Kakinoki format, as ShogiGUI, Shogidokoro, ShogiHome and Kifu for
//! Windows export them; UTF-8 or Shift_JIS, decoded by `record::decode`), read with the
//! `shogi-kifu-converter` crate's parser (its JSON Kifu Format result: handicap presets
//! `手合割`, board diagrams, `同`, `成`/`不成`/`打`, special endings). This module turns
//! that into a start SFEN and legal USI moves, and adds what the crate lacks: line
//! numbers, and an error where the crate would stop early at a line it cannot read.

use super::setup::Setup;
use super::{play, GameRecord, RecordError, MAX_MOVES};
use crate::position::Position;
use crate::core::types::{Color, PieceType};
use shogi_kifu_converter::jkf::{self, JsonKifuFormat, Preset};

/// Parses one KIF game.
pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
    let move_lines = main_line_moves(text);
    let jkf = shogi_kifu_converter::parser::parse_kif_str(text).map_err(|e| crate_error(&e.to_string(), text))?;
    let parsed = jkf.moves.len().saturating_sub(1);
    // The crate stops quietly at the first line it cannot read: name that line.
    if let Some(&(no, _)) = move_lines.get(parsed) {
        let line = text.lines().nth(no - 1).unwrap_or("").trim();
        return Err(RecordError::at(no, format!("cannot read move '{line}'")));
    }
    // The crate reads any text as an even game without moves: ask for some sign of KIF.
    if parsed == 0 && jkf.header.is_empty() && !text.contains("手数") && !text.contains("手合割") && !text.contains('|') {
        return Err(RecordError::at(1, "no KIF header or moves found"));
    }
    if parsed > MAX_MOVES {
        return Err(RecordError::at(0, format!("more than {MAX_MOVES} moves")));
    }
    let start_sfen = start_sfen(&jkf)?;
    let mut pos = Position::from_sfen(&start_sfen).map_err(|e| RecordError::at(0, format!("bad start position: {e}")))?;
    let mut game = GameRecord { start_sfen, moves: Vec::new(), black: None, white: None, result: None };
    for (i, mf) in jkf.moves.iter().enumerate().skip(1) {
        let no = move_lines.get(i - 1).map_or(0, |l| l.0);
        if let Some(special) = mf.special {
            game.result = Some(special_name(special).to_string());
            break;
        }
        let Some(m) = &mf.move_ else { continue };
        let piece = piece_type(m.piece);
        let to = square_usi(m.to.x, m.to.y, no)?;
        let usi = match m.from {
            None => format!("{}*{}", piece.letter(), to),
            Some(f) => format!("{}{}{}", square_usi(f.x, f.y, no)?, to, if m.promote == Some(true) { "+" } else { "" }),
        };
        game.moves.push(play(&mut pos, &usi, no)?);
    }
    let header = |keys: &[&str]| keys.iter().find_map(|k| jkf.header.get(*k).cloned());
    game.black = header(&["先手", "下手"]);
    game.white = header(&["後手", "上手"]);
    Ok(game)
}

/// `(line, move number)` of each numbered move line of the main line (variations,
/// which start at a `変化` line, are left out).
fn main_line_moves(text: &str) -> Vec<(usize, u32)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("変化") {
            break;
        }
        let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
        let rest = &t[digits.len()..];
        if !digits.is_empty() && rest.starts_with([' ', '\u{3000}', '\t']) {
            if let Ok(n) = digits.parse::<u32>() {
                out.push((i + 1, n));
            }
        }
    }
    out
}

/// A crate error with the line number it names, when it names one.
fn crate_error(msg: &str, text: &str) -> RecordError {
    let line = msg.split("at line ").nth(1).and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next()).and_then(|n| n.parse().ok());
    let first = msg.lines().next().unwrap_or(msg).trim();
    let _ = text;
    RecordError::at(line.unwrap_or(0), format!("KIF: {first}"))
}

fn square_usi(x: u8, y: u8, no: usize) -> Result<String, RecordError> {
    if !(1..=9).contains(&x) || !(1..=9).contains(&y) {
        return Err(RecordError::at(no, format!("bad square {x}{y}")));
    }
    Ok(format!("{}{}", x, (b'a' + y - 1) as char))
}

fn piece_type(k: jkf::Kind) -> PieceType {
    use jkf::Kind::*;
    match k {
        FU => PieceType::Pawn,
        KY => PieceType::Lance,
        KE => PieceType::Knight,
        GI => PieceType::Silver,
        KI => PieceType::Gold,
        KA => PieceType::Bishop,
        HI => PieceType::Rook,
        OU => PieceType::King,
        TO => PieceType::ProPawn,
        NY => PieceType::ProLance,
        NK => PieceType::ProKnight,
        NG => PieceType::ProSilver,
        UM => PieceType::Horse,
        RY => PieceType::Dragon,
    }
}

fn special_name(s: jkf::MoveSpecial) -> &'static str {
    use jkf::MoveSpecial::*;
    match s {
        SpecialToryo => "投了",
        SpecialChudan => "中断",
        SpecialSennichite => "千日手",
        SpecialTimeUp => "切れ負け",
        SpecialIllegalMove => "反則負け",
        SpecialIllegalActionBlack => "反則負け",
        SpecialIllegalActionWhite => "反則勝ち",
        SpecialJishogi => "持将棋",
        SpecialKachi => "入玉勝ち",
        SpecialHikiwake => "引き分け",
        SpecialMatta => "待った",
        SpecialTsumi => "詰み",
        SpecialFuzumi => "不詰",
        SpecialError => "エラー",
    }
}

/// First rank of the handicap presets (White, the stronger player, gives the pieces
/// and moves first); the other ranks are as in the even game.
pub fn preset_first_rank(p: Preset) -> Option<(&'static str, &'static str)> {
    let (rank1, rank2) = match p {
        Preset::PresetHirate => return None,
        Preset::PresetKY => ("lnsgkgsn1", "1r5b1"),
        Preset::PresetKYR => ("1nsgkgsnl", "1r5b1"),
        Preset::PresetKA => ("lnsgkgsnl", "1r7"),
        Preset::PresetHI => ("lnsgkgsnl", "7b1"),
        Preset::PresetHIKY => ("lnsgkgsn1", "7b1"),
        Preset::Preset2 => ("lnsgkgsnl", "9"),
        Preset::Preset3 => ("lnsgkgsn1", "9"),
        Preset::Preset4 => ("1nsgkgsn1", "9"),
        Preset::Preset5 => ("1nsgkgs2", "9"),
        Preset::Preset5L => ("2sgkgsn1", "9"),
        Preset::Preset6 => ("2sgkgs2", "9"),
        Preset::Preset7L => ("2sgkg3", "9"),
        Preset::Preset7R => ("3gkgs2", "9"),
        Preset::Preset8 => ("3gkg3", "9"),
        Preset::Preset10 => ("4k4", "9"),
        Preset::PresetOther => return None,
    };
    Some((rank1, rank2))
}

fn start_sfen(jkf: &JsonKifuFormat) -> Result<String, RecordError> {
    let Some(initial) = &jkf.initial else { return Ok(super::STARTPOS_SFEN.to_string()) };
    if let Some(data) = &initial.data {
        return Ok(setup_from(data).to_sfen());
    }
    match preset_first_rank(initial.preset) {
        Some((r1, r2)) => Ok(format!("{r1}/{r2}/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")),
        None if initial.preset == Preset::PresetHirate => Ok(super::STARTPOS_SFEN.to_string()),
        None => Err(RecordError::at(0, "start position 'other' without a board")),
    }
}

fn setup_from(data: &jkf::StateFormat) -> Setup {
    let mut s = Setup::empty();
    for (x, col) in data.board.iter().enumerate() {
        for (y, p) in col.iter().enumerate() {
            if let (Some(c), Some(k)) = (p.color, p.kind) {
                s.cells[x][y] = Some((color(c), piece_type(k)));
            }
        }
    }
    for (i, h) in data.hands.iter().enumerate() {
        let counts = [(PieceType::Pawn, h.FU), (PieceType::Lance, h.KY), (PieceType::Knight, h.KE), (PieceType::Silver, h.GI), (PieceType::Gold, h.KI), (PieceType::Bishop, h.KA), (PieceType::Rook, h.HI)];
        for (pt, n) in counts {
            s.hands[i.min(1)][pt.index()] = n as u32;
        }
    }
    s.side = color(data.color);
    s
}

fn color(c: jkf::Color) -> Color {
    match c {
        jkf::Color::Black => Color::Black,
        jkf::Color::White => Color::White,
    }
}
