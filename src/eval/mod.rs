//! Static evaluation: the hand-made evaluation (`classical`, re-exported here, with its
//! tuned weight table `weights`) and the network (`nnue`). Uses `core` and `position`.

mod classical;
pub mod nnue;
mod weights;

pub use classical::*;
