#!/usr/bin/env bash
# Profile corpus programs with Nsight Compute's SourceCounters section on a GPU machine and reduce
# the per-CUDA-source-line counters to a compact table:
#   file line  inst_executed  l2_sectors  l2_ideal  l2_excess  shared_nway
# Usage (from the repo root): corpus/tools/ncu-lines.sh OUTDIR [name ...]
# Programs with many launches are sampled (the case list below) to keep replay time bounded.
set -u
out="${1:-/tmp/corpus-ncu}"
shift || true
mkdir -p "$out/bin" "$out/rep" "$out/lines"
if [[ $# -gt 0 ]]; then names=("$@"); else names=($(ls corpus/*.cu | xargs -n1 basename | sed 's/\.cu$//')); fi
for n in "${names[@]}"; do
    [[ -x "$out/bin/$n" ]] || nvcc -arch=sm_90 -O3 -lineinfo -o "$out/bin/$n" "corpus/$n.cu" || continue
    # One or more profiling passes (ncu filter arguments, ';'-separated), merged into one CSV.
    passes="--launch-count 200"
    case "$n" in
        gaussian) passes="--launch-skip 9 --launch-count 12" ;;
        gaussian_drano) passes="-k regex:^(fill_pair|drano_fan1|fan2_rows)\$ --launch-skip 9 --launch-count 12;-k fan2_cols --launch-skip 4 --launch-count 6" ;;
        nw) passes="--launch-count 24" ;;
    esac
    : >"$out/rep/$n.csv"
    : >"$out/rep/$n.log"
    k=0
    IFS=';' read -ra plist <<<"$passes"
    for p in "${plist[@]}"; do
        k=$((k + 1))
        # shellcheck disable=SC2086
        ncu --section SourceCounters --import-source yes $p -f -o "$out/rep/$n.$k" "$out/bin/$n" >>"$out/rep/$n.log" 2>&1
        ncu -i "$out/rep/$n.$k.ncu-rep" --page source --csv --print-source cuda,sass >>"$out/rep/$n.csv" 2>>"$out/rep/$n.err"
    done
    python3 - "$out/rep/$n.csv" "$n" >"$out/lines/$n.tsv" <<'PY'
import csv, sys, collections
path, name = sys.argv[1], sys.argv[2]
agg = collections.OrderedDict()
hdr = None
fname = "?"
for row in csv.reader(open(path, errors="replace")):
    if not row:
        continue
    if row[0] in ("File Path", "File Name"):
        fname = row[1].split("/")[-1]
        continue
    if row[0] == "Line No":
        hdr = row
        continue
    if hdr is None or row[0] == "" or not row[0].isdigit():
        continue
    r = dict(zip(hdr, row))
    def num(k):
        try:
            return float(str(r.get(k, "0")).replace(",", ""))
        except ValueError:
            return 0.0
    key = (fname, int(row[0]))
    a = agg.setdefault(key, [0.0, 0.0, 0.0, 0.0, 0.0, row[1].strip()[:70]])
    a[0] += num("Instructions Executed")
    a[1] += num("L2 Theoretical Sectors Global")
    a[2] += num("L2 Theoretical Sectors Global Ideal")
    a[3] += num("L2 Theoretical Sectors Global Excessive")
    a[4] = max(a[4], num("L1 Conflicts Shared N-Way"))
print("file\tline\tinst\tl2_sectors\tl2_ideal\tl2_excess\tshared_nway\tsource")
for (f, ln), a in agg.items():
    if a[1] == 0 and a[4] == 0:
        continue
    print("%s\t%d\t%d\t%d\t%d\t%d\t%g\t%s" % (f, ln, a[0], a[1], a[2], a[3], a[4], a[5]))
PY
    echo "$n: $(($(wc -l <"$out/lines/$n.tsv") - 1)) lines with memory counters"
done
