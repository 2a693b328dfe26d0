#!/usr/bin/env python3
"""Where each search's deep nodes come from: parents and kinds of search, by depth.

Reads the counter files an instrumented build writes (Hisha: apply
docs/patches/search_parents_stats.diff to a worktree, build it, run it with the
environment variable PAR_STATS=FILE; the counts are cumulative over the process and
rewritten after every search). The same counters can be added by hand to a reference
engine built in a session (not committed). Each line of a file is

    TYPE DEPTH PARENT KIND LOST COUNT

for the nodes that entered the main search (remaining depth 1 or more; the
quiescence search is not counted): TYPE and PARENT are 0 = PV node, 1 = expected cut
node, 2 = expected all node; DEPTH the node's remaining depth (31 = 31 or more); KIND
how the parent searched it: 0 a late-move-reduced null window, 1 a null window without
a reduction, 2 the re-search after a reduced search beat alpha, 3 a full-window PV
search, 4 the null move, 5 anything else (ProbCut), 6 the singular test or another
search of the same position; LOST the parent's depth less the node's (0-15, clamped;
1 is a plain ply, more is a reduction, less an extension).

    scripts/search_parents.py ../data/par_hisha.txt ../data/par_yo.txt

Prints, per engine, the nodes entered at each depth by type and kind, then for the
deeper bands of each node type the main (parent, kind) sources with their share and
mean depth lost.
"""
import argparse
import collections
import os

TYPES = ["PV", "cut", "all"]
KINDS = ["lmr", "full", "re", "pv", "null", "other", "same"]
BANDS = [(5, 6), (7, 8), (9, 10), (11, 13), (14, 31)]
MAX_LINES = 1_000_000


def load(path):
    """Counts by (type, depth, parent, kind, lost)."""
    counts = collections.Counter()
    with open(path) as f:
        for i, line in enumerate(f):
            if i >= MAX_LINES:
                raise SystemExit(f"{path}: more than {MAX_LINES} lines")
            fields = line.split()
            if len(fields) != 6:
                raise SystemExit(f"{path}:{i + 1}: expected 6 fields, got {len(fields)}")
            t, depth, parent, kind, lost, n = map(int, fields)
            if not (0 <= t < 3 and 0 <= parent < 3 and 0 <= kind < len(KINDS)):
                raise SystemExit(f"{path}:{i + 1}: type, parent or kind out of range")
            counts[(t, depth, parent, kind, lost)] += n
    return counts


def print_depths(name, counts, max_depth):
    by_type = collections.Counter()
    by_kind = collections.Counter()
    for (t, depth, _, kind, _), n in counts.items():
        by_type[(t, depth)] += n
        by_kind[(depth, kind)] += n
    print(f"{name}: nodes entered by depth")
    for d in range(1, max_depth + 1):
        types = " ".join(f"{TYPES[t]} {by_type[(t, d)]:>9}" for t in range(3))
        kinds = " ".join(f"{KINDS[k]} {by_kind[(d, k)]:>8}" for k in range(len(KINDS)))
        print(f"  d{d:<2} {types} | {kinds}")


def print_sources(names, tables, top):
    for t in (1, 2, 0):
        for lo, hi in BANDS:
            print(f"{TYPES[t]} nodes at depth {lo}-{hi}: sources (parent/kind: share, mean depth lost)")
            for name, counts in zip(names, tables):
                total = 0
                share = collections.Counter()
                lost = collections.Counter()
                for (tt, depth, parent, kind, l), n in counts.items():
                    if tt == t and lo <= depth <= hi:
                        total += n
                        share[(parent, kind)] += n
                        lost[(parent, kind)] += n * l
                parts = sorted(share.items(), key=lambda x: -x[1])[:top]
                text = "  ".join(
                    f"{TYPES[p]}/{KINDS[k]} {100 * n / total:.0f}% ({lost[(p, k)] / n:.1f})" for (p, k), n in parts
                ) if total else "-"
                print(f"  {name:>16} {total:>9}  {text}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+", help="counter files (PAR_STATS) to compare")
    ap.add_argument("--max-depth", type=int, default=20, help="deepest row of the depth table")
    ap.add_argument("--top", type=int, default=6, help="sources shown per band")
    args = ap.parse_args()
    names = [os.path.basename(f) for f in args.files]
    tables = [load(f) for f in args.files]
    for name, counts in zip(names, tables):
        print_depths(name, counts, args.max_depth)
    print_sources(names, tables, args.top)


if __name__ == "__main__":
    main()
