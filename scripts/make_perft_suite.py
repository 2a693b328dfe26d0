#!/usr/bin/env python3
"""Build positions/perft.txt: SFENs with perft counts computed by cshogi.

Each line: `name | sfen | d1 d2 d3 ...` (counts for depth 1, 2, 3, ...).
Fixed positions (start, handicap starts, tricky rule positions) and seeded
random-play positions; the counts come from cshogi, not from Hisha, so the
Rust tests check Hisha against an independent move generator.

Usage: ~/.cache/shogi-tools-venv/bin/python scripts/make_perft_suite.py > positions/perft.txt
"""
import random
import cshogi


def perft(board, depth):
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    n = 0
    for m in moves:
        board.push(m)
        n += perft(board, depth - 1)
        board.pop()
    return n


FIXED = [
    ("startpos", cshogi.STARTING_SFEN, 4),
    ("handicap-lance", "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 4),
    ("handicap-bishop", "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 4),
    ("handicap-rook", "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 4),
    ("handicap-rook-lance", "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 4),
    ("handicap-two", "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 4),
    ("handicap-four", "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 4),
    ("handicap-six", "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 4),
    ("matsuri", "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1", 2),
    ("max-moves", "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", 2),
    ("uchifuzume-pinned", "7nk/7g1/9/5B1N1/9/9/9/9/4K4 b P 1", 3),
    ("double-check", "4k4/9/9/9/4r4/9/5n3/9/4K4 b G 1", 3),
    ("big-hands", "4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1", 2),
    # Tsume set-ups without the attacker's king, as GUIs send them for `go mate`.
    ("kingless-tsume-1", "1k7/9/+P1l6/2B6/9/9/9/9/9 b RGrb3g4s4n3l17p 1", 3),
    ("kingless-tsume-2", "7nl/6gk1/6p1p/7N1/9/9/9/9/9 b GSr2b2g3s2n3l16p 1", 3),
    ("kingless-defender-to-move", "4k4/9/4P4/9/9/9/9/9/9 w rb4g4s4n4l17p 1", 2),
]


def main():
    for name, sfen, depth in FIXED:
        b = cshogi.Board(sfen)
        counts = [perft(b, d) for d in range(1, depth + 1)]
        print(f"{name} | {sfen} | {' '.join(map(str, counts))}")
    rng = random.Random(20261122)
    starts = [s for _, s, _ in FIXED[:8]]
    made = 0
    while made < 200:
        b = cshogi.Board(rng.choice(starts))
        plies = rng.randint(10, 140)
        ok = True
        for _ in range(plies):
            moves = list(b.legal_moves)
            if not moves:
                ok = False
                break
            # Prefer captures and drops now and then so hands fill up.
            b.push(rng.choice(moves))
        if not ok or not list(b.legal_moves):
            continue
        counts = [perft(b, d) for d in range(1, 4)]
        print(f"random{made:03d} | {b.sfen()} | {' '.join(map(str, counts))}")
        made += 1


if __name__ == "__main__":
    main()
