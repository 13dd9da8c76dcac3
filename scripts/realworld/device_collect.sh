#!/usr/bin/env bash
# Ground truth from the GPU for the real-world evaluation set, in one device call (sets 1-5 on an
# H100, the sixth on an H200: the same sm_90 SM):
#   - build every application of validation/realworld/apps.tsv (nvcc -O3 -lineinfo -arch=sm_90,
#     the same flags as its PTX, in parallel),
#   - time a plain run, then run it under `ncu --section SourceCounters --section LaunchStats
#     --import-source yes`, profiling the first two launches of each kernel (by mangled name,
#     so each template instance counts: `--kernel-name-base mangled --kernel-id
#     ::regex:.*:[12]`; when that profiles nothing, the first COUNT launches with `-c`),
#   - export the source page per CUDA line (`ncu -i rep --page source --csv --print-source
#     cuda,sass --print-kernel-base mangled`) and the launch statistics (`--page details`),
#     and reduce them (scripts/realworld/reduce.py).
# Usage (on the device): scripts/realworld/device_collect.sh SRC_ROOT OUTDIR [app ...]
#   SRC_ROOT holds validation/realworld/{apps.tsv,src} and scripts/realworld/reduce.py.
# Writes OUTDIR/raw.tar.gz (CSV + logs), OUTDIR/truth.tar.gz (reduced tables) and
# OUTDIR/timing.tsv; stops starting new programs after BUDGET_S seconds (default 420). Each plain
# run is cut at PLAIN_TIMEOUT seconds (default 30), each ncu run at NCU_TIMEOUT (default 120).
# ncu runs with `--clock-control none` (the device notes ask that the card's clocks be left
# alone; sets 1-5 ran with ncu's default, base clocks locked): the per-line counts do not depend
# on clocks, only ncu_s does.
set -u
src="$(cd "${1:?usage: device_collect.sh SRC_ROOT OUTDIR [app ...]}" && pwd -P)"
out="$(mkdir -p "${2:?}" && cd "$2" && pwd -P)"
shift 2
rw="$src/validation/realworld"
work=/tmp/rw-collect
rm -rf "$work"; mkdir -p "$work/bin" "$work/csv" "$work/log" "$work/rep"
start=$(date +%s)
{ nvidia-smi -L; ncu --version | tail -1; nvcc --version | tail -2; } >"$work/log/versions.txt" 2>&1

