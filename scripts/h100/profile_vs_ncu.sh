#!/usr/bin/env bash
# Compare `warpscope profile` with Nsight Compute's per-line source counters for every corpus
# program that has an ncu CSV, and write a markdown report (docs/accuracy.md, "Profiles vs
# Nsight Compute", is made from it).
#
# Needs no GPU: the ncu side is read from CSVs made on the H100 by scripts/h100/ncu_collect.sh
# (OUTDIR/ncu.tar.gz -> csv/<name>.source.csv) or corpus/tools/ncu-lines.sh
# (OUTDIR/rep/<name>.csv), i.e. `ncu -i REP --page source --csv --print-source cuda,sass`.
#
# Usage (repo root): scripts/h100/profile_vs_ncu.sh [NCU_DIR [OUT.md [name ...]]]
#   NCU_DIR  directory holding <name>.source.csv or <name>.csv (raw ncu source pages), or the
#            reduced <name>.lines.tsv (no shared wavefronts, no SASS rows), or a .tar.gz of
#            such a directory (default validation/h100/ncu/source-pages.tar.gz: the source
#            pages scripts/h100/ncu_collect.sh collected)
#   OUT.md   report (default validation/h100/profile_vs_ncu.md)
#   FILTERS=ncu_collect (default) or ncu-lines: which script's launch selection made the CSVs
#   WARPSCOPE=path to the binary (default: cargo build --release, target/profile)
set -u
ncu_dir="${1:-validation/h100/ncu/source-pages.tar.gz}"
out="${2:-validation/h100/profile_vs_ncu.md}"
shift 2 2>/dev/null || shift $#
filters="${FILTERS:-ncu_collect}"
if [[ -z "${WARPSCOPE:-}" ]]; then
  export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target/profile}"
  cargo build --release -q -p warpscope || exit 2
  WARPSCOPE="$CARGO_TARGET_DIR/release/warpscope"
fi
if [[ $# -gt 0 ]]; then names=("$@"); else names=($(ls corpus/*.toml | xargs -n1 basename | sed 's/\.toml$//')); fi
mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d)
shown_dir="$ncu_dir"
if [[ "$ncu_dir" == *.tar.gz ]]; then
  mkdir -p "$tmp/pages" && tar -xzf "$ncu_dir" -C "$tmp/pages" || exit 2
  ncu_dir=$(dirname "$(find "$tmp/pages" -name '*.csv' | head -1)")
fi
total_lines=0; total_exact=0; total_exec=0; total_lanes=0
{
  echo "# warpscope profile vs Nsight Compute source counters"
  echo
  echo "Per CUDA line, summed over the profiled launches: global sectors and ideal sectors, shared"
  echo "wavefronts and ideal wavefronts must be equal (N-Way is compared apart). Made by"
  echo "\`scripts/h100/profile_vs_ncu.sh $shown_dir\` (launch selection: $filters)."
  echo
  echo "| program | lines with memory accesses | exactly equal | N-Way agrees (shared lines) | active lanes agree (lines) | divergent lines: branch kept / if-converted / missing / ncu only |"
  echo "|---|---|---|---|---|---|"
} >"$tmp/summary.md"
: >"$tmp/details.md"
for n in "${names[@]}"; do
  csv=""
  for c in "$ncu_dir/$n.source.csv" "$ncu_dir/$n.csv" "$ncu_dir/$n.lines.tsv"; do [[ -s "$c" ]] && { csv="$c"; break; }; done
  if [[ -z "$csv" ]]; then
    echo "| $n | no ncu CSV | | | | | |" >>"$tmp/summary.md"; continue
  fi
  sel=()
  case "$filters:$n" in
    *:gaussian) sel=(--launch-skip 9 --launch-count 12) ;;
    ncu_collect:gaussian_drano) sel=(--launch-skip 9 --launch-count 12) ;;
    ncu-lines:gaussian_drano) sel=(--ncu-filter '-k regex:^(fill_pair|drano_fan1|fan2_rows)$ --launch-skip 9 --launch-count 12'
                                   --ncu-filter '-k fan2_cols --launch-skip 4 --launch-count 6') ;;
    *:nw) sel=(--launch-skip 0 --launch-count 24) ;;
    ncu-lines:*) sel=(--launch-count 200) ;;
  esac
  if ! "$WARPSCOPE" profile "corpus/$n.toml" "${sel[@]}" --compare-ncu "$csv" >"$tmp/$n.md" 2>"$tmp/$n.err"; then
    echo "| $n | warpscope failed: $(head -c 200 "$tmp/$n.err" | tr '\n' ' ') | | | | |" >>"$tmp/summary.md"; continue
  fi
  head=$(head -1 "$tmp/$n.md")
  exact=$(sed -E 's/^### [^:]*: ([0-9]+)\/([0-9]+) lines.*/\1/' <<<"$head")
  lines=$(sed -E 's/^### [^:]*: ([0-9]+)\/([0-9]+) lines.*/\2/' <<<"$head")
  lanes=$(sed -E 's/.*agree on ([0-9]+\/[0-9]+) executed.*/\1/' <<<"$head")
  nway=$(sed -E 's/.*N-Way agrees on ([0-9]+\/[0-9]+) shared.*/\1/' <<<"$head")
  kept=$(grep -c "branch kept" "$tmp/$n.md"); pred=$(grep -c "if-converted" "$tmp/$n.md")
  miss=$(grep -c "no conditional branch or predication" "$tmp/$n.md"); hw=$(grep -c "ncu only" "$tmp/$n.md")
  total_lines=$((total_lines + lines)); total_exact=$((total_exact + exact))
  total_lanes=$((total_lanes + ${lanes%/*})); total_exec=$((total_exec + ${lanes#*/}))
  echo "| $n | $lines | $exact | $nway | $lanes | $kept / $pred / $miss / $hw |" >>"$tmp/summary.md"
  { cat "$tmp/$n.md"; echo; } >>"$tmp/details.md"
done
{
  cat "$tmp/summary.md"
  if (( total_lines > 0 )); then
    echo "| **all** | $total_lines | $total_exact ($(awk -v a=$total_exact -v b=$total_lines 'BEGIN{printf "%.1f%%", 100*a/b}')) | | $total_lanes/$total_exec | |"
  fi
  echo
  echo "## Lines that differ, and divergence per line"
  echo
  cat "$tmp/details.md"
} >"$out"
rm -rf "$tmp"
echo "wrote $out: $total_exact of $total_lines lines with memory accesses agree exactly"
