#!/usr/bin/env python3
"""Emulated cache hit rates (`warpscope cache SPEC --sms 132 --format json`) beside Nsight
Compute's on the H100 (scripts/h100/cache_collect.sh), per (spec, kernel).

    scripts/h100/cache_compare.py RAW EMUDIR OUTDIR

RAW holds cache_collect.sh's ncu_cache.csv, manifest.tsv and (optionally) times.tsv; EMUDIR
one `<spec stem>.json` per spec. Writes OUTDIR/ncu_cache.tsv (one row per profiled launch),
OUTDIR/compare.tsv (one row per kernel) and OUTDIR/compare.md (the table docs/accuracy.md
shows), and OUTDIR/times.tsv when RAW has one. Only the standard library is used.

Per kernel, the H100's global-load L1 hit rate is hits / (hits + misses) of
`l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_{hit,miss}.sum` summed over its launches;
`l1tex__t_sector_hit_rate.pct` (all L1 sector lookups) and `lts__t_sector_hit_rate.pct` are
averaged over launches, weighted by the launch's global-load sectors (equally when it has none).
"""

import csv
import json
import os
import sys


def num(s):
    t = (s or "").replace(",", "").strip()
    try:
        return float(t)
    except ValueError:
        return None


def base_name(ncu_name):
    """`ns::f<int>(float *, int)` -> `f`."""
    n = ncu_name.split("(")[0]
    n = n.split("<")[0]
    return n.split("::")[-1].strip().split(" ")[-1]


def read_ncu(raw):
    with open(os.path.join(raw, "ncu_cache.csv"), newline="") as f:
        rows = [r for r in csv.reader(f) if r]
    start = next(i for i, r in enumerate(rows) if "Kernel Name" in r)
    head = rows[start]
    col = {c: i for i, c in enumerate(head)}
    out = []
    for r in rows[start + 1 :]:
        if len(r) != len(head) or not r[col["ID"]].strip().isdigit():
            continue  # the units row
        out.append(
            {
                "kernel": r[col["Kernel Name"]],
                "l1_pct": num(r[col["l1tex__t_sector_hit_rate.pct"]]),
                "l2_pct": num(r[col["lts__t_sector_hit_rate.pct"]]),
                "ld_hit": num(r[col["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"]]) or 0.0,
                "ld_miss": num(r[col["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"]]) or 0.0,
                # The L2's lookups from the L1s, reads and writes apart, and DRAM sectors read
                # (None where the collection predates them).
                **{k: (num(r[col[m]]) if m in col else None) for k, m in SPLIT.items()},
            }
        )
    return out


SPLIT = {
    "l2_rd_hit": "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
    "l2_rd_miss": "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum",
    "l2_wr_hit": "lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum",
    "l2_wr_miss": "lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum",
    "dram_rd": "dram__sectors_read.sum",
}


def read_tsv(path):
    with open(path) as f:
        lines = f.read().splitlines()
    head = lines[0].split("\t")
    return [dict(zip(head, ln.split("\t"))) for ln in lines[1:] if ln]


def align(manifest, ncu):
    """Pairs manifest rows with profiled launches in order, by kernel name."""
    pairs, j, dropped = [], 0, 0
    for m in manifest:
        while j < len(ncu) and base_name(ncu[j]["kernel"]) not in m["kernel"]:
            j += 1
            dropped += 1
        if j == len(ncu):
            break
        pairs.append((m, ncu[j]))
        j += 1
    return pairs, dropped + (len(ncu) - j)


def ratio(hit, miss):
    """Hit percentage of hit / (hit + miss); None when unknown or empty."""
    if hit is None or miss is None or hit + miss <= 0:
        return None
    return 100.0 * hit / (hit + miss)


def cnt(x):
    return "-" if x is None else f"{x:.0f}"


def pct(x):
    return "-" if x is None else f"{x:.1f}"


