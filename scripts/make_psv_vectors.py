#!/usr/bin/env python3
"""Writes PackedSfen test vectors produced by cshogi (an independent implementation of
YaneuraOu's packer) for Hisha's pure-Rust tests (tests/psv_cshogi.rs).

Usage: python3 scripts/make_psv_vectors.py > tests/data/psv_cshogi_vectors.txt
Needs: pip install cshogi numpy (the vectors in the repository came from cshogi 1.1.0).

Each line: SFEN <TAB> a legal move (USI) <TAB> cshogi's to_psfen bytes (hex)
<TAB> cshogi's move16_to_psv code (hex). Positions: random games (fixed seed) from
the start position and from every handicap start in positions/handicaps.sfen,
sampled every few plies, plus a few hand-made edge cases (a bare-kings position
whose other 38 pieces are all in the piece box, full hands).
"""
import os
import random
import sys

import cshogi
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def starts():
    yield cshogi.STARTING_SFEN
    with open(os.path.join(ROOT, "positions", "handicaps.sfen")) as f:
        for line in f:
            if "|" in line and not line.startswith("#"):
                yield line.split("|", 1)[1].strip()


def vector(board, move):
    packed = np.zeros(1, cshogi.PackedSfen)
    board.to_psfen(packed)
    code = cshogi.move16_to_psv(cshogi.move16(move))
    return f"{board.sfen()}\t{cshogi.move_to_usi(move)}\t{packed.tobytes().hex()}\t{code:04x}"


def main():
    rng = random.Random(20261125)
    out = []
    for start in starts():
        for _ in range(6):
            board = cshogi.Board(start)
            for ply in range(rng.randint(20, 160)):
                moves = list(board.legal_moves)
                if not moves or board.is_game_over():
                    break
                move = rng.choice(moves)
                if ply % 7 == 3:
                    out.append(vector(board, move))
                board.push(move)
    for sfen, usi in [
        ("4k4/9/9/9/9/9/9/9/4K4 b - 1", "5i4h"),
        ("4k4/9/9/9/9/9/9/9/4K4 w 2P3g 40", "G*5h"),
        ("4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 7", "P*5b"),
        ("8k/9/9/9/9/9/9/9/K8 w 2r2b4g4s4n4l18p 200", "R*1b"),
    ]:
        board = cshogi.Board(sfen)
        out.append(vector(board, board.move_from_usi(usi)))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
