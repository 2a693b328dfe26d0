#!/usr/bin/env python3
"""Build the tsume files in positions/mate/ and verify every answer with cshogi.

Random tsume-like positions (white king in its camp, a few black attackers and white
defenders nearby, black pieces in hand, black king in a far corner, every other piece
in white's hand) are screened with `hisha mate`, then each kept problem is verified
with cshogi, which nobody on this project wrote:
  * mates: cshogi's mate_move / depth-limited df-pn agree on the shortest length n
    (usilib.verify_mate_problem: mate within n, none within n-2), and the stored
    solution is a legal line of checks ending in mate (usilib.mate_line_error);
  * no-mates: cshogi df-pn (depth 63) fails without hitting its node limit, and
    cshogi's mate_move finds nothing up to 7 plies.
Usage: make_problems.py HISHA_BINARY [--seed S] [--tries N]
Writes mate_short.txt (1-9 plies), mate_long.txt (11+ plies), nomate.txt.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "shared", "tools"))
import cshogi  # noqa: E402
from make_mate_suite import FULL, legal_placement, to_sfen, sane  # noqa: E402
from usilib import verify_mate_problem, mate_line_error  # noqa: E402

ATTACKERS = ["G", "S", "R", "B", "N", "L", "P", "+R", "+B", "+P", "G", "S"]
DEFENDERS = ["g", "s", "n", "l", "p", "b", "r", "p", "g"]
HAND = ["G", "S", "N", "L", "P", "R", "B", "G", "S"]


def random_problem(rng):
    grid, used = {}, {}
    kf, kr = rng.randrange(9), rng.randrange(3)
    grid[(kf, kr)] = "k"
    grid[(0, 8) if kf >= 4 else (8, 8)] = "K"

    def place(pieces, n, dr):
        for _ in range(n):
            p = rng.choice(pieces)
            for _try in range(20):
                f, r = kf + rng.randint(-3, 3), kr + rng.randint(*dr)
                if 0 <= f < 9 and 0 <= r < 9 and (f, r) not in grid and legal_placement(p, f, r, grid):
                    base = p.lstrip("+").upper()
                    if used.get(base, 0) < FULL[base]:
                        grid[(f, r)] = p
                        used[base] = used.get(base, 0) + 1
                    break
    place(ATTACKERS, rng.randint(1, 4), (-1, 4))
    place(DEFENDERS, rng.randint(1, 6), (-1, 2))
    hand_b = {}
    for _ in range(rng.randint(1, 4)):
        k = rng.choice(HAND)
        if used.get(k, 0) < FULL[k]:
            hand_b[k] = hand_b.get(k, 0) + 1
            used[k] = used.get(k, 0) + 1
    hand_w = {k: FULL[k] - used.get(k, 0) for k in FULL}
    return to_sfen(grid, hand_b, hand_w)


def run_hisha(binary, sfens, ms):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        for i, s in enumerate(sfens):
            f.write(f"{s} | | | c{i}\n")
        path = f.name
    out = subprocess.run([binary, "mate", "--file", path, "--time", str(ms), "--hash", "64"],
                         capture_output=True, text=True).stdout
    os.unlink(path)
    res = {}
    for line in out.splitlines():
        tok = line.split()
        if not tok or not tok[0].startswith("c") or "checkmate" not in tok:
            continue
        i = int(tok[0][1:])
        ans = tok[tok.index("checkmate") + 1:]
        res[i] = ans
    return res


def cshogi_nomate(sfen):
    b = cshogi.Board(sfen)
    limit = 3_000_000
    d = cshogi.DfPn(depth=63, nodes=limit)
    if d.search(b) or d.searched_node >= limit:
        return False
    return not any(b.mate_move(n) for n in (3, 5, 7)) and not b.mate_move_in_1ply()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--tries", type=int, default=40000)
    ap.add_argument("--want", default="1:3,3:4,5:4,7:4,9:4,11:4,13:4,15:3,17:2,19:2,21:1")
    ap.add_argument("--nomate", type=int, default=12)
    a = ap.parse_args()
    want = {int(k): int(v) for k, v in (x.split(":") for x in a.want.split(","))}
    rng = random.Random(a.seed)
    cands = []
    while len(cands) < a.tries:
        s = random_problem(rng)
        if sane(s):
            cands.append(s)
    got = {n: [] for n in want}
    nomates = []
    for start in range(0, len(cands), 2000):
        batch = cands[start:start + 2000]
        res = run_hisha(a.binary, batch, 300)
        for i, ans in res.items():
            s = batch[i]
            if ans == ["nomate"]:
                if len(nomates) < a.nomate and cshogi_nomate(s):
                    nomates.append(s)
                continue
            if ans in (["timeout"], []):
                continue
            n = len(ans)
            if n not in want or len(got[n]) >= want[n]:
                continue
            why = verify_mate_problem(s, n) or mate_line_error(cshogi.Board(s), ans)
            if why:
                print(f"REJECTED {s} n={n}: {why}", file=sys.stderr)
                continue
            got[n].append((s, n, " ".join(ans)))
            print(f"kept {n}-ply problem ({sum(map(len, got.values()))} so far)", file=sys.stderr)
        if all(len(got[n]) >= want[n] for n in want) and len(nomates) >= a.nomate:
            break
    head = ("# generated by make_problems.py (seed %d); every line verified with cshogi\n"
            "# SFEN | shortest mate (plies; 0 = no mate) | solution (Hisha's, checked by cshogi) | label\n" % a.seed)
    with open(os.path.join(HERE, "mate_short.txt"), "w") as f:
        f.write(head)
        for n in sorted(got):
            if n <= 9:
                for i, (s, n_, pv) in enumerate(got[n]):
                    f.write(f"{s} | {n_} | {pv} | r{n}-{i + 1}\n")
    with open(os.path.join(HERE, "mate_long.txt"), "w") as f:
        f.write(head)
        for n in sorted(got):
            if n > 9:
                for i, (s, n_, pv) in enumerate(got[n]):
                    f.write(f"{s} | {n_} | {pv} | r{n}-{i + 1}\n")
    with open(os.path.join(HERE, "nomate.txt"), "w") as f:
        f.write(head)
        for i, s in enumerate(nomates):
            f.write(f"{s} | 0 | | nomate-{i + 1}\n")
    short = {n: len(v) for n, v in got.items()}
    print(f"counts: {short}; nomate {len(nomates)}", file=sys.stderr)


if __name__ == "__main__":
    main()
