#!/usr/bin/env python3
"""Machine facts for the fourth version of `warpscope model`'s H100 estimate
(scripts/h100/model_v4rates.cu; docs/accuracy.md, "fourth version"), method as
scripts/h100/model_rates.py: 8 blocks of 256 threads per SM, each kernel's loop SASS counted from
`cuobjdump -sass`, the SM clock under load `CLOCK_MHZ`. Rows as model_rates.tsv
(`kernel opcode per_loop_body warp_insts_per_clk_per_sm us`), plus for the memory kernels
`SECTORS_PER_CLK_GPU` (column 3: the gathered table's bytes, or the store buffer's) and
`SECTORS_PER_CLK_SM`, and for the remainder and branch kernels `STEPS_PER_CLK_SM` (source steps of
one warp per clock per SM: remainders, or if/else steps).

    python3 scripts/h100/model_v4rates.py OUTDIR   # -> OUTDIR/model_v4rates.tsv, OUTDIR/model_v4rates_sass.txt
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_pipes import build  # noqa: E402

SMS = 132
BLOCKS, TPB = SMS * 8, 256
WARPS = BLOCKS * TPB // 32
CLOCK_MHZ = float(os.environ.get("CLOCK_MHZ", "1979.5"))
# gathered table sizes (4-byte words): 8 KB .. 2 MB
GATHER = [2048, 8192, 16384, 32768, 49152, 65536, 131072, 524288]
STORE_WORDS = 1 << 22  # 16 MB, L2-resident
# (kernel, first opcode, its count per source iteration)
FIRST = {"wv_gather": ("LDG", 8), "wv_store_scatter": ("STG", 8), "wv_store_coal": ("STG", 8),
         "wv_conv": ("F2I", 8), "wv_conv_rcp": ("MUFU", 8), "wv_rcp": ("MUFU", 16),
         "wv_urem": ("MUFU", 8), "wv_branch_div": ("BSSY", 1), "wv_branch_uni": ("BSSY", 1)}
ITERS = {"wv_gather": 256, "wv_store_scatter": 64, "wv_store_coal": 256, "wv_conv": 256,
         "wv_conv_rcp": 256, "wv_rcp": 256, "wv_urem": 128, "wv_branch_div": 512, "wv_branch_uni": 512}


def rows_of(label, name, counts, us, extra=None):
    c = counts.get(name, {})
    op, per = FIRST[name]
    first = c.get(op, 0)
    if not first:
        return [f"{label}\tNO-LOOP\t0\t0\t{us:.1f}"]
    bodies = ITERS[name] * per / first
    clocks = us * 1e-6 * CLOCK_MHZ * 1e6
    rows = [f"{label}\t{o}\t{n}\t{WARPS * bodies * n / (clocks * SMS):.3f}\t{us:.1f}" for o, n in sorted(c.items())]
    total = sum(c.values())
    rows.append(f"{label}\tALL\t{total}\t{WARPS * bodies * total / (clocks * SMS):.3f}\t{us:.1f}")
    steps = WARPS * ITERS[name] * (8 if name == "wv_urem" else 1)
    if name in ("wv_urem", "wv_branch_div", "wv_branch_uni"):
        rows.append(f"{label}\tSTEPS_PER_CLK_SM\t{per}\t{steps / (clocks * SMS):.4f}\t{us:.1f}")
    if extra is not None:
        size, sectors_per_request = extra
        sectors = WARPS * ITERS[name] * 8 * sectors_per_request
        rows.append(f"{label}\tSECTORS_PER_CLK_GPU\t{size}\t{sectors / clocks:.2f}\t{us:.1f}")
        rows.append(f"{label}\tSECTORS_PER_CLK_SM\t{size}\t{sectors / clocks / SMS:.3f}\t{us:.1f}")
    return rows


def main():
    import cupy as cp
    import numpy as np
    from run_spec_cupy import timed_batches

    out_dir = sys.argv[1]
    cubin, counts = build("model_v4rates", out_dir)
    mod = cp.RawModule(path=cubin)
    ai = cp.asarray((np.arange(TPB, dtype=np.uint64) * 2654435761 % (1 << 32)).astype(np.uint32))
    table = cp.random.random(max(GATHER), dtype=cp.float32)
    store = cp.zeros(STORE_WORDS, dtype=cp.uint32)
    outb = cp.zeros(BLOCKS * TPB, dtype=cp.uint32)
    z = np.uint32(1013904223)
    rows = [f"# sm clock {CLOCK_MHZ} MHz; {BLOCKS}x{TPB} threads; iterations {ITERS}",
            "kernel\topcode\tper_loop_body\twarp_insts_per_clk_per_sm\tus"]
    runs = []
    for words in GATHER:
        runs.append((f"wv_gather@{words * 4}", "wv_gather",
                     (table, ai, outb, np.int32(ITERS["wv_gather"]), np.uint32(words - 1), z), (words * 4, 32)))
    runs.append(("wv_store_scatter", "wv_store_scatter",
                 (ai, store, np.int32(ITERS["wv_store_scatter"]), np.uint32(STORE_WORDS - 1), z), (STORE_WORDS * 4, 32)))
    runs.append(("wv_store_coal", "wv_store_coal",
                 (ai, store, np.int32(ITERS["wv_store_coal"]), np.uint32(STORE_WORDS - 1), z), (STORE_WORDS * 4, 4)))
    for name in ["wv_conv", "wv_conv_rcp", "wv_rcp", "wv_urem", "wv_branch_div", "wv_branch_uni"]:
        runs.append((name, name, (ai, outb, np.int32(ITERS[name]), np.uint32(12345), np.uint32(0x9e3779b9)), None))
    for label, name, args, extra in runs:
        fn = mod.get_function(name)

        def launch(f=fn, a=args):
            f((BLOCKS,), (TPB,), a)
        per = timed_batches(launch, 11, 5, True)
        new = rows_of(label, name, counts, per[len(per) // 2] * 1e3, extra)
        rows += new
        print("\n".join(new), flush=True)
    with open(os.path.join(out_dir, "model_v4rates.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
