#!/bin/sh
# Issue 45's book measurement: Hisha with a book against GPS Shogi from the starting
# position, then the same without a book: 40 games each at byoyomi 1000, margin 1000,
# one thread each (GPS Shogi's own book on). Play it only on an idle machine (about 2 h):
# GPS Shogi thinks in whole seconds.
#   scripts/book_vs_gps.sh HISHA BOOK OUT_DIR [BOOK_MOVES]
# BOOK_MOVES (default 24) is the last game ply the book is used for. The opening file
# holds `startpos` 20 times: the match tool adds random plies to an opening it repeats.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 HISHA BOOK OUT_DIR [BOOK_MOVES]" >&2; exit 2; }
hisha=$1 book=$2 out=$3 moves=${4:-24}
gps=${GPS:-/usr/games/gpsusi}
check=$(dirname "$0")/../../shared/tools/check
mkdir -p "$out"
for i in $(seq 20); do echo startpos; done > "$out/startpos.sfen"
for mode in book nobook; do
  if [ $mode = book ]; then opts="Threads=1,BookFile=$book,BookMoves=$moves"; else opts="Threads=1,BookFile=no_book"; fi
  [ -s "$out/$mode.log" ] && grep -q "Elo" "$out/$mode.log" && continue   # done before: keep it
  "$check" match "$hisha" "$gps" --games 40 --tc byoyomi=1000 --margin 1000 --random-plies 0 \
    --openings "$out/startpos.sfen" --options-a "$opts" --options-b Thread=1 --out "$out/$mode" > "$out/$mode.log" 2>&1 || true
  tail -3 "$out/$mode.log"
done
