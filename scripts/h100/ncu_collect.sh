#!/usr/bin/env bash
# Ground truth from the H100 for every corpus program, in one device call:
#   - build corpus/<name>.cu (nvcc -O3 -lineinfo -arch=sm_90, in parallel),
#   - time a plain run and a run under `ncu --section SourceCounters` (the wall time a user pays
#     for a per-line answer from Nsight Compute),
#   - export the per-CUDA-line and per-SASS-instruction source counters as CSV
#     (`ncu -i rep --page source --csv --print-source cuda,sass`),
#   - for programs using shared memory, the kernel-level shared wavefront / bank-conflict
#     metrics (`--page details --csv`), since the per-line "L1 Conflicts Shared N-Way" column
#     under-reports.
# Usage (repo root, on the device): scripts/h100/ncu_collect.sh OUTDIR [name ...]
# Writes OUTDIR/ncu.tar.gz (csv + logs) and OUTDIR/timing.tsv; stops starting new programs
# once BUDGET_S seconds (default 500) have passed and lists the skipped ones.
set -u
out="${1:?usage: ncu_collect.sh OUTDIR [name ...]}"
shift
work=/tmp/ncu-collect
rm -rf "$work"; mkdir -p "$work/bin" "$work/csv" "$work/log"
if [[ $# -gt 0 ]]; then names=("$@"); else names=($(ls corpus/*.cu | xargs -n1 basename | sed 's/\.cu$//')); fi
start=$(date +%s)
printf '%s\n' "${names[@]}" | xargs -P 16 -I{} sh -c \
  'nvcc -arch=sm_90 -O3 -lineinfo -o '"$work"'/bin/{} corpus/{}.cu >'"$work"'/log/{}.build 2>&1 || echo "build failed: {}"'
echo "built in $(( $(date +%s) - start )) s"
shared_metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
printf 'name\tplain_s\tncu_s\tstatus\n' >"$out/timing.tsv"
for n in "${names[@]}"; do
  if (( $(date +%s) - start > ${BUDGET_S:-500} )); then
    printf '%s\t-\t-\tskipped (budget)\n' "$n" >>"$out/timing.tsv"; continue
  fi
  [[ -x "$work/bin/$n" ]] || { printf '%s\t-\t-\tbuild failed\n' "$n" >>"$out/timing.tsv"; continue; }
  filt=()
  case "$n" in
    gaussian|gaussian_drano) filt=(--launch-skip 9 --launch-count 12) ;;
    nw) filt=(--launch-skip 0 --launch-count 24) ;;
  esac
  t0=$(date +%s.%N)
  timeout 60 "$work/bin/$n" >"$work/log/$n.run" 2>&1
  t1=$(date +%s.%N)
  timeout 120 ncu --section SourceCounters --import-source yes "${filt[@]}" -f -o "$work/$n" "$work/bin/$n" >"$work/log/$n.ncu" 2>&1
  rc=$?
  t2=$(date +%s.%N)
  ncu -i "$work/$n.ncu-rep" --page source --csv --print-source cuda,sass >"$work/csv/$n.source.csv" 2>>"$work/log/$n.ncu"
  if grep -q __shared__ "corpus/$n.cu"; then
    timeout 60 ncu --metrics "$shared_metrics" "${filt[@]}" --csv --page details "$work/bin/$n" >"$work/csv/$n.shared.csv" 2>>"$work/log/$n.ncu"
  fi
  awk -v n="$n" -v a="$t0" -v b="$t1" -v c="$t2" -v r="$rc" 'BEGIN{printf "%s\t%.3f\t%.3f\tncu rc=%s\n", n, b-a, c-b, r}' >>"$out/timing.tsv"
done
echo "total $(( $(date +%s) - start )) s"
tar -C "$work" -czf "$out/ncu.tar.gz" csv log
cat "$out/timing.tsv"
