#!/usr/bin/env bash
# The whole emulator validation in one device call (≤ 10 minutes on an H100 host):
#   1. every spec on the GPU with CuPy          -> $OUT/gpu/<stem>/      (scripts/h100/validate_all.sh)
#   2. every spec on the emulator, same host    -> $OUT/emu/<stem>/      (saved buffers, timing.json)
#   3. emulator vs ptoxide on ptoxide's gemm    -> $OUT/bench/ptoxide.txt
#   4. the comparison tables                    -> $OUT/accuracy.md, $OUT/compare.txt
# Needs target/emu/device/{warpscope,ptoxide-compare} (scripts/h100/prepare_device.sh) carried
# along, and python3 with cupy and numpy.
set -uo pipefail
export PYTHONUNBUFFERED=1
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
: "${OUT:?set OUT to the output directory}"
BIN=target/emu/device
mkdir -p "$OUT/emu" "$OUT/bench"
echo "== GPU"
OUT="$OUT" bash scripts/h100/validate_all.sh
echo "== emulator"
nproc > "$OUT/emu/nproc.txt"
(grep -m1 "model name" /proc/cpuinfo || true) >> "$OUT/emu/nproc.txt"
for spec in corpus/*.toml crates/emu/tests/specs/typical.toml; do
    stem="$(basename "$spec" .toml)"
    mkdir -p "$OUT/emu/$stem"
    if timeout 120 "$BIN/warpscope" run "$spec" -q --save-dir "$OUT/emu/$stem" \
        --timing "$OUT/emu/$stem/timing.json" > "$OUT/emu/$stem.log" 2>&1; then
        echo "ok   $stem"
    else
        echo "FAIL $stem"
    fi
done
echo "== ptoxide"
timeout 240 "$BIN/ptoxide-compare" 256 3 2>&1 | tee "$OUT/bench/ptoxide.txt"
echo "== compare"
python3 scripts/h100/compare.py --gpu "$OUT/gpu" --emu "$OUT/emu" --markdown --timing \
    > "$OUT/accuracy.md" 2> "$OUT/compare.txt"
python3 scripts/h100/compare.py --gpu "$OUT/gpu" --emu "$OUT/emu" >> "$OUT/compare.txt" 2>&1
tail -n 5 "$OUT/compare.txt"
exit 0
