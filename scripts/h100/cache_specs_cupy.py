#!/usr/bin/env python3
"""Run many warpscope launch specs in one process with CuPy, for `scripts/h100/cache_collect.sh`.

    python3 scripts/h100/cache_specs_cupy.py MANIFEST.tsv SPEC...            # each spec once
    python3 scripts/h100/cache_specs_cupy.py TIMES.tsv --reps N SPEC...      # N timed runs each

The first form runs every launch of every spec once, in order, and writes MANIFEST.tsv with one
row per kernel launch (spec, launch index, repeat value, kernel): run under
`ncu --metrics ...`, the profiled launches line up with these rows one to one (CuPy launches
no kernels of its own here: buffers move with plain copies). A spec that fails is reported
on stderr and left out of the manifest; its launches are counted so the alignment holds.

The second form runs each spec N times with CUDA events around every launch (run_spec_cupy's
`run_once`) and writes one row per launch: the median and the minimum over the N runs in
milliseconds. The first run of a spec (JIT compilation) is not timed.
"""

import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_spec_cupy as rs  # noqa: E402
import spec_common as sc  # noqa: E402


def prepare(path):
    spec = sc.load_spec(path)
    ptx_path = rs.module_ptx(spec)
    with open(ptx_path, encoding="utf-8") as f:
        params = sc.entry_params(f.read())
    return spec, ptx_path, params


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--reps", type=int, default=0, help="timed runs per spec (0: one untimed run)")
    a = ap.parse_args()
    rows = []
    for path in a.specs:
        name = os.path.basename(path)
        try:
            spec, ptx_path, params = prepare(path)
            if a.reps <= 0:
                _, _ = rs.run_once(spec, ptx_path, params, timed=False)
                for li, l, t in sc.launches(spec):
                    kernel = sc.find_kernel(l["kernel"], list(params.keys()))
                    rows.append((name, li, "" if t is None else t, kernel))
            else:
                rs.run_once(spec, ptx_path, params, timed=False)
                runs = [rs.run_once(spec, ptx_path, params, timed=True)[1] for _ in range(a.reps)]
                for i, first in enumerate(runs[0]):
                    ms = [r[i]["ms"] for r in runs]
                    rows.append(
                        (
                            name,
                            first["launch"],
                            "" if first["repeat"] is None else first["repeat"],
                            first["kernel"],
                            f"{statistics.median(ms):.6f}",
                            f"{min(ms):.6f}",
                            str(len(ms)),
                        )
                    )
        except Exception as e:  # noqa: BLE001 - report and go on with the next spec
            print(f"{name}: failed: {e}", file=sys.stderr)
        sys.stdout.flush()
    with open(a.out, "w") as f:
        if a.reps <= 0:
            f.write("spec\tlaunch\trepeat\tkernel\n")
        else:
            f.write("spec\tlaunch\trepeat\tkernel\tmedian_ms\tmin_ms\truns\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
