#!/usr/bin/env python3
"""Labels positions with a USI engine's search score (Black's point of view).

Reads one SFEN per line and writes `SFEN<TAB>score` lines: the last `score cp` (mate
scores become +/-30000) of a `go btime 0 wtime 0 byoyomi MS` search. gpsshogi
(`gpsusi`, book off) is the referee used for the evaluation checks in the
README; it thinks in whole seconds, so MS should be 1000 or more. STEP and OFFSET take
every STEP-th line starting at OFFSET, so that two processes can share one file.

Usage: scripts/label_usi.py ENGINE IN OUT [MS] [STEP OFFSET]
"""
import sys

from usi_engine import Engine


def main():
    eng, src, dst = sys.argv[1], sys.argv[2], sys.argv[3]
    ms = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
    step = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    offset = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    engine = Engine(eng, ["setoption name BookDepth value 0"] if "gps" in eng else [])
    with open(src) as f, open(dst, "w") as out:
        for i, sfen in enumerate(f):
            sfen = sfen.strip()
            if i % step != offset or not sfen:
                continue
            v = engine.score(sfen, f"btime 0 wtime 0 byoyomi {ms}")
            if v is None:
                continue
            out.write(f"{sfen}\t{v}\n")
            out.flush()
    engine.quit()


if __name__ == "__main__":
    main()
