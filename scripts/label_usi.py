#!/usr/bin/env python3
"""Labels positions with a USI engine's search score (Black's point of view).

Reads one SFEN per line and writes `SFEN<TAB>score` lines: the last `score cp` (mate
scores become +/-30000) of a `go btime 0 wtime 0 byoyomi MS` search. gpsshogi
(`/usr/games/gpsusi`, book off) is the referee used for the evaluation checks in the
README; it thinks in whole seconds, so MS should be 1000 or more. STEP and OFFSET take
every STEP-th line starting at OFFSET, so that two processes can share one file.

Usage: scripts/label_usi.py ENGINE IN OUT [MS] [STEP OFFSET]
"""
import re
import subprocess
import sys


def main():
    eng, src, dst = sys.argv[1], sys.argv[2], sys.argv[3]
    ms = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
    step = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    offset = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    p = subprocess.Popen([eng], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def wait(token):
        last = None
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit(f"{eng} exited")
            if " score " in line:
                last = line
            if line.startswith(token):
                return last

    send("usi")
    wait("usiok")
    if "gps" in eng:
        send("setoption name BookDepth value 0")
    send("isready")
    wait("readyok")
    with open(src) as f, open(dst, "w") as out:
        for i, sfen in enumerate(f):
            sfen = sfen.strip()
            if i % step != offset or not sfen:
                continue
            send("position sfen " + sfen)
            send(f"go btime 0 wtime 0 byoyomi {ms}")
            last = wait("bestmove")
            m = re.search(r"score (cp|mate) (-?\d+)", last or "")
            if not m:
                continue
            v = int(m.group(2)) if m.group(1) == "cp" else (30000 if int(m.group(2)) > 0 else -30000)
            if sfen.split()[1] == "w":
                v = -v
            out.write(f"{sfen}\t{v}\n")
            out.flush()
    send("quit")


if __name__ == "__main__":
    main()
