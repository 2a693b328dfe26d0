//! Hisha: a USI shogi engine.
//!
//! Modules, bottom up: `types` (colours, squares, pieces, hands, moves), `bitboard`,
//! `attacks` (tables), `zobrist`, `position` (board state, SFEN, do/undo), `movegen`
//! (legal move generation and perft), `mate` (df-pn tsume solver), `eval` (hand-made static evaluation), `nnue` (network evaluation), `tt` (shared
//! transposition table), `time` (time allocation), `search` (alpha-beta search),
//! `usi` (the protocol loop).

pub mod attacks;
pub mod bitboard;
pub mod eval;
pub mod mate;
pub mod movegen;
pub mod nnue;
pub mod position;
pub mod search;
pub mod time;
pub mod tt;
pub mod types;
pub mod usi;
pub mod zobrist;

/// Engine name reported to GUIs.
pub const ENGINE_NAME: &str = "Hisha";
/// Engine author reported to GUIs.
pub const ENGINE_AUTHOR: &str = "the Hisha developers";
/// Engine version (from Cargo).
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Builds every lazily initialised table (attacks, Zobrist keys).
pub fn init() {
    attacks::init();
    zobrist::init();
}
