#!/usr/bin/env python3
"""Reduce raw Nsight Compute exports (from scripts/h100/ncu_collect.sh) to the compact tables
committed under validation/h100/ncu/:

  <name>.lines.tsv   one row per (kernel, CUDA file, line) of the source page:
                     kernel, file, line, inst, thread_inst, pred_on_thread_inst, l2_sectors,
                     l2_ideal, l2_excess, l1_global_requests, shared_nway, spaces, ops, sizes
  <name>.shared.tsv  kernel-level shared-memory metrics: kernel, launch, metric, value

File paths are made repository-relative (corpus/x.cu) or <cuda>/... for toolkit headers, so no
machine path is committed.

Usage: scripts/h100/reduce_ncu.py RAW_CSV_DIR OUT_DIR
"""
import csv
import os
import re
import sys


def rel(path):
    m = re.search(r"(corpus/[^/]+)$", path)
    if m:
        return m.group(1)
    m = re.search(r"/(include/.*)$", path)
    if m:
        return "<cuda>/" + m.group(1)
    return os.path.basename(path)


def num(v):
    v = (v or "").replace(",", "").strip()
    try:
        return float(v)
    except ValueError:
        return 0.0


def reduce_source(path, out):
    rows = []
    fname, kernel, hdr = "?", "?", None
    for row in csv.reader(open(path, errors="replace")):
        if not row:
            continue
        if row[0] == "File Path":
            fname = rel(row[1])
            continue
        if row[0] == "Function Name":
            kernel = row[1]
            continue
        if row[0] == "Line No":
            hdr = row
            continue
        if hdr is None or not row[0].strip().isdigit():
            continue  # SASS rows (empty line number) and elisions
        r = {}
        for k, v in zip(hdr, row):
            r.setdefault(k, v)  # first "Source" is the CUDA text
        rows.append(
            [
                kernel,
                fname,
                int(row[0]),
                int(num(r.get("Instructions Executed"))),
                int(num(r.get("Thread Instructions Executed"))),
                int(num(r.get("Predicated-On Thread Instructions Executed"))),
                int(num(r.get("L2 Theoretical Sectors Global"))),
                int(num(r.get("L2 Theoretical Sectors Global Ideal"))),
                int(num(r.get("L2 Theoretical Sectors Global Excessive"))),
                int(num(r.get("L1 Tag Requests Global"))),
                num(r.get("L1 Conflicts Shared N-Way")),
                r.get("Address Space", "-"),
                r.get("Access Operation", "-"),
                r.get("Access Size", "-"),
            ]
        )
    with open(out, "w") as f:
        f.write(
            "kernel\tfile\tline\tinst\tthread_inst\tpred_on_thread_inst\tl2_sectors\tl2_ideal"
            "\tl2_excess\tl1_global_requests\tshared_nway\tspaces\tops\tsizes\n"
        )
        for r in rows:
            f.write("\t".join("%g" % x if isinstance(x, float) else str(x) for x in r) + "\n")
    return len(rows)


def reduce_shared(path, out):
    rows = []
    hdr = None
    for row in csv.reader(open(path, errors="replace")):
        if row and row[0] == "ID":
            hdr = row
            continue
        if hdr is None or len(row) != len(hdr):
            continue
        r = dict(zip(hdr, row))
        rows.append((r["Kernel Name"], r["ID"], r["Metric Name"], int(num(r["Metric Value"]))))
    with open(out, "w") as f:
        f.write("kernel\tlaunch\tmetric\tvalue\n")
        for r in rows:
            f.write("%s\t%s\t%s\t%d\n" % r)
    return len(rows)


def main():
    raw, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for name in sorted(os.listdir(raw)):
        p = os.path.join(raw, name)
        if name.endswith(".source.csv"):
            n = reduce_source(p, os.path.join(out, name.replace(".source.csv", ".lines.tsv")))
            print("%s: %d lines" % (name, n))
        elif name.endswith(".shared.csv"):
            n = reduce_shared(p, os.path.join(out, name.replace(".shared.csv", ".shared.tsv")))
            print("%s: %d metrics" % (name, n))


if __name__ == "__main__":
    main()
