#!/usr/bin/env python3
"""Where a shogiarena SPSA run stands: each parameter's start, its value now, that value
rounded (what would go into src/search/params.rs), and how far it has moved, in units of
its final step c_end, with its path through the run at each quarter.

    scripts/spsa_report.py ../data/spsa/run2          # a run directory (running or done)
    scripts/spsa_report.py ../data/spsa/run2 --apply  # and write the rounded values as defaults

It reads the run's ledger (spsa/ledger.sqlite3) read-only, so it can watch a run that is
still playing. The value "now" is the one the latest update started from (or ended
with, once its games are in). `--apply` writes each rounded value as the default in src/search/params.rs and as `initial` in
docs/arena/spsa_space.yaml (the first two steps of "To commit tuned values" in
docs/tuning.md); the games that decide whether to keep them are still to be played.
"""

import argparse
import json
import os
import re
import sqlite3
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PARAMS_RS = os.path.join(ROOT, "src", "search", "params.rs")
SPACE_YAML = os.path.join(ROOT, "docs", "arena", "spsa_space.yaml")


def open_ledger(run_dir):
    path = f"{run_dir}/spsa/ledger.sqlite3"
    try:
        return sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as e:
        sys.exit(f"error: {path}: {e}")


def parameters(db):
    """name -> (initial, min, max, c_end), in the space file's order."""
    rows = db.execute(
        "select parameter_id, initial_value, minimum_value, maximum_value, schedule_json"
        " from parameters order by ordinal")
    return {name: (float(init), float(lo), float(hi), json.loads(sched)["c_end"])
            for name, init, lo, hi, sched in rows}


def thetas(db):
    """The theta each update started from, in update order, and after the last one the
    theta it ended with, once its games are in."""
    rows = db.execute(
        "select update_idx, theta_before_json, theta_final_json from updates order by update_idx").fetchall()
    path = [(int(idx), json.loads(before)) for idx, before, _ in rows]
    if rows and rows[-1][2]:
        path.append((int(rows[-1][0]), json.loads(rows[-1][2])))
    return path


def game_tally(db):
    """How many SPSA games ended in each result kind (BLACK_WIN, WHITE_WIN, ...)."""
    return dict(db.execute(
        "select result_kind, count(*) from game_observations group by result_kind"))


def rewrite(path, pattern, values):
    """Replaces group 2 of each match of `pattern` (group 1: a parameter's name) by its
    new value; every parameter must be found exactly once."""
    text = open(path, encoding="utf-8").read()
    seen = []

    def new_value(m):
        name = m.group(1)
        seen.append(name)
        if name not in values:
            return m.group(0)
        # Only the value's own span: its digits may also occur earlier in the match.
        start, end = m.start(2) - m.start(0), m.end(2) - m.start(0)
        return m.group(0)[:start] + str(values[name]) + m.group(0)[end:]

    text = re.sub(pattern, new_value, text)
    missing = [name for name in values if seen.count(name) != 1]
    if missing:
        sys.exit(f"error: {path}: not found exactly once: {', '.join(missing)}")
    open(path, "w", encoding="utf-8").write(text)


def apply_defaults(values):
    """Writes the rounded values into params.rs and the SPSA space file."""
    rewrite(PARAMS_RS, r"(?m)^    (\w+) = (-?\d+), \[", values)
    rewrite(SPACE_YAML, r'id: "(\w+)"[^\n]*\n(?:[^\n]*\n)*?\s*initial: (-?\d+)', values)
    print(f"wrote the rounded values to {os.path.relpath(PARAMS_RS)} and {os.path.relpath(SPACE_YAML)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run_dir", help="shogiarena's --run-dir of the SPSA run")
    ap.add_argument("--apply", action="store_true", help="write the rounded values as the defaults")
    a = ap.parse_args()
    db = open_ledger(a.run_dir)
    try:
        params, path, tally = parameters(db), thetas(db), game_tally(db)
    except sqlite3.Error as e:
        sys.exit(f"error: {a.run_dir}: not a shogiarena SPSA ledger ({e})")
    if not path:
        sys.exit(f"error: {a.run_dir}: no update has started yet")
    last_idx, now = path[-1]
    quarters = [path[min(len(path) - 1, len(path) * q // 4)][1] for q in (1, 2, 3)]
    print(f"updates started: {last_idx}; games observed: {sum(tally.values())} {tally}")
    print(f"{'parameter':22} {'start':>7} {'now':>9} {'round':>6} {'moved/c':>8}   path at 1/4, 1/2, 3/4")
    rounded = {}
    for name, (init, lo, hi, c_end) in params.items():
        value = now.get(name, init)
        rounded[name] = int(min(hi, max(lo, round(value))))
        trail = ", ".join(f"{q.get(name, init):.1f}" for q in quarters)
        print(f"{name:22} {init:7.0f} {value:9.2f} {rounded[name]:6d} {(value - init) / c_end:+8.2f}   {trail}")
    if a.apply:
        apply_defaults(rounded)


if __name__ == "__main__":
    main()
