#!/usr/bin/env bash
# Re-score `warpscope model`'s H100 estimate on every earlier validation (docs/accuracy.md): models
# the original spec and the emitted regrouped specs that were timed (as kept by
# scripts/h100/model_prepare.sh under EMIT_ROOT: emit/, ho/emit/, h2/emit/, h3/emit/, h4/emit/, h5/emit/, h6/emit/, h7/emit/, h8/emit/, h9/emit/, h10/emit/, h11/emit/, h12/emit/), then compares them
# with the committed timings (graph method) with scripts/h100/model_accuracy.py. A set whose
# emitted regroupings are not under EMIT_ROOT is scored on its original launches only.
#
#   scripts/h100/model_rescore.sh OUTDIR [WARPSCOPE] [EMIT_ROOT]
#     WARPSCOPE default target/release/warpscope; EMIT_ROOT default .dev/model
#   SETS: which of liang heldout heldout2 heldout3 heldout4 heldout5 heldout6 heldout7 heldout8 heldout9 heldout10 heldout11 heldout12
#     (default all; heldout7's to heldout12's timings are the H200's)
#   -> OUTDIR/SET/{model,sorting,greedy,greedy-max}.json and OUTDIR/SET_accuracy.md
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
OUTD="${1:?usage: model_rescore.sh OUTDIR [WARPSCOPE] [EMIT_ROOT]}"
BIN="${2:-target/release/warpscope}"
EMIT="${3:-.dev/model}"
V=validation/h100/model
score() { # name spec emitdir timing
    local name=$1 spec=$2 emit=$3 timing=$4
    mkdir -p "$OUTD/$name"
    "$BIN" model "$spec" --format json -o "$OUTD/$name/model.json"
    local algs=()
    for a in sorting greedy greedy-max; do
        if [[ ! -f "$emit/$a/spec.toml" ]]; then
            echo "$name: no $emit/$a/spec.toml: its original launches only" >&2
            continue
        fi
        "$BIN" model "$emit/$a/spec.toml" --format json -o "$OUTD/$name/$a.json"
        algs+=("$a=$OUTD/$name/$a.json")
    done
    python3 scripts/h100/model_accuracy.py "$OUTD/$name/model.json" "$timing" --method graph "${algs[@]}" \
        > "$OUTD/${name}_accuracy.md"
    grep "mean absolute error" "$OUTD/${name}_accuracy.md" | grep -i h100
}
for set in ${SETS:-liang heldout heldout2 heldout3 heldout4 heldout5 heldout6 heldout7 heldout8 heldout9 heldout10 heldout11 heldout12}; do
    case $set in
        liang) score liang "$V/liang_h100.toml" "$EMIT/emit" "$V/model_timing_graph.tsv" ;;
        heldout) score heldout "$V/liang_heldout_h100.toml" "$EMIT/ho/emit" "$V/heldout_timing.tsv" ;;
        heldout2) score heldout2 "$V/liang_heldout2_h100.toml" "$EMIT/h2/emit" "$V/heldout2_timing.tsv" ;;
        heldout3) score heldout3 "$V/liang_heldout3_h100.toml" "$EMIT/h3/emit" "$V/heldout3_timing.tsv" ;;
        heldout4) score heldout4 "$V/liang_heldout4_h100.toml" "$EMIT/h4/emit" "$V/heldout4_timing.tsv" ;;
        heldout5) score heldout5 "$V/liang_heldout5_h100.toml" "$EMIT/h5/emit" "$V/heldout5_timing.tsv" ;;
        heldout6) score heldout6 "$V/liang_heldout6_h100.toml" "$EMIT/h6/emit" "$V/heldout6_timing.tsv" ;;
        heldout7) score heldout7 "$V/liang_heldout7_h100.toml" "$EMIT/h7/emit" "$V/heldout7_timing.tsv" ;;
        heldout8) score heldout8 "$V/liang_heldout8_h100.toml" "$EMIT/h8/emit" "$V/heldout8_timing.tsv" ;;
        heldout9) score heldout9 "$V/liang_heldout9_h100.toml" "$EMIT/h9/emit" "$V/heldout9_timing.tsv" ;;
        heldout10) score heldout10 "$V/liang_heldout10_h100.toml" "$EMIT/h10/emit" "$V/heldout10_timing.tsv" ;;
        heldout11) score heldout11 "$V/liang_heldout11_h100.toml" "$EMIT/h11/emit" "$V/heldout11_timing.tsv" ;;
        heldout12) score heldout12 "$V/liang_heldout12_h100.toml" "$EMIT/h12/emit" "$V/heldout12_timing.tsv" ;;
        *) echo "unknown set $set" >&2; exit 2 ;;
    esac
done
