#!/usr/bin/env bash
# Builds the kernels of the real-world evaluation set (validation/realworld/apps.tsv) to PTX with
# nvcc 13.0.88: `nvcc -ptx -lineinfo -arch=sm_90 -O3 <app flags>`, one module per .cu file of
# the application that defines a kernel, written to validation/realworld/ptx/<app>.ptx (or
# <app>__<file>.ptx when the application has several), then packs that folder into
# validation/realworld/ptx.tar.gz (the committed form; scripts/realworld/ptx_pack.py).
#
#   scripts/realworld/build_ptx.sh [--out DIR] [APP...]
#
# As scripts/regen-ptx.sh does for the corpus, sources are compiled from a copy staged at one
# fixed path (nvcc hashes the absolute path into internal names) and `.file` paths are made
# repository-relative (toolkit headers become <cuda>/include/...), so the PTX is the same from
# every checkout. Fails when a machine path survives or the PTX is not `.version 9.0`.
# The second set's thrust, CUB, cuda::barrier and curand code needs headers pip's nvcc lacks:
#   python3 -m pip install nvidia-cuda-cccl==13.0.85 nvidia-curand==10.4.0.35
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
cd "$ROOT"
RW=validation/realworld
OUT="$RW/ptx"
APPS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) OUT="$2"; shift 2 ;;
    *) APPS+=("$1"); shift ;;
  esac
done
NVCC_BIN="$(scripts/regen-ptx.sh --print-nvcc)"
CUDA_ROOT="$(cd "$(dirname "$NVCC_BIN")/.." && pwd -P)"
mkdir -p "$OUT"
# The modules are committed packed (validation/realworld/ptx.tar.gz): unpack them first, and pack
# them again at the end when they were written to the default folder.
[[ "$OUT" == "$RW/ptx" ]] && python3 scripts/realworld/ptx_pack.py unpack
STAGE=/tmp/warpscope-realworld-stage
exec 9>"$STAGE.lock"
flock 9
rm -rf "$STAGE" && mkdir -p "$STAGE/$RW"
cp -r "$RW/src" "$STAGE/$RW/src"
trap 'rm -rf "$STAGE"' EXIT

include_flags() { # suite
  case "$1" in
    polybench) echo "-I$RW/src/polybench/common" ;;
    cuda-samples) echo "-I$RW/src/cuda-samples/Common" ;;
  esac
}

status=0
while IFS=$'\t' read -r name suite path flags _args; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  if [[ ${#APPS[@]} -gt 0 && ! " ${APPS[*]} " =~ " $name " ]]; then continue; fi
  [[ "$flags" == "-" ]] && flags=""
  dir="$RW/src/$suite/$path"
  mapfile -t cus < <(cd "$STAGE" && find "$dir" -name '*.cu' | LC_ALL=C sort)
  many=0; [[ ${#cus[@]} -gt 1 ]] && many=1
  for cu in "${cus[@]}"; do
    stem="$(basename "$cu" .cu)"
    if [[ $many -eq 1 ]]; then dest="$OUT/${name}__${stem}.ptx"; else dest="$OUT/$name.ptx"; fi
    raw="$STAGE/$stem.raw.ptx"
    # shellcheck disable=SC2046,SC2086
    if ! (cd "$STAGE" && "$NVCC_BIN" -ptx -lineinfo -arch=sm_90 -O3 $(include_flags "$suite") \
        -I"$dir" -I"$dir/inc" $flags "$cu" -o "$raw"); then
      echo "error: nvcc failed on $cu ($name)" >&2; status=1; continue
    fi
    grep -q '^\.visible \.entry\|^\.entry\|\.entry ' "$raw" || { echo "$name: $cu has no kernel"; continue; }
    ROOT="$STAGE" CUDA_ROOT="$CUDA_ROOT" perl -pe '
      BEGIN { $r = $ENV{ROOT}; $c = $ENV{CUDA_ROOT}; }
      if (/^(\s*\.file\s+\d+\s+)"([^"]*)"(.*)$/) {
        my ($pre, $p, $rest) = ($1, $2, $3);
        $p =~ s{/\.?/}{/}g while $p =~ m{/\.?/};
        1 while $p =~ s{/[^/]+/\.\./}{/};
        if (index($p, "$r/") == 0) { $p = substr($p, length($r) + 1); }
        elsif (index($p, "$c/") == 0) { $p = "<cuda>/" . substr($p, length($c) + 1); }
        elsif ($p =~ m{/(?:targets/[^/]+/)?include/(.*)$}) { $p = "<cuda>/include/$1"; }
        elsif ($p =~ m{^/}) { $p = "<abs>/" . (split m{/}, $p)[-1]; }
        $rest =~ s/^\s*,\s*\d+\s*,\s*\d+//;
        $_ = "$pre\"$p\"$rest\n";
      }' "$raw" >"$dest.tmp"
    if grep -nE '/(root|tmp|work|home|usr)/' "$dest.tmp" >&2; then
      echo "error: machine path left in PTX of $cu" >&2; rm -f "$dest.tmp"; status=1; continue
    fi
    grep -q '^\.version 9\.0$' "$dest.tmp" || { echo "error: $cu: not .version 9.0" >&2; status=1; }
    mv "$dest.tmp" "$dest"
    echo "$dest: $(grep -c '\.entry' "$dest") kernel(s), $(wc -l <"$dest") lines"
  done
done <"$RW/apps.tsv"
[[ "$OUT" == "$RW/ptx" ]] && python3 scripts/realworld/ptx_pack.py pack
exit $status
