#!/usr/bin/env python3
"""Samples middle-game positions from `check match` CSA records, one SFEN per line.

From every game, about one position in twelve from ply 24 on, never with the side to
move in check and never within ten plies of the end; shuffled with a fixed seed.

Usage: scripts/sample_csa.py DIR... > positions.txt
(needs cshogi: ~/.cache/shogi-tools-venv/bin/python scripts/sample_csa.py ...)
"""
import glob
import random
import sys

import cshogi
import cshogi.CSA as CSA


def main():
    rng = random.Random(1)
    out = []
    for d in sys.argv[1:]:
        for path in sorted(glob.glob(d + "/*.csa")):
            try:
                game = CSA.Parser.parse_file(path)[0]
            except Exception as e:  # a damaged record is skipped, not fatal
                print(f"{path}: {e}", file=sys.stderr)
                continue
            board = cshogi.Board(game.sfen)
            for i, move in enumerate(game.moves):
                board.push(move)
                ply = i + 1
                if ply >= 24 and ply % 12 == rng.randrange(12) and not board.is_check() and len(game.moves) - ply > 10:
                    out.append(board.sfen())
    rng.shuffle(out)
    print("\n".join(out))


if __name__ == "__main__":
    main()
