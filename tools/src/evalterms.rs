//! Prints the hand-made evaluation of a position split by weight group (Black's point
//! of view), or, with `-`, of `SFEN<TAB>label` lines read from stdin as a table.
//!
//! Usage: hisha-tools evalterms SFEN... | hisha-tools evalterms - < lines

use hisha::eval::*;
use hisha::position::Position;

const GROUPS: [(&str, usize); 21] = [
    ("board", OFF_BOARD), ("hand", OFF_HAND), ("psq", OFF_PSQ), ("kown", OFF_KOWN), ("kenemy", OFF_KENEMY),
    ("exposure", OFF_EXPOSURE), ("att", OFF_ATT), ("def", OFF_DEF), ("handatt", OFF_HANDATT), ("danger", OFF_DANGER),
    ("mob", OFF_MOB), ("mobbase", OFF_MOB_BASE), ("handfirst", OFF_HAND_FIRST), ("weak", OFF_WEAK), ("safechk", OFF_SAFECHK),
    ("hang", OFF_HANG), ("pawnthreat", OFF_PAWN_THREAT), ("loose", OFF_LOOSE), ("minorthreat", OFF_MINOR_THREAT), ("tempo", OFF_TEMPO),
    ("end", NUM_PARAMS),
];

/// Weights reported one by one in batch mode, after the group sums.
const SINGLE: [(&str, usize, usize); 3] = [("board", OFF_BOARD, 15), ("hand", OFF_HAND, 8), ("mob", OFF_MOB, 15)];

/// Group sums of the evaluation of `pos` (Black's point of view), then the single weights' terms.
fn group_sums(pos: &Position) -> Vec<f32> {
    let w = weights();
    let mut t = Trace { w, terms: Vec::new() };
    all_terms(pos, &mut t);
    let group_count = GROUPS.len() - 1;
    let mut v = vec![0f32; group_count + SINGLE.iter().map(|s| s.2).sum::<usize>()];
    for &(i, c) in &t.terms {
        let term = c * w[i] as f32;
        v[GROUPS.partition_point(|g| g.1 <= i) - 1] += term;
        let mut col = group_count;
        for (_, off, n) in SINGLE {
            if (off..off + n).contains(&i) {
                v[col + i - off] += term;
            }
            col += n;
        }
    }
    v
}

/// Arguments of `evalterms`.
#[derive(clap::Args)]
pub struct Args {
    /// An SFEN (its words may be given separately), or `-` to read lines from stdin.
    #[arg(required = true, allow_hyphen_values = true)]
    sfen: Vec<String>,
}

/// Prints the group sums.
pub fn run(args: Args) -> Result<(), String> {
    let group_count = GROUPS.len() - 1;
    if args.sfen.first().map(String::as_str) != Some("-") {
        // One position from the command line: the group sums, then the engine's own total.
        let pos = Position::from_sfen(&args.sfen.join(" ")).map_err(|e| e.to_string())?;
        let sums = group_sums(&pos);
        for (g, v) in sums[..group_count].iter().enumerate().filter(|(_, v)| **v != 0.0) {
            println!("{:>12} {v:8.0}", GROUPS[g].0);
        }
        let total: f32 = sums[..group_count].iter().sum();
        println!("{:>12} {total:8.0}   evaluate (side to move) {}", "total", evaluate(&pos));
        return Ok(());
    }
    // Batch mode: `SFEN<TAB>label` lines on stdin, `label<TAB>group sums<TAB>single terms` out.
    let mut names: Vec<String> = GROUPS[..group_count].iter().map(|g| g.0.to_string()).collect();
    for (name, _, n) in SINGLE {
        names.extend((0..n).map(|i| format!("{name}{i}")));
    }
    println!("label\t{}", names.join("\t"));
    for line in std::io::stdin().lines().map_while(Result::ok) {
        let (sfen, label) = line.split_once('\t').unwrap_or((line.as_str(), ""));
        match Position::from_sfen(sfen) {
            Ok(pos) => {
                let sums = group_sums(&pos);
                println!("{label}\t{}", sums.iter().map(|v| format!("{v:.0}")).collect::<Vec<_>>().join("\t"));
            }
            Err(e) => eprintln!("skipped {sfen}: {e}"),
        }
    }
    Ok(())
}
