#!/usr/bin/env bash
# Seeds fuzz/corpus/parse with the sample PTX files (tests/data and the repository corpus).
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p corpus/parse
for f in ../crates/ptx/tests/data/*.ptx ../corpus/*.ptx; do
    [ -f "$f" ] && cp "$f" "corpus/parse/seed_$(basename "$f")"
done
ls corpus/parse | wc -l
