#!/usr/bin/env python3
"""Compare `warpscope model`'s estimates with H100 kernel times (docs/accuracy.md).

    python3 scripts/h100/model_accuracy.py ORIGINAL.json TIMING.tsv [--method graph|plain] \\
        [sorting=SORTING.json greedy=GREEDY.json greedy-max=GREEDY_MAX.json] > accuracy.md

ORIGINAL.json is `warpscope model SPEC --format json`; ALG.json is `warpscope model
DIR/emit/ALG/spec.toml --format json`, the model of the regrouped launch exactly as it was
measured (the same permutation, its own coalescing), taken as run. Without them, the paper's
metrics of each regrouping come from ORIGINAL.json (`regrouped`) and the H100 estimate is not
given for it. TIMING.tsv comes from scripts/h100/model_device.sh (median of batched launches per
launch; `--method` picks the rows of one timing method when it has a `method` column, default
`plain`, the only method of the first validation).

Three metrics: the paper's BBV-weighted and BBV-weighted-scheduled, and warpscope's own H100
throughput estimate (`h100`, not the paper's). Launches are matched by their index in the spec;
kernels without divergence cost (the fill kernels) are left out.

* absolute: the estimate in cycles turned into time at the latency table's measured SM clock,
  against the measured time: |est - meas| / meas, for the original launches and for every
  version (a regrouped launch is a kernel too);
* relative (the paper's Table V): for each regrouping, the improvement
  (T_original - T_version) / T_original each metric estimates against the measured one, in
  percentage points, with the speedups.
"""
import json
import statistics
import sys
from collections import defaultdict

ALGS = ["sorting", "greedy", "greedy-max"]
METRICS = [("bbv_weighted", "BBV-weighted"), ("bbv_weighted_scheduled", "BBV-weighted-scheduled"),
           ("h100", "H100 throughput (warpscope)")]


def launch_of(model, index):
    return next((l for l in model["launches"] if l["launch"] == index), None)


def metrics(l):
    e = {k: l["estimates"][k] for k in ("bbv_weighted", "bbv_weighted_scheduled")}
    if "h100" in l:
        e["h100"] = l["h100"]["cycles"]
    return e


def mean_line(label, v, what, unit="%"):
    if not v:
        return f"{label}: no {what}"
    return f"{label}: **{statistics.mean(v):.1f}{unit}** (max {max(v):.1f}{unit}) over {len(v)} {what}"


