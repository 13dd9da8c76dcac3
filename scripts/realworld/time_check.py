#!/usr/bin/env python3
"""Time `warpscope check` on every real-world module, on one core, with defaults.

Each module runs --runs times on core CORE (this script pins itself; children inherit it), with
RAYON_NUM_THREADS=1 (kernels are
otherwise analysed in parallel); for the whole process (load, analysis, JSON report) the median
wall time and the median on-CPU time (user + system, which a busy machine inflates less) are
kept. Prints a Markdown table and the summary (median, max, modules over 1 s on CPU).

Usage: scripts/realworld/time_check.py [--warpscope target/release/warpscope] [--runs 5]
           [--core 0] [--limit 60]
"""
import argparse
import glob
import os
import resource
import statistics
import subprocess

import ptx_pack  # the modules are committed packed; unpacked on first use
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warpscope", default="target/release/warpscope")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--core", type=int, default=0)
    ap.add_argument("--limit", type=float, default=60.0)
    args = ap.parse_args()
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    # This process is pinned and its children inherit the core: `taskset` as a wrapper would
    # add its own start-up (about 2 ms, most of it loading locales) to every module's CPU
    # time, and a `preexec_fn` would too (Python runs it in the forked child, before exec).
    os.sched_setaffinity(0, {args.core})

    rows = []
    ptx_pack.unpack()
    for m in sorted(glob.glob("validation/realworld/ptx/*.ptx")):
        name = os.path.basename(m)[:-4]
        lines = sum(1 for _ in open(m))
        times = []
        cpu = []
        status = "ok"
        for _ in range(args.runs):
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            try:
                p = subprocess.run([args.warpscope, "check", "--format", "json", m],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   env=env, timeout=args.limit)
                if p.returncode not in (0, 1):
                    status = "exit %d" % p.returncode
            except subprocess.TimeoutExpired:
                status = "no answer in %g s" % args.limit
                times.append(args.limit)
                break
            times.append(time.perf_counter() - t0)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
        cpu_ms = statistics.median(cpu) * 1000 if cpu else args.limit * 1000
        cpu_min = min(cpu) * 1000 if cpu else args.limit * 1000
        rows.append((name, lines, cpu_ms, statistics.median(times) * 1000, status, cpu_min))
    print("| module | PTX lines | CPU (ms) | CPU, least (ms) | wall (ms) | status |")
    print("|---|---|---|---|---|---|")
    for name, lines, c, w, status, least in rows:
        print("| `%s` | %d | %.1f | %.1f | %.1f | %s |" % (name, lines, c, least, w, status))
    cs = [r[2] for r in rows]
    ws = [r[3] for r in rows]
    over = [r[0] for r in rows if r[2] > 1000 or r[4] != "ok"]
    print()
    print("%d modules, median of %d runs each: CPU median %.1f ms, max %.1f ms (%s); wall "
          "median %.1f ms, max %.1f ms; over 1 s of CPU or failed: %s"
          % (len(rows), args.runs, statistics.median(cs), max(cs),
             max(rows, key=lambda r: r[2])[0], statistics.median(ws), max(ws),
             ", ".join(over) or "none"))
    # The least of the runs: what the module costs with the machine's other load left out
    # (other processes only ever add to a run's CPU time, through caches and migrations).
    print("least CPU time of the %d runs: median %.1f ms, max %.1f ms"
          % (args.runs, statistics.median(r[5] for r in rows), max(r[5] for r in rows)))


if __name__ == "__main__":
    main()
