#!/usr/bin/env python3
"""Fairy-Stockfish with `go nodes N` scaled by FSF_NODE_SCALE (default 1/3).

The engine is $FAIRY (default: `fairy-stockfish` on the PATH)."""
import os, re, subprocess, sys
scale = float(os.environ.get("FSF_NODE_SCALE", "0.3333"))
p = subprocess.Popen([os.environ.get("FAIRY", "fairy-stockfish")], stdin=subprocess.PIPE, text=True, bufsize=1)
for line in sys.stdin:
    m = re.match(r"go nodes (\d+)", line)
    if m:
        line = f"go nodes {max(1, int(int(m.group(1)) * scale))}\n"
    p.stdin.write(line); p.stdin.flush()
    if line.strip() == "quit":
        break
p.stdin.close(); p.wait()
