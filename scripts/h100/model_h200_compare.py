#!/usr/bin/env python3
"""Compares re-timed original launches (another GPU, e.g. the H200 of 2026-11-28's model7 session)
with the committed H100 timings of the same specs (graph method, version `original`; the
committed `original-again` gives the H100's run-to-run spread).

    python3 scripts/h100/model_h200_compare.py NEW_DIR   # NEW_DIR/h200_SET_timing.tsv for each SET
"""
import os
import sys

V = "validation/h100/model"
SETS = [("liang", "model_timing_graph.tsv"), ("heldout", "heldout_timing.tsv"),
        ("heldout2", "heldout2_timing.tsv"), ("heldout3", "heldout3_timing.tsv"),
        ("heldout4", "heldout4_timing.tsv"), ("heldout5", "heldout5_timing.tsv"),
        ("heldout6", "heldout6_timing.tsv")]


def load(path, version):
    out = {}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if f[0] == version and f[-1] == "graph":
            out[int(f[1])] = (f[2], float(f[5]))
    return out


def main():
    new_dir = sys.argv[1]
    print("| set | launch | kernel | H100 ms | H100 again | H200 ms | H200 again | H200/H100 |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    ratios = []
    for name, committed in SETS:
        path = os.path.join(new_dir, f"h200_{name}_timing.tsv")
        if not os.path.exists(path):
            continue
        h1, h1b = load(os.path.join(V, committed), "original"), load(os.path.join(V, committed), "original-again")
        h2, h2b = load(path, "original"), load(path, "original-again")
        for launch, (kernel, ms) in sorted(h1.items()):
            if launch not in h2 or "fill" in kernel:
                continue
            r = h2[launch][1] / ms
            ratios.append(r)
            short = kernel.split("P")[0].lstrip("_Z0123456789")
            print(f"| {name} | {launch} | `{short}` | {ms:.4f} | {h1b.get(launch, ('', float('nan')))[1]:.4f} | "
                  f"{h2[launch][1]:.4f} | {h2b.get(launch, ('', float('nan')))[1]:.4f} | {r:.3f} |")
    if ratios:
        mean = sum(ratios) / len(ratios)
        dev = sum(abs(r - 1) for r in ratios) / len(ratios)
        print(f"\n{len(ratios)} kernels (fill kernels left out): H200/H100 mean {mean:.3f}, "
              f"mean |H200/H100 - 1| {dev * 100:.1f}%, range {min(ratios):.3f}-{max(ratios):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
