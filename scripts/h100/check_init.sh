#!/usr/bin/env bash
# Checks that the GPU runner (scripts/h100/run_spec_cupy.py) and the emulator fill buffers
# with the same bytes, for every buffer type and init kind (crates/emu/tests/specs/init_matrix.toml)
# and for every corpus spec. Needs python3 with numpy; no GPU.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
cargo build -q -p warpscope-emu --features tools --example dump_init
BIN="${CARGO_TARGET_DIR:-target}/debug/examples/dump_init"
status=0
for spec in crates/emu/tests/specs/init_matrix.toml corpus/*.toml; do
    name="$(basename "$spec" .toml)"
    "$BIN" "$spec" "$TMP/emu/$name"
    python3 scripts/h100/run_spec_cupy.py "$spec" "$TMP/py/$name" --init-only
    if diff -rq "$TMP/emu/$name/init" "$TMP/py/$name/init" >/dev/null; then
        echo "same   $spec"
    else
        echo "DIFFER $spec"; diff -rq "$TMP/emu/$name/init" "$TMP/py/$name/init" || true
        status=1
    fi
done
exit $status
