#!/usr/bin/env bash
# The H100 part of `warpscope model`'s validation, in one device call (a few minutes):
#   1. the latency micro-benchmarks (scripts/h100/latency_bench.sh) -> $OUT/latency*.{tsv,txt}
#   2. validation/h100/model/liang_h100.toml and its three regrouped versions (emit/<alg>/,
#      made by scripts/h100/model_prepare.sh) on the GPU with CuPy: each spec runs once (its
#      saved buffers kept), then every launch is timed alone, BATCHES groups of BATCH_SIZE
#      back-to-back launches between CUDA events, median (and min/max) per launch
#      -> $OUT/model_timing.tsv; the regrouped runs' saved buffers are compared byte for byte
#      with the original's -> $OUT/model_log.txt
# Run from the prepared directory's root (it is this script's ../..).
set -uo pipefail
export PYTHONUNBUFFERED=1
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
: "${OUT:?set OUT to the output directory}"
LOG="$OUT/model_log.txt"
WORK="${WORK:-/tmp/warpscope-model}"
rm -rf "$WORK"
mkdir -p "$WORK"
{
    echo "== latency"
    bash scripts/h100/latency_bench.sh
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv || true
    # original-again: the original timed a second time, last, for the run-to-run spread
    for v in original sorting greedy greedy-max original-again; do
        if [[ $v == original* ]]; then spec=validation/h100/model/liang_h100.toml; else spec=emit/$v/spec.toml; fi
        echo "== $v ($spec)"
        python3 scripts/h100/run_spec_cupy.py "$spec" "$WORK/$v" --timing-runs 0 \
            --batches "${BATCHES:-21}" --batch-size "${BATCH_SIZE:-20}" || echo "FAILED $v"
        nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader || true
    done
    echo "== outputs of the regrouped runs against the original's"
    for v in sorting greedy greedy-max original-again; do
        for f in "$WORK"/original/*.bin; do
            b="$(basename "$f")"
            if cmp -s "$f" "$WORK/$v/$b"; then echo "same      $v $b"; else echo "DIFFERENT $v $b"; fi
        done
    done
} > "$LOG" 2>&1
python3 - "$WORK" > "$OUT/model_timing.tsv" <<'PY'
import json, os, sys
work = sys.argv[1]
print("version\tlaunch\tkernel\tgrid\tblock\tms\tmin_ms\tmax_ms\tbatches\tbatch_size")
for v in ["original", "sorting", "greedy", "greedy-max", "original-again"]:
    p = os.path.join(work, v, "kernel_timing.json")
    if not os.path.exists(p):
        continue
    for l in json.load(open(p))["launches"]:
        print(f"{v}\t{l['launch']}\t{l['kernel']}\t{l['grid'][0]}\t{l['block'][0]}\t{l['ms']:.6f}"
              f"\t{l['min_ms']:.6f}\t{l['max_ms']:.6f}\t{l['batches']}\t{l['batch_size']}")
PY
cat "$OUT/model_timing.tsv"
tail -n 20 "$LOG"
