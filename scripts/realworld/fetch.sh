#!/usr/bin/env bash
# Copies the sources of the real-world evaluation set (validation/realworld/apps.tsv) from the
# public repositories, at pinned commits, into validation/realworld/src/<suite>/<path in repo>.
# Both suites are BSD-licensed (validation/realworld/LICENSES.md), so the copies are committed;
# this script documents and reproduces where every byte came from.
#
#   scripts/realworld/fetch.sh [REPO_DIR_FOR_SUITE...]
#
# A suite's repository is read from $POLYBENCH_GIT / $CUDA_SAMPLES_GIT / $HECBENCH_GIT (a bare or normal git
# directory) when set, else cloned (blobless) from GitHub into a temporary directory.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
cd "$ROOT"
RW=validation/realworld

declare -A URL=(
  [polybench]=https://github.com/cavazos-lab/PolyBench-ACC
  [cuda-samples]=https://github.com/NVIDIA/cuda-samples
  [hecbench]=https://github.com/zjin-lcf/HeCBench
)
declare -A COMMIT=(
  [polybench]=70ea4ca9047dc4ec9c3ca79b4c91b3b2cc1510e7
  [cuda-samples]=c94ff366aed18c797b8a85dfaac7817b0228b420
  [hecbench]=f27000a5188f8ac79bd43fc95a1b3f890c18823d
)
# Shared headers each suite's applications include, besides their own directory.
declare -A COMMON=(
  [polybench]="common/polybench.h common/polybench.c common/polybenchUtilFuncts.h LICENSE"
  [cuda-samples]="Common/helper_cuda.h Common/helper_functions.h Common/helper_string.h Common/helper_timer.h Common/helper_image.h Common/exception.h Common/helper_math.h LICENSE"
  [hecbench]="LICENSE"
)
declare -A GITDIR=(
  [polybench]="${POLYBENCH_GIT:-}"
  [cuda-samples]="${CUDA_SAMPLES_GIT:-}"
  [hecbench]="${HECBENCH_GIT:-}"
)

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
gitdir() {
  local s="$1"
  if [[ -z "${GITDIR[$s]}" ]]; then
    git clone -q --filter=blob:none --no-checkout "${URL[$s]}" "$tmp/$s"
    GITDIR[$s]="$tmp/$s/.git"
  fi
  echo "${GITDIR[$s]}"
}

copy() { # suite path...
  local s="$1"; shift
  local g; g="$(gitdir "$s")"
  mkdir -p "$RW/src/$s"
  # Sources, licence texts (LICENSE*, COPYRIGHT*) and the small .dat inputs under data/ (eigenvalues reads its matrix);
  # documents, images and project files stay out.
  local files
  mapfile -t files < <(git --git-dir="$g" ls-tree -r --name-only "${COMMIT[$s]}" -- "$@" |
    grep -E '(\.(cu|cuh|h|hpp|c|cpp)|/?(LICENSE|COPYRIGHT)[^/]*|/data/[^/]+\.dat)$')
  git --git-dir="$g" archive "${COMMIT[$s]}" -- "${files[@]}" | tar -x -C "$RW/src/$s"
}

for s in polybench cuda-samples hecbench; do
  # shellcheck disable=SC2086
  copy "$s" ${COMMON[$s]}
done
grep -v '^#' "$RW/apps.tsv" | while IFS=$'\t' read -r name suite path _flags _args; do
  [[ -n "$name" ]] || continue
  copy "$suite" "$path"
done
echo "sources under $RW/src: $(find "$RW/src" -type f | wc -l) files"
