#!/usr/bin/env bash
# The whole emulator validation in one device call (≤ 10 minutes on an H100 host):
#   1. every spec on the GPU with CuPy          (scripts/h100/validate_all.sh)
#   2. every spec on the emulator, same host    (saved buffers, timing.json)
#   3. emulator vs ptoxide on ptoxide's gemm    -> $OUT/bench/ptoxide.txt
#   4. the comparison tables                    -> $OUT/accuracy.md, $OUT/compare.txt
#   5. the approximate-math instructions on fixed inputs -> $OUT/approx.tsv
#      (validation/h100/approx.tsv, read by crates/emu/tests/approx_h100.rs)
# The buffers themselves (~70 MB) stay in $WORK (default /tmp/warpscope-device), so only
# tables, summaries and logs come back in $OUT.
# Needs target/emu/device/{warpscope,ptoxide-compare} (scripts/h100/prepare_device.sh) carried
# along, and python3 with cupy and numpy.
set -uo pipefail
export PYTHONUNBUFFERED=1
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
: "${OUT:?set OUT to the output directory}"
BIN=target/emu/device
WORK="${WORK:-/tmp/warpscope-device}"
rm -rf "$WORK"
mkdir -p "$WORK/emu" "$OUT/bench" "$OUT/logs"

echo "== GPU"
OUT="$WORK" bash scripts/h100/validate_all.sh > "$OUT/logs/gpu.txt" 2>&1
cp "$WORK/gpu/summary.txt" "$WORK/gpu/env.txt" "$OUT/logs/" 2>/dev/null
cp "$WORK"/gpu/*.log "$OUT/logs/" 2>/dev/null
tail -n 1 "$WORK/gpu/summary.txt" 2>/dev/null

echo "== emulator"
{ nproc; grep -m1 "model name" /proc/cpuinfo || true; } > "$OUT/logs/cpu.txt"
for spec in corpus/*.toml crates/emu/tests/specs/typical.toml; do
    stem="$(basename "$spec" .toml)"
    mkdir -p "$WORK/emu/$stem"
    if timeout 120 "$BIN/warpscope" run "$spec" -q --save-dir "$WORK/emu/$stem" \
        --timing "$WORK/emu/$stem/timing.json" > "$OUT/logs/emu_$stem.log" 2>&1; then
        echo "ok   $stem"
    else
        echo "FAIL $stem"
    fi
done > "$OUT/logs/emu_summary.txt"
grep -c "^ok" "$OUT/logs/emu_summary.txt" | sed 's/$/ specs ran on the emulator/'
grep "^FAIL" "$OUT/logs/emu_summary.txt"

echo "== ptoxide"
timeout 240 "$BIN/ptoxide-compare" 256 3 2>&1 | tee "$OUT/bench/ptoxide.txt"

echo "== compare"
python3 scripts/h100/compare.py --gpu "$WORK/gpu" --emu "$WORK/emu" --markdown --timing \
    > "$OUT/accuracy.md" 2> "$OUT/compare.txt"
python3 scripts/h100/compare.py --gpu "$WORK/gpu" --emu "$WORK/emu" >> "$OUT/compare.txt" 2>&1
grep -v "bit-identical" "$OUT/accuracy.md" | head -n 40
tail -n 3 "$OUT/compare.txt"

echo "== approximate math"
timeout 120 python3 scripts/h100/approx_probe.py "$OUT/approx.tsv" 2>&1 | tail -n 3
exit 0
