#!/usr/bin/env python3
"""Check a KIF written by `hisha analyse --kif` with two outside readers.

Usage: check_kif_comments.py OUT.kif ANALYSIS.jsonl
cshogi and python-shogi must read the KIF, find the same start position and the same
moves as the analysis (its "ply" JSON lines), and cshogi must see the analysis
comment (`[Hisha] 評価値 ...`) under every move. Exits 0 and prints `ok:` when so.
"""
import json
import sys

import cshogi
import cshogi.KIF
import shogi.KIF


def main(kif_path, jsonl_path):
    plies = [json.loads(l) for l in open(jsonl_path, encoding="utf-8") if '"type":"ply"' in l]
    games = [json.loads(l) for l in open(jsonl_path, encoding="utf-8") if '"type":"game"' in l]
    if len(games) != 1:
        return f"expected one game in {jsonl_path}, found {len(games)}"
    want = [p["move"] for p in sorted(plies, key=lambda p: p["ply"])]
    start = games[0]["start_sfen"]
    errors = []

    r = cshogi.KIF.Parser.parse_file(kif_path)
    got = [cshogi.move_to_usi(m) for m in r.moves]
    if got != want:
        errors.append(f"cshogi moves differ: {got[:8]}... vs {want[:8]}...")
    if r.sfen.split(" ")[:3] != start.split(" ")[:3]:
        errors.append(f"cshogi start {r.sfen} vs {start}")
    commented = sum(1 for c in r.comments[: len(want)] if "[Hisha]" in (c or ""))
    if commented != len(want):
        errors.append(f"cshogi found the analysis comment under {commented} of {len(want)} moves")

    k = shogi.KIF.Parser.parse_file(kif_path)[0]
    if k["moves"] != want:
        errors.append(f"python-shogi moves differ: {k['moves'][:8]}... vs {want[:8]}...")
    if k["sfen"].split(" ")[:3] != start.split(" ")[:3]:
        errors.append(f"python-shogi start {k['sfen']} vs {start}")

    if errors:
        return "; ".join(errors)
    print(f"ok: {kif_path}: {len(want)} moves and comments read back by cshogi and python-shogi")
    return None


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    err = main(sys.argv[1], sys.argv[2])
    if err:
        print(f"FAIL: {err}")
        sys.exit(1)
