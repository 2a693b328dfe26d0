#!/usr/bin/env python3
"""Where two searches spend their null-window searches: a table by node type and depth.

Reads the counter files that an instrumented build writes (Hisha: apply
docs/patches/search_shape_stats.diff to a worktree, build it, and run it with the
environment variable SHAPE_STATS=FILE; the counts are cumulative over the process and
rewritten after every search). Each line of a file is

    TYPE DEPTH NODES UNREDUCED PVFULL R[-6] R[-5] ... R[17]

TYPE 0 = PV node, 1 = expected cut node, 2 = expected all node; DEPTH the node's
remaining depth (31 = 31 or more); NODES the nodes of that kind that reached their move
loop; UNREDUCED the null-window searches done without a late-move reduction; PVFULL the
full-window (PV) searches; R[k] the null-window searches of a move whose depth was
`new depth - k` (k < 0: deeper than the move's new depth, as YaneuraOu allows at PV
nodes; -6 and 17 hold everything beyond). The same counters, at the same places of its
search, can be added by hand to a reference engine built in a session (not committed).

Beside FILE the build writes FILE.ends: `TYPE DEPTH ENTERED TABLE RAZOR REVERSE NULL
PROBCUT MATE OTHER`, the nodes that entered the search (past the repetition and
mate-distance checks) and those of them that ended before their move loop by a table
cut-off, razoring, reverse futility, a null move, ProbCut, a mate or declaration found
before the moves, or (Hisha's patch, slot 7) any of razoring, reverse futility and the
null move. When it is there the script prints that table too.

    SHAPE_STATS=../data/shape_a.txt scripts/move_agreement.py search --engine A ...
    scripts/search_shape.py ../data/shape_a.txt ../data/shape_b.txt

Prints, for each node type and depth band: the nodes, the null-window searches a node,
the mean reduction, and the shares of searches reduced 3 plies or more and not reduced.
"""
import argparse
import os
import sys

NAMES = ["PV", "cut", "all"]
BANDS = [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 13), (14, 31)]
OFFSET = 6
SLOTS = 24


def read_counts(path, counts):
    """`{(type, depth): [counts...]}` of a file of `TYPE DEPTH` and `counts` integers."""
    table = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            fields = line.split()
            if not fields:
                continue
            try:
                values = [int(x) for x in fields]
            except ValueError:
                sys.exit(f"{path}:{number}: not a line of integers")
            if len(values) != 2 + counts or not (0 <= values[0] < 3 and 0 <= values[1] < 32):
                sys.exit(f"{path}:{number}: expected TYPE DEPTH and {counts} counts")
            table[(values[0], values[1])] = values[2:]
    return table


def load(path):
    """`{(type, depth): [nodes, unreduced, pvfull, r...]}` of one counter file."""
    return read_counts(path, 3 + SLOTS)


def load_ends(path):
    """`{(type, depth): [entered, table, razor, reverse, null, probcut, mate, other]}`."""
    return read_counts(path, 8)


def print_ends(ends):
    """Nodes entered, and the share that ended before the move loop, by way."""
    ways = ["table", "razor", "reverse", "null", "probcut", "mate", "other"]
    for kind in range(3):
        print(f"{NAMES[kind]} nodes entered: depth | entered | " + " | ".join(ways))
        for lo, hi in BANDS:
            cells = []
            for t in ends:
                rows = [t.get((kind, d), [0] * 8) for d in range(lo, hi + 1)]
                cells.append([sum(r[k] for r in rows) for k in range(8)])
            cols = [" ".join(f"{c[0]:9d}" for c in cells)]
            for k in range(1, 8):
                cols.append(" ".join(f"{c[k] / c[0] if c[0] else 0:4.2f}" for c in cells))
            print(f"{lo:2d}-{hi:2d} | " + " | ".join(cols))


def band_summary(table, kind, lo, hi):
    """(nodes, searches a node, mean reduction, share >= 3, share <= 0) of one band."""
    rows = [table.get((kind, d), [0] * (3 + SLOTS)) for d in range(lo, hi + 1)]
    nodes = sum(r[0] for r in rows)
    hist = [sum(r[3 + k] for r in rows) for k in range(SLOTS)]
    searches = sum(hist)
    if searches == 0:
        return nodes, 0.0, 0.0, 0.0, 0.0
    mean = sum((k - OFFSET) * c for k, c in enumerate(hist)) / searches
    deep = sum(c for k, c in enumerate(hist) if k - OFFSET >= 3) / searches
    none = sum(c for k, c in enumerate(hist) if k - OFFSET <= 0) / searches
    return nodes, searches / nodes if nodes else 0.0, mean, deep, none


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="counter files (one column group each)")
    args = ap.parse_args()
    for p in args.files:
        if not os.path.isfile(p):
            sys.exit(f"{p}: no such counter file")
    tables = [load(p) for p in args.files]
    for kind in range(3):
        print(f"{NAMES[kind]} nodes: depth | nodes | searches/node | mean reduction | reduced >= 3 | not reduced")
        for lo, hi in BANDS:
            cells = [band_summary(t, kind, lo, hi) for t in tables]
            cols = [
                " ".join(f"{c[0]:9d}" for c in cells),
                " ".join(f"{c[1]:6.2f}" for c in cells),
                " ".join(f"{c[2]:6.2f}" for c in cells),
                " ".join(f"{c[3]:5.2f}" for c in cells),
                " ".join(f"{c[4]:5.2f}" for c in cells),
            ]
            print(f"{lo:2d}-{hi:2d} | " + " | ".join(cols))
    totals = [sum(v[0] for v in t.values()) for t in tables]
    print("nodes reaching the move loop: " + " ".join(str(n) for n in totals))
    if all(os.path.exists(p + ".ends") for p in args.files):
        print_ends([load_ends(p + ".ends") for p in args.files])


if __name__ == "__main__":
    main()
