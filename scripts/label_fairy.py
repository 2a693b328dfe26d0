#!/usr/bin/env python3
"""Relabels gensfen data with Fairy-Stockfish's search score.

Reads `SFEN<TAB>score<TAB>result` lines (`hisha-tools gensfen`) and writes the same lines
with the score replaced by Fairy-Stockfish's `go depth D` score, from Black's point of
view, so that `hisha-tools tune` can fit Hisha's evaluation to a second engine's opinion.

Usage: scripts/label_fairy.py IN OUT [DEPTH] [STEP OFFSET]
The engine is $FAIRY (default: `fairy-stockfish` on the PATH).
"""
import os
import sys

from usi_engine import Engine


def main():
    src, dst = sys.argv[1], sys.argv[2]
    depth = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    step = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    offset = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    eng = Engine(os.environ.get("FAIRY", "fairy-stockfish"), ["setoption name USI_Hash value 16"])
    n = 0
    with open(src) as f, open(dst, "w") as out:
        for i, line in enumerate(f):
            if i % step != offset:
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3:
                continue
            sfen, _, result = parts
            black = eng.score(sfen, f"depth {depth}")
            if black is None:
                continue
            out.write(f"{sfen}\t{black}\t{result}\n")
            n += 1
            if n % 1000 == 0:
                out.flush()
                print(f"{n} labelled", file=sys.stderr, flush=True)
    eng.quit()

if __name__ == "__main__":
    main()
