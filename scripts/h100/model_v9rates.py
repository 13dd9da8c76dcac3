#!/usr/bin/env python3
"""Machine facts for the ninth version of `warpscope model`'s H100 estimate
(scripts/h100/model_v9rates.cu; docs/accuracy.md, "ninth version"). Measured on an H200 (the
same GH100 SM, 132 SMs, 1980 MHz):

1. pipes: each kernel's loop SASS is counted (cuobjdump, model_pipes.build) and its median time
   (CUDA graph of back-to-back launches, 8 blocks of 256 per SM, ITERS iterations) gives each
   opcode's warp instructions per clock per SM; the loop body runs ITERS x 16 / (its count of
   the kernel's first opcode) times (16 links of it per source iteration).
2. chains: v9_chain_mix and v9_chain_alu, CHAIN_ITERS dependent steps per thread, at 4, 8, 16,
   32 and 64 warps per SM: clocks per step of one warp, and the loop's SASS per step (the loop
   may be unrolled: steps per loop body = CHAIN_ITERS-independent, read from the SASS count of
   the chain's first opcode).

    python3 scripts/h100/model_v9rates.py OUTDIR   # -> OUTDIR/model_v9rates.tsv, OUTDIR/model_v9rates_sass.txt
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_pipes import build  # noqa: E402

SMS = 132
CLOCK_MHZ = float(os.environ.get("CLOCK_MHZ", "1980"))
BLOCKS, TPB, ITERS = SMS * 8, 256, 512
PIPES = [("v9_imad", "IMAD"), ("v9_imadhi", "IMAD"), ("v9_imadwide", "IMAD"), ("v9_shf", "SHF"),
         ("v9_lop", "LOP3"), ("v9_imadhi_lop", "IMAD"), ("v9_imad_lop", "IMAD"), ("v9_lop_shf", "LOP3")]
CHAIN_ITERS = 4096
# (blocks, threads per block): 4, 8, 16, 32, 64 warps per SM
CHAIN_SHAPES = [(SMS, 128), (SMS, 256), (SMS, 512), (SMS * 2, 512), (SMS * 8, 256)]


def main():
    import cupy as cp
    import numpy as np
    from run_spec_cupy import timed_batches

    out_dir = sys.argv[1]
    cubin, counts = build("model_v9rates", out_dir)
    mod = cp.RawModule(path=cubin)
    rows = [f"# sm clock {CLOCK_MHZ} MHz; pipes: {BLOCKS}x{TPB} threads, {ITERS} iterations, 16 of the first opcode per thread and iteration; "
            f"device {cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}",
            "kernel\topcode\tper_loop_body\twarp_insts_per_clk_per_sm\tus"]
    af = cp.random.random(TPB * 2, dtype=cp.float32) + 0.5
    au = cp.arange(TPB * 2, dtype=cp.uint32) * cp.uint32(2654435761)
    outb = cp.zeros(4, dtype=cp.float32)
    args = (af, au, outb, np.int32(ITERS), np.float32(0.999), np.float32(0.001), np.uint32(5), np.uint32(0x9e3779b9))
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
    rows.append("kernel\twarps_per_sm\tclk_per_step_per_warp\tsass_per_step\tsass_per_clk_per_sm\tus")
    for name, first in [("v9_chain_mix", "IMAD"), ("v9_chain_alu", "LOP3")]:
        c = counts.get(name, {})
        steps_per_body = max(1, c.get(first, 1))
        per_step = sum(c.values()) / steps_per_body
        rows.append(f"# {name}: {CHAIN_ITERS} dependent steps per thread; loop SASS {dict(c)}, {steps_per_body} steps per loop body")
        fn = mod.get_function(name)
        nargs = (af, au, outb, np.int32(CHAIN_ITERS), np.float32(0.5), np.float32(0.0), np.uint32(0x1234567), np.uint32(0x9e3779b9))
        for blocks, tpb in CHAIN_SHAPES:
            def launch(b=blocks, n=tpb, f=fn):
                f((b,), (n,), nargs)
            per = timed_batches(launch, 11, 5, True)
            us = per[len(per) // 2] * 1e3
            clocks = us * 1e-6 * CLOCK_MHZ * 1e6
            wps = blocks * tpb / 32 / SMS
            rows.append(f"{name}\t{wps:g}\t{clocks / CHAIN_ITERS:.2f}\t{per_step:.2f}\t{wps * CHAIN_ITERS * per_step / clocks:.3f}\t{us:.1f}")
            print(rows[-1], flush=True)
    with open(os.path.join(out_dir, "model_v9rates.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
