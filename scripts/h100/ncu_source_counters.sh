#!/usr/bin/env bash
# Nsight Compute per-source-line counters of every corpus program, for comparing `warpscope
# check` with an H100 (docs/accuracy.md, "Static analysis").
#
# Run on the GPU machine from the repository root, with $OUT set (the device tool does that):
#   scripts/h100/ncu_source_counters.sh [name ...]
# Writes:
#   $OUT/ncu.tar.gz   ncu/<name>.csv            whole report, all kernels and launches
#                     ncu/<name>__<kernel>.csv  one kernel (all its profiled launches)
#   $OUT/ncu_log.txt  toolchain versions, per-program status and timings
# Unpack into validation/h100/ and compare:
#   tar xzf ncu.tar.gz -C validation/h100
#   cargo run --release -p warpscope-validate --features tools --example h100_compare
#
# Each program is built like the corpus PTX (nvcc -O3 -lineinfo -arch=sm_90), run under
# `ncu --section SourceCounters --import-source yes` (the source page's "Divergent Branches",
# "Predicated-On Thread Instructions Executed", "L2 Theoretical Sectors Global (Ideal,
# Excessive)", "L1 Conflicts Shared N-Way"), and exported with
# `ncu -i REPORT [--kernel-name K] --page source --csv --print-source cuda,sass`.
# Programs that launch many kernels are sampled with --launch-skip/--launch-count (the same
# sampling as corpus/tools/ncu-lines.sh) so that the whole run fits in ten minutes; each program
# also has a time limit.
set -u
: "${OUT:?set OUT to the output directory}"
WORK="$(mktemp -d)"
mkdir -p "$WORK/bin" "$WORK/rep" "$WORK/ncu" "$OUT"
LOG="$OUT/ncu_log.txt"
: >"$LOG"
START=$(date +%s)
BUDGET=${BUDGET:-540}       # seconds for the whole run (the device tool allows 600)
PER_PROGRAM=${PER_PROGRAM:-60}

{
    echo "# $(date -u +%FT%TZ)"
    nvidia-smi -L 2>&1 | head -n 4
    nvcc --version 2>&1 | tail -n 2
    ncu --version 2>&1 | tail -n 1
} >>"$LOG"

if [[ $# -gt 0 ]]; then
    names=("$@")
else
    names=()
    for f in corpus/*.cu; do names+=("$(basename "$f" .cu)"); done
fi

# Launch sampling for programs with long launch sequences.
passes_for() {
    case "$1" in
        gaussian) echo "--launch-skip 9 --launch-count 12" ;;
        gaussian_drano) echo "-k regex:^(fill_pair|drano_fan1|fan2_rows)\$ --launch-skip 9 --launch-count 12;-k fan2_cols --launch-skip 4 --launch-count 6" ;;
        nw) echo "--launch-count 24" ;;
        *) echo "--launch-count 64" ;;
    esac
}

# Build everything first, in parallel (profiling is the sequential part).
printf '%s\n' "${names[@]}" | xargs -P "$(nproc)" -I{} \
    sh -c 'nvcc -O3 -lineinfo -arch=sm_90 -o "$0/bin/{}" "corpus/{}.cu" >"$0/bin/{}.log" 2>&1' "$WORK"
echo "built in $(( $(date +%s) - START ))s" >>"$LOG"

for n in "${names[@]}"; do
    now=$(date +%s)
    if (( now - START > BUDGET )); then
        echo "$n: skipped (time budget spent)" >>"$LOG"
        continue
    fi
    t0=$(date +%s)
    if [[ ! -x "$WORK/bin/$n" ]]; then
        echo "$n: build failed: $(tail -n 3 "$WORK/bin/$n.log" | tr '\n' ' ')" >>"$LOG"
        continue
    fi
    IFS=';' read -ra plist <<<"$(passes_for "$n")"
    k=0
    reps=()
    for p in "${plist[@]}"; do
        k=$((k + 1))
        # shellcheck disable=SC2086
        timeout "$PER_PROGRAM" ncu --section SourceCounters --import-source yes $p \
            -f -o "$WORK/rep/$n.$k" "$WORK/bin/$n" >"$WORK/rep/$n.$k.log" 2>&1
        status=$?
        if [[ -f "$WORK/rep/$n.$k.ncu-rep" ]]; then
            reps+=("$WORK/rep/$n.$k.ncu-rep")
        else
            echo "$n: profile pass $k failed (status $status): $(tail -n 2 "$WORK/rep/$n.$k.log" | tr '\n' ' ')" >>"$LOG"
        fi
    done
    # Whole-report export, then one file per kernel defined in the source.
    : >"$WORK/ncu/$n.csv"
    for r in "${reps[@]}"; do
        ncu -i "$r" --page source --csv --print-source cuda,sass >>"$WORK/ncu/$n.csv" 2>>"$LOG"
    done
    kernels=$(grep -oE '__global__[[:space:]]+void[[:space:]]+[A-Za-z_][A-Za-z0-9_]*' "corpus/$n.cu" \
        | awk '{print $NF}' | sort -u)
    nk=0
    for kn in $kernels; do
        f="$WORK/ncu/${n}__${kn}.csv"
        : >"$f"
        for r in "${reps[@]}"; do
            ncu -i "$r" --kernel-name "$kn" --page source --csv --print-source cuda,sass >>"$f" 2>/dev/null
        done
        if grep -q '"Line No"' "$f"; then nk=$((nk + 1)); else rm -f "$f"; fi
    done
    echo "$n: ${#reps[@]} report(s), $nk kernel export(s), $(( $(date +%s) - t0 ))s" >>"$LOG"
done

tar czf "$OUT/ncu.tar.gz" -C "$WORK" ncu
echo "total $(( $(date +%s) - START ))s; $(ls "$WORK/ncu" | wc -l) CSV files" >>"$LOG"
rm -rf "$WORK"
