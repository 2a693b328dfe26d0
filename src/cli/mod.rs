//! The `hisha` binary's command-line tools, one module per subcommand that does its
//! work in the binary (the others call straight into the library): each parses what
//! clap could not check, runs the tool and prints its result.

pub mod bench;
pub mod makebook;
pub mod mate;
pub mod mate_alt;
pub mod perft;
