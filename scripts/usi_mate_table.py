#!/usr/bin/env python3
"""Runs USI `go mate <ms>` over a problem file and prints one row per problem, so that
any USI tsume solver can be set beside `hisha mate` on the same problems (issue 49: the
classics table side by side with KomoringHeights).

    scripts/usi_mate_table.py ENGINE --file positions/mate/classics.txt --time 600000 \\
        --option USI_Hash=2048 --json out.jsonl

Problem lines are `SFEN | plies | solution | label` ('#' starts a comment; plies 0 or
empty: no published length). Each problem gets a fresh `usinewgame`. Wall time is
measured from `go mate` to the `checkmate` answer. The answer's length is the number of
moves in its line, futile interpositions included (a solver counting by the composers'
conventions may show them); `--json` writes one object per problem (appended, so an
interrupted run resumes: problems already in the file are skipped).
"""
import argparse
import json
import os
import time

from usi_engine import Engine


def problems(path):
    """(label, sfen, published plies or None) for each problem line of `path`."""
    out = []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            parts = [p.strip() for p in line.split("|")]
            sfen = parts[0]
            plies = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() and int(parts[1]) > 0 else None
            label = parts[3] if len(parts) > 3 and parts[3] else f"line{len(out) + 1}"
            out.append((label, sfen, plies))
    return out


def solve(engine, sfen, ms):
    """`(answer words after "checkmate", seconds)` for one problem, from a fresh game."""
    engine.send("usinewgame")
    engine.send("isready")
    engine.read_until("readyok")
    engine.send("position sfen " + sfen)
    start = time.monotonic()
    engine.send(f"go mate {ms}")
    answer = engine.read_until("checkmate")
    return answer.split()[1:], time.monotonic() - start


def verdict(words, plies):
    """`(length or None, verdict)`: timeout, nomate, or the line's length against the book."""
    if not words or words[0] in ("timeout", "notimplemented"):
        return None, "timeout"
    if words[0] == "nomate":
        return None, "nomate"
    n = len(words)
    if plies is None:
        return n, "mate"
    return n, "book length" if n == plies else ("shorter" if n < plies else "longer")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine", help="engine binary")
    ap.add_argument("--file", required=True, help="problem file (SFEN | plies | solution | label)")
    ap.add_argument("--time", type=int, default=60000, help="ms per problem (default 60000)")
    ap.add_argument("--option", action="append", default=[], help="USI option NAME=VALUE (repeatable)")
    ap.add_argument("--only", help="comma-separated labels to run (default: all)")
    ap.add_argument("--json", help="append one JSON object per problem here; problems already in it are skipped")
    args = ap.parse_args()

    done = {}
    if args.json and os.path.exists(args.json):
        with open(args.json) as f:
            for line in f:
                if line.startswith("{"):
                    r = json.loads(line)
                    done[r["label"]] = r
    wanted = set(args.only.split(",")) if args.only else None
    options = []
    for opt in args.option:
        name, _, value = opt.partition("=")
        options.append(f"setoption name {name} value {value}")
    engine = Engine(args.engine, options)
    print(f"{'label':<22} {'book':>5} {'answer':>8} {'verdict':<12} {'time':>8}")
    for label, sfen, plies in problems(args.file):
        if wanted is not None and label not in wanted:
            continue
        r = done.get(label)
        if r is None:
            words, secs = solve(engine, sfen, args.time)
            length, v = verdict(words, plies)
            r = {"label": label, "book": plies, "length": length, "verdict": v, "seconds": round(secs, 3),
                 "answer": " ".join(words)}
            if args.json:
                with open(args.json, "a") as f:
                    f.write(json.dumps(r, ensure_ascii=False) + "\n")
        book = "-" if r["book"] is None else str(r["book"])
        length = "-" if r["length"] is None else str(r["length"])
        print(f"{r['label']:<22} {book:>5} {length:>8} {r['verdict']:<12} {r['seconds']:7.1f}s", flush=True)
    engine.quit()


if __name__ == "__main__":
    main()