# name -> "suite<TAB>path<TAB>flags"
grep -v '^#' "$rw/apps.tsv" | awk -F'\t' 'NF>=3' >"$work/apps.tsv"
if [[ $# -gt 0 ]]; then
  pat=$(printf '%s\n' "$@"); grep -F -w -f <(echo "$pat") "$work/apps.tsv" >"$work/apps.sel" || true
  mv "$work/apps.sel" "$work/apps.tsv"
fi

build() { # name suite path flags
  local name="$1" suite="$2" path="$3" flags="$4" inc dir
  [[ "$flags" == "-" ]] && flags=""
  dir="$rw/src/$suite/$path"
  case "$suite" in
    polybench) inc="-I$rw/src/polybench/common" ;;
    cuda-samples) inc="-I$rw/src/cuda-samples/Common" ;;
    *) inc="" ;;
  esac
  # Build from the SRC_ROOT so the source paths ncu reports contain validation/realworld/src/.
  (cd "$src" && nvcc -O3 -lineinfo -arch=sm_90 $inc -I"${dir#"$src"/}" -I"${dir#"$src"/}/inc" $flags \
     $(cd "$src" && find "${dir#"$src"/}" -name '*.cu' -o -name '*.cpp' | LC_ALL=C sort) \
     -o "$work/bin/$name") >"$work/log/$name.build" 2>&1 || echo "build failed: $name"
  # Input files the program looks up beside itself (sdkFindFilePath tries ./data/).
  if [[ -d "$dir/data" ]]; then mkdir -p "$work/bin/data" && cp "$dir"/data/* "$work/bin/data/"; fi
}
export -f build; export rw work src
awk -F'\t' '{print $1"\t"$2"\t"$3"\t"$4}' "$work/apps.tsv" |
  xargs -P 16 -d '\n' -I{} bash -c 'IFS=$'"'"'\t'"'"' read -r a b c d <<<"{}"; build "$a" "$b" "$c" "$d"'
echo "built in $(( $(date +%s) - start )) s: $(ls "$work/bin" | wc -l) programs"

profile() { # name
  local n="$1" t0 t1 t2 rc mode
  if (( $(date +%s) - start > ${BUDGET_S:-420} )); then
    printf '%s\t-\t-\tskipped (budget)\n' "$n" >"$work/log/$n.timing"; return
  fi
  cd "$work/bin" || return
  t0=$(date +%s.%N)
  # The program's arguments: apps.tsv's fifth column ("-" for none).
  local args
  args=$(awk -F'\t' -v n="$n" '$1 == n && $5 != "-" {print $5}' "$work/apps.tsv")
  # shellcheck disable=SC2086
  timeout "${PLAIN_TIMEOUT:-30}" "./$n" $args >"$work/log/$n.run" 2>&1
  local prc=$?
  t1=$(date +%s.%N)
  mode=kernel-id
  timeout "${NCU_TIMEOUT:-120}" ncu --clock-control none --section SourceCounters --section LaunchStats --import-source yes \
    --kernel-name-base mangled --kernel-id '::regex:.*:[12]' \
    -f -o "$work/rep/$n" "./$n" $args >"$work/log/$n.ncu" 2>&1
  rc=$?
  if [[ ! -s "$work/rep/$n.ncu-rep" ]] || grep -q "No kernels were profiled" "$work/log/$n.ncu"; then
    mode=count
    timeout "${NCU_TIMEOUT:-120}" ncu --clock-control none --section SourceCounters --section LaunchStats --import-source yes -c "${COUNT:-24}" \
      -f -o "$work/rep/$n" "./$n" $args >>"$work/log/$n.ncu" 2>&1
    rc=$?
  fi
  t2=$(date +%s.%N)
  ncu -i "$work/rep/$n.ncu-rep" --page source --csv --print-source cuda,sass \
    --print-kernel-base mangled >"$work/csv/$n.source.csv" 2>>"$work/log/$n.ncu" ||
  ncu -i "$work/rep/$n.ncu-rep" --page source --csv --print-source cuda,sass \
    >"$work/csv/$n.source.csv" 2>>"$work/log/$n.ncu"
  ncu -i "$work/rep/$n.ncu-rep" --page details --csv --section LaunchStats \
    --print-kernel-base mangled >"$work/csv/$n.launch.csv" 2>>"$work/log/$n.ncu" ||
  ncu -i "$work/rep/$n.ncu-rep" --page details --csv --section LaunchStats \
    >"$work/csv/$n.launch.csv" 2>>"$work/log/$n.ncu"
  awk -v n="$n" -v a="$t0" -v b="$t1" -v c="$t2" -v r="$rc" -v p="$prc" -v m="$mode" \
    'BEGIN{printf "%s\t%.3f\t%.3f\trun rc=%s ncu rc=%s (%s)\n", n, b-a, c-b, p, r, m}' >"$work/log/$n.timing"
}
export -f profile
printf 'name\tplain_s\tncu_s\tstatus\n' >"$out/timing.tsv"
export start
for n in $(cut -f1 "$work/apps.tsv"); do
  [[ -x "$work/bin/$n" ]] || { printf '%s\t-\t-\tbuild failed\n' "$n" >"$work/log/$n.timing"; continue; }
  echo "$n"
done | xargs -P "${JOBS:-3}" -I{} bash -c 'profile {}'
for n in $(cut -f1 "$work/apps.tsv"); do cat "$work/log/$n.timing" 2>/dev/null >>"$out/timing.tsv"; done
echo "total $(( $(date +%s) - start )) s"
python3 "$src/scripts/realworld/reduce.py" "$work/csv" "$work/truth" >"$work/log/reduce.txt" 2>&1
cp "$work/log/reduce.txt" "$out/" 2>/dev/null
tar -C "$work" -czf "$out/truth.tar.gz" truth log
tar -C "$work" -czf "$out/raw.tar.gz" csv
ls -la "$out"
cat "$out/timing.tsv"
