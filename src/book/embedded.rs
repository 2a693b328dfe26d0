//! The book built into the binary (`BookFile <embedded>`), made by `hisha makebook`
//! from the start position and the handicap starts; see `embedded.db`'s header.

/// The embedded book in YaneuraOu's text format.
pub const TEXT: &str = include_str!("embedded.db");
