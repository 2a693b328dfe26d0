#!/usr/bin/env python3
"""Measures every `SkillLevel` by games: each level against the full engine (SkillLevel
20, same binary) and against Fairy-Stockfish, at fixed nodes per move for both sides,
openings from a taya36 slice with colours swapped. It drives scripts/ab_match.py once
per level and opponent, so a stopped measurement resumes where it stopped, and prints
the table of the README's "Playing weaker" section (Markdown) at the end:

    scripts/skill_levels.py --hisha ../data/bin/hisha_skill --out ../data/skill

Level 20 against the full engine is the engine against itself and is not played.
"""

import argparse
import math
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AB = os.path.join(ROOT, "scripts", "ab_match.py")
TAYA = os.path.join(ROOT, "..", "shared", "openings", "taya36_2020-11-06.sfen")
SUMMARY = re.compile(r": \+(\d+) -(\d+) =(\d+) over \d+ games, score ([0-9.]+), Elo (\S+) \+/- (\S+)")
# Spread-out order first, so that a partial run already shows the shape.
ORDER = [0, 10, 20, 5, 15, 2, 7, 12, 17, 1, 3, 4, 6, 8, 9, 11, 13, 14, 16, 18, 19]


def measure(args, level, opponent):
    """Plays (or resumes) one level against one opponent; returns ab_match's summary line."""
    out = os.path.join(args.out, opponent, f"level{level:02d}")
    engine_b = args.hisha if opponent == "full" else args.fairy
    cmd = [sys.executable, AB, args.hisha, engine_b, "--out", out, "--games", str(args.games),
           "--runs", str(args.runs), "--nodes", str(args.nodes), "--openings", args.openings,
           "--first", str(args.first), "--options-a", f"SkillLevel={level}"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    text = done.stdout + done.stderr
    found = SUMMARY.search(text)
    print(f"level {level:2d} vs {opponent}: {found.group(0)[2:] if found else text.strip()[-200:]}", flush=True)
    return found


def cell(found):
    if not found:
        return "n/a"
    w, l, d, score, elo, err = found.groups()
    elo_text = f"{float(elo):+.0f} +/- {float(err):.0f}" if elo != "nan" else ("< -400" if float(score) < 0.5 else "> +400")
    return f"+{w} -{l} ={d} ({float(score) * 100:.0f}%, {elo_text})"


def fit(rows):
    """Elo per level by maximum likelihood over all games: level L stands s * (20 - L)
    below full strength, Fairy-Stockfish at F; returns (s, F)."""
    games = []  # (level, opponent, wins, losses) with draws as half of each
    for level, (full, fairy) in rows.items():
        for opponent, found in (("full", full), ("fairy", fairy)):
            if found:
                w, l, d = (int(x) for x in found.groups()[:3])
                games.append((level, opponent, w + d / 2, l + d / 2))
    best = (float("-inf"), 0, 0)
    for s in range(0, 301, 2):
        for f in range(-1200, 401, 10):
            ll = 0.0
            for level, opponent, w, l in games:
                diff = -s * (20 - level) - (0 if opponent == "full" else f)
                p = min(max(1 / (1 + 10 ** (-diff / 400)), 1e-9), 1 - 1e-9)
                ll += w * math.log(p) + l * math.log(1 - p)
            if ll > best[0]:
                best = (ll, s, f)
    return best[1], best[2]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hisha", required=True, help="the binary measured (copy it out of target/ first)")
    ap.add_argument("--fairy", default="fairy-stockfish", help="Fairy-Stockfish command")
    ap.add_argument("--out", required=True, help="folder for games and logs (outside the checkout)")
    ap.add_argument("--games", type=int, default=16, help="games per level and opponent")
    ap.add_argument("--runs", type=int, default=2, help="matches side by side")
    ap.add_argument("--nodes", type=int, default=100000, help="nodes per move for both sides (a level uses its share)")
    ap.add_argument("--openings", default=TAYA)
    ap.add_argument("--first", type=int, default=1000, help="first taya36 line (0-based)")
    ap.add_argument("--levels", default=None, help="comma-separated levels (default: all, spread out)")
    ap.add_argument("--opponents", default="full,fairy", help="which opponents to play (full, fairy)")
    args = ap.parse_args()
    levels = [int(x) for x in args.levels.split(",")] if args.levels else ORDER
    rows = {}
    opponents = args.opponents.split(",")
    for level in levels:
        full = measure(args, level, "full") if level < 20 and "full" in opponents else None
        fairy = measure(args, level, "fairy") if "fairy" in opponents else None
        rows[level] = (full, fairy)
    print(f"\nSkillLevel, up to {args.games} games per cell at {args.nodes} nodes a move for both, "
          f"taya36 lines {args.first}-{args.first + args.games // 2 - 1} (0-based), colours swapped:\n")
    print("| SkillLevel | against the full engine | against Fairy-Stockfish | Elo (fit) |")
    print("| --- | --- | --- | --- |")
    s, f = fit(rows)
    for level in sorted(rows):
        full, fairy = rows[level]
        print(f"| {level} | {cell(full) if level < 20 else '(itself)'} | {cell(fairy)} | {-s * (20 - level):+d} |")
    print(f"\nFitted over all games: {s} Elo a level; Fairy-Stockfish at {f:+d} against full strength.")


if __name__ == "__main__":
    main()
