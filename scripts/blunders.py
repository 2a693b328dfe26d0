#!/usr/bin/env python3
"""Finds the moves of engine A that its opponent judged worst, in `check match` records.

`check match` writes each engine's search score after its move as a CSA comment
(`'** N`, from Black's side). This script turns those into engine A's point of view and
lists A's moves after which the opponent's score for A fell the most (the opponent's
score before A's move against its score after its own reply), with A's own score and
the position before the move, for a deeper look (`position sfen ... moves <move>`).

It also prints, per game, where the two engines' scores first disagreed by more than
--gap centipawns, which separates slow misjudgements (evaluation) from sudden drops
(tactics the search missed).

Usage: scripts/blunders.py DIR [--top N] [--gap CP] [--min-drop CP]
(needs cshogi: run it with the Python of ../shared/tools, e.g.
 ~/.cache/shogi-tools-venv/bin/python scripts/blunders.py match_games)
"""
import argparse
import glob
import os
import re

import cshogi
import cshogi.CSA as CSA

MOVE = re.compile(r"^[+-]\d{4}[A-Z]{2}")
SCORE = re.compile(r"^'\*\* (-?\d+)")


def scores_for_a(path):
    """Returns ({ply: score from A's side}, A plays Black) for one record."""
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    a_black = "N+A" in lines
    scores, ply = {}, 0
    for line in lines:
        if MOVE.match(line):
            ply += 1
        m = SCORE.match(line)
        if m and ply > 0:
            s = int(m.group(1))
            scores[ply] = s if a_black else -s
    return scores, a_black


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--gap", type=int, default=300)
    ap.add_argument("--min-drop", type=int, default=200)
    args = ap.parse_args()
    drops = []
    for path in sorted(glob.glob(os.path.join(args.dir, "*.csa"))):
        record = CSA.Parser.parse_file(path)[0]
        scores, a_black = scores_for_a(path)
        board = cshogi.Board(record.sfen)
        first_gap = None
        for i, move in enumerate(record.moves):
            ply = i + 1
            a_moves = (board.turn == cshogi.BLACK) == a_black
            if a_moves and ply in scores and ply + 1 in scores and first_gap is None:
                if scores[ply] - scores[ply + 1] > args.gap:
                    first_gap = (ply, scores[ply], scores[ply + 1])
            if a_moves and ply - 1 in scores and ply + 1 in scores:
                before, after = scores[ply - 1], scores[ply + 1]
                if abs(before) < 1500 and before - after >= args.min_drop:
                    drops.append((before - after, os.path.basename(path), ply,
                                  cshogi.move_to_usi(move), before, after, scores.get(ply), board.sfen()))
            board.push(move)
        if first_gap:
            p, a, b = first_gap
            print(f"{os.path.basename(path)}: from ply {p} A says {a:+d}, opponent says {b:+d} (A's side)")
    drops.sort(reverse=True)
    print(f"\n{len(drops)} moves of A lost {args.min_drop}+ in the opponent's eyes; the worst:")
    print("drop  game  ply  move  opp-before opp-after A's-own  position-before")
    for d in drops[:args.top]:
        print("%5d %s %3d %-6s %+6d %+6d %+6d  %s" % (d[0], d[1], d[2], d[3], d[4], d[5], d[6] or 0, d[7]))


if __name__ == "__main__":
    main()
