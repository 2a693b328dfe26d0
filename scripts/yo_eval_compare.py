#!/usr/bin/env python3
"""Compare the static NNUE evaluation of two USI engines position by position.

Meant for checking that Hisha reads and evaluates a YaneuraOu classic-NNUE network
(e.g. halfkp_256x2-32-32 nn.bin) exactly like YaneuraOu does, but any two engines
with a command that prints an integer evaluation of the current position will do.

The position list is deterministic (--seed): every SFEN of positions/bench.sfen and
positions/handicaps.sfen, a few hand-made ones (both sides holding a full set of
pieces in hand, everything in one hand), then positions sampled from seeded random
self-play with cshogi (pure random, capture-heavy and promotion-heavy games, some
started from the handicap and bench positions), so the set has positions in check,
checkmated positions, many pieces in hand, promoted pieces, missing pieces and both
sides to move.  No position lets the side to move capture a king.  --sfens FILE adds
more (one SFEN a line, `#` comments and an optional `name |` prefix allowed, a
leading `sfen ` ignored); they are checked the same way.

For each position both engines get `position sfen S` and then their evaluation
command; the first output line matching the engine's regex gives the value (group 1).
Defaults, chosen with --preset-a/--preset-b:
    hisha      command `eval`, regex `eval nnue (-?\\d+)`
    yaneuraou  command `e`,    regex `^eval = (-?\\d+)`
(YaneuraOu's `eval` prints nothing for NNUE builds; `e` prints `eval = <v>`, the
NNUE output / FV_SCALE, truncated toward zero, clamped to +-29999, side to move's view.)

Needs cshogi: run it with the tools venv, e.g.
    python3 -m venv ~/.cache/shogi-tools-venv
    ~/.cache/shogi-tools-venv/bin/pip install cshogi==1.1.0 python-shogi==1.1.1
    ~/.cache/shogi-tools-venv/bin/python scripts/yo_eval_compare.py \\
        --engine-a 'target/release/hisha' --options-a EvalFile=/path/eval/nn.bin \\
        --engine-b '/path/YaneuraOu-by-gcc' --preset-b yaneuraou \\
        --options-b EvalDir=/path/eval Threads=1 USI_Hash=16 BookFile=no_book

YaneuraOu resolves a relative EvalDir against the folder of its binary and loads
<EvalDir>/nn.bin at isready (it exits with `Error! : failed to read nn.bin` when the
file is missing); give it an absolute path.  Each engine command is run by the shell.

Prints the number of positions, how many evaluations are equal and how many differ,
and the first --show (20) differences (SFEN, value A, value B).  Exit code 0 only when
all are equal (1 when some differ, 2 on errors).  --write-sfens FILE saves the list.
"""
import argparse
import os
import queue
import random
import re
import shlex
import subprocess
import sys
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PRESETS = {
    "hisha": ("eval", r"eval nnue (-?\d+)"),
    "yaneuraou": ("e", r"^eval = (-?\d+)"),
}

HAND_MADE = [
    # Every piece but the kings in hand, both sides.
    "4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
    "4k4/9/9/9/9/9/9/9/4K4 w RB2G2S2N2L9Prb2g2s2n2l9p 1",
    # Everything in one hand.
    "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1",
    "4k4/9/9/9/9/9/9/9/4K4 w 2R2B4G4S4N4L18P 1",
    "4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1",
    "4k4/9/9/9/9/9/9/9/4K4 w 2r2b4g4s4n4l18p 1",
    # Kings in the corners, in the opponent's camp.
    "K8/9/9/9/9/9/9/9/8k b RB2G2S2N2L9Prb2g2s2n2l9p 1",
    "8K/9/9/9/9/9/9/9/k8 w RB2G2S2N2L9Prb2g2s2n2l9p 1",
    # Lots of promoted pieces on the board.
    "+L+N+SGKG+S+N+L/1+R5+B1/+P+P+P+P+P+P+P+P+P/9/9/9/+p+p+p+p+p+p+p+p+p/1+b5+r1/+l+n+sgkg+s+n+l b - 1",
    "+L+N+SGKG+S+N+L/1+R5+B1/+P+P+P+P+P+P+P+P+P/9/9/9/+p+p+p+p+p+p+p+p+p/1+b5+r1/+l+n+sgkg+s+n+l w - 1",
    # Side to move in check (rook check, drop check by a pawn, double check).
    "4k4/9/9/9/9/9/9/4r4/4K4 b - 1",
    "4k4/4P4/9/9/9/9/9/9/4K4 w G 1",
    "4k4/9/9/9/9/9/9/3b1r3/4K4 b - 1",
    # Few pieces (missing pieces, not in any hand).
    "4k4/9/9/9/9/9/9/9/4K4 b - 1",
    "4k4/9/9/9/9/9/9/9/4K4 w - 1",
    "4k4/9/9/9/9/9/9/9/4K4 b P 1",
]


