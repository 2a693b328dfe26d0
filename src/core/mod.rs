//! The vocabulary everything else is written in: colours, squares, pieces, hands and
//! moves (`types`), bitboards, the attack tables and the Zobrist keys. Uses nothing
//! outside this folder.

pub mod attacks;
pub mod bitboard;
pub mod bounded;
pub mod prefetch;
pub mod types;
pub mod zobrist;
