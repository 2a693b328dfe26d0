#!/usr/bin/env bash
# Times `go perft N` from the start position in Hisha and Fairy-Stockfish, one after
# the other in one run, so the ratio is meaningful on a shared, noisy machine.
# Usage: scripts/perft_vs_fairy.sh [depth] [hisha binary]
set -euo pipefail
depth=${1:-5}
hisha=${2:-target/release/hisha}
fairy=${FAIRY:-fairy-stockfish}
run() {
  local name=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  out=$(printf 'usi\nposition startpos\ngo perft %s\nisready\nquit\n' "$depth" | "$@" | grep -i 'nodes searched')
  t1=$(date +%s.%N)
  printf '%-16s %-28s %8.3f s\n' "$name" "$out" "$(echo "$t1 - $t0" | bc)"
}
run hisha "$hisha"
run fairy-stockfish "$fairy"
