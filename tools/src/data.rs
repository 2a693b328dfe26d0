//! Reading the `gensfen` data files (`SFEN<TAB>score<TAB>result` lines), shared by
//! every tool.

use std::io::BufRead;

/// Every line of `files`, with the index of the file it came from; an error names
/// the first file that cannot be opened.
pub fn data_lines(files: &[String]) -> Result<impl Iterator<Item = (usize, String)>, String> {
    let mut readers = Vec::with_capacity(files.len());
    for f in files {
        let file = std::fs::File::open(f).map_err(|e| format!("cannot open {f}: {e}"))?;
        readers.push(std::io::BufReader::new(file));
    }
    Ok(readers.into_iter().enumerate().flat_map(|(i, r)| r.lines().map_while(Result::ok).map(move |l| (i, l))))
}

/// The position of a data line without its move number: the key for dropping the same
/// position met in different games.
pub fn position_key(line: &str) -> &str {
    let sfen = line.split('\t').next().unwrap_or("");
    sfen.rsplit_once(' ').map(|(board, _)| board).unwrap_or(sfen)
}

/// A buffered output file.
pub fn create(path: &str) -> Result<std::io::BufWriter<std::fs::File>, String> {
    std::fs::File::create(path).map(std::io::BufWriter::new).map_err(|e| format!("cannot create {path}: {e}"))
}
