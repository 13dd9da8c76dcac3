#!/usr/bin/env bash
# The H100's side of `warpscope cache`'s validation (issue 11, items 5 and 6), in one device call:
#   1. every corpus launch spec runs once with CuPy under Nsight Compute, collecting per kernel
#      launch the L1 and L2 sector hit rates and the global-load sector lookups that hit and
#      missed the L1 (default --cache-control all: caches flushed before each launch, which is
#      what the emulated caches assume);
#   2. the GRAB case-study specs (corpus/grab_*.toml) run REPS times more with CUDA events
#      around each launch (median and minimum per launch).
# Usage (repo root, on the device): scripts/h100/cache_collect.sh OUTDIR [spec.toml ...]
# Writes OUTDIR/ncu_cache.csv (ncu's raw page), OUTDIR/manifest.tsv (which spec and launch each
# profiled launch was), OUTDIR/times.tsv and OUTDIR/collect.log.
# Reduce here with scripts/h100/cache_compare.py (see validation/h100/README.md).
set -u
out="${1:?usage: cache_collect.sh OUTDIR [spec.toml ...]}"
shift
work=/tmp/cache-collect
rm -rf "$work"; mkdir -p "$work"
if [[ $# -gt 0 ]]; then specs=("$@"); else specs=($(ls corpus/*.toml | LC_ALL=C sort)); fi
metrics=l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
# The L2's lookups from the L1s split into reads and writes, and the DRAM sectors read: why the
# L2 hit rate differs from the model's (docs/accuracy.md). Only those this ncu knows are asked
# for (an unknown metric would fail the whole collection).
known=$(ncu --query-metrics --query-metrics-mode all --chip gh100 2>/dev/null | awk '{print $1}')
for m in lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum \
  lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum \
  dram__sectors_read.sum; do
  if grep -qx -e "$m" -e "${m%.sum}" <<<"$known"; then metrics="$metrics,$m"; fi
done
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
start=$(date +%s)
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  echo "metrics: $metrics"
  ncu --version | tail -1
  timeout "${NCU_TIMEOUT_S:-300}" ncu --metrics "$metrics" -f -o "$work/cache" \
    python3 "$here/cache_specs_cupy.py" "$out/manifest.tsv" "${specs[@]}"
  echo "ncu rc=$? after $(( $(date +%s) - start )) s"
  ncu -i "$work/cache.ncu-rep" --csv --page raw >"$out/ncu_cache.csv"
  case_specs=($(printf '%s\n' "${specs[@]}" | grep '/grab_' || true))
  if [[ ${#case_specs[@]} -gt 0 ]]; then
    timeout "${TIMES_TIMEOUT_S:-120}" python3 "$here/cache_specs_cupy.py" "$out/times.tsv" \
      --reps "${REPS:-21}" "${case_specs[@]}"
    echo "times rc=$? after $(( $(date +%s) - start )) s"
  fi
} >"$out/collect.log" 2>&1
tail -5 "$out/collect.log"
wc -l "$out"/*.tsv "$out/ncu_cache.csv"
