#!/usr/bin/env bash
# Regenerates the PTX of the analysis tests' CUDA sources (the papers' examples in papers/, the
# real-world patterns of issue 10 in patterns/) beside them, the way the corpus does it:
# nvcc 13.0.88, -ptx -lineinfo -arch=sm_90 -O3, compiled from the repository root, `.file` lines
# rewritten to repository-relative paths (no machine paths are committed).
#   crates/analysis/tests/regen-ptx.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd -P)"
cd "$ROOT"
NVCC="${NVCC:-nvcc}"
"$NVCC" --version | grep -q "V13.0.88" || { echo "need nvcc V13.0.88 (found: $($NVCC --version | tail -1))" >&2; exit 1; }
for cu in crates/analysis/tests/papers/*.cu crates/analysis/tests/patterns/*.cu; do
    out="${cu%.cu}.ptx"
    "$NVCC" -ptx -lineinfo -arch=sm_90 -O3 "$cu" -o "$out"
    # .file N "path", timestamp, size -> .file N "repo-relative path"
    sed -E -i \
        -e 's#^(\s*\.file\s+[0-9]+\s+)"[^"]*/(crates/analysis/tests/[a-z_]+/[^"]+)"(,.*)?$#\1"\2"#' \
        -e 's#^(\s*\.file\s+[0-9]+\s+)"[^"]*/include/([^"]+)"(,.*)?$#\1"<cuda>/include/\2"#' \
        -e 's#^(\s*\.file\s+[0-9]+\s+)"([^"]+)"(,.*)$#\1"\2"#' \
        "$out"
    if grep -Eq '/(root|tmp|work|home)/' "$out"; then
        echo "absolute path left in $out" >&2
        exit 1
    fi
done
