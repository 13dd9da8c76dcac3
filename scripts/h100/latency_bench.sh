#!/usr/bin/env bash
# Measure the H100 latency table of `warpscope model` (one device call, ~1 minute):
#   compiles scripts/h100/latency_bench.cu for sm_90 (ptxas -O3, the default), checks with
#   scripts/h100/latency_sass_check.py that every timed chain is CHAIN instructions of its
#   intended SASS opcode ($OUT/latency_sass_check.txt; $OUT/latency_sass.txt holds the SASS),
#   runs it -> $OUT/latency_raw.tsv, and writes $OUT/latency.tsv (the table crates/model reads,
#   made by scripts/h100/latency_table.py). Commit latency.tsv as validation/h100/model/latency.tsv
#   only if the SASS check passed (it prints `SASS check: all chains OK`).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
: "${OUT:?set OUT to the output directory}"
mkdir -p "$OUT"
nvcc -O3 -diag-suppress 550 -arch=sm_90 scripts/h100/latency_bench.cu -o /tmp/latency_bench
cuobjdump -sass /tmp/latency_bench > "$OUT/latency_sass.txt"
python3 scripts/h100/latency_sass_check.py "$OUT/latency_sass.txt" scripts/h100/latency_bench.cu \
    | tee "$OUT/latency_sass_check.txt" || echo "WARNING: the SASS check failed: do not adopt this table"
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true; nvcc --version | tail -n 2; } > "$OUT/latency_env.txt"
/tmp/latency_bench | tee "$OUT/latency_raw.tsv"
python3 scripts/h100/latency_table.py "$OUT/latency_raw.tsv" "$OUT/latency_env.txt" > "$OUT/latency.tsv"
cat "$OUT/latency.tsv"