def die(msg, code=2):
    print(f"error: {msg}", file=sys.stderr)
    sys.exit(code)


def import_cshogi():
    try:
        import cshogi  # noqa: F401
        return cshogi
    except ImportError:
        die("cshogi is missing; run this script with ~/.cache/shogi-tools-venv/bin/python "
            "(python3 -m venv ~/.cache/shogi-tools-venv && "
            "~/.cache/shogi-tools-venv/bin/pip install cshogi==1.1.0 python-shogi==1.1.1)")


def read_sfen_file(path):
    """SFENs of a file: blank lines and '#' comments skipped, 'name | sfen' and 'sfen ...' accepted."""
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if "|" in line:
                line = line.split("|", 1)[1].strip()
            if line.startswith("sfen "):
                line = line[5:].strip()
            if line.startswith("position sfen "):
                line = line[len("position sfen "):].strip()
            line = line.split(" moves ")[0]
            out.append(" ".join(line.split()))
    return out


def check_legal(cshogi, sfen):
    """None when `sfen` is usable, else the reason: both kings present, side not to move not in check."""
    f = sfen.split()
    if len(f) < 3 or f[1] not in ("b", "w"):
        return "not a SFEN"
    board = f[0]
    if board.count("K") != 1 or board.count("k") != 1:
        return "needs exactly one king a side"
    b = cshogi.Board()
    try:
        b.set_sfen(sfen)
    except Exception as e:  # cshogi raises on bad SFENs
        return f"cshogi rejects it: {e}"
    other = " ".join([f[0], "w" if f[1] == "b" else "b"] + f[2:])
    b2 = cshogi.Board()
    b2.set_sfen(other)
    if b2.is_check():
        return "the side to move can capture the king"
    return None


def key(sfen):
    return " ".join(sfen.split()[:3])


def random_game(cshogi, rng, start, style, max_ply):
    """Positions (SFENs, in check flags) of one random game from `start`."""
    b = cshogi.Board()
    b.set_sfen(start)
    seen = []
    for _ in range(max_ply):
        seen.append((b.sfen(), b.is_check()))
        moves = list(b.legal_moves)
        if not moves:
            break  # checkmated (or no move): the position is still kept
        if style == "capture":
            caps = [m for m in moves if not cshogi.move_is_drop(m) and b.piece(cshogi.move_to(m)) != 0]
            pool = caps if caps and rng.random() < 0.85 else moves
        elif style == "promote":
            proms = [m for m in moves if cshogi.move_is_promotion(m)]
            caps = [m for m in moves if not cshogi.move_is_drop(m) and b.piece(cshogi.move_to(m)) != 0]
            r = rng.random()
            pool = proms if proms and r < 0.6 else caps if caps and r < 0.9 else moves
        elif style == "check":
            checks = list(b.check_moves)
            caps = [m for m in moves if not cshogi.move_is_drop(m) and b.piece(cshogi.move_to(m)) != 0]
            r = rng.random()
            pool = checks if checks and r < 0.4 else caps if caps and r < 0.8 else moves
        else:
            pool = moves
        b.push(rng.choice(pool))
    return seen


