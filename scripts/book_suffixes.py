#!/usr/bin/env python3
"""A problem file of the positions along each published solution, to find the first ply
where Hisha's answer leaves the book's.

    scripts/book_suffixes.py positions/mate/classics.txt --max-left 40 > suffixes.txt
    hisha mate --file suffixes.txt --time 3000 | grep -E 'WRONG|UNDECIDED|BOUND'

Reads `SFEN | plies | solution | label` lines (problems without a solution are skipped)
and writes one problem for every second ply of each solution (the attacker to move),
from the end backwards: the position after ply k, the book's remaining plies and moves,
labelled `LABEL-pK`. A suffix answered at another length or line marks where Hisha and
the book part: session 51 found a pieces-to-spare reading error this way (Zuko 8, ply
32), and where a first proof stops coming (Zuko 8, ply 12). Every move is checked
legal with cshogi (`pip install cshogi`); a line with an illegal move is reported on
stderr and skipped.
"""
import argparse
import sys

import cshogi


def suffixes(sfen, line, max_left):
    """(ply, sfen, remaining moves) for every second ply k > 0 with at most `max_left`
    plies left, deepest first. Raises ValueError on an illegal move."""
    board = cshogi.Board(sfen)
    out = []
    for k, usi in enumerate(line):
        if k > 0 and k % 2 == 0 and len(line) - k <= max_left:
            out.append((k, board.sfen(), line[k:]))
        move = board.move_from_usi(usi)
        if not move or not board.is_legal(move):
            raise ValueError(f"illegal move {usi} at ply {k + 1}")
        board.push(move)
    return list(reversed(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", help="a problem file with published solutions")
    ap.add_argument("--max-left", type=int, default=40, help="longest suffix written, in plies (default 40)")
    args = ap.parse_args()
    with open(args.file, encoding="utf-8") as f:
        for raw in f:
            if raw.startswith("#") or not raw.strip():
                continue
            parts = [p.strip() for p in raw.split("|")]
            if len(parts) < 4 or not parts[2] or parts[2] == "-":
                continue
            sfen, line, label = parts[0], parts[2].split(), parts[3]
            try:
                rows = suffixes(sfen, line, args.max_left)
            except ValueError as e:
                print(f"{label}: {e}", file=sys.stderr)
                continue
            for k, s, rest in rows:
                print(f"{s} | {len(rest)} | {' '.join(rest)} | {label}-p{k}")


if __name__ == "__main__":
    main()
