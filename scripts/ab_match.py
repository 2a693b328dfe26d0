#!/usr/bin/env python3
"""A/B match between two engine builds: several `check match` runs side by side (one
per core by default, each with its own seed), their results added up, and the Elo
difference with its 95% error bar printed for the whole.

This is how every search change and network round in docs/strength.md was decided:

    scripts/ab_match.py --out ../data/ab/se NEW_BINARY OLD_BINARY
    scripts/ab_match.py --out ../data/ab/r6 --options-a EvalFile=r6.nnue hisha hisha
    scripts/ab_match.py --out ../data/ab/se200 --tc byoyomi=200 NEW OLD
    scripts/ab_match.py --out ../data/ab/rep --games 400 --openings \
        ../shared/openings/taya36_2020-11-06.sfen --first 0 NEW OLD

Each run writes its games (CSA) and its log under --out; a run whose log already holds
a final result is not played again, so a stopped A/B resumes where it stopped (the
unfinished runs start over). Needs ../shared/tools/check (cshogi) beside the checkout.
"""

import argparse
import math
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# `check` of ../shared/tools; SHOGI_CHECK names another (a machine without that folder).
CHECK = os.environ.get("SHOGI_CHECK") or os.path.join(ROOT, "..", "shared", "tools", "check")
# The summary line `check match` prints once, at the end of a run.
RESULT = re.compile(r"^A vs B: \+(\d+) -(\d+) =(\d+)", re.MULTILINE)


def elo_with_error(w, l, d):
    """Elo of a W/L/D score and the half-width of its 95% interval (normal approx.)."""
    n = w + l + d
    p = (w + d / 2) / n
    if p <= 0 or p >= 1:
        return float("nan"), float("nan")
    elo = lambda x: -400 * math.log10(1 / x - 1)
    se = math.sqrt(p * (1 - p) / n)
    lo, hi = max(p - 1.96 * se, 1e-6), min(p + 1.96 * se, 1 - 1e-6)
    return elo(p), (elo(hi) - elo(lo)) / 2


def read_log(log):
    """A run's log, or "" before the run has started."""
    if not os.path.exists(log):
        return ""
    with open(log, encoding="utf-8", errors="replace") as f:
        return f.read()


def final_result(text):
    """The W/L/D a finished run's log ends with, or None."""
    found = RESULT.findall(text)
    return tuple(map(int, found[-1])) if found else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine_a", help="the build under test")
    ap.add_argument("engine_b", help="the build it is measured against")
    ap.add_argument("--out", required=True, help="folder for the runs' games and logs (outside the checkout)")
    ap.add_argument("--games", type=int, default=200, help="games in all (default 200)")
    ap.add_argument("--runs", type=int, default=os.cpu_count() or 2, help="runs side by side (default: cores)")
    ap.add_argument("--seed", type=int, default=17, help="seed of the first run; run k uses seed + 17 k")
    ap.add_argument("--random-plies", type=int, default=None,
                    help="random plies after each opening (default 8, or 0 with --openings)")
    ap.add_argument("--openings", help="opening file (e.g. ../shared/openings/taya36_2020-11-06.sfen): "
                    "run k plays its own slice of it, each opening with both colours")
    ap.add_argument("--first", type=int, default=0,
                    help="with --openings: the first opening line used (0-based); the runs take "
                    "the next games/2 lines in turn")
    clock = ap.add_mutually_exclusive_group()
    clock.add_argument("--nodes", type=int, help="nodes per move (the default: 20000)")
    clock.add_argument("--tc", help="a clock instead, e.g. byoyomi=200")
    ap.add_argument("--options-a", default="", help="USI options of engine A (NAME=VALUE,...)")
    ap.add_argument("--options-b", default="", help="USI options of engine B")
    args = ap.parse_args()
    if args.games < 2 * args.runs or args.runs < 1:
        sys.exit("error: need at least two games a run")
    os.makedirs(args.out, exist_ok=True)
    per_run = args.games // args.runs // 2 * 2
    clock_args = ["--tc", args.tc] if args.tc else ["--nodes", str(args.nodes or 20000)]
    random_plies = args.random_plies if args.random_plies is not None else (0 if args.openings else 8)
    if args.openings:
        with open(args.openings, encoding="utf-8") as f:
            book = [l.strip() for l in f if l.strip() and not l.startswith("#")]
        last = args.first + args.runs * per_run // 2
        if last > len(book):
            sys.exit(f"error: openings {args.first}-{last - 1} asked for, {args.openings} has {len(book)}")
        print(f"openings {args.first}-{last - 1} (0-based lines) of {args.openings}, both colours each")
    # `check` makes its Python environment on first use; runs started side by side on
    # a fresh machine would race to make it (one fails with "File exists"), so it is
    # made here first: any call does it, and an unknown tool name only prints usage.
    subprocess.run([CHECK, "setup"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    procs = []
    for k in range(args.runs):
        seed = args.seed + 17 * k
        log = os.path.join(args.out, f"run{seed}.txt")
        if final_result(read_log(log)):
            continue
        cmd = [CHECK, "match", args.engine_a, args.engine_b, "--games", str(per_run), *clock_args,
               "--random-plies", str(random_plies), "--seed", str(seed),
               "--out", os.path.join(args.out, f"csa{seed}")]
        if args.openings:
            first = args.first + k * per_run // 2
            slice_file = os.path.join(args.out, f"openings{seed}.sfen")
            with open(slice_file, "w", encoding="utf-8") as f:
                f.write("\n".join(book[first:first + per_run // 2]) + "\n")
            cmd += ["--openings", slice_file]
        if args.options_a:
            cmd += ["--options-a", args.options_a]
        if args.options_b:
            cmd += ["--options-b", args.options_b]
        procs.append(subprocess.Popen(cmd, stdout=open(log, "w"), stderr=subprocess.STDOUT))
    for p in procs:
        p.wait()
    w = l = d = 0
    for k in range(args.runs):
        log = os.path.join(args.out, f"run{args.seed + 17 * k}.txt")
        text = read_log(log)
        r = final_result(text)
        if r is None:
            sys.exit(f"error: {log} has no result; see the log")
        w, l, d = w + r[0], l + r[1], d + r[2]
        if "FAIL" in text:
            print(f"warning: {log} reports a rule violation, time loss or crash")
    elo, err = elo_with_error(w, l, d)
    print(f"{args.engine_a} vs {args.engine_b}: +{w} -{l} ={d} over {w + l + d} games, "
          f"score {(w + d / 2) / (w + l + d):.3f}, Elo {elo:+.0f} +/- {err:.0f}")


if __name__ == "__main__":
    main()
