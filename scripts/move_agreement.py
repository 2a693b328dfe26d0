#!/usr/bin/env python3
"""Best-move agreement of engine searches at fixed nodes, on game positions.

Two steps. `search` runs one engine on every position of a file (a fresh
`usinewgame` and `go nodes N` each) and appends its best move, depth and score to a
JSON-lines file (a stopped run resumes where it stopped). `compare` reads several
such files and prints, for each, how often its best move matches a reference run's,
and how often it matches on the positions where two reference runs agree (the
"consensus": a deep YaneuraOu search and a deep Hisha search, so that neither
engine's own style is the yardstick).

    scripts/move_agreement.py search --engine ../data/bins/main --nodes 200000 \\
        --option EvalFile=hkp2.bin --positions pos.txt --out main200k.jsonl
    scripts/move_agreement.py search --engine YaneuraOu-by-gcc --nodes 4000000 \\
        --option EvalDir=evaldir --option FV_SCALE=16 --positions pos.txt --out yo4m.jsonl
    scripts/move_agreement.py compare --ref yo4m.jsonl --ref2 main4m.jsonl main200k.jsonl yo200k.jsonl

A position line is `startpos moves ...` or `sfen ... [moves ...]` (what follows
`position` in USI); blank lines and lines starting with # are skipped. Every engine
gets Threads=1, USI_Hash=64, USI_OwnBook=false and BookFile=no_book before the
--option values. Session 76 used 80 positions of session 74's games against
YaneuraOu (plies 46 and 58; docs/strength.md has the numbers).
"""
import argparse
import json
import os
import re
import sys

from usi_engine import Engine

DEFAULT_OPTIONS = {"Threads": "1", "USI_Hash": "64", "USI_OwnBook": "false", "BookFile": "no_book"}
MAX_POSITIONS = 100_000
SCORE = re.compile(r"\bscore (cp|mate) (-?\d+)")
DEPTH = re.compile(r"\bdepth (\d+)")


def read_positions(path):
    """The position lines of `path` (at most MAX_POSITIONS)."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if not (line.startswith("startpos") or line.startswith("sfen ")):
                sys.exit(f"{path}:{n}: a position starts with 'startpos' or 'sfen', not {line[:20]!r}")
            out.append(line)
            if len(out) > MAX_POSITIONS:
                sys.exit(f"{path}: more than {MAX_POSITIONS} positions")
    return out


def read_results(path):
    """Position index -> result of a `search` output file (empty if none yet)."""
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return {r["i"]: r for r in rows}


def one_search(engine, position, nodes):
    """Best move, last PV depth and last PV score of one fresh search."""
    engine.send("usinewgame")
    engine.send("isready")
    engine.wait("readyok")
    engine.send(f"position {position}")
    engine.send(f"go nodes {nodes}")
    depth = score = None
    last = ""
    for last in engine.lines_until("bestmove"):
        if " pv " in last:
            d, s = DEPTH.search(last), SCORE.search(last)
            depth = int(d.group(1)) if d else depth
            score = [s.group(1), int(s.group(2))] if s else score
    words = last.split()
    return (words[1] if len(words) > 1 else None), depth, score


def search(args):
    options = dict(DEFAULT_OPTIONS)
    for kv in args.option:
        if "=" not in kv:
            sys.exit(f"--option takes NAME=VALUE, not {kv!r}")
        name, value = kv.split("=", 1)
        options[name] = value
    positions = read_positions(args.positions)
    done = read_results(args.out)
    engine = Engine(args.engine, [f"setoption name {k} value {v}" for k, v in options.items()])
    with open(args.out, "a", encoding="utf-8") as out:
        for i, position in enumerate(positions):
            if i in done:
                continue
            move, depth, score = one_search(engine, position, args.nodes)
            out.write(json.dumps({"i": i, "move": move, "depth": depth, "score": score, "position": position}) + "\n")
            out.flush()
    engine.quit()


def compare(args):
    ref = read_results(args.ref)
    ref2 = read_results(args.ref2) if args.ref2 else {}
    consensus = [i for i in ref if i in ref2 and ref[i]["move"] == ref2[i]["move"]]
    for path in args.runs:
        run = read_results(path)
        both = [i for i in run if i in ref]
        agree = sum(run[i]["move"] == ref[i]["move"] for i in both)
        depths = [run[i]["depth"] for i in run if run[i]["depth"] is not None]
        line = f"{path}: {agree}/{len(both)} with {args.ref}"
        if ref2:
            cons = [i for i in consensus if i in run]
            line += f", {sum(run[i]['move'] == ref[i]['move'] for i in cons)}/{len(cons)} on the consensus"
        if depths:
            line += f", mean depth {sum(depths) / len(depths):.2f}"
        print(line)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("search", help="one engine's best moves at fixed nodes")
    s.add_argument("--engine", required=True)
    s.add_argument("--nodes", type=int, required=True)
    s.add_argument("--positions", required=True)
    s.add_argument("--out", required=True, help="JSON-lines output (appended; resumes)")
    s.add_argument("--option", action="append", default=[], help="NAME=VALUE, repeatable")
    c = sub.add_parser("compare", help="agreement of runs with a reference run")
    c.add_argument("--ref", required=True)
    c.add_argument("--ref2", help="a second reference: also count agreement where both agree")
    c.add_argument("runs", nargs="+")
    args = ap.parse_args()
    search(args) if args.cmd == "search" else compare(args)


if __name__ == "__main__":
    main()
