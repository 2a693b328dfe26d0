#!/usr/bin/env python3
"""Table of `hisha mate --json` results, one row per problem, as in the answers section
of positions/mate/classics.txt.

    hisha mate --file positions/mate/classics.txt --time 60000 --json --shard 0/2 > a.json
    hisha mate --file positions/mate/classics.txt --time 60000 --json --shard 1/2 > b.json
    scripts/classics_table.py a.json b.json

Columns: label, published length, Hisha's length (counted by the conventions where they
apply; "line N" when the line also shows futile interpositions taken), whether it is
proved shortest or a bound (with the proved bound), time, nodes, nodes/s, and where the
line first departs from the published one. A summary line follows.
"""
import json
import sys


def rows(paths):
    out = []
    for p in paths:
        with open(p) as f:
            out += [json.loads(l) for l in f if l.startswith("{")]
    return sorted(out, key=lambda r: r["problem"])


def answer(r):
    words = r["answer"].split()
    if words[1] in ("timeout", "nomate"):
        return words[1]
    line = len(words) - 1
    got = str(r["counted_plies"]) + (f" (line {line})" if line != r["counted_plies"] else "")
    return got + (", proved shortest" if r["exact"] else f", bound (mate within {r['mate_within']})")


def main():
    rs = rows(sys.argv[1:])
    print(f"#   {'label':<20} {'book':>5}  {'Hisha':<36} {'time':>7} {'nodes':>13} {'nodes/s':>8}  first difference from the book")
    for r in rs:
        book = "-" if r["expected_plies"] is None else str(r["expected_plies"])
        nps = r["nodes"] / max(r["seconds"], 1e-9) / 1000
        diff = r["difference"] or ""
        print(f"#   {r['label']:<20} {book:>5}  {answer(r):<36} {r['seconds']:6.1f}s {r['nodes']:>13,} {nps:7.0f}k  {diff}".rstrip())
    secs = sum(r["seconds"] for r in rs)
    nodes = sum(r["nodes"] for r in rs)
    count = {v: sum(r["verdict"] == v for r in rs) for v in ("ok", "WRONG", "UNDECIDED", "BOUND", "solved")}
    print(f"# Summary: {len(rs)} problems, {count['ok']} at the published length, {count['WRONG']} proved at another length,"
          f" {count['BOUND']} bounds, {count['UNDECIDED']} undecided; {secs:,.0f} s, {nodes / 1e6:,.0f}M nodes"
          f" ({nodes / max(secs, 1e-9) / 1000:.0f}k nodes/s).")


if __name__ == "__main__":
    main()
