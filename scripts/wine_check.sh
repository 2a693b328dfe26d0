#!/usr/bin/env bash
# Checks the Windows binary under Debian's wine: the USI checks of ../shared/tools
# (check usi), and perft and bench counts equal to the Linux binary's.
#
#   scripts/wine_check.sh [path/to/hisha.exe]   (default: the cross-built release binary)
#
# Needs wine (Debian's wine64 package) and gcc-mingw-w64-x86-64 for the stand-in
# bcryptprimitives.dll (scripts/wine/prng_standin.c), which is put beside a copy of the
# .exe in a temporary folder: wine 8 lacks that DLL, Windows 10 and later have it.
set -euo pipefail
cd "$(dirname "$0")/.."
exe=${1:-target/x86_64-pc-windows-gnu/release/hisha.exe}
linux=target/release/hisha
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$exe" "$work/hisha.exe"
x86_64-w64-mingw32-gcc -O2 -shared -o "$work/bcryptprimitives.dll" scripts/wine/prng_standin.c -ladvapi32
cat > "$work/hisha" <<WRAP
#!/bin/sh
export WINEDEBUG=-all
exec wine "$work/hisha.exe" "\$@"
WRAP
chmod +x "$work/hisha"
export WINEDEBUG=-all
fail=0
for cmd in "perft --depth 5" "bench"; do
  want=$($linux $cmd | grep -E '^Nodes searched' | tr -s ' ')
  got=$("$work/hisha" $cmd | tr -d '\r' | grep -E '^Nodes searched' | tr -s ' ')
  echo "$cmd: linux '$want', windows '$got'"
  [ "$want" = "$got" ] || fail=1
done
../shared/tools/check usi "$work/hisha" || fail=1
[ $fail = 0 ] && echo "PASS: hisha.exe under wine" || { echo "FAIL: hisha.exe under wine"; exit 1; }
