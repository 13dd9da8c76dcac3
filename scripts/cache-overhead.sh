#!/usr/bin/env bash
# The cost of `warpscope cache` over plain emulation, per launch spec (issue 11 item 7: at most
# 5x). Both on one host thread (--deterministic), same SM count, scheduler and memory latency;
# the cache run analyses the default H100 configuration (original L1/L2 traces, golden
# per-thread caches, root causes). Best wall time of REPS runs each.
#   scripts/cache-overhead.sh [WARPSCOPE] SPEC...      (WARPSCOPE: target/release/warpscope)
set -euo pipefail
ws=target/release/warpscope
if [[ $# -gt 0 && -x "$1" && "$1" != *.toml ]]; then ws="$1"; shift; fi
reps="${REPS:-3}"
tmp=$(mktemp -d)
best() {
  local b=
  for _ in $(seq "$reps"); do
    local s e
    s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
    b=$(echo "$s $e ${b:-1e9}" | awk '{t=$2-$1; print (t<$3)?t:$3}')
  done
  echo "$b"
}
printf '%-22s %10s %10s %7s\n' spec emulate_s cache_s ratio
for spec in "$@"; do
  common=(--deterministic --sms 132)
  e=$(best "$ws" run "$spec" "${common[@]}" --scheduler gto --memory-latency 300 --save-dir "$tmp")
  c=$(best "$ws" cache "$spec" "${common[@]}" --format json -o "$tmp/c.json")
  printf '%-22s %10.3f %10.3f %6.2fx\n' "$(basename "$spec" .toml)" "$e" "$c" "$(echo "$c $e" | awk '{print $1/$2}')"
done
rm -rf "$tmp"
