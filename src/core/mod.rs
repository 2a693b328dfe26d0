//! The vocabulary everything else is written in: colours, squares, pieces, hands and
//! moves (`types`), bitboards, the attack tables and the Zobrist keys, and two
//! machine helpers (the cache prefetch, huge pages for big tables). Uses nothing
//! outside this folder.

pub mod attacks;
pub mod bitboard;
pub mod bounded;
pub mod large_pages;
pub mod prefetch;
pub mod types;
pub mod zobrist;
