#!/usr/bin/env python3
"""Summary of an interleaved A/B run (scripts/h100/determinism_ab.sh).

ab_summary.py AB_RUNS.tsv PARSE_RUNS.tsv

One row per workload (a launch of a spec, or a parser input): rounds, the median of A's and of
B's times, the spread of each (max - min over the median), and the change: the median over
rounds of B's time over A's time in the same round, minus one, with the smallest and largest
per-round change beside it. Launches whose thread-instruction counts differ between A and B
are flagged (they would not be the same work).
"""
import re
import statistics
import sys
from collections import defaultdict


def spread(xs):
    m = statistics.median(xs)
    return (max(xs) - min(xs)) / m if m else 0.0


def row(name, a, b, unit_scale=1.0):
    """a, b: round -> time."""
    rounds = sorted(set(a) & set(b))
    if not rounds:
        return None
    av = [a[r] for r in rounds]
    bv = [b[r] for r in rounds]
    ratios = [b[r] / a[r] - 1 for r in rounds if a[r] > 0]
    return (
        f"{name}\t{len(rounds)}\t{statistics.median(av) * unit_scale:.3f}\t"
        f"{statistics.median(bv) * unit_scale:.3f}\t{100 * spread(av):.1f}\t{100 * spread(bv):.1f}\t"
        f"{100 * statistics.median(ratios):+.1f}\t{100 * min(ratios):+.1f}\t{100 * max(ratios):+.1f}"
    )


def main():
    runs = defaultdict(lambda: defaultdict(dict))  # workload -> variant -> round -> ms
    work = defaultdict(dict)  # workload -> variant -> thread instructions
    totals = defaultdict(lambda: defaultdict(lambda: defaultdict(float)))
    with open(sys.argv[1]) as f:
        next(f)
        for line in f:
            v, r, spec, launch, kernel, ti, ms = line.rstrip("\n").split("\t")
            key = f"{spec}#{launch} {kernel}"
            runs[key][v][int(r)] = float(ms)
            work[key][v] = int(ti)
            totals[f"{spec} (all launches)"][v][int(r)] += float(ms)
    print("workload\trounds\tA_median_ms\tB_median_ms\tA_spread_pct\tB_spread_pct"
          "\tchange_pct(median B/A-1 per round)\tmin_change_pct\tmax_change_pct")
    for key in sorted(runs):
        flag = "" if len(set(work[key].values())) == 1 else "\t(different work!)"
        r = row(key, runs[key].get("A", {}), runs[key].get("B", {}))
        if r:
            print(r + flag)
    for key in sorted(totals):
        r = row(key, totals[key].get("A", {}), totals[key].get("B", {}))
        if r:
            print(r)
    parse = defaultdict(lambda: defaultdict(dict))
    pat = re.compile(r"wall min ([\d.]+) ms .*median ([\d.]+) ms .*on-CPU min ([\d.]+) ms")
    with open(sys.argv[2]) as f:
        next(f)
        for line in f:
            v, r, inp, _, _, _, raw = line.rstrip("\n").split("\t")
            m = pat.search(raw)
            if not m:
                print(f"# unparsed parse run {v} {r} {inp}: {raw[:200]}")
                continue
            if "ok=true" not in raw:
                print(f"# parse run {v} {r} {inp} reported errors: {raw[:200]}")
            wmin, wmed, cmin = map(float, m.groups())
            parse[f"parse {inp} (median of 15)"][v][int(r)] = wmed
            parse[f"parse {inp} (min of 15)"][v][int(r)] = wmin
            parse[f"parse {inp} (on-CPU min of 15)"][v][int(r)] = cmin
    for key in sorted(parse):
        r = row(key, parse[key].get("A", {}), parse[key].get("B", {}))
        if r:
            print(r)


main()
