#!/usr/bin/env bash
# Shared-memory wavefronts of chosen lane patterns on the H100 (scripts/h100/shared_probe.py).
# Usage (repo root, on the device): OUT=dir scripts/h100/shared_probe.sh
#   -> $OUT/shared_patterns.tsv (validation/h100/shared_patterns.tsv), $OUT/shared_probe.csv
set -uo pipefail
: "${OUT:?set OUT to the output directory}"
mkdir -p "$OUT"
ncu --csv --target-processes all -k regex:probe_ \
    --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum \
    python3 scripts/h100/shared_probe.py run > "$OUT/shared_probe.csv" 2> "$OUT/shared_probe.err"
python3 scripts/h100/shared_probe.py reduce "$OUT/shared_probe.csv" "$OUT/shared_patterns.tsv"
