//! Which plies of a game `hisha analyse` analyses (`--from`, `--to`, `--skip`) and in
//! which order it searches their positions (`--reverse`).
//!
//! Plies are numbered as the output numbers them: ply `k` is the `k`-th move of the
//! record (1-based), played in position `k - 1` and leading to position `k` (position 0
//! is the start position, position `n` the one after the last move of an `n`-ply
//! game). Analysing ply `k` searches positions `k - 1` (score before, best move) and
//! `k` (score after), so a ply skipped between two analysed ones costs no search: its
//! positions are its neighbours' too.

use std::collections::BTreeSet;
use std::fmt::Write;

/// The plies asked for on the command line, before any game is known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlySelection {
    /// First ply analysed (`--from`, 1-based).
    pub from: Option<usize>,
    /// Last ply analysed (`--to`, 1-based, inclusive).
    pub to: Option<usize>,
    /// Plies left out (`--skip`).
    pub skip: BTreeSet<usize>,
    /// Search the positions from the end of the game to its start (`--reverse`).
    pub reverse: bool,
}

/// What one game's analysis does: the plies reported and the positions searched, in the
/// order they are searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The plies reported, ascending (game order).
    pub plies: Vec<usize>,
    /// The positions searched (0..=n), in search order: ascending, or descending with
    /// `--reverse`.
    pub positions: Vec<usize>,
    /// Whether the positions are searched last to first.
    pub reverse: bool,
    /// Whether every ply of the game is analysed.
    pub whole_game: bool,
}

impl PlySelection {
    /// Checks what needs no game: plies numbered from 1, `--from` not after `--to`, and
    /// `--skip` lists (`5,8,10-12`, each flag may be given several times).
    pub fn new(from: Option<usize>, to: Option<usize>, skip: &[String], reverse: bool) -> Result<PlySelection, String> {
        if from == Some(0) || to == Some(0) {
            return Err("plies are numbered from 1 (--from 1 is the first move)".into());
        }
        if let (Some(f), Some(t)) = (from, to) {
            if f > t {
                return Err(format!("--from {f} is after --to {t}"));
            }
        }
        let mut set = BTreeSet::new();
        for list in skip {
            parse_ply_list(list, &mut set)?;
        }
        Ok(PlySelection { from, to, skip: set, reverse })
    }

    /// Whether no ply is singled out (every ply is analysed, in whichever order).
    pub fn is_whole_game(&self) -> bool {
        self.from.is_none() && self.to.is_none() && self.skip.is_empty()
    }

    /// The plan for a game of `game_plies` moves, or why the selection does not fit it
    /// (a ply beyond its last move, or no ply left).
    pub fn plan(&self, game_plies: usize) -> Result<Plan, String> {
        let beyond = |flag: &str, k: usize| format!("{flag} {k} is beyond the game's last ply ({game_plies})");
        if let Some(f) = self.from.filter(|&f| f > game_plies) {
            return Err(beyond("--from", f));
        }
        if let Some(t) = self.to.filter(|&t| t > game_plies) {
            return Err(beyond("--to", t));
        }
        if let Some(&k) = self.skip.iter().find(|&&k| k > game_plies) {
            return Err(beyond("--skip", k));
        }
        let first = self.from.unwrap_or(1);
        let last = self.to.unwrap_or(game_plies);
        let plies: Vec<usize> = (first..=last).filter(|k| !self.skip.contains(k)).collect();
        let whole_game = plies.len() == game_plies;
        if plies.is_empty() && !self.is_whole_game() {
            return Err("--from, --to and --skip leave no ply to analyse".into());
        }
        let mut positions: Vec<usize> = if whole_game {
            // The start position is searched even in a game without moves (its score).
            (0..=game_plies).collect()
        } else {
            plies.iter().flat_map(|&k| [k - 1, k]).collect::<BTreeSet<_>>().into_iter().collect()
        };
        if self.reverse {
            positions.reverse();
        }
        Ok(Plan { plies, positions, reverse: self.reverse, whole_game })
    }
}

/// Adds the plies of `list` (`5`, `8,10-12`) to `set`.
fn parse_ply_list(list: &str, set: &mut BTreeSet<usize>) -> Result<(), String> {
    let bad = |item: &str| format!("--skip '{list}': '{item}' is not a ply or a range of plies (e.g. --skip 5,8,10-12)");
    for item in list.split(',').map(str::trim) {
        let (a, b) = match item.split_once('-') {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (item, item),
        };
        let a: usize = a.parse().map_err(|_| bad(item))?;
        let b: usize = b.parse().map_err(|_| bad(item))?;
        if a == 0 {
            return Err(format!("--skip '{list}': plies are numbered from 1"));
        }
        if a > b {
            return Err(format!("--skip '{list}': the range {item} runs backwards"));
        }
        if b - a > 100_000 {
            return Err(format!("--skip '{list}': the range {item} is longer than any game"));
        }
        set.extend(a..=b);
    }
    Ok(())
}

