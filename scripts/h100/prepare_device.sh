#!/usr/bin/env bash
# Builds (release) and strips the binaries the device run needs into target/emu/device/, an
# ignored path the device tool can carry: the `warpscope` CLI and the ptoxide comparison.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target/emu}"
cargo build --release -q -p warpscope
cargo build --release -q -p warpscope-emu-ptoxide --example compare
mkdir -p target/emu/device
cp "$CARGO_TARGET_DIR/release/warpscope" target/emu/device/warpscope
cp "$CARGO_TARGET_DIR/release/examples/compare" target/emu/device/ptoxide-compare
strip target/emu/device/warpscope target/emu/device/ptoxide-compare
ls -la target/emu/device
# The profile-overhead benchmark (scripts/h100/profile_bench.sh).
bench=$(cargo bench -p warpscope-profile --bench profile --no-run 2>&1 | sed -n 's/.*Executable .*(\(.*\)).*/\1/p' | tail -1)
cp "$bench" target/emu/device/profile-bench
strip target/emu/device/profile-bench
echo "$ROOT" > target/emu/device/built_at.txt
