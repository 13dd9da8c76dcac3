#!/usr/bin/env python3
"""Machine facts for the seventh version of `warpscope model`'s H100 estimate
(scripts/h100/model_v7rates.cu; docs/accuracy.md, "seventh version"). Measured on an H200 in
the session that wrote it (the same GH100 SM, 132 SMs, 1980 MHz):

1. pipes: each kernel's loop SASS is counted (cuobjdump, model_pipes.build) and its median time
   (CUDA graph of back-to-back launches, 8 blocks of 256 per SM, ITERS iterations) gives each
   opcode's warp instructions per clock per SM; the loop body runs ITERS x 16 / (its count of
   the kernel's first opcode) times (16 links of it per source iteration).
2. v7_newton: h6_kepler's Newton step as one dependent chain per thread, NEWTON_ITERS steps, at
   4, 16, 32 and 64 warps per SM: clocks per step of one warp, steps per clock per SM, and the
   loop's SASS per step.

    python3 scripts/h100/model_v7rates.py OUTDIR   # -> OUTDIR/model_v7rates.tsv, OUTDIR/model_v7rates_sass.txt
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_pipes import build  # noqa: E402

SMS = 132
CLOCK_MHZ = float(os.environ.get("CLOCK_MHZ", "1980"))
BLOCKS, TPB, ITERS = SMS * 8, 256, 512
# kernel -> the SASS opcode it runs 16 of per source iteration
PIPES = [("v7_lop", "LOP3"), ("v7_brev", "BREV"), ("v7_flo", "FLO"), ("v7_flosh", "FLO"),
         ("v7_popc", "POPC"), ("v7_i2f", "I2FP"), ("v7_f2i", "F2I"), ("v7_brev_flosh", "BREV"),
         ("v7_flosh_i2f", "FLO"), ("v7_brev_i2f", "BREV"), ("v7_popc_i2f", "POPC"),
         ("v7_brev_lop", "BREV"), ("v7_flosh_lop", "FLO"), ("v7_popc_lop", "POPC"),
         ("v7_i2f_lop", "I2FP"), ("v7_sin", "MUFU"), ("v7_sin_ffma", "MUFU"),
         ("v7_rcp_ffma", "MUFU"), ("v7_ex2_lop", "MUFU")]
NEWTON_ITERS = 2048
NEWTON_SHAPES = [(SMS, 128), (SMS, 512), (SMS * 2, 512), (SMS * 8, 256)]


def main():
    import cupy as cp
    import numpy as np
    from run_spec_cupy import timed_batches

    out_dir = sys.argv[1]
    cubin, counts = build("model_v7rates", out_dir)
    mod = cp.RawModule(path=cubin)
    rows = [f"# sm clock {CLOCK_MHZ} MHz; pipes: {BLOCKS}x{TPB} threads, {ITERS} iterations, 16 of the first opcode per thread and iteration; "
            f"device {cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}",
            "kernel\topcode\tper_loop_body\twarp_insts_per_clk_per_sm\tus"]
    af = cp.random.random(TPB * 2, dtype=cp.float32) + 0.5
    au = cp.arange(TPB * 2, dtype=cp.uint32) * cp.uint32(2654435761)
    outb = cp.zeros(4, dtype=cp.float32)
    args = (af, au, outb, np.int32(ITERS), np.float32(0.999), np.float32(0.001), np.uint32(1), np.uint32(0x9e3779b9))
    warps_per_sm = BLOCKS * TPB / 32 / SMS
    for name, first in PIPES:
        fn = mod.get_function(name)

        def launch(f=fn):
            f((BLOCKS,), (TPB,), args)
        per = timed_batches(launch, 11, 5, True)
        us = per[len(per) // 2] * 1e3
        clocks = us * 1e-6 * CLOCK_MHZ * 1e6
        c = counts.get(name, {})
        if not c.get(first):
            rows.append(f"{name}\tNO-LOOP\t0\t0\t{us:.1f}")
            continue
        bodies = ITERS * 16 / c[first]
        for op, n in sorted(c.items()):
            rows.append(f"{name}\t{op}\t{n}\t{warps_per_sm * bodies * n / clocks:.3f}\t{us:.1f}")
        total = sum(c.values())
        rows.append(f"{name}\tALL\t{total}\t{warps_per_sm * bodies * total / clocks:.3f}\t{us:.1f}")
        print("\n".join(r for r in rows if r.startswith(name + "\t")), flush=True)
    c = counts.get("v7_newton", {})
    per_step = {op: n / (c.get("MUFU", 3) / 3) for op, n in c.items()}
    rows.append(f"# v7_newton: {NEWTON_ITERS} dependent steps per thread; loop SASS per step {per_step}")
    rows.append("kernel\twarps_per_sm\tclk_per_step_per_warp\tsteps_per_clk_per_sm\tsass_per_clk_per_sm\tus")
    fn = mod.get_function("v7_newton")
    nargs = (af, au, outb, np.int32(NEWTON_ITERS), np.float32(0.5), np.float32(0.0), np.uint32(1), np.uint32(0))
    for blocks, tpb in NEWTON_SHAPES:
        def launch(b=blocks, n=tpb):
            fn((b,), (n,), nargs)
        per = timed_batches(launch, 11, 5, True)
        us = per[len(per) // 2] * 1e3
        clocks = us * 1e-6 * CLOCK_MHZ * 1e6
        w = blocks * tpb / 32 / SMS
        steps = w * NEWTON_ITERS / clocks
        rows.append(f"v7_newton\t{w:g}\t{clocks / NEWTON_ITERS:.2f}\t{steps:.4f}\t{steps * sum(per_step.values()):.3f}\t{us:.1f}")
        print(rows[-1], flush=True)
    with open(os.path.join(out_dir, "model_v7rates.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
