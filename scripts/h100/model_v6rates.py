#!/usr/bin/env python3
"""Machine facts for the sixth version of `warpscope model`'s H100 estimate
(scripts/h100/model_v6rates.cu; docs/accuracy.md, "sixth version"):

1. pipes: FSEL, FSETP + FSEL and FMNMX alone and beside LOP3 (8 independent chains per thread,
   16 links per chain and iteration, 8 blocks of 256 per SM, 512 iterations): each kernel's median
   time (CUDA graph of back-to-back launches) gives each operation's warp instructions per clock
   per SM, counted from the source (16 links of each operation per thread and iteration); the
   loop's SASS (cuobjdump, model_pipes.build) is printed beside to show that ptxas kept them.
2. chase: the fifth version's dependent L1 loads (v5_chase, here v6_chase) with spreads 4, 5, 16,
   17, 32 and 33 at 1 and 64 warps per SM; each request's sectors, lines and worst bank
   multiplicity (distinct 4-byte words of one bank) are computed from the lanes' addresses.

    python3 scripts/h100/model_v6rates.py OUTDIR   # -> OUTDIR/model_v6rates.tsv, OUTDIR/model_v6rates_sass.txt
    python3 scripts/h100/model_v6rates.py --recompute RAW.tsv   # the pipe rows' rates again from their
        # times (us column), with this LINKS: the first device run (2026-11-28) used 128, 8 times too many
"""
import os
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_pipes import build  # noqa: E402

SMS = 132
CLOCK_MHZ = float(os.environ.get("CLOCK_MHZ", "1979.5"))
BLOCKS, TPB, ITERS = SMS * 8, 256, 512
LINKS = 16  # per thread and iteration, of each operation a kernel names (8 chains, twice)
PIPES = [("v6_lop", ["LOP3"]), ("v6_fsel", ["FSEL"]), ("v6_fsel_lop", ["FSEL", "LOP3"]),
         ("v6_fsetp_fsel", ["FSETP", "FSEL"]), ("v6_fsetp_fsel_lop", ["FSETP", "FSEL", "LOP3"]),
         ("v6_fmnmx", ["FMNMX"]), ("v6_fmnmx_lop", ["FMNMX", "LOP3"])]
WORDS = 8192  # 32 KB table: stays in the L1
STEPS = 4096
SPREADS = [4, 5, 16, 17, 32, 33]
LOADS = [("1warp", SMS, 32), ("64warps", SMS * 8, 256)]


def shape(spread):
    """(sectors, lines, worst bank multiplicity) of one request: lane l reads word x + l*spread,
    x a multiple of 32*spread words (line- and bank-aligned)."""
    words = sorted({l * spread for l in range(32)})
    sectors = len({w * 4 // 32 for w in words})
    lines = len({w * 4 // 128 for w in words})
    banks = Counter(w % 32 for w in words)
    return sectors, lines, max(banks.values())


def table(spread):
    import numpy as np
    block = 32 * max(spread, 1)
    idx = np.arange(WORDS, dtype=np.uint64)
    h = (idx // block) * np.uint64(2654435761) + np.uint64(12345)
    h = (h ^ (h >> np.uint64(13))) * np.uint64(0x5bd1e995)
    nxt = ((h >> np.uint64(7)) % np.uint64(WORDS // block)) * np.uint64(block)
    return nxt.astype(np.uint32)


def recompute(path):
    """Prints RAW.tsv with each pipe row's rate recomputed from its time (us) and LINKS."""
    warps_per_sm = BLOCKS * TPB / 32 / SMS
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if line.startswith("# sm clock"):
            line = line.replace("128 links", f"{LINKS} links") .rstrip("\n") + f" (rates recomputed from the times with LINKS={LINKS})\n"
        elif len(f) == 5 and f[0].startswith("v6_") and f[1] != "op":
            clocks = float(f[3]) * 1e-6 * CLOCK_MHZ * 1e6
            f[2] = f"{warps_per_sm * ITERS * LINKS / clocks:.3f}"
            line = "\t".join(f) + "\n"
        sys.stdout.write(line)


def main():
    if sys.argv[1] == "--recompute":
        recompute(sys.argv[2])
        return 0
    import cupy as cp
    import numpy as np
    from run_spec_cupy import timed_batches

    out_dir = sys.argv[1]
    cubin, counts = build("model_v6rates", out_dir)
    mod = cp.RawModule(path=cubin)
    rows = [f"# sm clock {CLOCK_MHZ} MHz; pipes: {BLOCKS}x{TPB} threads, {ITERS} iterations, {LINKS} links of each op per thread and iteration",
            "kernel\top\twarp_insts_per_clk_per_sm\tus\tloop_sass"]
    af = cp.random.random(TPB, dtype=cp.float32) + 0.5
    au = cp.arange(TPB, dtype=cp.uint32)
    outb = cp.zeros(4, dtype=cp.float32)
    for name, ops in PIPES:
        fn = mod.get_function(name)
        args = (af, au, outb, np.int32(ITERS), np.float32(0.75), np.uint32(1), np.uint32(0x9e3779b9))

        def launch(f=fn, a=args):
            f((BLOCKS,), (TPB,), a)
        per = timed_batches(launch, 11, 5, True)
        us = per[len(per) // 2] * 1e3
        clocks = us * 1e-6 * CLOCK_MHZ * 1e6
        warps_per_sm = BLOCKS * TPB / 32 / SMS
        for op in ops:
            rate = warps_per_sm * ITERS * LINKS / clocks
            rows.append(f"{name}\t{op}\t{rate:.3f}\t{us:.1f}\t{dict(counts.get(name, {}))}")
            print(rows[-1], flush=True)
    rows.append(f"# chase: table {WORDS * 4} bytes; {STEPS} steps")
    rows.append("kernel\tspread\tsectors_per_request\tlines_per_request\tworst_bank_words\twarps_per_sm\tclk_per_step\tsectors_per_clk_sm\tlines_per_clk_sm\tus")
    fn = mod.get_function("v6_chase")
    outu = cp.zeros(4, dtype=cp.uint32)
    for spread in SPREADS:
        t = cp.asarray(table(spread))
        sectors, lines, bank = shape(spread)
        for label, blocks, tpb in LOADS:
            def launch(b=blocks, n=tpb, tt=t, s=spread):
                fn((b,), (n,), (tt, outu, cp.int32(STEPS), cp.uint32(WORDS - 1), cp.uint32(s)))
            per = timed_batches(launch, 7, 5, True)
            us = per[len(per) // 2] * 1e3
            clocks = us * 1e-6 * CLOCK_MHZ * 1e6
            warps_per_sm = blocks * tpb // 32 / SMS
            per_step = clocks / STEPS
            rows.append(f"v6_chase@{label}\t{spread}\t{sectors}\t{lines}\t{bank}\t{warps_per_sm:g}\t{per_step:.2f}"
                        f"\t{warps_per_sm * STEPS * sectors / clocks:.3f}\t{warps_per_sm * STEPS * lines / clocks:.3f}\t{us:.1f}")
            print(rows[-1], flush=True)
    rows.append(f"# v6_chase loop SASS {dict(counts.get('v6_chase', {}))}")
    with open(os.path.join(out_dir, "model_v6rates.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
