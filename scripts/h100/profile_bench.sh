#!/usr/bin/env bash
# The profile-overhead criterion benchmark (crates/profile/benches/profile.rs) on the device
# machine's idle CPU: plain emulation, the full profile, and profile + BBV + memory trace,
# single-threaded. Needs target/emu/device/profile-bench (scripts/h100/prepare_device.sh).
# Usage (repo root, on the device): OUT=dir scripts/h100/profile_bench.sh
set -uo pipefail
: "${OUT:?set OUT to the output directory}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
# The benchmark finds the corpus through the path it was built at.
built_at="$(cat target/emu/device/built_at.txt 2>/dev/null || true)"
if [[ -n "$built_at" && ! -e "$built_at" ]]; then
    mkdir -p "$(dirname "$built_at")"
    ln -sfn "$ROOT" "$built_at"
fi
mkdir -p "$OUT"
{ nproc; grep -m1 "model name" /proc/cpuinfo || true; } > "$OUT/profile_bench_cpu.txt"
CRITERION_HOME="${WORK:-/tmp}/criterion" timeout 500 target/emu/device/profile-bench \
    --bench --noplot --warm-up-time 2 --measurement-time 6 2>&1 | tee "$OUT/profile_bench.txt" \
    | grep -E "^[a-z_]+/|time:"
