#!/usr/bin/env bash
# One device call for `warpscope cache`'s H100 side (issue 11, items 5 and 6):
#   1. builds and runs the GRAB case-study programs (corpus/grab_*.cu: their main() checks the
#      versions agree);
#   2. emulates every corpus spec with WARPSCOPE (`warpscope cache SPEC --sms 132 --format json`,
#      one process per spec) into OUTDIR/emulated.tar.gz;
#   3. scripts/h100/cache_collect.sh: Nsight Compute's cache counters for every launch and the
#      case-study kernel times.
# Usage (repo root, on the device): scripts/h100/cache_device.sh OUTDIR WARPSCOPE
# Reduce here with scripts/h100/cache_compare.py (validation/h100/README.md).
set -u
out="${1:?usage: cache_device.sh OUTDIR WARPSCOPE}"
ws="${2:?usage: cache_device.sh OUTDIR WARPSCOPE}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
start=$(date +%s)
{
  for cu in corpus/grab_*.cu; do
    n=$(basename "$cu" .cu)
    nvcc -O3 -arch=sm_90 -o "/tmp/$n" "$cu" && "/tmp/$n"
    echo "$n: rc=$?"
  done
} >"$out/programs.log" 2>&1
cat "$out/programs.log"
emu=/tmp/cache-emu
rm -rf "$emu"; mkdir -p "$emu"
ls corpus/*.toml | LC_ALL=C sort | xargs -P "${JOBS:-14}" -I{} sh -c \
  'n=$(basename {} .toml); "$0" cache {} --sms 132 --format json --threads 1 -o "$1/$n.json" 2>"$1/$n.err" || echo "$n: emulation failed"' \
  "$ws" "$emu"
tar czf "$out/emulated.tar.gz" -C "$emu" .
echo "emulated after $(( $(date +%s) - start )) s"
"$here/cache_collect.sh" "$out"
echo "done after $(( $(date +%s) - start )) s"
