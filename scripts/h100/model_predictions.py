#!/usr/bin/env python3
"""The estimates of every launch of a prepared validation (scripts/h100/model_prepare.sh), as a
table to commit BEFORE the launches run on the GPU (the commit's time is the evidence that they
were predicted, not fitted):

    python3 scripts/h100/model_predictions.py DIR > predictions.tsv

DIR/model.json is the original spec's model, DIR/<alg>.json the model of each regrouped launch
as it will run. Columns: version, launch, kernel, grid, block, the paper's BBV-weighted and
BBV-weighted-scheduled estimates and warpscope's H100 throughput estimate (cycles), the H100
estimate in ms at the latency table's clock, and the bound that decides it.
"""
import json
import os
import sys


def main():
    d = sys.argv[1]
    print("version\tlaunch\tkernel\tgrid\tblock\tbbv_weighted\tbbv_weighted_scheduled\th100\th100_ms\th100_bound")
    for v in ["original", "sorting", "greedy", "greedy-max"]:
        p = os.path.join(d, "model.json" if v == "original" else f"{v}.json")
        if not os.path.exists(p):
            continue
        m = json.load(open(p))["model"]
        clock = m["clock_mhz"]
        for l in m["launches"]:
            e, h = l["estimates"], l["h100"]
            print(f"{v}\t{l['launch']}\t{l['kernel']}\t{l['grid'][0]}\t{l['block'][0]}\t{e['bbv_weighted']:.0f}"
                  f"\t{e['bbv_weighted_scheduled']:.0f}\t{h['cycles']:.0f}\t{h['cycles'] / (clock * 1e3):.6f}\t{h['bound']}")


if __name__ == "__main__":
    sys.exit(main())
