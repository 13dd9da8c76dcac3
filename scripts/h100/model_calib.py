#!/usr/bin/env python3
"""Machine facts for warpscope model's H100 throughput estimate (warpscope's extension; see
docs/model.md), measured on the device with scripts/h100/model_calib.cu:

    python3 scripts/h100/model_calib.py OUTDIR

OUTDIR/model_overhead.tsv   per grid (blocks x threads): ws_empty's time per launch, as a CUDA
                            graph of 20 launches (graph_us) and as 20 Python launches (plain_us);
                            median of 21 groups each
OUTDIR/model_machine.tsv    measured rates: warp instructions per clock per SM of independent
                            FFMA / IMAD / MUFU.EX2 / DFMA with every SM full, and global-load
                            sectors per clock (whole GPU) from L2 and from DRAM, coalesced and
                            scattered
Clock: the SM clock nvidia-smi reports during the run (written to model_machine.tsv).
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_spec_cupy import timed_batches  # noqa: E402

SMS = 132


def sm_clock_mhz():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm", "--format=csv,noheader,nounits"],
                             capture_output=True, text=True, check=True).stdout
        return float(out.strip().splitlines()[0])
    except Exception:  # noqa: BLE001
        return float("nan")


def main():
    import cupy as cp

    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    tmp = tempfile.mkdtemp(prefix="ws-calib-")
    ptx = os.path.join(tmp, "calib.ptx")
    nvcc = os.environ.get("NVCC", "nvcc")
    subprocess.run([nvcc, "-ptx", "-arch=sm_90", "-O3", os.path.join(here, "model_calib.cu"), "-o", ptx],
                   check=True)
    cubin = os.path.join(tmp, "calib.cubin")
    subprocess.run([nvcc, "-cubin", "-arch=sm_90", "-O3", os.path.join(here, "model_calib.cu"), "-o", cubin],
                   check=True)
    sass = subprocess.run(["cuobjdump", "-sass", cubin], capture_output=True, text=True).stdout
    with open(os.path.join(out_dir, "model_calib_sass.txt"), "w") as f:
        f.write(sass)
    mod = cp.RawModule(path=ptx)
    k = {n: mod.get_function(n) for n in ["ws_empty", "ws_read", "ws_ffma", "ws_imad", "ws_ex2", "ws_dfma"]}
    clk = sm_clock_mhz()

    def median_ms(launch, graph=True, batches=21, batch_size=20):
        per = timed_batches(launch, batches, batch_size, graph)
        return per[len(per) // 2]

    rows = ["blocks\tthreads\tgraph_us\tplain_us"]
    dummy = cp.zeros(1, dtype=cp.int32)
    for tpb in [128, 256, 512, 1024]:
        for blocks in [1, 132, 264, 512, 1056, 2048, 4096, 8192, 16384, 65536]:
            def launch(b=blocks, t=tpb):
                k["ws_empty"]((b,), (t,), (dummy,))
            g = median_ms(launch) * 1e3
            p = median_ms(launch, graph=False) * 1e3
            rows.append(f"{blocks}\t{tpb}\t{g:.3f}\t{p:.3f}")
            print(rows[-1], flush=True)
    with open(os.path.join(out_dir, "model_overhead.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")

    mrows = [f"sm_clock_mhz\t{clk:.1f}\tnvidia-smi clocks.sm during the run"]
    blocks, tpb, iters = SMS * 8 * 4, 256, 256
    fout = cp.zeros(1, dtype=cp.float64)
    for name, args, per_iter in [
        ("ffma", (np.int32(iters), np.float32(1.0001), np.float32(0.5)), 32),
        ("imad", (np.int32(iters), np.uint32(1664525), np.uint32(1013904223)), 32),
        ("ex2", (np.int32(iters), np.float32(0.0)), 32),
        ("dfma", (np.int32(iters), np.float64(1.0001), np.float64(0.5)), 32),
    ]:
        def launch(n=name, a=args):
            k["ws_" + n]((blocks,), (tpb,), (fout,) + a)
        ms = median_ms(launch, batch_size=5, batches=11)
        warp_insts = blocks * tpb / 32 * iters * per_iter
        rate = warp_insts / (ms * 1e-3 * clk * 1e6 * SMS)
        mrows.append(f"{name}_warp_insts_per_clk_per_sm\t{rate:.3f}\t{blocks}x{tpb} threads, {iters}x{per_iter} ops each, {ms*1e3:.1f} us")
        print(mrows[-1], flush=True)

    for where, nfloats in [("l2", 1 << 21), ("dram", 1 << 28)]:
        a = cp.random.random(nfloats, dtype=cp.float32)
        o = cp.zeros(1 << 20, dtype=cp.float32)
        for how, stride in [("coalesced", 1), ("scattered", 8)]:
            rb, rt = SMS * 16, 256
            it = 64 if where == "l2" else max(1, nfloats // (rb * rt * stride))
            if where == "l2" and stride == 8:
                it = 16

            def launch(b=rb, t=rt, s=stride, i=it, arr=a):
                k["ws_read"]((b,), (t,), (arr, o, np.uint32(nfloats - 1), np.uint32(s), np.int32(i)))
            ms = median_ms(launch, batch_size=5, batches=11)
            requests = rb * rt // 32 * it
            sectors = requests * (4 if stride == 1 else 32)
            per_clk = sectors / (ms * 1e-3 * clk * 1e6)
            mrows.append(f"{where}_{how}_sectors_per_clk\t{per_clk:.2f}\t{sectors} sectors in {ms*1e3:.1f} us"
                         f" ({sectors*32/(ms*1e-3)/1e12:.2f} TB/s), {rb}x{rt} threads x {it} loads")
            print(mrows[-1], flush=True)
        del a
    with open(os.path.join(out_dir, "model_machine.tsv"), "w") as f:
        f.write("\n".join(mrows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
