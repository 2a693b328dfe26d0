//! Hisha: a USI shogi engine.
//!
//! Folders, bottom up (each may use only the ones above it):
//! - `core`: types (colours, squares, pieces, hands, moves), bitboards, attack tables,
//!   Zobrist keys;
//! - `position`: the board state, SFEN, do/undo and the rules that need the board
//!   (repetition, entering-king declaration, static exchange);
//! - `movegen`: move generation, check detection, legality, perft;
//! - `psv`: YaneuraOu's PackedSfenValue training-data format (records, files);
//! - `eval`: the hand-made evaluation and its weights, and `eval::nnue`, the network;
//! - `mate`: the df-pn tsume solver;
//! - `search`: alpha-beta search, move ordering, histories, time management, the
//!   transposition table;
//! - `engine`: the `Engine` facade (one game's state and searches) used by the USI
//!   loop, `bench` and the tests;
//! - `gensfen`: `hisha gensfen`, self-play training data written as PackedSfenValue;
//! - `book`: opening books in YaneuraOu's text format: reading, choosing a move,
//!   and making books by search (through `engine`) or from game records;
//! - `usi`: the protocol layer, which only parses and prints;
//! - `record`: game records (CSA, KIF, USI lines) read into positions and moves, and
//!   KIF written (uses `position`, `movegen`);
//! - `shard`: `--shard i/n`, the deterministic split of a batch (gensfen, analyse,
//!   mate files);
//! - `analyse`: `hisha analyse`, game analysis through the `Engine` (uses `engine`,
//!   `record`).

pub mod analyse;
pub mod book;
pub mod core;
pub mod engine;
pub mod eval;
pub mod gensfen;
pub mod mate;
pub mod movegen;
pub mod position;
pub mod psv;
pub mod record;
pub mod search;
pub mod shard;
pub mod usi;

/// Engine name reported to GUIs.
pub const ENGINE_NAME: &str = "Hisha";
/// Engine author reported to GUIs.
pub const ENGINE_AUTHOR: &str = "the Hisha developers";
/// Engine version (from Cargo).
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Builds every lazily initialised table (attacks, Zobrist keys).
pub fn init() {
    core::attacks::init();
    core::zobrist::init();
}
