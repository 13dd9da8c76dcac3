#!/usr/bin/env bash
# Two measurements on the device machine's idle CPU, in one call:
#
# 1. What reproducibility costs (issue 14): criterion's `determinism` group of
#    crates/emu/benches/emu.rs (built at main), every configuration of every kernel that has
#    global atomics and of one race-free kernel (saxpy_grid_stride), on all 16 cores.
# 2. Did the interpreter/translator split change the emulator's or the parser's speed
#    (issue 9)? The emulator's `runspec` example (per-launch emulation times) over six
#    race-free corpus specs, and `parse_stats` (parse only, large and common modules), built at
#    A = 5aba979 (before the split) and B = main, run in ROUNDS rounds A B A B ..., each
#    process pinned to one core with taskset (so one host thread: rayon and the emulator size
#    their pools by the CPUs the process may use).
#
# DIR holds runspec-A, runspec-B (crates/emu/examples/runspec.rs), parse-A, parse-B (parse_stats examples), emu-B (the emu
# bench) and built_at-B.txt (the checkout emu-B was built in: it reads
# CARGO_MANIFEST_DIR/../../corpus, linked here to this checkout's corpus). Built on the
# development machine, stripped:
#
#   git worktree add --detach /tmp/det-A 5aba979; git worktree add --detach /tmp/det-B main
#   for v in A B; do (cd /tmp/det-$v && CARGO_TARGET_DIR=/tmp/det-$v-target CARGO_BUILD_JOBS=1 \
#       cargo build --release -p warpscope-emu --example runspec && CARGO_TARGET_DIR=/tmp/det-$v-target \
#       CARGO_BUILD_JOBS=1 cargo build --release -p warpscope-bench --example parse_stats); done
#   (cd /tmp/det-B && CARGO_TARGET_DIR=/tmp/det-B-target cargo bench -p warpscope-emu --bench emu --no-run)
#   strip each into DIR (runspec-A, runspec-B, parse-A, parse-B, emu-B); echo /tmp/det-B > DIR/built_at-B.txt
#
# Usage (device, repo root): OUT=dir scripts/h100/determinism_ab.sh DIR
# Output: $OUT/host.txt, $OUT/determinism.txt (criterion), $OUT/ab_runs.tsv (one row per
# launch per run), $OUT/parse_runs.tsv, $OUT/ab_summary.tsv (see scripts/h100/ab_summary.py).
set -uo pipefail
: "${OUT:?set OUT to the output directory}"
DIR="$(cd "${1:?usage: determinism_ab.sh DIR}" && pwd)"
ROUNDS="${ROUNDS:-7}"
CORE="${CORE:-5}"
SPECS="${SPECS:-matmul coalesced reduction loops transpose lavamd}"
ROOT="$(pwd)"
mkdir -p "$OUT"
{
    nproc
    grep -m1 "model name" /proc/cpuinfo || true
    ldd --version | head -1
    command -v taskset || echo "no taskset"
    uptime
    for b in runspec-A runspec-B parse-A parse-B emu-B; do
        echo "$b: $(objdump -T "$DIR/$b" 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -V | tail -1)"
    done
} > "$OUT/host.txt" 2>&1
cat "$OUT/host.txt"

# 1. the determinism group (all cores; `1_core` of the race-free kernel left out: it is the
#    `emulated` configuration's cost plus nothing, and takes longest).
built_at="$(cat "$DIR/built_at-B.txt")"
mkdir -p "$built_at/crates/emu"
ln -sfn "$ROOT/corpus" "$built_at/corpus"
echo "=== determinism group"
CRITERION_HOME=/tmp/criterion-det timeout "${DET_TIMEOUT:-120}" "$DIR/emu-B" --bench --noplot \
    --warm-up-time 0.5 --measurement-time 1 \
    '^determinism/(atomics_index|warp_shuffle|histogram)/|^determinism/coalesced/saxpy_grid_stride/(default|emulated|fast_nondeterministic)' \
    > "$OUT/determinism.txt" 2>&1
grep -E "^determinism/|time:" "$OUT/determinism.txt"

# 2. A/B, interleaved, pinned.
echo "variant	round	spec	launch	kernel	thread_instructions	ms" > "$OUT/ab_runs.tsv"
echo "variant	round	input	min_wall_ms	median_wall_ms	min_cpu_ms	raw" > "$OUT/parse_runs.tsv"
for round in $(seq "$ROUNDS"); do
    for v in A B; do
        for s in $SPECS; do
            t="/tmp/timing-$v-$s.txt"
            taskset -c "$CORE" "$DIR/runspec-$v" "corpus/$s.toml" > "$t" 2>&1 \
                || { echo "runspec-$v $s failed:"; cat "$t"; }
            python3 - "$t" "$v" "$round" "$s" >> "$OUT/ab_runs.tsv" <<'PY'
import re, sys
path, v, r, s = sys.argv[1:]
pat = re.compile(r"^(.*?)\s+(\d+) thread-instr\s+([\d.]+) ms")
i = 0
for line in open(path, errors="replace"):
    m = pat.match(line)
    if m:
        print(f"{v}\t{r}\t{s}\t{i}\t{m.group(1)}\t{m.group(2)}\t{m.group(3)}")
        i += 1
PY
        done
        [ -x "$DIR/parse-A" ] && [ -x "$DIR/parse-B" ] || continue
        for input in --large --common; do
            raw="$(WARPSCOPE_ROOT="$ROOT" taskset -c "$CORE" "$DIR/parse-$v" warpscope "$input" \
                --iters 15 2>&1 | tr '\n' ' ')"
            echo "$v	$round	$input	-	-	-	$raw" >> "$OUT/parse_runs.tsv"
        done
    done
    echo "round $round done $(date +%T)"
done
uptime >> "$OUT/host.txt"
python3 "$(dirname "$0")/ab_summary.py" "$OUT/ab_runs.tsv" "$OUT/parse_runs.tsv" \
    | tee "$OUT/ab_summary.tsv"
