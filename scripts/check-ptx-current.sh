#!/usr/bin/env bash
# Check that the committed PTX beside our CUDA sources (corpus/, and the analysis tests' papers/ and
# patterns/) is what scripts/regen-ptx.sh produces now.
#
#   scripts/check-ptx-current.sh
#
# Exit 0: every .ptx is current (or nvcc 13.0.88 is not installed: the check is skipped, loudly).
# Exit 1: some .ptx is stale or missing, or an orphan .ptx has no .cu; the list is printed.
# To fix: scripts/regen-ptx.sh [SOURCE.cu ...] && git add the .ptx files
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"

if ! nvcc_bin="$(scripts/regen-ptx.sh --print-nvcc 2>/dev/null)"; then
    echo "skipped: nvcc 13.0.88 not found (see scripts/regen-ptx.sh --print-nvcc); PTX not checked"
    exit 0
fi

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

DIRS=(corpus crates/analysis/tests/papers crates/analysis/tests/patterns crates/sass/tests/data)
mapfile -t SOURCES < <(for d in "${DIRS[@]}"; do ls "$d"/*.cu; done | LC_ALL=C sort)

# One output folder per source folder: two folders may hold sources of the same name
# (patterns/lowering.cu, sass/tests/data/lowering.cu).
for d in "${DIRS[@]}"; do
    mkdir -p "$TMP/$d"
    mapfile -t here < <(ls "$d"/*.cu | LC_ALL=C sort)
    if ! scripts/regen-ptx.sh --out "$TMP/$d" "${here[@]}"; then
        echo "error: regenerating the PTX failed" >&2
        exit 1
    fi
done

stale=()
for src in "${SOURCES[@]}"; do
    name="$(basename "$src" .cu)"
    committed="${src%.cu}.ptx"
    if [[ ! -f "$committed" ]]; then
        stale+=("$committed (missing)")
    elif ! cmp -s "$TMP/$(dirname "$src")/$name.ptx" "$committed"; then
        stale+=("$committed (differs; diff -u $committed <(regenerated) shows how)")
    fi
done
for d in "${DIRS[@]}"; do
    for ptx in $(ls "$d"/*.ptx 2>/dev/null | LC_ALL=C sort); do
        [[ -f "${ptx%.ptx}.cu" ]] || stale+=("$ptx (no ${ptx%.ptx}.cu)")
    done
done

n=${#SOURCES[@]}
if [[ ${#stale[@]} -gt 0 ]]; then
    echo "stale PTX (${#stale[@]} of $n), regenerate with scripts/regen-ptx.sh (nvcc: $nvcc_bin):"
    printf '  %s\n' "${stale[@]}"
    exit 1
fi
echo "ok: all $n PTX files of ${DIRS[*]} are current (nvcc: $nvcc_bin)"
