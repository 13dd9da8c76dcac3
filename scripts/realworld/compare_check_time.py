#!/usr/bin/env python3
"""Compare the CPU time of `warpscope check` between builds, on every real-world module.

Runs each module with each binary in turn (interleaved, so that the machine's load falls on
all binaries alike), --reps rounds, RAYON_NUM_THREADS=1, and keeps the smallest CPU time
(user + system of the process) per module and binary: on a shared machine the minimum is the
figure least inflated by other work. Prints, per binary, the median over modules and the sum.

Usage: scripts/realworld/compare_check_time.py BIN [BIN...] [--reps 5] [--core CORE | --pin CORE]
           [--all] [--set all|first|second] [--skip MODULE_STEM ...] [--modules FILE]
(--set: the applications of apps.tsv before or after its "Second set" line; --skip leaves a
module out, e.g. one an older binary never finishes; --modules keeps only the module stems
FILE lists, one a line. --core pins this script to one core, which its children inherit, as
time_check.py does; --pin runs each child under `taskset`, whose own start-up then counts.)
"""
import argparse
import glob
import os
import resource
import statistics
import subprocess

import ptx_pack  # the modules are committed packed; unpacked on first use


def sets():
    """{application: "first" or "second"} from apps.tsv."""
    out, which = {}, "first"
    for line in open("validation/realworld/apps.tsv"):
        if line.startswith("# Second set"):
            which = "second"
        if line.startswith("#") or not line.strip():
            continue
        out[line.split("\t")[0]] = which
    return out


SETS = None


def app_of(module):
    return os.path.basename(module)[:-4].split("__")[0]


def in_set(app, which):
    global SETS
    if which == "all":
        return True
    SETS = SETS or sets()
    return SETS.get(app) == which


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bins", nargs="+")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--pin", help="run under `taskset -c PIN`")
    ap.add_argument("--core", type=int, help="pin this script (and so its children) to CORE")
    ap.add_argument("--modules", help="file of module stems to time (one a line)")
    ap.add_argument("--all", action="store_true", help="also print every module's minimum")
    ap.add_argument("--set", choices=["all", "first", "second"], default="all")
    ap.add_argument("--skip", action="append", default=[], help="module stem to leave out")
    args = ap.parse_args()
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    if args.core is not None:
        os.sched_setaffinity(0, {args.core})
    ptx_pack.unpack()
    keep = None
    if args.modules:
        keep = {line.strip() for line in open(args.modules) if line.strip()}
    mods = [m for m in sorted(glob.glob("validation/realworld/ptx/*.ptx"))
            if in_set(app_of(m), args.set) and os.path.basename(m)[:-4] not in args.skip
            and (keep is None or os.path.basename(m)[:-4] in keep)]
    pin = ["taskset", "-c", args.pin] if args.pin else []
    best = {(b, m): float("inf") for b in args.bins for m in mods}
    for _ in range(args.reps):
        for m in mods:
            for b in args.bins:
                r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                subprocess.run(pin + [b, "check", "--format", "json", m],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
                r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                t = (r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) * 1000
                best[(b, m)] = min(best[(b, m)], t)
    for b in args.bins:
        v = [best[(b, m)] for m in mods]
        print("%s: median %.1f ms, sum %.0f ms over %d modules (min of %d runs each)"
              % (b, statistics.median(v), sum(v), len(v), args.reps))
    if args.all:
        for m in mods:
            print(os.path.basename(m), " ".join("%.1f" % best[(b, m)] for b in args.bins))


if __name__ == "__main__":
    main()
