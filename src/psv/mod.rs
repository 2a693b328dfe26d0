//! YaneuraOu's PackedSfenValue training-data format (what `hisha gensfen` writes and the
//! trainer reads; cshogi reads it as `PackedSfenValue`): `bits` (the bit stream),
//! `packed_sfen` (positions in 32 bytes), `move16` (YaneuraOu's move codes), `record`
//! (the 40-byte record and Hisha's game markers), `file` (reading files with checks),
//! `dump` (`hisha psv-dump`). Uses `core`, `position` and `movegen`.

pub mod bits;
pub mod dump;
pub mod file;
pub mod move16;
pub mod packed_sfen;
pub mod record;

pub use file::{game_numbers, read_all, PsvError, PsvReader};
pub use packed_sfen::{pack, unpack, PackError, PackedSfen, Unpacked};
pub use record::{PackedSfenValue, GAME_END, RECORD_BYTES};
