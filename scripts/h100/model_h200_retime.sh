#!/usr/bin/env bash
# device run 12 (model7, 2026-11-28, on an H200): re-time the original launches of the seven committed
# sets of `warpscope model` (docs/accuracy.md, "Seventh version") with scripts/h100/model_device.sh, then
# measure the v7 machine facts (scripts/h100/model_v7rates.py). Run from a directory laid out as the repo
# root (scripts/h100/{model_device.sh,run_spec_cupy.py,spec_common.py,model_pipes.py,model_v7rates.*},
# corpus/liang*.ptx, validation/h100/model/liang*_h100.toml) with OUT set: -> $OUT/run12.tgz
cd "$(dirname "$0")/../.."   # the run itself had this file as go.sh at the staged root: cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv | tee $W/gpu.txt
for s in liang:liang_h100 heldout:liang_heldout_h100 heldout2:liang_heldout2_h100 heldout3:liang_heldout3_h100 heldout4:liang_heldout4_h100 heldout5:liang_heldout5_h100 heldout6:liang_heldout6_h100; do
  n=${s%%:*}; t=validation/h100/model/${s#*:}.toml
  VERSIONS="original=$t original-again=$t" METHODS=graph PREFIX=h200_${n}_ OUT=$W WORK=/tmp/ws-$n bash scripts/h100/model_device.sh > /dev/null 2>&1
  echo "== $n"; cat $W/h200_${n}_timing.tsv | cut -f1-7 | grep original
done
python3 scripts/h100/model_v7rates.py $W 2>&1 | tail -n 200
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader
tar czf $OUT/run12.tgz -C $W .
