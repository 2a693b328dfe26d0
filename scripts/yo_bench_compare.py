#!/usr/bin/env python3
"""Alternate `hisha bench` and YaneuraOu's `bench` and compare their nodes/s.

Runs Hisha's bench and YaneuraOu's bench --runs times each (default 5), alternating
(Hisha, YaneuraOu, Hisha, ...), one search thread each, the same network file, and
prints every run's nodes and nodes/s, the medians and the ratio Hisha / YaneuraOu.
Nothing is built or downloaded: give the YaneuraOu binary with --yo.

    python3 scripts/yo_bench_compare.py --yo /path/YaneuraOu-by-gcc \\
        --net /path/eval/nn.bin --depth 11 --positions positions/bench.sfen

Default command lines ({...} are filled in; override them with --hisha-cmd/--yo-cmd):
    {hisha} bench --depth {depth} --threads 1 --hash {hash} --eval-file {net} [--file {file}]
    {yo} EvalDir {evaldir} , BookFile no_book , USI_OwnBook false , Threads 1 ,
         USI_Hash {hash} , bench {hash} 1 {depth} {yofile} depth , quit
Placeholders: {hisha} {yo} {depth} {hash} {net} (absolute network path) {evaldir}
(a folder holding the network as nn.bin) {file} (the --positions file, for Hisha)
{yofile} (the same positions cleaned for YaneuraOu, or `default`).

YaneuraOu's bench: `bench [ttSizeMB=1024] [threads=1] [limit=15000] [fenFile=default]
[limitType=movetime]`; limitType is depth, nodes, movetime, perft or eval.  fenFile
is `default` (its 4 built-in positions, the same as lines 2-5 of Hisha's
positions/bench.sfen), `current`, or a file of bare SFENs, one a line (each line
becomes `position sfen <line>`; no comments allowed, so this script writes a cleaned
copy).  It loads <EvalDir>/nn.bin (EvalDir relative to its binary's folder unless
absolute); a network not named nn.bin is linked as nn.bin in a temporary folder.
YaneuraOu prints its totals on stderr:
    Total time (ms) : 3602 / Nodes searched  : 2323308 / Nodes/second    : 645004
Hisha prints `Nodes searched : N` and `Nodes/second   : N` on stdout.

Same positions: without --positions each engine searches its own default set
(Hisha: the 10 lines of positions/bench.sfen; YaneuraOu: its 4 built-in ones), so
the nodes/s are not comparable position for position; with --positions FILE both
search the SFENs of FILE (`--positions positions/bench.sfen` gives Hisha's set to
both).  The depths mean different amounts of work in the two searches: compare
nodes/s, not nodes or time.
"""
import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

# The same error exit and SFEN-file reader as the evaluation comparison (this folder).
from yo_eval_compare import die, read_sfen_file as read_sfens

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HISHA_CMD = "{hisha} bench --depth {depth} --threads 1 --hash {hash} --eval-file {net}"
YO_CMD = ("{yo} EvalDir {evaldir} , BookFile no_book , USI_OwnBook false , Threads 1 , "
          "USI_Hash {hash} , bench {hash} 1 {depth} {yofile} depth , quit")
# --movetime: each engine searches every position for the same time, so that the
# nodes/s of two searches whose trees to a given depth differ in size are comparable.
HISHA_MOVETIME_CMD = "{hisha} bench --movetime {movetime} --threads 1 --hash {hash} --eval-file {net}"
YO_MOVETIME_CMD = ("{yo} EvalDir {evaldir} , BookFile no_book , USI_OwnBook false , Threads 1 , "
                   "NetworkDelay 0 , NetworkDelay2 0 , USI_Hash {hash} , bench {hash} 1 {movetime} {yofile} movetime , quit")

NPS_RE = re.compile(r"Nodes/second\s*:\s*(\d+)")
NODES_RE = re.compile(r"Nodes searched\s*:\s*(\d+)")


