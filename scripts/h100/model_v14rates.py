#!/usr/bin/env python3
"""Machine facts for a fourteenth version of `warpscope model`'s H100 estimate
(scripts/h100/model_v14rates.cu; docs/accuracy.md, "Fourteenth version (or v13.1) and a twelfth
held-out test": measured in the held-out timing call, after its estimates were committed).
Measured on an H200 (the same GH100 SM, 132 SMs, 1980 MHz).

Each kernel runs ITERS source iterations (see the .cu for what one iteration holds) at 1, 2, 4, 8
and 16 warps per scheduler (4..64 warps per SM, as model_v12rates.py). Written: clocks per source
iteration of one warp (clocks / ITERS), and the SASS (cuobjdump, model_pipes.build) so that the
SASS of each loop can be counted against the time.

    python3 scripts/h100/model_v14rates.py OUTDIR   # -> OUTDIR/model_v14rates.tsv, OUTDIR/model_v14rates_sass.txt
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_pipes import build  # noqa: E402

SMS = 132
CLOCK_MHZ = float(os.environ.get("CLOCK_MHZ", "1980"))
ITERS = 256
KERNELS = ["v14_rt_f64_dep", "v14_rt_f64_k8", "v14_rt_f32_dep", "v14_rt_f32_k8", "v14_rt_f2f_k8",
           "v14_i2f64_dadd_k8", "v14_i2f64_dadd_dep", "v14_madwide_dep_ureg", "v14_madwide_k4_ureg",
           "v14_madwide_k4_vreg", "v14_mulhi64_dep", "v14_mulhi64_k4"]
# (blocks, threads per block): 4, 8, 16, 32, 64 warps per SM
SHAPES = [(SMS, 128), (SMS, 256), (SMS, 512), (SMS * 2, 512), (SMS * 8, 256)]


def main():
    import cupy as cp
    import numpy as np
    from run_spec_cupy import timed_batches

    out_dir = sys.argv[1]
    cubin, counts = build("model_v14rates", out_dir)
    mod = cp.RawModule(path=cubin)
    rows = [f"# sm clock {CLOCK_MHZ} MHz; {ITERS} source iterations; "
            f"device {cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}",
            "kernel\twarps_per_sm\twarps_per_scheduler\tclk_per_iter_per_warp\tus"]
    au = cp.arange(1024, dtype=cp.uint32) * cp.uint32(2654435761)
    outb = cp.zeros(4, dtype=cp.float32)
    args = (au, outb, np.int32(ITERS), np.float32(0.999), np.float32(0.001), np.uint32(0x1234567),
            np.uint32(0x9e3779b9), np.float64(0.999), np.float64(0.001))
    for name in KERNELS:
        rows.append(f"# {name}: loop SASS {dict(counts.get(name, {}))}")
        print(rows[-1], flush=True)
        fn = mod.get_function(name)
        for blocks, tpb in SHAPES:
            def launch(b=blocks, n=tpb, f=fn):
                f((b,), (n,), args)
            per = timed_batches(launch, 7, 5, True)
            us = per[len(per) // 2] * 1e3
            clocks = us * 1e-6 * CLOCK_MHZ * 1e6
            wps = blocks * tpb / 32 / SMS
            rows.append(f"{name}\t{wps:g}\t{wps / 4:g}\t{clocks / ITERS:.3f}\t{us:.1f}")
            print(rows[-1], flush=True)
    with open(os.path.join(out_dir, "model_v14rates.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
