#!/usr/bin/env bash
# Prepare the H100 validation of `warpscope model` (run here, not on the device):
#   DIR/model.json                the model of $SPEC (default validation/h100/model/liang_h100.toml:
#                                 estimates of the original and of the three regroupings)
#   DIR/emit/<alg>/               the regrouped launch of each algorithm (spec.toml, PTX, perms)
#   DIR/<alg>.json                the model of that regrouped launch as it will run (its own
#                                 coalescing: the H100 estimate of the regrouped kernel)
#   DIR/versions                  the versions scripts/h100/model_device.sh times (original, the
#                                 three regroupings, the original again)
#   DIR/{corpus,scripts,validation}/...   the files scripts/h100/model_device.sh needs
# then, on the device:  bash DIR/scripts/h100/model_device.sh   (with DIR carried)
#
#   scripts/h100/model_prepare.sh DIR [WARPSCOPE]     (default binary: target/release/warpscope)
#   LATENCY=FILE: the latency table to model with (default: the one compiled into the binary)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
DIR="${1:?usage: model_prepare.sh DIR [WARPSCOPE]}"
BIN="${2:-target/release/warpscope}"
SPEC="${SPEC:-validation/h100/model/liang_h100.toml}"
rm -rf "$DIR"
mkdir -p "$DIR/emit" "$DIR/scripts/h100" "$DIR/corpus" "$DIR/validation/h100/model"
cp scripts/h100/latency_bench.cu scripts/h100/latency_bench.sh scripts/h100/latency_table.py scripts/h100/latency_sass_check.py \
   scripts/h100/run_spec_cupy.py scripts/h100/spec_common.py scripts/h100/model_device.sh \
   scripts/h100/model_calib.cu scripts/h100/model_calib.py scripts/h100/model_pipes.cu scripts/h100/model_pipes.py \
   "$DIR/scripts/h100/"
cp corpus/liang*.ptx "$DIR/corpus/"
cp "$SPEC" "$DIR/validation/h100/model/"
LAT=()
if [[ -n "${LATENCY:-}" ]]; then LAT=(--latency "$LATENCY"); fi
"$BIN" model "$SPEC" "${LAT[@]}" --format json -o "$DIR/model.json"
NAME="$(basename "$SPEC")"
echo -n "original=validation/h100/model/$NAME" > "$DIR/versions"
for alg in sorting greedy greedy-max; do
    "$BIN" model "$SPEC" "${LAT[@]}" --format csv --regroup "$alg" --emit "$DIR/emit/$alg" -o /dev/null
    "$BIN" model "$DIR/emit/$alg/spec.toml" "${LAT[@]}" --format json -o "$DIR/$alg.json"
    echo -n " $alg=emit/$alg/spec.toml" >> "$DIR/versions"
done
echo " original-again=validation/h100/model/$NAME" >> "$DIR/versions"
du -sh "$DIR"
