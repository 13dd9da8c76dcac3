#!/usr/bin/env python3
"""Reduce Nsight Compute source-page exports of the real-world set (scripts/realworld/
device_collect.sh) to the per-line truth committed under validation/realworld/truth/:

  <app>.lines.tsv  one row per (kernel, CUDA file, line) the H100 ran, summed over the profiled
                   launches: kernel (as ncu names it), file (repository-relative, or
                   <cuda>/include/... for toolkit headers), line, launches, inst, thread_inst,
                   pred_on_thread_inst, divergent_branches, l2_sectors, l2_ideal, l2_excess,
                   l1_global_requests, shared_nway (maximum), spaces, ops, sizes

  launches.tsv     one row per profiled launch: app, kernel (mangled), launch id, grid, block
                   (from the LaunchStats section: the geometry each kernel really ran with)

Columns are ncu 2025.3's "Instructions Executed", "Thread Instructions Executed",
"Predicated-On Thread Instructions Executed", "Divergent Branches", "L2 Theoretical Sectors
Global" / "... Ideal" / "... Excessive", "L1 Tag Requests Global", "L1 Conflicts Shared N-Way",
"Address Space", "Access Operation", "Access Size".

Usage: scripts/realworld/reduce.py RAW_CSV_DIR OUT_DIR
"""
import csv
import os
import re
import sys

NUMERIC = [
    ("inst", "Instructions Executed"),
    ("thread_inst", "Thread Instructions Executed"),
    ("pred_on_thread_inst", "Predicated-On Thread Instructions Executed"),
    ("divergent_branches", "Divergent Branches"),
    ("l2_sectors", "L2 Theoretical Sectors Global"),
    ("l2_ideal", "L2 Theoretical Sectors Global Ideal"),
    ("l2_excess", "L2 Theoretical Sectors Global Excessive"),
    ("l1_global_requests", "L1 Tag Requests Global"),
]
TEXT = [("spaces", "Address Space"), ("ops", "Access Operation"), ("sizes", "Access Size")]
HEADER = (["kernel", "file", "line", "launches"] + [k for k, _ in NUMERIC] + ["shared_nway"]
          + [k for k, _ in TEXT])


def rel(path):
    m = re.search(r"(validation/realworld/src/.*)$", path)
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


def reduce_source(path):
    """{(kernel, file, line): row dict}, summed over the launches in the export."""
    acc = {}
    launches = {}
    fname, kernel, hdr = "?", "?", None
    seen_in_launch = set()
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
            continue  # SASS rows (no line number) and elisions
        if len(row) > len(hdr):
            # ncu writes the CUDA text in quotes without doubling the quotes inside it
            # (`printf("...%d\n", i);`, inline `asm("shfl.sync..." : "=r"(x) ...)`), so
            # such a line splits into more fields: the metrics are the last ones, the text
            # is whatever lies between.
            n = len(hdr) - 2
            row = row[:1] + [",".join(row[1:len(row) - n])] + row[len(row) - n:]
        r = {}
        for k, v in zip(hdr, row):
            r.setdefault(k, v)  # the first "Source" is the CUDA text
        key = (kernel, fname, int(row[0]))
        # A repeated (kernel, file, line) starts another launch's export of the kernel.
        if key in seen_in_launch:
            seen_in_launch = set()
            launches[kernel] = launches.get(kernel, 1) + 1
        seen_in_launch.add(key)
        launches.setdefault(kernel, 1)
        e = acc.setdefault(key, {k: 0.0 for k, _ in NUMERIC} | {"shared_nway": 0.0}
                           | {k: set() for k, _ in TEXT})
        for k, col in NUMERIC:
            e[k] += num(r.get(col))
        e["shared_nway"] = max(e["shared_nway"], num(r.get("L1 Conflicts Shared N-Way")))
        for k, col in TEXT:
            v = (r.get(col) or "-").strip()
            if v and v != "-":
                e[k].add(v)
    return acc, launches


def fmt(v):
    if isinstance(v, set):
        return ",".join(sorted(v)) or "-"
    if isinstance(v, float):
        return "%d" % v if v == int(v) else "%g" % v
    return str(v)


def dims(v):
    """'(32, 8, 1)' -> '32,8,1'."""
    return ",".join(x.strip() for x in v.strip().strip("()").split(","))


LAUNCH_COLS = ("ID", "Kernel Name", "Grid Size", "Block Size")


def reduce_launches(path):
    """[(kernel, id, grid, block)] from a `--page details --csv` export."""
    seen = {}
    hdr = None
    for row in csv.reader(open(path, errors="replace")):
        if row and row[0] == "ID":
            hdr = row
            continue
        # Metric rows end after "Metric Value" (no rule columns), so they are shorter than the
        # header; only rows that reach the launch columns are needed. (Requiring the header's
        # full length kept only rule rows, and a launch no LaunchStats rule fired on was lost.)
        if hdr is None or len(row) <= max(hdr.index(c) for c in LAUNCH_COLS):
            continue
        r = dict(zip(hdr, row))
        seen.setdefault(r["ID"], (r["Kernel Name"], r["ID"], dims(r["Grid Size"]),
                                  dims(r["Block Size"])))
    return sorted(seen.values(), key=lambda x: int(x[1]) if x[1].isdigit() else 0)


def main():
    raw, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "launches.tsv"), "w") as f:
        f.write("app\tkernel\tlaunch\tgrid\tblock\n")
        for name in sorted(os.listdir(raw)):
            if name.endswith(".launch.csv"):
                for k, i, g, b in reduce_launches(os.path.join(raw, name)):
                    f.write("\t".join([name[: -len(".launch.csv")], k, i, g, b]) + "\n")
    for name in sorted(os.listdir(raw)):
        if not name.endswith(".source.csv"):
            continue
        acc, launches = reduce_source(os.path.join(raw, name))
        app = name[: -len(".source.csv")]
        with open(os.path.join(out, app + ".lines.tsv"), "w") as f:
            f.write("\t".join(HEADER) + "\n")
            for (k, fl, ln), e in sorted(acc.items(), key=lambda x: (x[0][1], x[0][2], x[0][0])):
                f.write("\t".join([k, fl, str(ln), str(launches.get(k, 1))]
                                  + [fmt(e[c]) for c in HEADER[4:]]) + "\n")
        div = sum(1 for e in acc.values() if e["divergent_branches"] > 0)
        unc = sum(1 for e in acc.values() if e["l2_excess"] > 0)
        print("%s: %d lines, %d kernels, %d divergent, %d with excess sectors"
              % (app, len(acc), len(launches), div, unc))


if __name__ == "__main__":
    main()
