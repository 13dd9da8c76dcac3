#!/usr/bin/env python3
"""Compare `warpscope model`'s estimates with H100 kernel times (docs/accuracy.md).

    python3 scripts/h100/model_accuracy.py ORIGINAL.json model_timing.tsv \\
        [sorting=SORTING.json greedy=GREEDY.json greedy-max=GREEDY_MAX.json] > accuracy.md

ORIGINAL.json is `warpscope model validation/h100/model/liang_h100.toml --format json`;
ALG.json is `warpscope model DIR/emit/ALG/spec.toml --format json`, the model of the regrouped
launch exactly as it was measured (the same permutation), taken as run. Without them, the
estimates of each regrouping come from ORIGINAL.json (`regrouped`). model_timing.tsv comes
from scripts/h100/model_device.sh (median of batched launches per launch).

Two errors are reported per kernel, both honestly different from each other:

* absolute: the estimate in cycles turned into time at the latency table's measured SM clock,
  against the measured kernel time: |est - meas| / meas;
* relative (the paper's Table V): for each regrouping, the improvement
  (T_original - T_version) / T_original the metric estimates against the measured one, in
  percentage points.
"""
import json
import statistics
import sys
from collections import defaultdict

ALGS = ["sorting", "greedy", "greedy-max"]


def launch_estimates(model, kernel):
    """Estimates of the (first) launch of `kernel` (display or PTX name) in a model JSON."""
    for l in model["launches"]:
        if l["kernel"] == kernel:
            return l
    return None


def main():
    model = json.load(open(sys.argv[1]))
    model = model.get("model", model)
    versions = {}
    for a in sys.argv[3:]:
        alg, path = a.split("=", 1)
        m = json.load(open(path))
        versions[alg] = m.get("model", m)
    times = defaultdict(dict)  # kernel -> version -> (median ms, min, max)
    for line in open(sys.argv[2]):
        if line.startswith("version") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        version, kernel, ms = f[0], f[2], float(f[5])
        lo, hi = (float(f[6]), float(f[7])) if len(f) > 7 else (ms, ms)
        times[kernel].setdefault(version, (ms, lo, hi))
    clock = model.get("clock_mhz")
    out = []
    abs_err = {"bbv_weighted": [], "bbv_weighted_scheduled": []}
    rel_err = {"bbv_weighted": [], "bbv_weighted_scheduled": []}
    abs_rows, rel_rows = [], []
    for k in model["kernels"]:
        name, ptx = k["name"], k["ptx_name"]
        t = times.get(ptx) or times.get(name)
        if not t or "original" not in t or k["estimates"]["divergence_cost"] <= 0:
            continue
        l0 = launch_estimates(model, name)
        e0 = l0["estimates"]
        t0 = t["original"][0]
        again = t.get("original-again", (t0,))[0]
        spread = abs(again - t0) / t0 * 100
        if clock:
            bw = e0["bbv_weighted"] / (clock * 1e3)
            bs = e0["bbv_weighted_scheduled"] / (clock * 1e3)
            ebw, ebs = abs(bw - t0) / t0 * 100, abs(bs - t0) / t0 * 100
            abs_err["bbv_weighted"].append(ebw)
            abs_err["bbv_weighted_scheduled"].append(ebs)
            abs_rows.append((name, t0, again, spread, bw, ebw, bs, ebs, k.get("memory_bound")))
        for alg in ALGS:
            if alg not in t:
                continue
            if alg in versions:
                lv = launch_estimates(versions[alg], name)
                if lv is None:
                    continue
                ev = lv["estimates"]
                est_bw, est_bs, src = ev["bbv_weighted"], ev["bbv_weighted_scheduled"], "emitted"
            else:
                r = next((r for r in l0["regrouped"] if r["algorithm"] == alg), None)
                if r is None:
                    continue
                est_bw, est_bs, src = r["bbv_weighted"], r["bbv_weighted_scheduled"], "model"
            t1 = t[alg][0]
            meas = (t0 - t1) / t0 * 100
            i_bw = (e0["bbv_weighted"] - est_bw) / e0["bbv_weighted"] * 100
            i_bs = (e0["bbv_weighted_scheduled"] - est_bs) / e0["bbv_weighted_scheduled"] * 100
            rel_err["bbv_weighted"].append(abs(i_bw - meas))
            rel_err["bbv_weighted_scheduled"].append(abs(i_bs - meas))
            rel_rows.append((name, alg, t0, t1, t0 / t1, e0["bbv_weighted_scheduled"] / est_bs,
                             meas, i_bw, i_bs, abs(i_bw - meas), abs(i_bs - meas), src))
    if abs_rows:
        out.append(f"Absolute estimates of the original kernels, cycles at the table's clock ({clock:.0f} MHz):\n")
        out.append("| kernel | measured ms (again) | spread | BBV-weighted ms | error | BBV-weighted-scheduled ms | error | memory-bound note |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---|")
        for (n, t0, again, sp, bw, ebw, bs, ebs, mb) in abs_rows:
            out.append(f"| `{n}` | {t0:.4f} ({again:.4f}) | {sp:.1f}% | {bw:.4f} | {ebw:.1f}% | {bs:.4f} | {ebs:.1f}% | {mb or ''} |")
        for key, label in [("bbv_weighted", "BBV-weighted"), ("bbv_weighted_scheduled", "BBV-weighted-scheduled")]:
            v = abs_err[key]
            out.append(f"\nMean absolute-time error, {label}: **{statistics.mean(v):.1f}%** over {len(v)} kernels (max {max(v):.1f}%).")
    if rel_rows:
        out.append("\nRegroupings (estimated improvements from the model of the launch as measured):\n")
        out.append("| kernel | regrouping | measured ms (orig → regrouped) | measured speedup | estimated speedup (scheduled) | measured improvement | BBV-weighted est. | BBV-weighted-scheduled est. | error BBV-w (pts) | error BBV-w-s (pts) |")
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for (n, a, t0, t1, sp, esp, m, bw, bs, ebw, ebs, _src) in rel_rows:
            out.append(f"| `{n}` | {a} | {t0:.4f} → {t1:.4f} | {sp:.2f}× | {esp:.2f}× | {m:+.1f}% | {bw:+.1f}% | {bs:+.1f}% | {ebw:.1f} | {ebs:.1f} |")
        for key, label in [("bbv_weighted", "BBV-weighted"), ("bbv_weighted_scheduled", "BBV-weighted-scheduled")]:
            v = rel_err[key]
            out.append(f"\nMean improvement error, {label}: **{statistics.mean(v):.1f}** percentage points over {len(v)} (kernel, regrouping) pairs (max {max(v):.1f}).")
    print("\n".join(out))


if __name__ == "__main__":
    main()