def build_positions(n, seed, extra_files, quiet=False):
    cshogi = import_cshogi()
    rng = random.Random(seed)
    out, keys, rejected = [], set(), []

    def add(sfen, origin):
        sfen = " ".join(sfen.split())
        if key(sfen) in keys:
            return False
        why = check_legal(cshogi, sfen)
        if why:
            rejected.append((origin, sfen, why))
            return False
        keys.add(key(sfen))
        out.append(sfen)
        return True

    bench = read_sfen_file(os.path.join(REPO, "positions", "bench.sfen"))
    handicaps = read_sfen_file(os.path.join(REPO, "positions", "handicaps.sfen"))
    for s in bench:
        add(s, "positions/bench.sfen")
    for s in handicaps:
        add(s, "positions/handicaps.sfen")
    for s in HAND_MADE:
        add(s, "hand-made")
    for path in extra_files:
        for s in read_sfen_file(path):
            add(s, path)

    starts = [cshogi.STARTING_SFEN] + bench + handicaps
    styles = ["random", "capture", "capture", "promote", "check"]
    game = 0
    while len(out) < n and game < 100000:
        start = cshogi.STARTING_SFEN if game % 3 == 0 else rng.choice(starts)
        style = styles[game % len(styles)]
        max_ply = rng.choice([60, 150, 300, 500])
        seen = random_game(cshogi, rng, start, style, max_ply)
        game += 1
        checks = [s for s, c in seen if c]
        quiet_pos = [s for s, c in seen if not c]
        pick = rng.sample(checks, min(len(checks), 6))
        pick += rng.sample(quiet_pos, min(len(quiet_pos), 18))
        # Always keep the game's last position (often checkmate or a crowded hand).
        if seen:
            pick.append(seen[-1][0])
        for s in pick:
            if len(out) >= n:
                break
            add(s, f"game {game}")
    if not quiet and rejected:
        print(f"skipped {len(rejected)} SFEN(s):", file=sys.stderr)
        for origin, s, why in rejected[:10]:
            print(f"  {origin}: {s}  ({why})", file=sys.stderr)
    # The fixed positions are always all there, even when there are more than n.
    return out


def describe(cshogi, sfens):
    """One line about the mix of the position set."""
    in_check = black = promoted = big_hand = 0
    b = cshogi.Board()
    for s in sfens:
        b.set_sfen(s)
        in_check += b.is_check()
        black += s.split()[1] == "b"
        promoted += "+" in s.split()[0]
        hand = sum(sum(h) for h in b.pieces_in_hand)
        big_hand += hand >= 10
    return (f"{len(sfens)} positions: {black} Black to move, {len(sfens) - black} White, "
            f"{in_check} in check, {promoted} with promoted pieces, {big_hand} with >= 10 pieces in hand")


