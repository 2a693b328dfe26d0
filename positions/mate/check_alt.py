#!/usr/bin/env python3
"""Checks positions/mate/alt.txt with cshogi, independently of Hisha.

For each line `SFEN | plies | solution | alt status | label`:
  * the solution is a legal line of checks ending in mate, of `plies` plies, and
    cshogi's mate_move finds no shorter mate (by the plain rules: every interposition
    counts, so the file keeps to problems where the conventions change nothing);
  * the alternative mates: at each attacker ply k of the solution, with R plies left,
    every other legal check m is tried; m is an alternative when every defence after it
    is mated within R - 2 more plies (cshogi mate_move), or it mates at once. The plies
    with an alternative must be the status's list (`unique`: none).

cshogi knows no composers' conventions: plies whose alternatives exist only because an
interposition is futile (a rook dropped farther away, the interposition taken) are
listed in CONVENTIONS_ONLY and must be missing from cshogi's list; Hisha finds them
with --conventions auto (the attacker has no king) and loses them with off.

Lines longer than MAX_PLIES (13) are skipped: cshogi's fixed-depth mate_move gets slow
there, and such problems are solved by the conventions anyway.

Run: ~/.cache/shogi-tools-venv/bin/python positions/mate/check_alt.py [FILE]
"""

import sys

import cshogi

MAX_PLIES = 13
# label -> plies whose alternatives need the conventions (checked with Hisha's
# --conventions off, which agrees with cshogi there)
CONVENTIONS_ONLY = {"mogami-7": {1}}


def mated_within(b, n):
    """Whether the side to move (the attacker) mates within n plies (n odd >= 1)."""
    if b.mate_move_in_1ply():
        return True
    return any(b.mate_move(k) for k in range(3, n + 1, 2))


def shortest(b, limit):
    for n in range(1, limit + 1, 2):
        if mated_within(b, n):
            return n
    return None


def alternative(b, m, left):
    """Whether the check m (attacker to move in b) mates within `left` plies."""
    b.push(m)
    try:
        if not b.is_check():
            return False
        evasions = list(b.legal_moves)
        if not evasions:
            return True
        if left < 3:
            return False
        for e in evasions:
            b.push(e)
            ok = mated_within(b, left - 2)
            b.pop()
            if not ok:
                return False
        return True
    finally:
        b.pop()


def alt_plies(sfen, line):
    b = cshogi.Board(sfen)
    found = []
    for k, mv in enumerate(line):
        if k % 2 == 0:
            main = b.move_from_usi(mv)
            left = len(line) - k
            alts = [cshogi.move_to_usi(m) for m in b.legal_moves if m != main and alternative(b, m, left)]
            if alts:
                found.append((k + 1, alts))
        b.push_usi(mv)
    return found


def line_error(sfen, line):
    b = cshogi.Board(sfen)
    for i, mv in enumerate(line):
        m = b.move_from_usi(mv)
        if m == 0 or not b.is_legal(m):
            return f"move {i + 1} ({mv}) is illegal"
        b.push(m)
        if i % 2 == 0 and not b.is_check():
            return f"move {i + 1} ({mv}) is no check"
    if not (b.is_check() and len(list(b.legal_moves)) == 0):
        return "no mate at the end"
    return None


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "positions/mate/alt.txt"
    bad = 0
    for raw in open(path, encoding="utf-8"):
        raw = raw.strip()
        if not raw or raw.startswith("#"):
            continue
        sfen, plies, solution, status, label = [t.strip() for t in raw.split("|")]
        # Only the same-length part: a `; longer ...` tail (longer mates) is Hisha's alone.
        status = status.split(";")[0].strip()
        line = solution.split()
        n = int(plies)
        if n > MAX_PLIES:
            print(f"skip  {label:<28} ({n} plies)")
            continue
        err = line_error(sfen, line)
        if not err and len(line) != n:
            err = f"solution has {len(line)} plies, not {n}"
        if not err and shortest(cshogi.Board(sfen), n) != n:
            err = f"cshogi finds the shortest mate in {shortest(cshogi.Board(sfen), n)}"
        found = alt_plies(sfen, line)
        got = "alt " + ",".join(str(p) for p, _ in found) if found else "unique"
        listed = [int(t) for t in status.lower().replace("alt", "").replace(",", " ").split() if t != "unique"]
        plain = [p for p in listed if p not in CONVENTIONS_ONLY.get(label, set())]
        want = "alt " + ",".join(str(p) for p in plain) if plain else "unique"
        ok = not err and got == want
        bad += not ok
        detail = "; ".join(f"ply {p}: {' '.join(a)}" for p, a in found)
        print(f"{'ok   ' if ok else 'WRONG'} {label:<28} {got:<10} {err or ''} {detail}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
