#!/usr/bin/env bash
# Validate the corpus on a machine with an NVIDIA GPU (sm_90) and a CUDA toolkit:
#   1. build every corpus/<name>.cu with nvcc -arch=sm_90 -O3 -lineinfo,
#   2. run it (main() checks its own results where it can and exits non-zero on a mismatch),
#   3. run it under compute-sanitizer memcheck, racecheck, synccheck and initcheck,
#   4. load every committed corpus/<name>.ptx through the driver JIT (CuPy), which proves the
#      driver accepts its PTX ISA version.
# Usage (from the repo root): corpus/tools/gpu-validate.sh OUTDIR [name ...]
# Env: JOBS (parallel programs, default 8), TOOLS (default "memcheck racecheck synccheck initcheck").
# Writes OUTDIR/summary.txt and OUTDIR/logs/*; exits non-zero if anything failed.
set -u
out="${1:-/tmp/corpus-validate}"
shift || true
mkdir -p "$out/bin" "$out/logs" "$out/res"
if [[ $# -gt 0 ]]; then names=("$@"); else names=($(ls corpus/*.cu | xargs -n1 basename | sed 's/\.cu$//')); fi
export OUTV="$out" TOOLS="${TOOLS:-memcheck racecheck synccheck initcheck}"

one() {
    n="$1"
    o="$OUTV"
    if ! nvcc -arch=sm_90 -O3 -lineinfo -o "$o/bin/$n" "corpus/$n.cu" >"$o/logs/$n.build" 2>&1; then
        echo "$n: BUILD-FAIL" >"$o/res/$n"; return
    fi
    timeout 120 "$o/bin/$n" >"$o/logs/$n.run" 2>&1
    rc=$?
    line="$n: run=$rc"
    for tool in $TOOLS; do
        timeout 240 compute-sanitizer --tool "$tool" --error-exitcode 97 "$o/bin/$n" >"$o/logs/$n.$tool" 2>&1
        trc=$?
        errs=$(grep -Eo '(ERROR SUMMARY: [0-9]+ error|RACECHECK SUMMARY: [0-9]+ hazard)' "$o/logs/$n.$tool" | grep -Eo '[0-9]+' | tail -n1)
        line+=" $tool=$trc/${errs:-?}"
    done
    echo "$line  | $(tail -n1 "$o/logs/$n.run")" >"$o/res/$n"
}
export -f one
printf '%s\n' "${names[@]}" | xargs -P "${JOBS:-8}" -I{} bash -c 'one {}'

summary="$out/summary.txt"
cat "$out"/res/* >"$summary"
fail=0
grep -Eq 'BUILD-FAIL|run=[1-9]|=[1-9][0-9]*/' "$summary" && fail=1

python3 - "${names[@]}" <<'PY' >>"$summary" 2>&1 || fail=1
import re, sys
names = sys.argv[1:]
try:
    import cupy
except Exception as e:
    print("ptx-load: skipped (no cupy: %s)" % e); sys.exit(0)
bad = 0
for n in names:
    src = open("corpus/%s.ptx" % n).read()
    entries = re.findall(r"^\.visible \.entry (\w+)\(", src, re.M)
    try:
        mod = cupy.RawModule(path="corpus/%s.ptx" % n)
        for e in entries:
            mod.get_function(e)
        print("ptx-load %s: ok (%d entries)" % (n, len(entries)))
    except Exception as ex:
        bad += 1
        print("ptx-load %s: FAILED %s" % (n, ex))
sys.exit(1 if bad else 0)
PY
echo "overall: $([[ $fail -eq 0 ]] && echo PASS || echo FAIL)" >>"$summary"
cat "$summary"
exit $fail
