#!/usr/bin/env bash
# Seeds fuzz/corpus/parse with the sample PTX files (tests/data and the repository corpus),
# and fuzz/corpus/check with real-world and corpus modules.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p corpus/parse
for f in ../crates/ptx/tests/data/*.ptx ../corpus/*.ptx; do
    [ -f "$f" ] && cp "$f" "corpus/parse/seed_$(basename "$f")"
done
ls corpus/parse | wc -l
# check: real-world modules under 3,000 lines (the analysis' input) and the corpus.
mkdir -p corpus/check
python3 ../scripts/realworld/ptx_pack.py unpack
for f in ../validation/realworld/ptx/*.ptx ../corpus/*.ptx; do
    [ -f "$f" ] && [ "$(wc -l <"$f")" -lt 3000 ] && cp "$f" "corpus/check/seed_$(basename "$f")"
done
ls corpus/check | wc -l
