#!/usr/bin/env bash
# The H100 part of `warpscope model`'s validation, in one device call (a few minutes).
# Run from the prepared directory's root (scripts/h100/model_prepare.sh; it is this script's
# ../..), with OUT set:
#   1. LATENCY=1: the latency micro-benchmarks (scripts/h100/latency_bench.sh) -> $OUT/latency*
#   2. CALIB=1: the machine facts of the H100 throughput estimate (scripts/h100/model_calib.py:
#      empty-kernel launch cost per grid, issue rates, sector bandwidths) -> $OUT/model_overhead.tsv,
#      $OUT/model_machine.tsv, $OUT/model_calib_sass.txt
#   3. each version NAME=SPEC of VERSIONS (default: the prepared directory's `versions` file,
#      else validation/h100/model/liang_h100.toml as
#      `original`, emit/<alg>/spec.toml for the three regroupings, the original again last for
#      the run-to-run spread) on the GPU with CuPy: each spec runs once (its saved buffers kept),
#      then every launch is timed alone, BATCHES groups of BATCH_SIZE back-to-back launches
#      between CUDA events, median (and min/max) per launch, for each METHODS entry: `plain`
#      (BATCH_SIZE Python launches) and/or `graph` (one CUDA graph of BATCH_SIZE launches: no
#      Python launch cost) -> $OUT/${PREFIX}timing.tsv; every version's saved buffers are compared
#      byte for byte with the first version's -> $OUT/${PREFIX}log.txt
set -uo pipefail
export PYTHONUNBUFFERED=1
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
: "${OUT:?set OUT to the output directory}"
PREFIX="${PREFIX:-model_}"
LOG="$OUT/${PREFIX}log.txt"
WORK="${WORK:-/tmp/warpscope-model}"
METHODS="${METHODS:-plain}"
DEFAULT_VERSIONS="original=validation/h100/model/liang_h100.toml sorting=emit/sorting/spec.toml greedy=emit/greedy/spec.toml greedy-max=emit/greedy-max/spec.toml original-again=validation/h100/model/liang_h100.toml"
if [[ -f versions ]]; then DEFAULT_VERSIONS="$(cat versions)"; fi
VERSIONS="${VERSIONS:-$DEFAULT_VERSIONS}"
rm -rf "$WORK"
mkdir -p "$WORK"
{
    if [[ "${LATENCY:-0}" == 1 ]]; then
        echo "== latency"
        bash scripts/h100/latency_bench.sh
    fi
    if [[ "${CALIB:-0}" == 1 ]]; then
        echo "== calibration"
        python3 scripts/h100/model_calib.py "$OUT" || echo "FAILED calibration"
    fi
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv || true
    for m in $METHODS; do
        flag=""; if [[ $m == graph ]]; then flag="--graph"; fi
        for vs in $VERSIONS; do
            v="${vs%%=*}"; spec="${vs#*=}"
            echo "== $v ($spec, $m)"
            python3 scripts/h100/run_spec_cupy.py "$spec" "$WORK/$m/$v" --timing-runs 0 $flag \
                --batches "${BATCHES:-21}" --batch-size "${BATCH_SIZE:-20}" || echo "FAILED $v $m"
            nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader || true
        done
        echo "== outputs of every version against the first's ($m)"
        first="${VERSIONS%% *}"; first="${first%%=*}"
        for vs in $VERSIONS; do
            v="${vs%%=*}"
            [[ $v == "$first" ]] && continue
            for f in "$WORK/$m/$first"/*.bin; do
                b="$(basename "$f")"
                if cmp -s "$f" "$WORK/$m/$v/$b"; then echo "same      $v $b"; else echo "DIFFERENT $v $b"; fi
            done
        done
    done
} > "$LOG" 2>&1
python3 - "$WORK" "$METHODS" "$VERSIONS" > "$OUT/${PREFIX}timing.tsv" <<'PY'
import json, os, sys
work, methods, versions = sys.argv[1], sys.argv[2].split(), [v.split("=")[0] for v in sys.argv[3].split()]
print("version\tlaunch\tkernel\tgrid\tblock\tms\tmin_ms\tmax_ms\tbatches\tbatch_size\tmethod")
for m in methods:
    for v in versions:
        p = os.path.join(work, m, v, "kernel_timing.json")
        if not os.path.exists(p):
            continue
        for l in json.load(open(p))["launches"]:
            print(f"{v}\t{l['launch']}\t{l['kernel']}\t{l['grid'][0]}\t{l['block'][0]}\t{l['ms']:.6f}"
                  f"\t{l['min_ms']:.6f}\t{l['max_ms']:.6f}\t{l['batches']}\t{l['batch_size']}\t{m}")
PY
cat "$OUT/${PREFIX}timing.tsv"
tail -n 30 "$LOG"