def main():
    args = sys.argv[1:]
    method = "plain"
    if "--method" in args:
        i = args.index("--method")
        method = args[i + 1]
        del args[i:i + 2]
    model = json.load(open(args[0]))
    model = model.get("model", model)
    versions = {}
    for a in args[2:]:
        alg, path = a.split("=", 1)
        m = json.load(open(path))
        versions[alg] = m.get("model", m)
    times = defaultdict(dict)  # launch index -> version -> ms
    header = None
    for line in open(args[1]):
        f = line.rstrip("\n").split("\t")
        if f[0] == "version":
            header = f
            continue
        if not line.strip():
            continue
        row = dict(zip(header, f))
        if row.get("method", "plain") != method:
            continue
        times[int(row["launch"])].setdefault(row["version"], float(row["ms"]))
    clock = model["clock_mhz"]
    ms = lambda c: c / (clock * 1e3)  # noqa: E731
    kernels = {k["name"]: k for k in model["kernels"]}
    out = [f"Timing method: `{method}`; cycles turned into time at the table's clock ({clock:.0f} MHz).\n"]
    abs_rows, ver_err, orig_err, orig_err_scope = [], defaultdict(list), defaultdict(list), defaultdict(list)
    rel_rows, rel_err = [], defaultdict(list)
    for l0 in model["launches"]:
        k = kernels[l0["kernel"]]
        t = times.get(l0["launch"])
        if not t or "original" not in t or k["estimates"]["divergence_cost"] <= 0:
            continue
        name = f"{l0['kernel']} #{l0['launch']}"
        mb = bool(k.get("memory_bound"))
        e0 = metrics(l0)
        t0 = t["original"]
        again = t.get("original-again", t0)
        row = [name, t0, again, abs(again - t0) / t0 * 100]
        for key, _ in METRICS:
            if key in e0:
                err = abs(ms(e0[key]) - t0) / t0 * 100
                row += [ms(e0[key]), err]
                orig_err[key].append(err)
                ver_err[key].append(err)
                if not mb:
                    orig_err_scope[key].append(err)
            else:
                row += [None, None]
        row.append(("bound: " + l0["h100"]["bound"] if "h100" in l0 else "") + (" (flagged memory-bound)" if mb else ""))
        abs_rows.append(row)
        for alg in ALGS:
            if alg not in t:
                continue
            if alg in versions:
                lv = launch_of(versions[alg], l0["launch"])
                if lv is None:
                    continue
                ev = metrics(lv)
            else:
                r = next((r for r in l0["regrouped"] if r["algorithm"] == alg), None)
                if r is None:
                    continue
                ev = {k2: r[k2] for k2 in ("bbv_weighted", "bbv_weighted_scheduled")}
            t1 = t[alg]
            meas = (t0 - t1) / t0 * 100
            rr = [name, alg, t0, t1, t0 / t1, meas]
            for key, _ in METRICS:
                if key in ev and key in e0:
                    imp = (e0[key] - ev[key]) / e0[key] * 100
                    rr += [e0[key] / ev[key], imp]
                    rel_err[key].append(abs(imp - meas))
                    ver_err[key].append(abs(ms(ev[key]) - t1) / t1 * 100)
                else:
                    rr += [None, None]
            rel_rows.append(rr)
    fmt = lambda v, f: "" if v is None else format(v, f)  # noqa: E731
    out.append("| launch | measured ms (again) | spread | BBV-weighted ms | error | BBV-weighted-scheduled ms | error | H100 est. ms | error | note |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in abs_rows:
        out.append(f"| `{r[0]}` | {r[1]:.4f} ({r[2]:.4f}) | {r[3]:.1f}% | {fmt(r[4], '.4f')} | {fmt(r[5], '.1f')}% | "
                   f"{fmt(r[6], '.4f')} | {fmt(r[7], '.1f')}% | {fmt(r[8], '.4f')} | {fmt(r[9], '.1f')}% | {r[10]} |")
    out.append("")
    for key, label in METRICS:
        out.append("* " + mean_line(f"mean absolute error of the original launches, {label}", orig_err[key], "launches")
                   + (f"; not flagged memory-bound: **{statistics.mean(orig_err_scope[key]):.1f}%** over {len(orig_err_scope[key])}"
                      if orig_err_scope[key] and len(orig_err_scope[key]) < len(orig_err[key]) else ""))
    for key, label in METRICS:
        out.append("* " + mean_line(f"mean absolute error over every version (original and regrouped), {label}", ver_err[key], "launch times"))
    if rel_rows:
        out.append("\n| launch | regrouping | measured ms (orig → regrouped) | measured speedup | measured improvement | BBV-w speedup | BBV-w improvement | BBV-w-s speedup | BBV-w-s improvement | H100 speedup | H100 improvement |")
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in rel_rows:
            cells = [f"`{r[0]}`", r[1], f"{r[2]:.4f} → {r[3]:.4f}", f"{r[4]:.2f}×", f"{r[5]:+.1f}%"]
            for i in range(3):
                sp, imp = r[6 + 2 * i], r[7 + 2 * i]
                cells += [fmt(sp, ".2f") + ("×" if sp is not None else ""), fmt(imp, "+.1f") + ("%" if imp is not None else "")]
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
        for key, label in METRICS:
            out.append("* " + mean_line(f"mean error of the estimated improvement, {label}", rel_err[key], "(launch, regrouping) pairs", " pts"))
    print("\n".join(out))


if __name__ == "__main__":
    main()