def run(label, cmd, timeout):
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, shell=True, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        die(f"{label}: no end within {timeout} s: {cmd}")
    wall = time.monotonic() - t0
    nps, nodes = NPS_RE.findall(p.stdout), NODES_RE.findall(p.stdout)
    if p.returncode != 0 or not nps or not nodes:
        tail = "\n    ".join(p.stdout.splitlines()[-15:])
        die(f"{label}: exit {p.returncode}, no totals; command: {cmd}\n    {tail}")
    return int(nodes[-1]), int(nps[-1]), wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hisha", default=os.path.join(REPO, "target", "release", "hisha"),
                    help="Hisha binary (default target/release/hisha)")
    ap.add_argument("--yo", help="YaneuraOu binary (needed by the default --yo-cmd)")
    ap.add_argument("--net", help="network file for both (YaneuraOu format nn.bin)")
    ap.add_argument("--depth", type=int, default=11, help="depth per position (default 11)")
    ap.add_argument("--movetime", type=int, default=None,
                    help="milliseconds a position for both instead of --depth (compares nodes/s on equal time)")
    ap.add_argument("--hash", type=int, default=64, help="hash MB for both (default 64)")
    ap.add_argument("--positions", metavar="FILE",
                    help="SFEN file searched by both (default: each engine's own bench set)")
    ap.add_argument("--runs", "-k", type=int, default=5, help="runs of each engine (default 5)")
    ap.add_argument("--hisha-cmd", default=None, help=f"Hisha command template (default: {HISHA_CMD} "
                    "[--file {file}])")
    ap.add_argument("--yo-cmd", default=None, help=f"YaneuraOu command template (default: {YO_CMD})")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per run (default 1800)")
    ap.add_argument("--dry-run", action="store_true", help="print the two command lines and stop")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="yo_bench_") as tmp:
        net = os.path.abspath(args.net) if args.net else ""
        evaldir = ""
        if net:
            if not os.path.isfile(net):
                die(f"no network file {net}")
            if os.path.basename(net) == "nn.bin":
                evaldir = os.path.dirname(net)
            else:
                evaldir = os.path.join(tmp, "eval")
                os.makedirs(evaldir)
                os.symlink(net, os.path.join(evaldir, "nn.bin"))
        file_ = yofile = ""
        if args.positions:
            file_ = os.path.abspath(args.positions)
            sfens = read_sfens(file_)
            if not sfens:
                die(f"no SFENs in {file_}")
            yofile = os.path.join(tmp, "positions.sfen")
            with open(yofile, "w") as f:
                f.write("".join(s + "\n" for s in sfens))
        hisha_default = HISHA_MOVETIME_CMD if args.movetime else HISHA_CMD
        hisha_tmpl = args.hisha_cmd or (hisha_default + (" --file {file}" if file_ else ""))
        if args.yo_cmd is None:
            args.yo_cmd = YO_MOVETIME_CMD if args.movetime else YO_CMD
        if not net and ("{net}" in hisha_tmpl or "{evaldir}" in args.yo_cmd):
            die("--net is needed by the command templates")
        if "{yo}" in args.yo_cmd and not args.yo:
            die("--yo (the YaneuraOu binary) is needed by --yo-cmd")
        fill = dict(hisha=shlex.quote(args.hisha), yo=shlex.quote(args.yo or ""), depth=args.depth, movetime=args.movetime,
                    hash=args.hash, net=shlex.quote(net), evaldir=shlex.quote(evaldir),
                    file=shlex.quote(file_), yofile=shlex.quote(yofile) if yofile else "default")
        hisha_cmd = hisha_tmpl.format(**fill)
        yo_cmd = args.yo_cmd.format(**fill)
        print(f"hisha: {hisha_cmd}")
        print(f"yo   : {yo_cmd}")
        if args.dry_run:
            return 0

        res = {"hisha": [], "yo": []}
        for i in range(args.runs):
            for label, cmd in (("hisha", hisha_cmd), ("yo", yo_cmd)):
                nodes, nps, wall = run(label, cmd, args.timeout)
                res[label].append((nodes, nps))
                print(f"run {i + 1}/{args.runs} {label:5}: nodes {nodes:>12,}  nodes/s {nps:>10,}  "
                      f"(wall {wall:.1f} s)", flush=True)

    print("===========================")
    med = {}
    for label in ("hisha", "yo"):
        nodes = sorted({n for n, _ in res[label]})
        med[label] = statistics.median(nps for _, nps in res[label])
        note = "" if len(nodes) == 1 else f"  (node counts vary: {nodes[0]:,}..{nodes[-1]:,})"
        print(f"{label:5} median nodes/s: {med[label]:>12,.0f}  nodes {res[label][0][0]:,}{note}")
    if med["yo"]:
        print(f"ratio hisha / yo: {med['hisha'] / med['yo']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