def main():
    raw, emudir, outdir = sys.argv[1:4]
    os.makedirs(outdir, exist_ok=True)
    manifest = read_tsv(os.path.join(raw, "manifest.tsv"))
    ncu = read_ncu(raw)
    pairs, dropped = align(manifest, ncu)
    with open(os.path.join(outdir, "ncu_cache.tsv"), "w") as f:
        f.write(
            "spec\tlaunch\trepeat\tkernel\tl1_hit_pct\tl2_hit_pct\tld_lookup_hit\tld_lookup_miss\t"
            + "\t".join(SPLIT)
            + "\n"
        )
        for m, n in pairs:
            f.write(
                f"{m['spec']}\t{m['launch']}\t{m['repeat']}\t{m['kernel']}\t{pct(n['l1_pct'])}\t"
                f"{pct(n['l2_pct'])}\t{n['ld_hit']:.0f}\t{n['ld_miss']:.0f}\t"
                + "\t".join("-" if n[k] is None else f"{n[k]:.0f}" for k in SPLIT)
                + "\n"
            )
    # Per (spec, kernel) on the H100.
    hw = {}
    for m, n in pairs:
        k = (m["spec"], m["kernel"])
        a = hw.setdefault(
            k, {"hit": 0.0, "miss": 0.0, "l1": [0.0, 0.0], "l2": [0.0, 0.0], "launches": 0, **{s: 0.0 for s in SPLIT}}
        )
        a["hit"] += n["ld_hit"]
        a["miss"] += n["ld_miss"]
        for s_ in SPLIT:
            a[s_] = None if a[s_] is None or n[s_] is None else a[s_] + n[s_]
        w = max(n["ld_hit"] + n["ld_miss"], 1.0)
        for key, v in (("l1", n["l1_pct"]), ("l2", n["l2_pct"])):
            if v is not None:
                a[key][0] += w * v
                a[key][1] += w
        a["launches"] += 1
    rows = []
    for (spec, kernel), a in sorted(hw.items()):
        path = os.path.join(emudir, spec.replace(".toml", ".json"))
        if not os.path.exists(path):
            continue
        with open(path) as f:
            rep = json.load(f)
        ks = [k for k in rep["configs"][0]["kernels"] if k["ptx_name"] == kernel]
        if not ks:
            continue
        t = ks[0]["totals"]
        ld = a["hit"] + a["miss"]
        rows.append(
            {
                "spec": spec,
                "kernel": ks[0]["name"],
                "launches": a["launches"],
                "emu_ld_sectors": t["load_sectors"],
                "hw_ld_sectors": ld,
                "emu_ld_hit": None if t["load_hit_rate"] is None else 100 * t["load_hit_rate"],
                "hw_ld_hit": 100 * a["hit"] / ld if ld > 0 else None,
                "emu_l1_hit": None if t["l1_hit_rate"] is None else 100 * t["l1_hit_rate"],
                "hw_l1_hit": a["l1"][0] / a["l1"][1] if a["l1"][1] > 0 else None,
                "emu_l2_hit": None if t["l2_hit_rate"] is None else 100 * t["l2_hit_rate"],
                "hw_l2_hit": a["l2"][0] / a["l2"][1] if a["l2"][1] > 0 else None,
                "faults": (t["fault_mh"], t["fault_mstar_h"], t["fault_mm"]),
                "hw_l2_read_hit": ratio(a["l2_rd_hit"], a["l2_rd_miss"]),
                "hw_l2_write_hit": ratio(a["l2_wr_hit"], a["l2_wr_miss"]),
                "hw_l2_reads": None if a["l2_rd_hit"] is None else a["l2_rd_hit"] + a["l2_rd_miss"],
                "hw_l2_writes": None if a["l2_wr_hit"] is None else a["l2_wr_hit"] + a["l2_wr_miss"],
                "hw_dram_read": a["dram_rd"],
                # The same L2 rate over the L1s' lookups only (what the model's L2 sees).
                "hw_l2tex_hit": ratio(
                    None if a["l2_rd_hit"] is None else a["l2_rd_hit"] + a["l2_wr_hit"],
                    None if a["l2_rd_miss"] is None else a["l2_rd_miss"] + a["l2_wr_miss"],
                ),
            }
        )
    for r in rows:
        r["emu_l2tex_hit"] = r["emu_l2_hit"]

    def diff(r, key):
        e, h = r["emu_" + key], r["hw_" + key]
        return None if e is None or h is None else e - h

    with open(os.path.join(outdir, "compare.tsv"), "w") as f:
        f.write(
            "spec\tkernel\tlaunches\temu_ld_sectors\thw_ld_sectors\temu_ld_hit\thw_ld_hit\t"
            "emu_l1_hit\thw_l1_hit\temu_l2_hit\thw_l2_hit\tmh\tmstar_h\tmm\t"
            "hw_l2_reads\thw_l2_read_hit\thw_l2_writes\thw_l2_write_hit\thw_dram_read_sectors\thw_l2tex_hit\n"
        )
        for r in rows:
            f.write(
                f"{r['spec']}\t{r['kernel']}\t{r['launches']}\t{r['emu_ld_sectors']}\t"
                f"{r['hw_ld_sectors']:.0f}\t{pct(r['emu_ld_hit'])}\t{pct(r['hw_ld_hit'])}\t"
                f"{pct(r['emu_l1_hit'])}\t{pct(r['hw_l1_hit'])}\t{pct(r['emu_l2_hit'])}\t"
                f"{pct(r['hw_l2_hit'])}\t{r['faults'][0]}\t{r['faults'][1]}\t{r['faults'][2]}\t"
                f"{cnt(r['hw_l2_reads'])}\t{pct(r['hw_l2_read_hit'])}\t{cnt(r['hw_l2_writes'])}\t"
                f"{pct(r['hw_l2_write_hit'])}\t{cnt(r['hw_dram_read'])}\t{pct(r['hw_l2tex_hit'])}\n"
            )
    md = [
        "| spec | kernel | launches | global-load sectors emu / H100 | L1 load hit % emu / H100 | "
        "L1 hit % (all) emu / H100 | L2 hit % emu / H100 |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        md.append(
            f"| {r['spec']} | `{r['kernel']}` | {r['launches']} | {r['emu_ld_sectors']} / "
            f"{r['hw_ld_sectors']:.0f} | {pct(r['emu_ld_hit'])} / {pct(r['hw_ld_hit'])} | "
            f"{pct(r['emu_l1_hit'])} / {pct(r['hw_l1_hit'])} | {pct(r['emu_l2_hit'])} / "
            f"{pct(r['hw_l2_hit'])} |"
        )
    summary = []
    for key, label in (
        ("ld_hit", "L1 global-load hit rate"),
        ("l1_hit", "L1 hit rate (all lookups)"),
        ("l2_hit", "L2 hit rate"),
        ("l2tex_hit", "L2 hit rate of the L1s' lookups (srcunit_tex reads + writes)"),
    ):
        d = [abs(diff(r, key)) for r in rows if diff(r, key) is not None]
        if d:
            far = sum(1 for x in d if x > 10)
            summary.append(
                f"- {label}: mean absolute difference {sum(d) / len(d):.1f} points over "
                f"{len(d)} kernels; {far} differ by more than 10 points"
            )
    far_rows = [
        f"- `{r['spec']}` `{r['kernel']}`: load hit {pct(r['emu_ld_hit'])} vs {pct(r['hw_ld_hit'])}"
        for r in rows
        if diff(r, "ld_hit") is not None and abs(diff(r, "ld_hit")) > 10
    ]
    far_tex = [
        f"- `{r['spec']}` `{r['kernel']}`: L2 (L1s' lookups) {pct(r['emu_l2tex_hit'])} vs {pct(r['hw_l2tex_hit'])}"
        for r in rows
        if diff(r, "l2tex_hit") is not None and abs(diff(r, "l2tex_hit")) > 10
    ]
    with open(os.path.join(outdir, "compare.md"), "w") as f:
        f.write("\n".join(md) + "\n\n" + "\n".join(summary) + "\n")
        f.write(f"\nprofiled launches not matched to a spec launch: {dropped}\n")
        if far_rows:
            f.write("\nmore than 10 points apart (L1 global-load hit rate):\n\n" + "\n".join(far_rows) + "\n")
        if far_tex:
            f.write("\nmore than 10 points apart (L2 hit rate of the L1s' lookups):\n\n" + "\n".join(far_tex) + "\n")
    tpath = os.path.join(raw, "times.tsv")
    if os.path.exists(tpath):
        with open(tpath) as src, open(os.path.join(outdir, "times.tsv"), "w") as dst:
            dst.write(src.read())
    print("\n".join(summary))
    print(f"kernels compared: {len(rows)}; unmatched profiled launches: {dropped}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
