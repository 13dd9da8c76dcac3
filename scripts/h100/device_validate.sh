#!/usr/bin/env bash
# One device call: run every launch spec on the H100 (CuPy) and on the emulator (a release
# `warpscope` binary carried to the device, so the 68 MB of outputs never travel), then compare
# them buffer by buffer. Writes OUTDIR/compare.md (ulp table and GPU-vs-emulator timings),
# OUTDIR/gpu_summary.txt, OUTDIR/env.txt and the logs.
#   scripts/h100/device_validate.sh OUTDIR [WARPSCOPE_BIN]   (default bin: .devbin/warpscope)
set -u
out="${1:?usage: device_validate.sh OUTDIR [WARPSCOPE_BIN]}"
bin="${2:-.devbin/warpscope}"
export PYTHONUNBUFFERED=1
work=/tmp/device-validate
rm -rf "$work"; mkdir -p "$work/emu"
start=$(date +%s)
OUT="$work" scripts/h100/validate_all.sh >"$out/gpu_log.txt" 2>&1
echo "gpu runs: $(( $(date +%s) - start )) s"
for spec in corpus/*.toml crates/emu/tests/specs/typical.toml; do
  stem="$(basename "$spec" .toml)"
  mkdir -p "$work/emu/$stem"
  if "$bin" run "$spec" -q --save-dir "$work/emu/$stem" --timing "$work/emu/$stem/timing.json" >>"$out/emu_log.txt" 2>&1; then
    echo "ok   $stem" >>"$out/emu_log.txt"
  else
    echo "FAIL $stem" >>"$out/emu_log.txt"
  fi
done
echo "emulator runs: $(( $(date +%s) - start )) s"
nproc >"$out/env.txt"; lscpu | grep -E "Model name|^CPU\(s\)" >>"$out/env.txt"
cat "$work/gpu/env.txt" >>"$out/env.txt" 2>/dev/null
cp "$work/gpu/summary.txt" "$out/gpu_summary.txt" 2>/dev/null
python3 scripts/h100/compare.py --gpu "$work/gpu" --emu "$work/emu" --markdown --timing >"$out/compare.md" 2>&1
echo "compare exit $?"
tail -n 60 "$out/compare.md"
