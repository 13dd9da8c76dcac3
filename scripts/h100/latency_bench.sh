#!/usr/bin/env bash
# Measure the H100 latency table of `warpscope model` (one device call, ~1 minute):
#   compiles scripts/h100/latency_bench.cu for sm_90, runs it, and writes $OUT/latency_raw.tsv
#   (the benchmark's own lines), $OUT/latency_sass.txt (the SASS) and $OUT/latency.tsv (the table crates/model reads, made by
#   scripts/h100/latency_table.py). Commit latency.tsv as validation/h100/model/latency.tsv.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
: "${OUT:?set OUT to the output directory}"
mkdir -p "$OUT"
# ptxas -O0: at -O3 ptxas reassociates and folds the inline-PTX chains (a chain of 256 shl.b32
# by 1 became one shift: 0.01 cycles per link; st+ld pairs were forwarded), see
# validation/h100/model/latency_raw_ptxas_O3.tsv. At -O0 each PTX instruction of a chain stays
# one dependent SASS instruction (the SASS of the chains is dumped to $OUT/latency_sass.txt).
nvcc -O3 -Xptxas -O0 -arch=sm_90 scripts/h100/latency_bench.cu -o /tmp/latency_bench
cuobjdump -sass /tmp/latency_bench 2>/dev/null | grep -v '^\s*/\*[0-9a-f]*\*/\s*$' > "$OUT/latency_sass.txt" || true
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true; nvcc --version | tail -n 2; } > "$OUT/latency_env.txt"
/tmp/latency_bench | tee "$OUT/latency_raw.tsv"
python3 scripts/h100/latency_table.py "$OUT/latency_raw.tsv" "$OUT/latency_env.txt" > "$OUT/latency.tsv"
cat "$OUT/latency.tsv"
