#!/usr/bin/env bash
# Runs every corpus/*.toml launch spec (and crates/emu/tests/specs/typical.toml) on the emulator (release build), writing the saved
# buffers and per-launch times to DIR/<spec stem>/ in the layout scripts/h100/compare.py reads.
#
#   scripts/h100/emu_all.sh [DIR]          # default DIR: target/validation/emu
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
DIR="${1:-target/validation/emu}"
cargo build --release -q -p warpscope
BIN="${CARGO_TARGET_DIR:-target}/release/warpscope"
status=0
for spec in corpus/*.toml crates/emu/tests/specs/typical.toml; do
    stem="$(basename "$spec" .toml)"
    mkdir -p "$DIR/$stem"
    if "$BIN" run "$spec" -q --save-dir "$DIR/$stem" --timing "$DIR/$stem/timing.json"; then
        echo "ok   $stem"
    else
        echo "FAIL $stem"; status=1
    fi
done
exit $status
