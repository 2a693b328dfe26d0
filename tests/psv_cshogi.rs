//! PackedSfen and move16 against cshogi: tests/data/psv_cshogi_vectors.txt holds 650
//! positions with a legal move, the bytes cshogi 1.1.0's `Board.to_psfen` wrote for the
//! position and the code its `move16_to_psv` gave the move (made by
//! scripts/make_psv_vectors.py from random games of every start position, handicaps
//! included, and a few edge cases). Hisha must write the same bytes and codes and read
//! them back to the same position and move.

use hisha::position::Position;
use hisha::psv::move16::{from_move16, to_move16};
use hisha::psv::{pack, unpack, PackedSfenValue};

fn vectors() -> Vec<(String, String, [u8; 32], u16)> {
    let text = include_str!("data/psv_cshogi_vectors.txt");
    text.lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "{l}");
            let mut packed = [0u8; 32];
            for (i, b) in packed.iter_mut().enumerate() {
                *b = u8::from_str_radix(&f[2][2 * i..2 * i + 2], 16).unwrap();
            }
            (f[0].to_string(), f[1].to_string(), packed, u16::from_str_radix(f[3], 16).unwrap())
        })
        .collect()
}

#[test]
fn hisha_packs_as_cshogi_does() {
    hisha::init();
    let v = vectors();
    assert!(v.len() >= 600);
    for (sfen, usi, packed, code) in &v {
        let pos = Position::from_sfen(sfen).unwrap();
        assert_eq!(&pack(&pos).unwrap(), packed, "{sfen}");
        let m = pos.parse_usi_move(usi).unwrap();
        assert_eq!(to_move16(m), *code, "{sfen} {usi}");
    }
}

#[test]
fn hisha_reads_what_cshogi_packed() {
    hisha::init();
    for (sfen, usi, packed, code) in vectors() {
        let pos = Position::from_sfen(&sfen).unwrap();
        let back = unpack(&packed).unwrap().to_position(pos.game_ply()).unwrap();
        assert_eq!(back.to_sfen(), pos.to_sfen());
        let rec = PackedSfenValue { sfen: packed, score: -123, move16: code, game_ply: pos.game_ply() as u16, game_result: 1, padding: 0 };
        let (p, m) = rec.decode().unwrap();
        assert_eq!(p.to_sfen(), pos.to_sfen());
        assert_eq!(m.map(|m| m.to_string()), Some(usi.clone()));
        assert_eq!(from_move16(code).map(|m| m.to_string()), Some(usi));
    }
}
