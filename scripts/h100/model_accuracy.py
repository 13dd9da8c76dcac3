#!/usr/bin/env python3
"""Compare `warpscope model`'s estimates with H100 kernel times (docs/accuracy.md).

    python3 scripts/h100/model_accuracy.py MODEL.json model_timing.tsv > validation/h100/model/accuracy.md

MODEL.json is `warpscope model validation/h100/model/liang_h100.toml --format json`
(scripts/h100/model_prepare.sh); model_timing.tsv comes from scripts/h100/model_device.sh.

For every (kernel, regrouping) pair, as in the paper's Table V, the *estimation error* of a
metric is |estimated improvement − measured improvement| in percentage points, where the
improvement of a version is (T_original − T_version) / T_original: the metrics are meant to
compare versions of a kernel, not to predict absolute time. The absolute estimates are also
converted to time at the latency table's SM clock and set against the measured times.
"""
import json
import sys
from collections import defaultdict

ALGS = ["sorting", "greedy", "greedy-max"]


def main():
    model = json.load(open(sys.argv[1]))["model"]
    times = defaultdict(dict)  # kernel -> version -> ms
    for line in open(sys.argv[2]):
        if line.startswith("version") or not line.strip():
            continue
        version, _launch, kernel, _g, _b, ms = line.rstrip("\n").split("\t")
        times[kernel][version] = float(ms)
    clock = model.get("clock_mhz")
    rows = []
    errs = {"bbv_weighted": [], "bbv_weighted_scheduled": []}
    absolute = []
    for k in model["kernels"]:
        name = k["name"]
        ptx = k["ptx_name"]
        t = times.get(ptx) or times.get(name)
        if not t or "original" not in t or k["estimates"]["divergence_cost"] <= 0:
            continue
        launch = next(l for l in model["launches"] if l["kernel"] == name)
        est0 = launch["estimates"]
        t0 = t["original"]
        if clock:
            absolute.append((name, t0, est0["bbv_weighted"] / (clock * 1e3),
                             est0["bbv_weighted_scheduled"] / (clock * 1e3), k.get("memory_bound")))
        for r in launch["regrouped"]:
            alg = r["algorithm"]
            if alg not in t:
                continue
            meas = (t0 - t[alg]) / t0 * 100
            e_bw = (est0["bbv_weighted"] - r["bbv_weighted"]) / est0["bbv_weighted"] * 100
            e_bs = (est0["bbv_weighted_scheduled"] - r["bbv_weighted_scheduled"]) / est0["bbv_weighted_scheduled"] * 100
            errs["bbv_weighted"].append(abs(e_bw - meas))
            errs["bbv_weighted_scheduled"].append(abs(e_bs - meas))
            rows.append((name, alg, t0, t[alg], t0 / t[alg], est0["bbv_weighted_scheduled"] / r["bbv_weighted_scheduled"],
                         meas, e_bw, e_bs, abs(e_bw - meas), abs(e_bs - meas)))
    out = []
    out.append("| kernel | regrouping | measured ms (orig → regrouped) | measured speedup | estimated speedup (scheduled) | measured improvement | BBV-weighted est. | BBV-weighted-scheduled est. | error BBV-w | error BBV-w-s |")
    out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (n, a, t0, t1, sp, esp, m, bw, bs, ebw, ebs) in rows:
        out.append(f"| `{n}` | {a} | {t0:.4f} → {t1:.4f} | {sp:.2f}× | {esp:.2f}× | {m:+.1f}% | {bw:+.1f}% | {bs:+.1f}% | {ebw:.1f} | {ebs:.1f} |")
    for key, label in [("bbv_weighted", "BBV-weighted"), ("bbv_weighted_scheduled", "BBV-weighted-scheduled")]:
        v = errs[key]
        if v:
            out.append(f"\nMean estimation error, {label}: **{sum(v) / len(v):.1f}** percentage points over {len(v)} (kernel, regrouping) pairs (max {max(v):.1f}).")
    if absolute:
        out.append(f"\nAbsolute estimates of the original kernels at the table's clock ({clock:.0f} MHz):\n")
        out.append("| kernel | measured ms | BBV-weighted as ms | BBV-weighted-scheduled as ms | memory-bound note |")
        out.append("|---|---:|---:|---:|---|")
        for (n, t0, bw, bs, mb) in absolute:
            out.append(f"| `{n}` | {t0:.4f} | {bw:.4f} | {bs:.4f} | {'yes' if mb else ''} |")
    print("\n".join(out))


if __name__ == "__main__":
    main()