class Engine:
    """A USI engine run through the shell; stdout and stderr are read by a thread."""

    def __init__(self, label, cmd, options, timeout):
        self.label, self.cmd, self.timeout = label, cmd, timeout
        self.tail = []
        try:
            self.proc = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, text=True, bufsize=1, errors="replace")
        except OSError as e:
            die(f"engine {label}: cannot start '{cmd}': {e}")
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("usi")
        self.wait(re.compile(r"^usiok"))
        for opt in options:
            if "=" not in opt:
                die(f"engine {label}: option '{opt}' is not NAME=VALUE")
            name, value = opt.split("=", 1)
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait(re.compile(r"^readyok"), timeout=max(timeout, 120))

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self.fail(f"engine exited (while sending '{line}')")

    def fail(self, why):
        tail = "\n    ".join(self.tail[-15:])
        die(f"engine {self.label} ({self.cmd}): {why}; its last lines:\n    {tail}")

    def wait(self, regex, timeout=None):
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.fail(f"no line matching /{regex.pattern}/ within {timeout or self.timeout} s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                self.fail("engine exited")
            self.tail.append(line)
            del self.tail[:-50]
            m = regex.search(line)
            if m:
                return m

    def quit(self):
        try:
            self.send("quit")
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except (SystemExit, subprocess.TimeoutExpired, OSError):
            self.proc.kill()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine-a", default=os.path.join(REPO, "target", "release", "hisha"),
                    help="shell command line of engine A (default: target/release/hisha)")
    ap.add_argument("--engine-b", help="shell command line of engine B (e.g. a YaneuraOu binary)")
    ap.add_argument("--options-a", nargs="*", default=[], metavar="NAME=VALUE",
                    help="setoption lines for engine A, sent before isready")
    ap.add_argument("--options-b", nargs="*", default=[], metavar="NAME=VALUE",
                    help="setoption lines for engine B, sent before isready")
    ap.add_argument("--preset-a", choices=sorted(PRESETS), default="hisha",
                    help="default evaluation command and regex of engine A (default hisha)")
    ap.add_argument("--preset-b", choices=sorted(PRESETS), default="yaneuraou",
                    help="default evaluation command and regex of engine B (default yaneuraou)")
    ap.add_argument("--eval-cmd-a", help="evaluation command of engine A (overrides the preset)")
    ap.add_argument("--eval-cmd-b", help="evaluation command of engine B (overrides the preset)")
    ap.add_argument("--eval-re-a", help="regex whose group 1 is engine A's value (overrides the preset)")
    ap.add_argument("--eval-re-b", help="regex whose group 1 is engine B's value (overrides the preset)")
    ap.add_argument("-n", "--positions", type=int, default=1000, help="number of positions (default 1000)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random games (default 1)")
    ap.add_argument("--sfens", action="append", default=[], metavar="FILE",
                    help="extra SFENs, one a line (may be given several times)")
    ap.add_argument("--write-sfens", metavar="FILE", help="write the position list to FILE")
    ap.add_argument("--only-write", action="store_true", help="write --write-sfens and stop (no engines)")
    ap.add_argument("--show", type=int, default=20, help="differences to print (default 20)")
    ap.add_argument("--timeout", type=float, default=30, help="seconds to wait for one evaluation (default 30)")
    args = ap.parse_args()

    cshogi = import_cshogi()
    sfens = build_positions(args.positions, args.seed, args.sfens)
    print(describe(cshogi, sfens))
    if args.write_sfens:
        with open(args.write_sfens, "w") as f:
            f.write("".join(s + "\n" for s in sfens))
        print(f"wrote {args.write_sfens}")
    if args.only_write:
        return 0
    if not args.engine_b:
        die("--engine-b is required (or --only-write)")

    cmd_a = args.eval_cmd_a or PRESETS[args.preset_a][0]
    cmd_b = args.eval_cmd_b or PRESETS[args.preset_b][0]
    re_a = re.compile(args.eval_re_a or PRESETS[args.preset_a][1])
    re_b = re.compile(args.eval_re_b or PRESETS[args.preset_b][1])

    a = Engine("A", args.engine_a, args.options_a, args.timeout)
    b = Engine("B", args.engine_b, args.options_b, args.timeout)
    diffs, equal = [], 0
    t0 = time.monotonic()
    try:
        for s in sfens:
            vals = []
            for eng, cmd, rx in ((a, cmd_a, re_a), (b, cmd_b, re_b)):
                eng.send("position sfen " + s)
                eng.send(cmd)
                vals.append(int(eng.wait(rx).group(1)))
            if vals[0] == vals[1]:
                equal += 1
            else:
                diffs.append((s, vals[0], vals[1]))
    finally:
        a.quit()
        b.quit()

    print(f"engine A: {args.engine_a}  ({shlex.quote(cmd_a)}, /{re_a.pattern}/)")
    print(f"engine B: {args.engine_b}  ({shlex.quote(cmd_b)}, /{re_b.pattern}/)")
    print(f"positions: {len(sfens)}  equal: {equal}  differing: {len(diffs)}  "
          f"({time.monotonic() - t0:.1f} s)")
    if diffs:
        worst = max(abs(x - y) for _, x, y in diffs)
        print(f"largest |A-B|: {worst}")
        print(f"first {min(args.show, len(diffs))} differences (sfen | A | B):")
        for s, x, y in diffs[:args.show]:
            print(f"  {s} | {x} | {y}")
    return 0 if not diffs else 1


if __name__ == "__main__":
    sys.exit(main())
