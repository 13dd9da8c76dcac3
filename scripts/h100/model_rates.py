#!/usr/bin/env python3
"""Rates of the shuffle, VIADD beside IMAD, IMAD beside FFMA, shared loads and stores, and local
memory at 32 sectors per request for per-thread tables of 8 to 96 words, on the H100
(scripts/h100/model_rates.cu), for the third version of `warpscope model`'s H100 estimate
(docs/accuracy.md). Method as scripts/h100/model_pipes.py (8 blocks of 256 per SM, the loop's SASS
counted from `cuobjdump -sass`, the SM clock under load `CLOCK_MHZ`): each kernel's first opcode
runs FIRST[kernel][1] times per source iteration. For the local tables it also prints the
sectors per clock of the whole GPU (each step a load and a store of 32 sectors per warp) and the
resident tables' bytes per SM (2048 threads × 4 × S).

    python3 scripts/h100/model_rates.py OUTDIR     # -> OUTDIR/model_rates.tsv, OUTDIR/model_rates_sass.txt
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_pipes import build  # noqa: E402

SMS = 132
LOCAL = [8, 16, 24, 32, 40, 48, 64, 96]
KERNELS = ["wr_shfl", "wr_imad_viadd", "wr_imad_ffma", "wr_lds", "wr_sts"] + [f"wr_local{s}" for s in LOCAL]
FIRST = {"wr_shfl": ("SHFL", 16), "wr_imad_viadd": ("IMAD", 8), "wr_imad_ffma": ("IMAD", 8),
         "wr_lds": ("LDS", 16), "wr_sts": ("STS", 8)}
FIRST.update({f"wr_local{s}": ("LDL", 1) for s in LOCAL})
BLOCKS, TPB = SMS * 8, 256
ITERS = {k: 512 for k in KERNELS}
ITERS.update({f"wr_local{s}": 256 for s in LOCAL})
CLOCK_MHZ = float(os.environ.get("CLOCK_MHZ", "1979.5"))


def rows_of(name, counts, us):
    c = counts.get(name, {})
    op, per = FIRST[name]
    first = c.get(op, 0)
    if not first:
        return [f"{name}\tNO-LOOP\t0\t0\t{us:.1f}"]
    bodies = ITERS[name] * per / first
    clocks = us * 1e-6 * CLOCK_MHZ * 1e6
    warps = BLOCKS * TPB / 32
    rows = [f"{name}\t{o}\t{n}\t{warps * bodies * n / (clocks * SMS):.3f}\t{us:.1f}" for o, n in sorted(c.items())]
    total = sum(c.values())
    rows.append(f"{name}\tALL\t{total}\t{warps * bodies * total / (clocks * SMS):.3f}\t{us:.1f}")
    if name.startswith("wr_local"):
        s = int(name[len("wr_local"):])
        sectors = warps * ITERS[name] * 2 * 32
        rows.append(f"{name}\tSECTORS_PER_CLK_GPU\t{2048 * 4 * s}\t{sectors / clocks:.2f}\t{us:.1f}")
    return rows


def main():
    import cupy as cp
    import numpy as np
    from run_spec_cupy import timed_batches

    out_dir = sys.argv[1]
    cubin, counts = build("model_rates", out_dir)
    mod = cp.RawModule(path=cubin)
    ai = cp.arange(TPB, dtype=cp.uint32)
    af = cp.random.random(TPB, dtype=cp.float32) + 0.5
    outb = cp.zeros(BLOCKS * TPB, dtype=cp.uint32)
    rows = [f"# sm clock {CLOCK_MHZ} MHz; {BLOCKS}x{TPB} threads; iterations {ITERS}",
            "kernel\topcode\tper_loop_body\twarp_insts_per_clk_per_sm\tus"]
    for name in KERNELS:
        fn = mod.get_function(name)
        if name == "wr_shfl":
            args = (af, outb, np.int32(ITERS[name]), np.float32(0.0), np.float32(0.0))
        else:
            args = (ai, outb, np.int32(ITERS[name]), np.uint32(12345), np.uint32(0x9e3779b9))

        def launch(f=fn, a=args):
            f((BLOCKS,), (TPB,), a)
        per = timed_batches(launch, 11, 5, True)
        new = rows_of(name, counts, per[len(per) // 2] * 1e3)
        rows += new
        print("\n".join(new), flush=True)
    with open(os.path.join(out_dir, "model_rates.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
