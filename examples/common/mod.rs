//! Reading the `gensfen` data files (`SFEN<TAB>score<TAB>result` lines), shared by the
//! tools in `examples/`.

// Each example compiles this module on its own and uses only part of it.
#![allow(dead_code)]

use std::io::BufRead;

/// Every line of `files`, with the index of the file it came from. A file that cannot
/// be opened ends the program with an error message (exit code 2).
pub fn data_lines(files: &[String]) -> impl Iterator<Item = (usize, String)> + '_ {
    files.iter().enumerate().flat_map(|(i, f)| {
        let file = match std::fs::File::open(f) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("error: cannot open {f}: {e}");
                std::process::exit(2);
            }
        };
        std::io::BufReader::new(file).lines().map_while(Result::ok).map(move |l| (i, l))
    })
}

/// The position of a data line without its move number: the key for dropping the same
/// position met in different games.
pub fn position_key(line: &str) -> &str {
    let sfen = line.split('\t').next().unwrap_or("");
    sfen.rsplit_once(' ').map(|(board, _)| board).unwrap_or(sfen)
}
