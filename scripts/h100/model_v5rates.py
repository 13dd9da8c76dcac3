#!/usr/bin/env python3
"""Dependent L1 loads for the fifth version of `warpscope model`'s H100 estimate
(scripts/h100/model_v5rates.cu; docs/accuracy.md, "fifth version"). For each request shape
(`spread` 0, 1, 8, 32: 1, 4, 32 and 32 sectors per request) and each load (1, 8 and 64 warps per
SM: blocks of 32 threads x 132, 256 x 132, 256 x 1056), the kernel's median time (CUDA graph of
back-to-back launches, minus nothing: steps are many) gives the clocks per dependent step of one
warp (`CLK_PER_STEP`) and the SM's sectors per clock (`SECTORS_PER_CLK_SM`). The loop's SASS is
counted from `cuobjdump -sass` (model_pipes.build), so that the step's instructions besides the
load are known. The SM clock under load is `CLOCK_MHZ` (1979.5, as the other tables).

    python3 scripts/h100/model_v5rates.py OUTDIR   # -> OUTDIR/model_v5rates.tsv, OUTDIR/model_v5rates_sass.txt
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_pipes import build  # noqa: E402

SMS = 132
CLOCK_MHZ = float(os.environ.get("CLOCK_MHZ", "1979.5"))
WORDS = 8192  # 32 KB table: stays in the L1
STEPS = 4096
SECTORS = {0: 1, 1: 4, 8: 32, 32: 32}
LOADS = [("1warp", SMS, 32), ("8warps", SMS, 256), ("64warps", SMS * 8, 256)]


def table(spread):
    import numpy as np
    block = 32 * max(spread, 1)
    idx = np.arange(WORDS, dtype=np.uint64)
    h = (idx // block) * np.uint64(2654435761) + np.uint64(12345)
    h = (h ^ (h >> np.uint64(13))) * np.uint64(0x5bd1e995)
    nxt = ((h >> np.uint64(7)) % np.uint64(WORDS // block)) * np.uint64(block)
    return nxt.astype(np.uint32)


def main():
    import cupy as cp
    from run_spec_cupy import timed_batches

    out_dir = sys.argv[1]
    cubin, counts = build("model_v5rates", out_dir)
    mod = cp.RawModule(path=cubin)
    fn = mod.get_function("v5_chase")
    outb = cp.zeros(4, dtype=cp.uint32)
    loop = counts.get("v5_chase", {})
    ldg = loop.get("LDG", 0) or 1
    rows = [f"# sm clock {CLOCK_MHZ} MHz; table {WORDS * 4} bytes; {STEPS} steps; loop SASS {dict(loop)}",
            "kernel\tspread\tsectors_per_request\twarps_per_sm\tclk_per_step\tsectors_per_clk_sm\tus"]
    for spread in (0, 1, 8, 32):
        t = cp.asarray(table(spread))
        for label, blocks, tpb in LOADS:
            def launch(b=blocks, n=tpb, tt=t, s=spread):
                fn((b,), (n,), (tt, outb, cp.int32(STEPS), cp.uint32(WORDS - 1), cp.uint32(s)))
            per = timed_batches(launch, 7, 5, True)
            us = per[len(per) // 2] * 1e3
            clocks = us * 1e-6 * CLOCK_MHZ * 1e6
            warps_per_sm = blocks * tpb // 32 / SMS
            per_step = clocks / STEPS
            sectors = warps_per_sm * STEPS * SECTORS[spread] / clocks
            row = f"v5_chase@{label}\t{spread}\t{SECTORS[spread]}\t{warps_per_sm:g}\t{per_step:.2f}\t{sectors:.3f}\t{us:.1f}"
            rows.append(row)
            print(row, flush=True)
    rows.append(f"# LDG per loop body: {ldg} (steps per body)")
    with open(os.path.join(out_dir, "model_v5rates.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
