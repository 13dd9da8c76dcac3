#!/usr/bin/env bash
# Wall time to a per-line answer, per corpus program, on the device machine:
#   plain run of the CUDA binary, `ncu --section SourceCounters` (what a user waits for
#   Nsight Compute's per-line counters, report export included), and, when a warpscope binary
#   is given, `warpscope profile` of the same launches on the same machine's CPU.
# Usage (repo root, on the device): scripts/h100/profile_timing.sh OUTDIR [name ...]
#   WARPSCOPE=path/to/warpscope (optional; e.g. a release binary carried to the device)
#   BUDGET_S=seconds after which no new program is started (default 540)
# Writes OUTDIR/profile_timing.tsv: name plain_s ncu_s ncu_export_s warpscope_s status
set -u
out="${1:?usage: profile_timing.sh OUTDIR [name ...]}"
shift
work=/tmp/profile-timing
rm -rf "$work"; mkdir -p "$work/bin" "$work/log" "$out"
if [[ $# -gt 0 ]]; then names=("$@"); else names=($(ls corpus/*.cu | xargs -n1 basename | sed 's/\.cu$//')); fi
start=$(date +%s)
printf '%s\n' "${names[@]}" | xargs -P "$(nproc)" -I{} sh -c \
  'nvcc -arch=sm_90 -O3 -lineinfo -o '"$work"'/bin/{} corpus/{}.cu >'"$work"'/log/{}.build 2>&1 || echo "build failed: {}"'
now() { date +%s.%N; }
printf 'name\tplain_s\tncu_s\tncu_export_s\twarpscope_s\tstatus\n' >"$out/profile_timing.tsv"
for n in "${names[@]}"; do
  if (( $(date +%s) - start > ${BUDGET_S:-540} )); then
    printf '%s\t-\t-\t-\t-\tskipped (budget)\n' "$n" >>"$out/profile_timing.tsv"; continue
  fi
  [[ -x "$work/bin/$n" ]] || { printf '%s\t-\t-\t-\t-\tbuild failed\n' "$n" >>"$out/profile_timing.tsv"; continue; }
  filt=()
  case "$n" in
    gaussian|gaussian_drano) filt=(--launch-skip 9 --launch-count 12) ;;
    nw) filt=(--launch-skip 0 --launch-count 24) ;;
  esac
  t0=$(now); timeout 60 "$work/bin/$n" >"$work/log/$n.run" 2>&1; t1=$(now)
  timeout 180 ncu --section SourceCounters --import-source yes "${filt[@]}" -f -o "$work/$n" "$work/bin/$n" >"$work/log/$n.ncu" 2>&1
  rc=$?; t2=$(now)
  ncu -i "$work/$n.ncu-rep" --page source --csv --print-source cuda,sass >"$work/$n.csv" 2>>"$work/log/$n.ncu"; t3=$(now)
  ws="-"
  if [[ -n "${WARPSCOPE:-}" && -x "$WARPSCOPE" ]]; then
    t4=$(now)
    "$WARPSCOPE" profile "corpus/$n.toml" "${filt[@]}" --format csv -o "$work/$n.ws.csv" >"$work/log/$n.ws" 2>&1
    wrc=$?
    t5=$(now)
    ws=$(awk -v a="$t4" -v b="$t5" 'BEGIN{printf "%.3f", b-a}')
    # A failed profile is no timing.
    (( wrc == 0 )) || ws="failed(rc=$wrc)"
  fi
  awk -v n="$n" -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v w="$ws" -v r="$rc" \
    'BEGIN{printf "%s\t%.3f\t%.3f\t%.3f\t%s\tncu rc=%s\n", n, b-a, c-b, d-c, w, r}' >>"$out/profile_timing.tsv"
done
cp "$out/profile_timing.tsv" "$out/profile_timing.txt"
tar -C "$work" -czf "$out/profile_timing_logs.tar.gz" log
echo "total $(( $(date +%s) - start )) s"
cat "$out/profile_timing.tsv"
