#!/usr/bin/env python3
"""Hisha against YaneuraOu on one and the same network (issue 46's harness).

Both engines play with the same YaneuraOu-format network file (one the project trained
with `hisha-tools train-yaneuraou`, or any `halfkp_256x2-32-32` / `k_p_256x2-32-32`
nn.bin), one thread each, the same hash, books off, the same FV_SCALE, and the same
time margins: YaneuraOu's `NetworkDelay2` defaults to 1120 ms and its
`MinimumThinkingTime` to 2000 ms, so both are set to Hisha's values here. Openings come
from a slice of ../shared/openings/taya36_2020-11-06.sfen, each played with both
colours; the games run through scripts/ab_match.py (several `check match` runs side by
side, resumable, Elo with its error bar). Nothing here builds or downloads YaneuraOu:
give the binary you built by hand with --yo.

    scripts/yo_match.py --yo /path/YaneuraOu-by-gcc --net /path/nn.bin \\
        --out ../data/yo_match/run1 --games 200 --first 400 --tc byoyomi=1000

Engine A is Hisha, B YaneuraOu: the printed score is Hisha's.
"""

import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--yo", required=True, help="YaneuraOu binary (NNUE edition matching the network)")
    ap.add_argument("--net", required=True, help="the network file both engines load")
    ap.add_argument("--hisha", default=os.path.join(ROOT, "target", "release", "hisha"))
    ap.add_argument("--out", required=True, help="folder for games and logs (outside the checkout)")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--first", type=int, default=0, help="first taya36 line (0-based) of the slice")
    ap.add_argument("--openings", default=os.path.join(ROOT, "..", "shared", "openings", "taya36_2020-11-06.sfen"))
    ap.add_argument("--runs", type=int, default=os.cpu_count() or 2)
    clock = ap.add_mutually_exclusive_group()
    clock.add_argument("--tc", default=None, help="e.g. byoyomi=1000 (the default)")
    clock.add_argument("--nodes", type=int, help="fixed nodes a move instead of a clock")
    ap.add_argument("--hash", type=int, default=64, help="USI_Hash of both, MiB")
    ap.add_argument("--delay", type=int, default=120, help="NetworkDelay and NetworkDelay2 of both, ms")
    ap.add_argument("--fv-scale", type=int, default=16)
    args = ap.parse_args()
    net = os.path.abspath(args.net)
    if not os.path.isfile(net):
        sys.exit(f"error: no network file {net}")
    # YaneuraOu reads <EvalDir>/nn.bin; give it a folder holding the file under that name.
    evaldir = os.path.join(os.path.abspath(args.out), "evaldir")
    os.makedirs(evaldir, exist_ok=True)
    link = os.path.join(evaldir, "nn.bin")
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(net, link)
    common = f"Threads=1,USI_Hash={args.hash},BookFile=no_book,FV_SCALE={args.fv_scale}," \
             f"NetworkDelay={args.delay},NetworkDelay2={args.delay},MinimumThinkingTime=20"
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "ab_match.py"), "--out", args.out,
           "--games", str(args.games), "--runs", str(args.runs), "--openings", args.openings,
           "--first", str(args.first),
           "--options-a", f"{common},EvalFile={net},USI_OwnBook=false",
           "--options-b", f"{common},EvalDir={evaldir},USI_OwnBook=false",
           args.hisha, args.yo]
    cmd += ["--nodes", str(args.nodes)] if args.nodes else ["--tc", args.tc or "byoyomi=1000"]
    print(" ".join(cmd), flush=True)
    sys.exit(subprocess.call(cmd))


if __name__ == "__main__":
    main()
