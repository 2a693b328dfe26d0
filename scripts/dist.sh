#!/usr/bin/env bash
# Release archives in one command: Linux x86-64 (hisha-<version>-x86_64-linux.tar.gz)
# and Windows x86-64 (hisha-<version>-x86_64-windows.zip), each holding the binary,
# README.md, LICENSE and engine_options.txt (a one-page quick start), and SHA256SUMS
# over both. The network and book are inside the binaries.
#
#   scripts/dist.sh [OUT_DIR]        (default dist/)
#
# Needs the host Rust toolchain, `rustup target add x86_64-pc-windows-gnu`, Debian's
# gcc-mingw-w64-x86-64 (the linker named in .cargo/config.toml, with a static C
# runtime: hisha.exe needs only Windows' own DLLs), zip and sha256sum.
# .github/workflows/release.yml runs this script on a tag.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
out=${1:-dist}
rm -rf "$out"
mkdir -p "$out"
cargo build --release --bin hisha
cargo build --release --bin hisha --target x86_64-pc-windows-gnu

stage() { # stage DIR BINARY: the archive's files in DIR
  mkdir -p "$1"
  cp "$2" README.md LICENSE "$1/"
  sed "s/{VERSION}/$version/" scripts/engine_options.txt > "$1/engine_options.txt"
}

linux="hisha-$version-x86_64-linux"
stage "$out/$linux" target/release/hisha
tar -C "$out" -czf "$out/$linux.tar.gz" "$linux"

windows="hisha-$version-x86_64-windows"
stage "$out/$windows" target/x86_64-pc-windows-gnu/release/hisha.exe
# Windows users open text files in Notepad: CRLF line ends for the quick start.
sed -i 's/$/\r/' "$out/$windows/engine_options.txt"
(cd "$out" && zip -qr "$windows.zip" "$windows")

rm -rf "${out:?}/$linux" "${out:?}/$windows"
(cd "$out" && sha256sum "$linux.tar.gz" "$windows.zip" > SHA256SUMS)
cat "$out/SHA256SUMS"