/// The plies as ranges: `1-3, 5, 7-9`.
pub fn ranges_text(plies: &[usize]) -> String {
    let mut s = String::new();
    let mut i = 0;
    while i < plies.len() {
        let mut j = i;
        while j + 1 < plies.len() && plies[j + 1] == plies[j] + 1 {
            j += 1;
        }
        if !s.is_empty() {
            s.push_str(", ");
        }
        let _ = if i == j { write!(s, "{}", plies[i]) } else { write!(s, "{}-{}", plies[i], plies[j]) };
        i = j + 1;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sel(from: Option<usize>, to: Option<usize>, skip: &[&str], reverse: bool) -> Result<PlySelection, String> {
        let skip: Vec<String> = skip.iter().map(|s| s.to_string()).collect();
        PlySelection::new(from, to, &skip, reverse)
    }

    #[test]
    fn the_whole_game_searches_every_position_in_order() {
        let p = PlySelection::default().plan(4).unwrap();
        assert_eq!(p.plies, [1, 2, 3, 4]);
        assert_eq!(p.positions, [0, 1, 2, 3, 4]);
        assert!(p.whole_game && !p.reverse);
        let p = PlySelection::default().plan(0).unwrap();
        assert!(p.plies.is_empty());
        assert_eq!(p.positions, [0], "a game without moves still scores its start");
    }

    #[test]
    fn a_range_searches_the_positions_around_its_plies() {
        let p = sel(Some(3), Some(5), &[], false).unwrap().plan(10).unwrap();
        assert_eq!(p.plies, [3, 4, 5]);
        assert_eq!(p.positions, [2, 3, 4, 5]);
        assert!(!p.whole_game);
        let p = sel(Some(9), None, &[], false).unwrap().plan(10).unwrap();
        assert_eq!(p.plies, [9, 10]);
        assert_eq!(p.positions, [8, 9, 10]);
        let p = sel(None, Some(1), &[], false).unwrap().plan(10).unwrap();
        assert_eq!(p.positions, [0, 1]);
    }

    #[test]
    fn skipped_plies_are_left_out() {
        let p = sel(None, None, &["2,4", "7-8"], false).unwrap().plan(8).unwrap();
        assert_eq!(p.plies, [1, 3, 5, 6]);
        assert_eq!(p.positions, [0, 1, 2, 3, 4, 5, 6]);
        let p = sel(Some(2), Some(6), &["3 - 5"], false).unwrap().plan(8).unwrap();
        assert_eq!(p.plies, [2, 6]);
        assert_eq!(p.positions, [1, 2, 5, 6]);
    }

    #[test]
    fn reverse_searches_last_to_first_and_reports_in_game_order() {
        let p = sel(None, None, &[], true).unwrap().plan(3).unwrap();
        assert_eq!(p.plies, [1, 2, 3]);
        assert_eq!(p.positions, [3, 2, 1, 0]);
        let p = sel(Some(2), Some(3), &["5"], true).unwrap().plan(6).unwrap();
        assert_eq!(p.plies, [2, 3]);
        assert_eq!(p.positions, [3, 2, 1]);
    }

    #[test]
    fn bad_selections_are_refused_with_a_reason() {
        assert!(sel(Some(5), Some(4), &[], false).unwrap_err().contains("--from 5 is after --to 4"));
        assert!(sel(Some(0), None, &[], false).unwrap_err().contains("numbered from 1"));
        assert!(sel(None, Some(0), &[], false).is_err());
        for bad in ["x", "1,,2", "3-", "-3", "5-2", "0", "1.5", "2-x", ""] {
            assert!(sel(None, None, &[bad], false).is_err(), "{bad}");
        }
        let s = sel(Some(11), None, &[], false).unwrap();
        assert_eq!(s.plan(10).unwrap_err(), "--from 11 is beyond the game's last ply (10)");
        assert!(sel(None, Some(11), &[], false).unwrap().plan(10).unwrap_err().contains("--to 11"));
        assert!(sel(None, None, &["12"], false).unwrap().plan(10).unwrap_err().contains("--skip 12"));
        assert!(sel(Some(2), Some(3), &["2-3"], false).unwrap().plan(10).unwrap_err().contains("no ply"));
        assert!(sel(Some(1), None, &[], false).unwrap().plan(0).is_err(), "a game without moves has no ply 1");
    }

    #[test]
    fn plies_print_as_ranges() {
        assert_eq!(ranges_text(&[1, 2, 3, 5, 7, 8]), "1-3, 5, 7-8");
        assert_eq!(ranges_text(&[4]), "4");
        assert_eq!(ranges_text(&[]), "");
    }
}
