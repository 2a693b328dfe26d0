#!/usr/bin/env python3
"""Relabels gensfen data with Fairy-Stockfish's search score.

Reads `SFEN<TAB>score<TAB>result` lines (examples/gensfen.rs) and writes the same lines
with the score replaced by Fairy-Stockfish's `go depth D` score, from Black's point of
view, so that examples/tune.rs can fit Hisha's evaluation to a second engine's opinion.

Usage: scripts/label_fairy.py IN OUT [DEPTH] [STEP OFFSET]
"""
import subprocess
import sys

def main():
    src, dst = sys.argv[1], sys.argv[2]
    depth = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    step = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    offset = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    eng = subprocess.Popen(["/usr/games/fairy-stockfish"], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s):
        eng.stdin.write(s + "\n")
    def wait(token):
        while True:
            line = eng.stdout.readline()
            if not line:
                sys.exit("fairy-stockfish exited")
            if line.startswith(token):
                return line
    send("usi"); wait("usiok")
    send("setoption name USI_Hash value 16")
    send("isready"); wait("readyok")
    n = 0
    with open(src) as f, open(dst, "w") as out:
        for i, line in enumerate(f):
            if i % step != offset:
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3:
                continue
            sfen, _, result = parts
            send("position sfen " + sfen)
            send(f"go depth {depth}")
            score = None
            while True:
                l = eng.stdout.readline()
                if not l:
                    sys.exit("fairy-stockfish exited")
                if l.startswith("bestmove"):
                    break
                t = l.split()
                if "score" in t:
                    k = t.index("score")
                    if t[k + 1] == "cp":
                        score = int(t[k + 2])
                    elif t[k + 1] == "mate":
                        m = int(t[k + 2])
                        score = 30000 if m > 0 else -30000
            if score is None:
                continue
            black = score if sfen.split()[1] == "b" else -score
            out.write(f"{sfen}\t{black}\t{result}\n")
            n += 1
            if n % 1000 == 0:
                out.flush()
                print(f"{n} labelled", file=sys.stderr, flush=True)
    send("quit")

if __name__ == "__main__":
    main()
