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

Means are given over all kernels and over the kernels the model does not flag memory-bound
(its scope). Last, a CALIBRATED variant, labelled as such because it is fitted to measured
times: time = c0 + c1 * estimate (least squares, per metric) fitted on the other in-scope
kernels' versions (original and regroupings) and tested on the held-out kernel's versions
(leave one kernel out), so no kernel is predicted with constants fitted to its own times.
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
    points = defaultdict(list)  # in-scope kernel -> [(version, measured ms, {metric: est ms})]
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
            if not k.get("memory_bound"):
                points[name].append(("original", t0, {"bbv_weighted": bw, "bbv_weighted_scheduled": bs}))
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
            if clock and not k.get("memory_bound"):
                points[name].append((alg, t1, {"bbv_weighted": est_bw / (clock * 1e3),
                                               "bbv_weighted_scheduled": est_bs / (clock * 1e3)}))
            i_bw = (e0["bbv_weighted"] - est_bw) / e0["bbv_weighted"] * 100
            i_bs = (e0["bbv_weighted_scheduled"] - est_bs) / e0["bbv_weighted_scheduled"] * 100
            rel_err["bbv_weighted"].append(abs(i_bw - meas))
            rel_err["bbv_weighted_scheduled"].append(abs(i_bs - meas))
            rel_rows.append((name, alg, t0, t1, t0 / t1, e0["bbv_weighted_scheduled"] / est_bs,
                             meas, i_bw, i_bs, abs(i_bw - meas), abs(i_bs - meas), src,
                             bool(k.get("memory_bound"))))
    if abs_rows:
        out.append(f"Absolute estimates of the original kernels, cycles at the table's clock ({clock:.0f} MHz):\n")
        out.append("| kernel | measured ms (again) | spread | BBV-weighted ms | error | BBV-weighted-scheduled ms | error | memory-bound note |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---|")
        for (n, t0, again, sp, bw, ebw, bs, ebs, mb) in abs_rows:
            out.append(f"| `{n}` | {t0:.4f} ({again:.4f}) | {sp:.1f}% | {bw:.4f} | {ebw:.1f}% | {bs:.4f} | {ebs:.1f}% | {mb or ''} |")
        for key, label in [("bbv_weighted", "BBV-weighted"), ("bbv_weighted_scheduled", "BBV-weighted-scheduled")]:
            v = abs_err[key]
            out.append(f"\nMean absolute-time error, {label}: **{statistics.mean(v):.1f}%** over {len(v)} kernels (max {max(v):.1f}%).")
            col = 5 if key == "bbv_weighted" else 7
            w = [r[col] for r in abs_rows if not r[8]]
            if w and len(w) < len(v):
                out.append(f"Over the {len(w)} kernels not flagged memory-bound: **{statistics.mean(w):.1f}%**.")
    if rel_rows:
        out.append("\nRegroupings (estimated improvements from the model of the launch as measured):\n")
        out.append("| kernel | regrouping | measured ms (orig → regrouped) | measured speedup | estimated speedup (scheduled) | measured improvement | BBV-weighted est. | BBV-weighted-scheduled est. | error BBV-w (pts) | error BBV-w-s (pts) |")
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for (n, a, t0, t1, sp, esp, m, bw, bs, ebw, ebs, _src, _mb) in rel_rows:
            out.append(f"| `{n}` | {a} | {t0:.4f} → {t1:.4f} | {sp:.2f}× | {esp:.2f}× | {m:+.1f}% | {bw:+.1f}% | {bs:+.1f}% | {ebw:.1f} | {ebs:.1f} |")
        for key, label in [("bbv_weighted", "BBV-weighted"), ("bbv_weighted_scheduled", "BBV-weighted-scheduled")]:
            v = rel_err[key]
            out.append(f"\nMean improvement error, {label}: **{statistics.mean(v):.1f}** percentage points over {len(v)} (kernel, regrouping) pairs (max {max(v):.1f}).")
            col = 9 if key == "bbv_weighted" else 10
            w = [r[col] for r in rel_rows if not r[12]]
            if w and len(w) < len(v):
                out.append(f"Over the {len(w)} pairs of kernels not flagged memory-bound: **{statistics.mean(w):.1f}** points.")
    out.extend(calibrated(points))
    print("\n".join(out))


def fit(pairs):
    """Least-squares (c0, c1) of y = c0 + c1 * x."""
    n = len(pairs)
    mx = sum(x for x, _ in pairs) / n
    my = sum(y for _, y in pairs) / n
    sxx = sum((x - mx) ** 2 for x, _ in pairs)
    c1 = sum((x - mx) * (y - my) for x, y in pairs) / sxx if sxx > 0 else 0.0
    return my - c1 * mx, c1


def calibrated(points):
    """Leave-one-kernel-out affine calibration of each metric (labelled: fitted to timings)."""
    names = sorted(points)
    if len(names) < 2:
        return []
    out = ["\nCALIBRATED variant (fitted to measured times, leave one kernel out): time = c0 + c1 ×"
           " estimate, fitted on the other in-scope kernels' versions, tested on the held-out"
           " kernel's:\n",
           "| held-out kernel | metric | c0 (ms) | c1 | mean error on its versions | its versions |",
           "|---|---|---:|---:|---:|---|"]
    errs = defaultdict(list)
    for held in names:
        for key, label in [("bbv_weighted", "BBV-weighted"), ("bbv_weighted_scheduled", "BBV-weighted-scheduled")]:
            train = [(e[key], ms) for n in names if n != held for (_v, ms, e) in points[n]]
            c0, c1 = fit(train)
            e = [abs(c0 + c1 * est[key] - ms) / ms * 100 for (_v, ms, est) in points[held]]
            errs[key].extend(e)
            vs = ", ".join(f"{v} {x:.0f}%" for (v, _ms, _e), x in zip(points[held], e))
            out.append(f"| `{held}` | {label} | {c0:.4f} | {c1:.3f} | {statistics.mean(e):.1f}% | {vs} |")
    for key, label in [("bbv_weighted", "BBV-weighted"), ("bbv_weighted_scheduled", "BBV-weighted-scheduled")]:
        v = errs[key]
        out.append(f"\nCalibrated mean error, {label}: **{statistics.mean(v):.1f}%** over {len(v)} held-out"
                   f" (kernel, version) times (max {max(v):.1f}%).")
    return out


if __name__ == "__main__":
    main()
