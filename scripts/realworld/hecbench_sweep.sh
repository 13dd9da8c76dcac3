#!/usr/bin/env bash
# Robustness and speed of `warpscope check` on code nobody here wrote, at scale: every CUDA
# application of HeCBench (https://github.com/zjin-lcf/HeCBench, BSD-3-Clause) except its
# ports of Rodinia applications, which stay unseen (the acceptance set), is built to PTX with
# nvcc 13.0.88 (`-ptx -lineinfo -arch=sm_90 -O3 -std=c++17`, one module per .cu file; a file
# nvcc rejects is left out), then checked one module at a time as a new user would (PTX only,
# defaults). No GPU and no truth: what is measured is the exit status, the CPU time
# (`/usr/bin/time`, user + system) and the number of findings. Nothing of HeCBench is committed;
# the tables are (validation/realworld/hecbench_sweep/<commit>.tsv, docs/performance.md
# "HeCBench sweep").
#
#   scripts/realworld/hecbench_sweep.sh WORK_DIR [WARPSCOPE]      # WARPSCOPE: target/release/warpscope
#
# HeCBench is read from $HECBENCH_GIT (a bare or normal git directory) when set, else cloned
# (blobless) from GitHub; the commit is pinned below. Writes WORK_DIR/sweep.tsv:
#   module  exit_status  cpu_s  max_rss_kb  findings  last_stderr_line
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
WORK="$(mkdir -p "$1" && cd "$1" && pwd -P)"
WS="$(cd "$ROOT" && realpath "${2:-target/release/warpscope}")"
COMMIT=f27000a5188f8ac79bd43fc95a1b3f890c18823d
NVCC_BIN="$("$ROOT/scripts/regen-ptx.sh" --print-nvcc)"
GIT="${HECBENCH_GIT:-}"
if [[ -z "$GIT" ]]; then
  GIT="$WORK/hecbench.git"
  [[ -d "$GIT" ]] || git clone --bare --filter=blob:none https://github.com/zjin-lcf/HeCBench "$GIT"
fi
# Rodinia's applications under their HeCBench names (README "Dataset" list and the names its
# ports carry), and any application whose files name Rodinia.
RODINIA='backprop|bfs|b\+tree|cfd|gaussian|heartwall|hotspot|hybridsort|kmeans|lavamd|leukocyte|lud|myoc|^nn-|^nw-|particle|pathfinder|srad|streamcluster|dwt|huffman|mummer|rodinia'
mkdir -p "$WORK/src" "$WORK/ptx" "$WORK/log"
git -C "$GIT" ls-tree --name-only "$COMMIT" src/ | sed 's#^src/##' | grep -- '-cuda$' \
  | grep -viE "$RODINIA" > "$WORK/apps.txt"
while read -r a; do
  [[ -d "$WORK/src/$a" ]] || git -C "$GIT" archive "$COMMIT" "src/$a" 2>/dev/null | tar -x -C "$WORK" 2>/dev/null || true
  if grep -rqil rodinia "$WORK/src/$a" 2>/dev/null; then rm -rf "$WORK/src/$a"; continue; fi
  for cu in $(find "$WORK/src/$a" -maxdepth 2 -name '*.cu' 2>/dev/null | LC_ALL=C sort); do
    out="$WORK/ptx/${a}__$(basename "$cu" .cu).ptx"
    # Built before, or tried (its log is there): not again.
    [[ -f "$out" || -f "$WORK/log/$(basename "$out" .ptx).log" ]] && continue
    d="$WORK/src/$a"
    timeout 300 "$NVCC_BIN" -ptx -lineinfo -arch=sm_90 -O3 -std=c++17 -I"$d" -I"$d/include" \
      -I"$d/src" "$cu" -o "$out" > "$WORK/log/$(basename "$out" .ptx).log" 2>&1 || rm -f "$out"
  done
done < "$WORK/apps.txt"
: > "$WORK/sweep.tsv"
for p in "$WORK"/ptx/*.ptx; do
  set +e
  /usr/bin/time -f '%U %S %M' -o "$WORK/time.txt" timeout 60 "$WS" check --format json \
    --no-host-source "$p" > "$WORK/out.json" 2> "$WORK/err.txt"
  rc=$?
  set -e
  read -r u s m < <(tail -1 "$WORK/time.txt")
  n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["report"]["findings"]))' "$WORK/out.json" 2>/dev/null || echo -1)
  printf '%s\t%s\t%.2f\t%s\t%s\t%s\n' "$(basename "$p")" "$rc" "$(echo "$u + $s" | bc)" "$m" "$n" \
    "$(tail -1 "$WORK/err.txt" | cut -c1-200)" >> "$WORK/sweep.tsv"
done
awk -F'\t' '{n++; if ($2 != 0) bad++; if ($3 > 1) slow++} END {printf "%d modules, %d non-zero exits, %d over 1 s of CPU\n", n, bad, slow}' "$WORK/sweep.tsv"
