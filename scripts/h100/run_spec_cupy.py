#!/usr/bin/env python3
"""Run a warpscope launch spec on a real GPU with CuPy, writing the same files `warpscope run`
writes, so the two can be compared (scripts/h100/compare.py).

    python3 scripts/h100/run_spec_cupy.py SPEC OUTDIR [--timing-runs N]
    python3 scripts/h100/run_spec_cupy.py SPEC OUTDIR --init-only   # no GPU: write initial buffers

The spec's module is loaded with cupy.RawModule(path=...) (a .cu module is first compiled to
PTX with nvcc -ptx -arch=sm_90 -O3 -lineinfo). Buffers are created and filled exactly as the
emulator fills them (same splitmix64 generator, same rounding), launches run in order (repeats
included), and every buffer with `save = "..."` is written to OUTDIR/<save> as raw
little-endian bytes. OUTDIR/timing.json records each launch's GPU time, measured on a second,
identical run of the whole spec (so JIT compilation is not timed).

With --init-only, nothing runs: every buffer's initial contents go to OUTDIR/init/<name>.bin
(used to check that this script and the emulator generate the same inputs).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spec_common as sc  # noqa: E402

import numpy as np  # noqa: E402


def module_ptx(spec):
    mod = os.path.join(spec["_dir"], spec["module"])
    if mod.endswith(".cu"):
        out = os.path.join(tempfile.mkdtemp(prefix="ws-ptx-"), "module.ptx")
        nvcc = os.environ.get("NVCC", "nvcc")
        subprocess.run(
            [nvcc, "-ptx", "-arch=sm_90", "-O3", "-lineinfo", mod, "-o", out], check=True
        )
        mod = out
    return mod


def init_buffers(spec):
    arrays = {}
    for name in sc.buffers_in_order(spec):
        arrays[name] = sc.buffer_array(spec["buffer"][name], spec["_dir"])
    return arrays


def timed_batches(launch, batches, batch_size, graph=False):
    """Per-launch milliseconds of `batches` groups of `batch_size` back-to-back calls of
    `launch()` between two events, sorted. With `graph`, each group is one CUDA graph of
    `batch_size` launches (captured once), so that Python's launch cost is not timed."""
    import cupy as cp

    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        if graph:
            stream.begin_capture()
            for _ in range(batch_size):
                launch()
            g = stream.end_capture()
            run = lambda: g.launch(stream)  # noqa: E731
        else:
            def run():
                for _ in range(batch_size):
                    launch()
        for _ in range(2):  # warm-up
            run()
        per = []
        for _ in range(batches):
            start, stop = cp.cuda.Event(), cp.cuda.Event()
            start.record(stream)
            run()
            stop.record(stream)
            stop.synchronize()
            per.append(cp.cuda.get_elapsed_time(start, stop) / batch_size)
    per.sort()
    return per


