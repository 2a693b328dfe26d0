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

--crossing prints instead how much sooner one engine saw each game turn: the opponent's
scale against A's (least squares through zero over A's score and the reply's), then, per
decided game, the plies between A's score passing --threshold and the opponent's passing
the same threshold on its own scale (docs/strength.md, session 23).

Usage: scripts/blunders.py DIR [--top N] [--gap CP] [--min-drop CP] [--crossing [--threshold CP]]
(needs cshogi: run it with the Python of ../shared/tools, e.g.
 ~/.cache/shogi-tools-venv/bin/python scripts/blunders.py match_games)
"""
import argparse
import glob
import os
import re
import statistics

import cshogi
import cshogi.CSA as CSA

MOVE = re.compile(r"^[+-]\d{4}[A-Z]{2}")
SCORE = re.compile(r"^'\*\* (-?\d+)")


def scores_for_a(path):
    """Returns ({ply: score from A's side}, A makes the odd plies) for one record."""
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    a_black = "N+A" in lines
    # The side to move first: the record's lone "+" or "-" line (White in handicap games).
    black_first = next((line == "+" for line in lines if line in ("+", "-")), True)
    scores, ply = {}, 0
    for line in lines:
        if MOVE.match(line):
            ply += 1
        m = SCORE.match(line)
        if m and ply > 0:
            s = int(m.group(1))
            scores[ply] = s if a_black else -s
    return scores, a_black == black_first


def is_a_ply(ply, a_first):
    """Whether A made the move of this ply (A moves first when a_first)."""
    return (ply % 2 == 1) == a_first


def first_ply(scores, by_a, a_first, limit):
    """The first ply where A (by_a) or its opponent printed a score (A's side) reaching limit."""
    sign = 1 if limit > 0 else -1
    return next((p for p, v in sorted(scores.items())
                 if is_a_ply(p, a_first) == by_a and sign * v >= sign * limit), None)


def crossing_report(paths, threshold):
    """Prints the opponent's score scale and, for A's losses and wins, how many plies
    after the opponent A's score passed the threshold (scales matched)."""
    games = [scores_for_a(p) for p in paths]
    pairs = [(v, sc[p + 1]) for sc, ab in games for p, v in sc.items()
             if is_a_ply(p, ab) and p + 1 in sc and abs(v) < 3000 and abs(sc[p + 1]) < 3000]
    scale = sum(a * b for a, b in pairs) / max(1, sum(a * a for a, _ in pairs))
    print(f"opponent's score ~ {scale:.3f} x A's over {len(pairs)} pairs")
    for sign, name in ((-1, "losses"), (1, "wins")):
        lags = []
        for sc, ab in games:
            a_scores = [v for p, v in sorted(sc.items()) if is_a_ply(p, ab)]
            if not a_scores or sign * a_scores[-1] < threshold:
                continue
            pa = first_ply(sc, True, ab, sign * threshold)
            po = first_ply(sc, False, ab, sign * threshold * scale)
            if pa and po:
                lags.append(pa - po)
        if lags:
            print(f"{name}: A's score passes {sign * threshold:+d} a median {statistics.median(lags)} plies "
                  f"after the opponent's passes {sign * threshold * scale:+.0f} ({len(lags)} games)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--gap", type=int, default=300)
    ap.add_argument("--min-drop", type=int, default=200)
    ap.add_argument("--crossing", action="store_true")
    ap.add_argument("--threshold", type=int, default=1000)
    args = ap.parse_args()
    paths = sorted(glob.glob(os.path.join(args.dir, "*.csa")))
    if args.crossing:
        crossing_report(paths, args.threshold)
        return
    drops = []
    for path in paths:
        record = CSA.Parser.parse_file(path)[0]
        scores, a_first = scores_for_a(path)
        board = cshogi.Board(record.sfen)
        first_gap = None
        for i, move in enumerate(record.moves):
            ply = i + 1
            a_moves = is_a_ply(ply, a_first)
            if a_moves and ply in scores and ply + 1 in scores and first_gap is None:
                if scores[ply] - scores[ply + 1] > args.gap:
                    first_gap = (ply, scores[ply], scores[ply + 1])
            if a_moves and ply - 1 in scores and ply + 1 in scores:
                before, after = scores[ply - 1], scores[ply + 1]
                # A mate score after the move counts as the evaluation's end of scale.
                if abs(before) < 1500 and before - max(after, -3000) >= args.min_drop:
                    drops.append((before - max(after, -3000), os.path.basename(path), ply,
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
