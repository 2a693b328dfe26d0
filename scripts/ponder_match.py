#!/usr/bin/env python3
"""`check match` with pondering, the way a GUI drives it: an engine that ponders is sent
`go ponder` on the position after its own move and the reply it predicted (`bestmove M
ponder P`), with the clock as it stands; when the opponent plays P it is sent
`ponderhit` (with `--early`: `ponderhit btime .. wtime .. byoyomi ..`, ShogiHome's early
ponder) and its clock runs from then; when the opponent plays another move it is sent
`stop`, its answer is thrown away, and the real position comes with a plain `go`.

Everything else (adjudication, clocks, time losses, CSA records, the result lines) is
../shared/tools/match.py's own: this script wraps each pondering engine in a proxy and
runs that match. It prints, per pondering engine, how often the prediction hit and the
slowest answer to a `stop` (the GUI waits for it before the next `go`).

    scripts/ponder_match.py --ponder a target/release/hisha target/release/hisha \\
        --games 40 --tc byoyomi=200 --openings ../shared/openings/taya36_2020-11-06.sfen
    scripts/ponder_match.py --ponder a --early NEW /usr/games/gpsusi --tc byoyomi=1000 \\
        --margin 1000 --options-b Thread=1

Run it with the Python of ../shared/tools/check (its virtual environment has cshogi):
`~/.cache/shogi-tools-venv/bin/python scripts/ponder_match.py ...`.
"""

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.environ.get("SHOGI_TOOLS") or os.path.join(ROOT, "..", "shared", "tools"))

import match  # noqa: E402  (../shared/tools/match.py)
import usilib  # noqa: E402
from usilib import EngineTimeout  # noqa: E402

STOP_WAIT = 10.0  # seconds an engine may take to answer `stop` before it counts as hung


class PonderingEngine:
    """A usilib.Engine that ponders between its moves like a GUI's engine."""

    def __init__(self, engine, early):
        self.e, self.early = engine, early
        self.name = engine.name
        self.pos = (None, [])            # the position of the next `go`
        self.pondering = None            # (start, moves) being pondered, or None
        self.hits = self.misses = self.stop_hangs = 0
        self.slowest_stop = 0.0

    # what match.py calls besides position/go
    def alive(self):
        return self.e.alive()

    def kill(self):
        self.e.kill()

    def quit(self, timeout=1.0):
        self.end_ponder()
        return self.e.quit(timeout)

    def send(self, line):
        if line.startswith("gameover") or line == "usinewgame":
            try:
                self.end_ponder()
            except EngineTimeout:
                self.stop_hangs += 1          # no move to score: restart it for the next game
                self.e.kill()
                return
        self.e.send(line)

    def position(self, sfen=None, moves=()):
        self.pos = (sfen, list(moves))

    def end_ponder(self):
        """Stops a running ponder search and throws its move away."""
        pondering, self.pondering = self.pondering, None
        if pondering is None or not self.e.alive():
            return
        t0 = time.monotonic()
        self.e.send("stop")
        self.e.wait_bestmove(t0, STOP_WAIT)   # EngineTimeout: match.py scores a hang
        self.slowest_stop = max(self.slowest_stop, time.monotonic() - t0)

    def go(self, args, timeout):
        if self.pondering is not None and self.pondering == self.pos:
            self.pondering = None
            self.hits += 1
            t0 = time.monotonic()
            self.e.send("ponderhit " + args if self.early else "ponderhit")
            r = self.e.wait_bestmove(t0, timeout)
        else:
            if self.pondering is not None:
                self.misses += 1
                self.end_ponder()
            self.e.position(*self.pos)
            r = self.e.go(args, timeout)
        self.start_ponder(args, r)
        return r

    def start_ponder(self, args, r):
        """After `bestmove M ponder P`: `go ponder` on the position after M and P."""
        sfen, moves = self.pos
        bm, reply = r["bestmove"], r["ponder"]
        if not reply or bm in ("resign", "win"):
            return
        try:
            board = usilib.board_from(sfen, moves)
            if not usilib.legal_usi(board, bm):
                return
            side = board.turn
            board.push_usi(bm)
            if not usilib.legal_usi(board, reply):
                return
        except (ValueError, IndexError):
            return
        self.pondering = (sfen, moves + [bm, reply])
        self.e.position(*self.pondering)
        self.e.send("go ponder " + clock_after(args, side, r["elapsed"]))


def clock_after(args, side, elapsed):
    """The `go` clock with the mover's own time reduced by what its move took."""
    tok = args.split()
    own = "btime" if side == 0 else "wtime"
    inc = "binc" if side == 0 else "winc"
    words = dict(zip(tok[::2], tok[1::2]))
    if own in words:
        left = int(words[own]) + int(words.get(inc, 0)) - int(elapsed * 1000)
        words[own] = str(max(0, left))
    return " ".join(f"{k} {v}" for k, v in words.items())


def main():
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("--ponder", choices=["a", "b", "both"], default="a")
    ap.add_argument("--early", action="store_true")
    mine, rest = ap.parse_known_args()
    if "-h" in rest or "--help" in rest:
        print(__doc__)
    ponderers = {"a": {0}, "b": {1}, "both": {0, 1}}[mine.ponder]
    wrapped, created = [], []

    class Player(match.Player):
        """match.py's player; the first made is engine A, the second B."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.ponders = len(created) in ponderers
            created.append(self)

        def engine(self):
            inner = self.e.e if isinstance(self.e, PonderingEngine) else self.e
            if inner is None or not inner.alive():
                if inner is not None:
                    inner.kill()
                inner = usilib.start(self.cmd, name=self.label, log=self.log,
                                     options=list(self.options) + [("USI_Ponder", "true")]
                                     if self.ponders else self.options)
                inner.name = self.label
                if self.ponders:
                    self.e = PonderingEngine(inner, mine.early)
                    wrapped.append(self.e)
                else:
                    self.e = inner
            return self.e

    match.Player = Player
    sys.argv = [sys.argv[0]] + rest
    rc = match.main()
    for p in wrapped:
        total = p.hits + p.misses
        share = f"{100 * p.hits / total:.0f}%" if total else "-"
        print(f"ponder {p.name}: {p.hits} hits, {p.misses} misses ({share} hit), "
              f"slowest answer to stop {p.slowest_stop * 1000:.0f} ms, {p.stop_hangs} stop(s) unanswered at a game's end")
    return rc


if __name__ == "__main__":
    sys.exit(main())