def run_once(spec, ptx_path, params, timed, batches=0, batch_size=1, graph=False):
    """Runs the spec once; with `batches`, then times every launch again on its own: `batches`
    groups of `batch_size` back-to-back launches between two events (the kernels must not
    depend on their own earlier output), returned as per-launch milliseconds of each group
    (`graph`: see timed_batches)."""
    import cupy as cp

    module = cp.RawModule(path=ptx_path)
    host = init_buffers(spec)
    dev = {n: cp.asarray(a) for n, a in host.items()}
    kernels = {}
    times = []
    issued, names = [], []
    for li, l, t in sc.launches(spec):
        name = sc.find_kernel(l["kernel"], list(params.keys()))
        if name not in kernels:
            kernels[name] = module.get_function(name)
        sizes = params[name]
        args = []
        raw_args = l.get("args", [])
        if len(raw_args) != len(sizes):
            raise sc.SpecError(
                f"launch[{li}]: kernel `{name}` takes {len(sizes)} parameters; "
                f"{len(raw_args)} arguments given"
            )
        for ai, a in enumerate(raw_args):
            if "buffer" in a:
                ptr = dev[a["buffer"]].data.ptr + int(a.get("offset", 0))
                args.append(np.uint64(ptr))
            elif "var" in a:
                args.append(sc.var_arg(t, sizes[ai]))
            else:
                (ty, value), = a.items()
                v = sc.scalar_arg(ty, value)
                if v.nbytes != sizes[ai]:
                    raise sc.SpecError(
                        f"launch[{li}].args[{ai}] is {v.nbytes} bytes; the parameter is "
                        f"{sizes[ai]} bytes"
                    )
                args.append(v)
        grid = sc.dim3(l["grid"])
        block = sc.dim3(l["block"])
        shared = int(l.get("shared_bytes", 0))
        if timed:
            start, stop = cp.cuda.Event(), cp.cuda.Event()
            start.record()
        kernels[name](grid, block, tuple(args), shared_mem=shared)
        issued.append((kernels[name], grid, block, tuple(args), shared))
        names.append(name)
        if timed:
            stop.record()
            stop.synchronize()
            times.append(
                {
                    "launch": li,
                    "kernel": name,
                    "repeat": t,
                    "grid": list(grid),
                    "block": list(block),
                    "ms": cp.cuda.get_elapsed_time(start, stop),
                }
            )
    cp.cuda.Device().synchronize()
    outputs = {n: d.get() for n, d in dev.items()}
    if batches > 0:
        times = []
        for li, (kernel, grid, block, args, shared) in enumerate(issued):
            per = timed_batches(
                lambda: kernel(grid, block, args, shared_mem=shared),  # noqa: B023
                batches, batch_size, graph)
            times.append(
                {
                    "launch": li,
                    "kernel": names[li],
                    "grid": list(grid),
                    "block": list(block),
                    "ms": per[len(per) // 2],
                    "min_ms": per[0],
                    "max_ms": per[-1],
                    "batches": batches,
                    "batch_size": batch_size,
                    "graph": graph,
                }
            )
    return outputs, times


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("spec")
    ap.add_argument("outdir")
    ap.add_argument("--timing-runs", type=int, default=1, help="extra timed runs (default 1; 0: no timing)")
    ap.add_argument("--batches", type=int, default=0,
                    help="after the run, time each launch alone in N groups of --batch-size "
                         "back-to-back launches; the medians go to OUTDIR/kernel_timing.json")
    ap.add_argument("--batch-size", type=int, default=10)
    ap.add_argument("--graph", action="store_true",
                    help="with --batches: launch each group as one CUDA graph (no Python launch cost)")
    ap.add_argument("--init-only", action="store_true", help="write initial buffers only (no GPU)")
    a = ap.parse_args()
    spec = sc.load_spec(a.spec)
    os.makedirs(a.outdir, exist_ok=True)
    if a.init_only:
        d = os.path.join(a.outdir, "init")
        os.makedirs(d, exist_ok=True)
        for n, arr in init_buffers(spec).items():
            with open(os.path.join(d, n + ".bin"), "wb") as f:
                f.write(arr.tobytes())
        return 0
    ptx_path = module_ptx(spec)
    with open(ptx_path, encoding="utf-8") as f:
        params = sc.entry_params(f.read())
    outputs, ktimes = run_once(spec, ptx_path, params, timed=False,
                               batches=a.batches, batch_size=a.batch_size, graph=a.graph)
    if a.batches > 0:
        with open(os.path.join(a.outdir, "kernel_timing.json"), "w") as f:
            json.dump({"spec": os.path.basename(a.spec), "launches": ktimes}, f, indent=1)
    for name in sc.buffers_in_order(spec):
        save = spec["buffer"][name].get("save")
        if save:
            path = os.path.join(a.outdir, save)
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            with open(path, "wb") as f:
                f.write(outputs[name].tobytes())
    timing = []
    for _ in range(max(0, a.timing_runs)):
        _, times = run_once(spec, ptx_path, params, timed=True)
        if not timing:
            timing = times
        else:
            for old, new in zip(timing, times):
                old["ms"] = min(old["ms"], new["ms"])
    with open(os.path.join(a.outdir, "timing.json"), "w") as f:
        json.dump({"spec": os.path.basename(a.spec), "launches": timing}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
