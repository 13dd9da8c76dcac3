#!/usr/bin/env bash
# Regenerate the example HTML report committed under docs/examples/ and its screenshot:
#
#   scripts/regen-example-report.sh
#
# writes docs/examples/strided.html with `warpscope report corpus/strided.toml --deterministic`
# (the binary of this checkout, built by `cargo run`) and docs/examples/strided.png, a
# 1280x2300 screenshot of the top of the page (summary cards and the start of the source heat map), taken by headless Chromium
# ($WARPSCOPE_CHROMIUM, else chromium, chromium-browser or google-chrome on PATH).
# Run it after changing anything that shows on the page, and commit both files.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"

out=docs/examples
mkdir -p "$out"
cargo run --quiet --bin warpscope -- report corpus/strided.toml --deterministic -o "$out/strided.html"

chrome="${WARPSCOPE_CHROMIUM:-}"
if [[ -z "$chrome" ]]; then
    for c in chromium chromium-browser google-chrome; do
        if command -v "$c" >/dev/null 2>&1; then chrome="$(command -v "$c")"; break; fi
    done
fi
if [[ -z "$chrome" ]]; then
    echo "error: no chromium found (install Debian's chromium or set WARPSCOPE_CHROMIUM);" \
         "$out/strided.html was written, $out/strided.png was not" >&2
    exit 1
fi
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
# The virtual-time budget lets the script paint it.
"$chrome" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --window-size=1280,2300 --virtual-time-budget=2000 \
    --screenshot="$ROOT/$out/strided.png" "file://$ROOT/$out/strided.html" 2>/dev/null
echo "wrote $out/strided.html and $out/strided.png"
