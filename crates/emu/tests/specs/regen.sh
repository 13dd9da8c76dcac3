#!/usr/bin/env bash
# Regenerates typical.ptx from typical.cu with the corpus's pinned nvcc (13.0.88), the same
# flags as scripts/regen-ptx.sh. cuda_fp16.h includes headers of nvidia-cuda-cccl, which the
# pip nvcc does not bring: pip install nvidia-cuda-cccl==13.0.85 (the H100's version).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
NVCC="${NVCC:-$(bash ../../../../scripts/regen-ptx.sh --print-nvcc)}"
if ! "$NVCC" -E -x cu - -o /dev/null <<<'#include <cuda_fp16.h>' 2>/dev/null; then
    echo "error: nvcc cannot find cuda_fp16.h's headers; pip install nvidia-cuda-cccl==13.0.85" >&2
    exit 1
fi
"$NVCC" -ptx -lineinfo -arch=sm_90 -O3 typical.cu -o typical.ptx.tmp
# Machine-independent .file paths, as in the corpus.
sed -E 's#^(\s*\.file\s+[0-9]+\s+")[^"]*/include/([^"]*)"(,.*)?$#\1<cuda>/include/\2"#; s#^(\s*\.file\s+[0-9]+\s+")[^"]*(typical\.cu)"(,.*)?$#\1crates/emu/tests/specs/\2"#' typical.ptx.tmp > typical.ptx
rm typical.ptx.tmp
grep -q '^\.version 9\.0$' typical.ptx
echo "wrote $(pwd)/typical.ptx"
