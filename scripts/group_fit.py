#!/usr/bin/env python3
"""Which parts of Hisha's evaluation a referee engine weighs differently.

Reads the output of `hisha-tools evalterms -` on `SFEN<TAB>score` lines (the referee's
score, Black's view, then Hisha's evaluation split into weight groups and single
weights) and fits the referee's score as a weighted sum of those parts: ridge
regression pulled towards one common scale, with a bootstrap. A part whose fitted
scale, relative to the common one, sits well away from 1.00 on both sides of its 90%
interval is weighed differently by the referee. Positions where either side's score
is beyond 2500 cp are left out.

Usage: scripts/group_fit.py TSV [LAMBDA]
"""
import sys

import numpy as np

SPLIT = {"board", "hand", "mob"}  # groups reported by their single weights instead


def main():
    rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
    names = rows[0][1:]
    groups = names.index("board0")  # group sums first, then the single weights
    x = np.array([[float(v) for v in r[1:]] for r in rows[1:]])
    y = np.array([float(r[0]) for r in rows[1:]])
    hisha = x[:, :groups].sum(1)
    keep = (np.abs(y) < 2500) & (np.abs(hisha) < 2500)
    x, y, hisha = x[keep], y[keep], hisha[keep]
    cols = [i for i in range(x.shape[1]) if np.abs(x[:, i]).sum() > 0 and names[i] not in SPLIT]
    a = x[:, cols]
    lam = float(sys.argv[2]) if len(sys.argv) > 2 else 1e5
    rng = np.random.default_rng(0)
    fits = []
    for b in range(201):
        idx = np.arange(len(y)) if b == 0 else rng.integers(0, len(y), len(y))
        ab, yb, hb = a[idx], y[idx], hisha[idx]
        s = hb @ yb / (hb @ hb)
        w = np.linalg.solve(ab.T @ ab + lam * np.eye(len(cols)), ab.T @ yb + lam * s * np.ones(len(cols)))
        fits.append(w / s)
    fits = np.array(fits)
    print(f"{len(y)} positions; correlation of Hisha's evaluation with the referee {np.corrcoef(hisha, y)[0, 1]:.3f}")
    print(f"{'part':>12} {'5%':>6} {'fit':>6} {'95%':>6}  mean |term|")
    for j, c in enumerate(cols):
        lo, hi = np.percentile(fits[1:, j], [5, 95])
        print(f"{names[c]:>12} {lo:6.2f} {fits[0, j]:6.2f} {hi:6.2f}  {np.abs(a[:, j]).mean():8.1f}")


if __name__ == "__main__":
    main()
