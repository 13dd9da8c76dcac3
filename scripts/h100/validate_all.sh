#!/usr/bin/env bash
# Runs on the GPU machine: executes every corpus/*.toml launch spec (and the emulator's
# instruction-coverage spec crates/emu/tests/specs/typical.toml) with CuPy and writes the
# saved buffers and per-launch GPU times to $OUT/gpu/<spec stem>/ (plus env.txt, summary.txt
# and one log per spec). Needs python3 with cupy and numpy; nvcc only for .cu modules.
#
#   OUT=/some/dir scripts/h100/validate_all.sh [corpus/x.toml ...]
#
# Bring $OUT/gpu/ back as validation/h100/outputs/, then compare with the emulator:
#   scripts/h100/emu_all.sh target/validation/emu
#   python3 scripts/h100/compare.py --gpu validation/h100/outputs --emu target/validation/emu --markdown --timing
set -uo pipefail
export PYTHONUNBUFFERED=1
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
: "${OUT:?set OUT to the output directory}"
DEST="$OUT/gpu"
mkdir -p "$DEST"
{
    date -u
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1
    python3 -c "import sys, cupy, numpy; print('python', sys.version.split()[0], 'cupy', cupy.__version__, 'numpy', numpy.__version__)" 2>&1
    (nvcc --version 2>&1 | tail -n 2) || true
} > "$DEST/env.txt"
if [[ $# -gt 0 ]]; then specs=("$@"); else specs=(corpus/*.toml crates/emu/tests/specs/typical.toml); fi
ok=0; bad=0
: > "$DEST/summary.txt"
for spec in "${specs[@]}"; do
    stem="$(basename "$spec" .toml)"
    start=$(date +%s%N)
    if timeout 300 python3 scripts/h100/run_spec_cupy.py "$spec" "$DEST/$stem" > "$DEST/$stem.log" 2>&1; then
        ok=$((ok + 1)); verdict=ok
    else
        bad=$((bad + 1)); verdict=FAIL
    fi
    end=$(date +%s%N)
    printf '%-5s %-22s %6d ms\n' "$verdict" "$stem" "$(( (end - start) / 1000000 ))" | tee -a "$DEST/summary.txt"
done
echo "$ok specs ran, $bad failed" | tee -a "$DEST/summary.txt"
[[ $bad -eq 0 ]]
