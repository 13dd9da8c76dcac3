#!/usr/bin/env bash
# Emulator and parser speed before and after the per-family split of issue 9, on the device
# machine's idle CPU: the criterion benches `warpscope-emu --bench emu` (corpus kernels, the
# single-core deterministic cases only) and `warpscope-bench --bench parse` (warpscope-ptx
# only), each built at BEFORE (5aba979) and AFTER, run interleaved BEFORE AFTER BEFORE AFTER,
# each pinned to one core.
#
# DIR holds emu-before, emu-after, parse-before, parse-after (prebuilt bench executables),
# corpus/ and crates/ptx/tests/data/ (what the benches read). The emulator bench finds the
# corpus through the checkout it was built in (CARGO_MANIFEST_DIR/../../corpus), so
# DIR/built_at-before.txt and DIR/built_at-after.txt name those checkouts and the script
# links DIR/corpus there; the parse bench reads $WARPSCOPE_ROOT (= DIR).
#
# Build (here):   git worktree add /tmp/before 5aba979; cd /tmp/before
#                 CARGO_TARGET_DIR=/tmp/before/target cargo bench -p warpscope-emu --bench emu --no-run
#                 CARGO_TARGET_DIR=/tmp/before/target cargo bench -p warpscope-bench --bench parse --no-run
#                 and the same two in the AFTER checkout; copy the executables (stripped) to DIR.
# Usage (device, repo root): OUT=dir scripts/h100/arch_bench.sh DIR
set -uo pipefail
: "${OUT:?set OUT to the output directory}"
DIR="$(cd "${1:?usage: arch_bench.sh DIR}" && pwd)"
mkdir -p "$OUT"
for v in before after; do
    built_at="$(cat "$DIR/built_at-$v.txt")"
    mkdir -p "$built_at/crates/emu"
    ln -sfn "$DIR/corpus" "$built_at/corpus"
done
export WARPSCOPE_ROOT="$DIR"
CORE="${CORE:-5}"
{ nproc; grep -m1 "model name" /proc/cpuinfo || true; uptime; } > "$OUT/arch_bench_cpu.txt"
for round in 1 2; do
    for v in before after; do
        echo "=== round $round: $v emu"
        CRITERION_HOME="/tmp/criterion-$v" timeout 200 taskset -c "$CORE" "$DIR/emu-$v" \
            --bench --noplot --warm-up-time 1 --measurement-time 2 1_core 2>&1
        echo "=== round $round: $v parse"
        CRITERION_HOME="/tmp/criterion-$v" timeout 100 taskset -c "$CORE" "$DIR/parse-$v" \
            --bench --noplot --warm-up-time 1 --measurement-time 2 warpscope-ptx 2>&1
    done
done 2>&1 | tee "$OUT/arch_bench.txt" | grep -E "^===|^[a-z_]+/|time:|thrpt:"
uptime >> "$OUT/arch_bench_cpu.txt"
# One row per benchmark: each run's time (criterion's point estimate, ms), and
# AFTER's mean over BEFORE's mean minus one.
python3 - "$OUT/arch_bench.txt" > "$OUT/arch_bench.tsv" <<'PY'
import re, sys
runs = {}  # (bench, variant) -> [median ns, ...]
variant = None
bench = None
unit = {"ps": 1e-3, "ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    m = re.match(r"=== round \d+: (\w+)", line)
    if m:
        variant = m.group(1)
        continue
    m = re.match(r"^(\S+/\S+)\s*(time:.*)?$", line.rstrip())
    if m and not line.startswith(" "):
        bench = m.group(1)
    m = re.search(r"time:\s+\[([\d.]+) (ps|ns|µs|us|ms|s) ([\d.]+) (ps|ns|µs|us|ms|s) ", line)
    if m and bench and variant:
        runs.setdefault((bench, variant), []).append(float(m.group(3)) * unit[m.group(4)])
print("benchmark\tbefore_ms\tafter_ms\tchange_pct")
for b in sorted({b for b, _ in runs}):
    bf, af = runs.get((b, "before"), []), runs.get((b, "after"), [])
    if not bf or not af:
        continue
    mb, ma = sum(bf) / len(bf), sum(af) / len(af)
    fmt = lambda xs: ",".join(f"{x / 1e6:.3f}" for x in xs)
    print(f"{b}\t{fmt(bf)}\t{fmt(af)}\t{100 * (ma / mb - 1):+.1f}")
PY
cat "$OUT/arch_bench.tsv"
