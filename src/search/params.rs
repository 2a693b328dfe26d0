//! The search's tunable constants in one table: pruning margins, reductions, the
//! aspiration window. Each is read through a function of its name (`params::rfp_margin()`).
//! In a normal build the function returns the constant and compiles away. Built with
//! `--features tune`, each constant is also a USI spin option `Tune_<name>` (default and
//! range from this table) read from an atomic, so that SPSA (shogiarena's tuner) can set
//! it between games; tuned values are then committed here as the new defaults.
//! Uses nothing else in the crate.

/// One tunable constant: its name, default and the range a tuner may explore.
pub struct Param {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
}

/// Defines the table, one function per constant and, in a tuning build, the atomics
/// behind the functions and `set`.
macro_rules! search_params {
    ($( $(#[doc = $doc:expr])* $name:ident = $default:literal, [$min:literal, $max:literal]; )*) => {
        /// Every tunable constant with its range, in declaration order.
        pub const PARAMS: &[Param] = &[ $( Param { name: stringify!($name), default: $default, min: $min, max: $max }, )* ];

        $(
            $(#[doc = $doc])*
            #[cfg(not(feature = "tune"))]
            #[inline(always)]
            pub fn $name() -> i32 {
                $default
            }

            $(#[doc = $doc])*
            #[cfg(feature = "tune")]
            #[inline(always)]
            pub fn $name() -> i32 {
                tuned::$name.load(std::sync::atomic::Ordering::Relaxed)
            }
        )*

        /// The current values of a tuning build.
        #[cfg(feature = "tune")]
        #[allow(non_upper_case_globals)]
        mod tuned {
            use std::sync::atomic::AtomicI32;
            $( pub static $name: AtomicI32 = AtomicI32::new($default); )*
        }

        /// Sets constant `name` (case-insensitive, already range-checked by the caller);
        /// false when no constant has that name.
        #[cfg(feature = "tune")]
        pub fn set(name: &str, value: i32) -> bool {
            $(
                if name.eq_ignore_ascii_case(stringify!($name)) {
                    tuned::$name.store(value, std::sync::atomic::Ordering::Relaxed);
                    return true;
                }
            )*
            false
        }
    };
}

search_params! {
    /// Reverse futility pruning applies below this remaining depth.
    rfp_max_depth = 7, [3, 12];
    /// Reverse futility margin per ply of depth.
    rfp_margin = 140, [40, 300];
    /// Part of the reverse futility margin dropped when the static eval is improving.
    rfp_improving = 40, [0, 150];
    /// Null-move reduction: the constant part.
    nmp_base = 3, [1, 6];
    /// Null-move reduction: one more ply per this many plies of depth.
    nmp_depth_div = 4, [2, 8];
    /// Null-move reduction: one more ply per this many centipawns of eval above beta.
    /// 150 since session 64: +21 +/- 20 Elo over 1,200 games against 200.
    nmp_eval_div = 150, [50, 600];
    /// Null-move reduction: at most this many plies for the eval margin.
    nmp_eval_max = 3, [0, 6];
    /// Late-move pruning of quiet moves: the move count allowed at depth 0 (nodes not
    /// improving are allowed two thirds of `lmp_base + d²` since session 64). 5
    /// since session 57 (the new histories): +43 +/- 24 Elo over 800 games against 6.
    lmp_base = 5, [2, 12];
    /// Futility pruning of quiet moves applies up to this remaining depth.
    futility_max_depth = 6, [2, 10];
    /// Futility margin: the constant part. 190 since session 61 (YaneuraOu's 42 + 151
    /// without a best move): +25 +/- 20 Elo over 1,200 games against 120.
    futility_base = 190, [0, 400];
    /// Futility margin per ply of depth.
    futility_per_depth = 110, [30, 300];
    /// History pruning of quiet moves applies up to this remaining depth.
    history_prune_depth = 4, [1, 8];
    /// History pruning threshold per ply of depth (ordering-score units). 2400 since
    /// session 56 (the linear history bonus, no killers): +29 +/- 24 Elo over 800 games
    /// against 3000.
    history_prune_margin = 2400, [500, 10000];
    /// SEE pruning threshold per ply of depth (centipawns): losing captures and
    /// checking moves, at any depth.
    see_prune_margin = 120, [20, 400];
    /// SEE pruning of quiet moves (drops included): a quiet move that loses more than
    /// this many centipawns times the square of its reduced depth is not searched.
    quiet_see_margin = 20, [0, 100];
    /// Late-move reductions: ln(depth) * ln(move number) / (this / 100).
    lmr_divisor = 220, [120, 400];
    /// Late-move reductions: one ply less (more) per this much quiet history above (below) 0.
    lmr_history_div = 6000, [1000, 30000];
    /// Late-move reductions: plies added at expected cut nodes. 3 since session 67 (1
    /// before; YaneuraOu adds about 3.5): +29 +/- 34 Elo over 400 games at 100,000 nodes
    /// a move (the same 3 at 20,000 nodes in session 33 scored -11 +/- 34). Since
    /// session 80 the reduced depth that futility and history pruning read takes them
    /// off too.
    lmr_cut_node = 3, [0, 5];
    /// Plies taken off the moves searched without a late-move reduction (the first move,
    /// good captures) at an expected cut node that has no table move: one, and a second
    /// where more than two plies remain (YaneuraOu's step 18, where its reduction estimate
    /// is that large; none until session 69: +67 +/- 35 Elo over 400 games at 100,000
    /// nodes a move).
    cut_first_reduce = 2, [0, 2];
    /// Quiescence futility: the stand-pat plus this plus the captured piece must reach above alpha.
    qs_futility_margin = 328, [0, 600];
    /// Singular extensions: the least remaining depth at which the table's move is tested.
    se_depth = 6, [4, 12];
    /// Singular extensions: the test's bound lies this many centipawns per 8 plies of
    /// depth below the table's score.
    se_margin = 16, [4, 64];
    /// Singular extensions: plies taken off the table's move when the test fails but the
    /// table's score is at or above beta (YaneuraOu's 3; 1 until session 67: with
    /// `se_neg_cut` and the multi-cut on the test's value, +30 +/- 34 Elo over 400 games at
    /// 100,000 nodes a move).
    se_neg_tt = 3, [0, 3];
    /// Singular extensions: plies taken off the table's move at an expected cut node
    /// when the test fails otherwise (YaneuraOu's 2; none until session 67).
    se_neg_cut = 2, [0, 2];
    /// First half-width of the aspiration window (centipawns).
    aspiration_delta = 30, [5, 100];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_unique() {
        for (i, p) in PARAMS.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{} out of its range", p.name);
            assert!(PARAMS[..i].iter().all(|q| q.name != p.name), "{} twice", p.name);
        }
        assert_eq!(rfp_margin(), PARAMS.iter().find(|p| p.name == "rfp_margin").map_or(0, |p| p.default));
    }

    /// The value after `key:` on the first line at or after `from` that has it.
    fn yaml_field(lines: &[&str], from: usize, key: &str) -> Option<i32> {
        lines[from..].iter().find_map(|l| l.trim().strip_prefix(key)?.trim().parse().ok())
    }

    #[test]
    fn the_spsa_space_file_matches_the_table() {
        // shogiarena's space file (docs/tuning.md) must name every constant, in order, with
        // its default as `initial` and its range as `bounds`, or a run tunes stale values.
        let text = include_str!("../../docs/arena/spsa_space.yaml");
        let lines: Vec<&str> = text.lines().collect();
        let ids: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].contains("- id: ")).collect();
        assert_eq!(ids.len(), PARAMS.len(), "one space entry per constant");
        for (&at, p) in ids.iter().zip(PARAMS) {
            assert!(lines[at].contains(&format!("\"{}\"", p.name)), "{} out of order", p.name);
            assert_eq!(yaml_field(&lines, at, "initial:"), Some(p.default), "{} initial", p.name);
            let bounds = lines[at..].iter().find(|l| l.contains("bounds:")).copied().unwrap_or("");
            assert!(bounds.contains(&format!("min: {}, max: {} ", p.min, p.max)), "{} bounds", p.name);
        }
    }

    #[cfg(feature = "tune")]
    #[test]
    fn a_tuning_build_sets_values_by_name() {
        assert!(set("ASPIRATION_DELTA", 31));
        assert_eq!(aspiration_delta(), 31);
        assert!(set("aspiration_delta", 30));
        assert!(!set("no_such_constant", 1));
    }
}
