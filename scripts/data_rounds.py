#!/usr/bin/env python3
"""Rebuilds the network rounds' training data from the repository alone, with one command:

    scripts/data_rounds.py --data ../data/rounds                 # every round in data_rounds.tsv
    scripts/data_rounds.py --data ../data/rounds --rounds r15    # one round
    scripts/data_rounds.py --data ../data/rounds --dry-run       # the commands only

For each round of scripts/data_rounds.tsv it takes the network that played it out of
git history (`git show COMMIT:src/eval/nnue/hisha.nnue`) and runs `hisha gensfen` (or
`hisha rescore`) with the round's seed and settings. gensfen appends and resumes, and
its games follow from the seed alone, so a stopped run continues where it stopped, a
lost machine costs time and never data, and a finished round is left as it is. The
binary is this checkout's (`--hisha`, default target/release/hisha): the search may
have changed since, so the games are equivalent to the original ones, not byte-equal.
"""

import argparse
import csv
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, "scripts", "data_rounds.tsv")
NETWORK = "src/eval/nnue/hisha.nnue"
RECORD_BYTES = 40


def read_manifest(path):
    """The rounds, in file order, as dicts keyed by the header's names."""
    with open(path, encoding="utf-8") as f:
        lines = [l for l in f if l.strip() and not l.startswith("# ") and l.strip() != "#"]
    header = ["round", "kind", "net_commit", "nodes", "seed", "positions", "source", "trained", "note"]
    rows = []
    for line in csv.reader(lines, delimiter="\t"):
        if line and line[0].startswith("#"):
            continue
        if len(line) != len(header):
            sys.exit(f"error: {path}: a round needs {len(header)} tab-separated fields: {line}")
        rows.append(dict(zip(header, line)))
    return rows


def network_of(commit, nets, dry_run):
    """The file holding the network committed at `commit`, written out of git once."""
    path = os.path.join(nets, f"{commit}.nnue")
    if not os.path.exists(path) and not dry_run:
        blob = subprocess.run(["git", "-C", ROOT, "show", f"{commit}:{NETWORK}"], capture_output=True, check=False)
        if blob.returncode != 0:
            sys.exit(f"error: no {NETWORK} at commit {commit}: {blob.stderr.decode().strip()}")
        with open(path + ".part", "wb") as f:
            f.write(blob.stdout)
        os.replace(path + ".part", path)
    return path


def command_for(r, args, psv):
    """The hisha command line that (re)makes round `r` in `psv`."""
    net = network_of(r["net_commit"], os.path.join(args.data, "nets"), args.dry_run)
    out = os.path.join(psv, f"{r['round']}.bin")
    if r["kind"] == "gensfen":
        return [args.hisha, "gensfen", "--out", out, "--eval", net, "--nodes", r["nodes"], "--seed", r["seed"],
                "--positions", r["positions"], "--threads", str(args.threads)]
    if r["kind"] == "rescore":
        source = os.path.join(psv, f"{r['source']}.bin")
        return [args.hisha, "rescore", "--in", source, "--out", out, "--eval", net, "--nodes", r["nodes"],
                "--threads", str(args.threads)]
    sys.exit(f"error: round {r['round']}: unknown kind '{r['kind']}'")


def complete(r, psv):
    """Whether round `r`'s file already holds all its positions (gensfen rounds)."""
    path = os.path.join(psv, f"{r['round']}.bin")
    if r["kind"] != "gensfen" or not os.path.exists(path):
        return False
    return os.path.getsize(path) // RECORD_BYTES >= int(r["positions"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="folder for networks and data (outside the checkout)")
    ap.add_argument("--hisha", default=os.path.join(ROOT, "target", "release", "hisha"))
    ap.add_argument("--rounds", help="comma-separated rounds (default: all, in manifest order)")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--manifest", default=MANIFEST)
    ap.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    args = ap.parse_args()
    rounds = read_manifest(args.manifest)
    if args.rounds:
        wanted = args.rounds.split(",")
        unknown = set(wanted) - {r["round"] for r in rounds}
        if unknown:
            sys.exit(f"error: not in {args.manifest}: {', '.join(sorted(unknown))}")
        rounds = [r for r in rounds if r["round"] in wanted]
    psv = os.path.join(args.data, "psv")
    for folder in (psv, os.path.join(args.data, "nets")):
        os.makedirs(folder, exist_ok=True)
    for r in rounds:
        if complete(r, psv):
            print(f"{r['round']}: complete", flush=True)
            continue
        cmd = command_for(r, args, psv)
        print(f"{r['round']}: {' '.join(cmd)}", flush=True)
        if not args.dry_run and subprocess.run(cmd).returncode != 0:
            sys.exit(f"error: round {r['round']} failed")


if __name__ == "__main__":
    main()
