#!/usr/bin/env python3
"""Round trip of PackedSfenValue files between Hisha and cshogi.

1. `hisha gensfen` writes a few games; cshogi reads the file as
   `cshogi.PackedSfenValue` (numpy) and `Board.set_psfen`/`move_from_psv`; every
   record must give the same position, move, score, game ply and result that
   `hisha psv-dump` prints, and the move must be legal for cshogi.
2. cshogi writes records of random positions (handicap starts included, pieces in
   hand, promotions and drops); `hisha psv-dump` must read back the same.

Usage: python3 scripts/psv_roundtrip.py path/to/hisha [--games N] [--nodes N]
Needs: pip install cshogi numpy. Exit status 0 when everything matches.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

import cshogi
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def dump(hisha, path):
    out = subprocess.run([hisha, "psv-dump", path], check=True, capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines()]


def position_part(sfen):
    """Board, side and hands (without the move number)."""
    return " ".join(sfen.split()[:3])


def check_hisha_to_cshogi(hisha, work, games, nodes):
    path = os.path.join(work, "hisha.bin")
    subprocess.run(
        [hisha, "gensfen", "--out", path, "--games", str(games), "--nodes", str(nodes), "--threads", "1",
         "--seed", "1", "--handicap-rate", "0.4", "--keep-captures", "--keep-checks", "--progress", "60"],
        check=True, stderr=subprocess.DEVNULL)
    psvs = np.fromfile(path, dtype=cshogi.PackedSfenValue)
    lines = dump(hisha, path)
    assert len(psvs) == len(lines) > 0, (len(psvs), len(lines))
    board = cshogi.Board()
    kinds = {"drop": 0, "promotion": 0, "capture": 0, "check": 0, "handicap": 0}
    for i, (psv, line) in enumerate(zip(psvs, lines)):
        sfen, move, score, result, _game = line
        board.set_psfen(psv["sfen"])
        move16 = board.move_from_psv(int(psv["move"]))
        usi = cshogi.move_to_usi(move16)
        got = (position_part(board.sfen()), usi, int(psv["score"]), int(psv["gamePly"]), int(psv["game_result"]))
        want = (position_part(sfen), move, int(score), int(sfen.split()[3]), int(result))
        if got != want:
            sys.exit(f"record {i}: cshogi read {got}, hisha wrote {want}")
        if not board.is_legal(move16):
            sys.exit(f"record {i}: {usi} is not legal for cshogi in {board.sfen()}")
        kinds["drop"] += "*" in usi
        kinds["promotion"] += usi.endswith("+")
        kinds["capture"] += board.piece(cshogi.move_to(move16)) != 0 and "*" not in usi
        kinds["check"] += board.is_check()
        kinds["handicap"] += sum(board.pieces_in_hand[0]) + sum(board.pieces_in_hand[1]) + \
            sum(1 for p in board.pieces if p) < 40
    print(f"hisha -> cshogi: {len(psvs)} records of {games} games identical ({kinds})")


def check_cshogi_to_hisha(hisha, work, count):
    rng = random.Random(20261125)
    starts = [cshogi.STARTING_SFEN]
    with open(os.path.join(ROOT, "positions", "handicaps.sfen")) as f:
        starts += [l.split("|", 1)[1].strip() for l in f if "|" in l and not l.startswith("#")]
    recs = np.zeros(count, dtype=cshogi.PackedSfenValue)
    want = []
    i = 0
    while i < count:
        board = cshogi.Board(rng.choice(starts))
        for _ in range(rng.randint(0, 150)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        moves = list(board.legal_moves)
        if not moves:
            continue
        move = rng.choice(moves)
        board.to_psfen(recs[i:i + 1]["sfen"])
        recs[i]["score"] = rng.randint(-3000, 3000)
        recs[i]["move"] = cshogi.move16_to_psv(cshogi.move16(move))
        recs[i]["gamePly"] = board.move_number
        recs[i]["game_result"] = rng.choice([-1, 0, 1])
        want.append((position_part(board.sfen()), cshogi.move_to_usi(move), int(recs[i]["score"]),
                     board.move_number, int(recs[i]["game_result"])))
        i += 1
    path = os.path.join(work, "cshogi.bin")
    recs.tofile(path)
    for j, (line, w) in enumerate(zip(dump(hisha, path), want)):
        sfen, move, score, result, _game = line
        got = (position_part(sfen), move, int(score), int(sfen.split()[3]), int(result))
        if got != w:
            sys.exit(f"record {j}: hisha read {got}, cshogi wrote {w}")
    print(f"cshogi -> hisha: {count} records identical")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("hisha")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--nodes", type=int, default=300)
    ap.add_argument("--records", type=int, default=2000)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        check_hisha_to_cshogi(a.hisha, work, a.games, a.nodes)
        check_cshogi_to_hisha(a.hisha, work, a.records)


if __name__ == "__main__":
    main()
