//! Opening books in YaneuraOu's text format: reading (`reader`), the in-memory
//! index (`store`, keyed by `key`), move choice (`select`), USI output (`answer`),
//! the engine-side options and loading (`session`), writing (`writer`), and
//! building books by search (`makebook`, through `graph`) or from game records
//! (`records`). Uses `core`, `position`, `movegen`, and `engine` and `search` (for
//! `makebook` only); the USI layer uses it through `BookSession`.

pub mod answer;
pub mod embedded;
pub mod graph;
pub mod key;
pub mod makebook;
pub mod reader;
pub mod records;
pub mod select;
pub mod session;
pub mod store;
pub mod writer;

pub use select::BookOptions;
pub use session::BookSession;
pub use store::{Book, BookMove};
