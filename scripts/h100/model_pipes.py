#!/usr/bin/env python3
"""Issue rates of the integer ALU and MUFU pipes on the H100 (scripts/h100/model_pipes.cu), for
the H100 estimate of `warpscope model` (docs/accuracy.md): each kernel runs 8 independent
chains per thread on every SM (8 blocks of 256 threads per SM); its loop's SASS is counted from
`cuobjdump -sass` (the instructions between a backward branch's target and the branch) and the
executed count of each opcode over the time gives warp instructions per clock per SM. Each
source iteration runs 16 of each of the kernel's two operations (8 chains, twice); ptxas unrolls
the loop, so the loop body runs `iters × 16 / (its count of the first operation's opcode)` times.
The clock is the SM clock under load (`CLOCK_MHZ`, default 1979.5, the latency table's and what
nvidia-smi reads during the timed runs; it reads 345-600 MHz when idle).

    python3 scripts/h100/model_pipes.py OUTDIR     # -> OUTDIR/model_pipes.tsv, OUTDIR/model_pipes_sass.txt
    python3 scripts/h100/model_pipes.py --count SASS.txt   # only the loop counts (no GPU)
    python3 scripts/h100/model_pipes.py --recompute TIMES.tsv SASS.txt   # the rates from a run's times
"""
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter

SMS = 132
KERNELS = ["wp_add_xor", "wp_xor_shift", "wp_shift_add", "wp_setp_sel", "wp_sin", "wp_rsq"]
# the SASS opcode of each kernel's first operation (16 per source iteration)
FIRST = {"wp_add_xor": "LOP3", "wp_xor_shift": "LOP3", "wp_shift_add": "SHF", "wp_setp_sel": "SEL",
         "wp_sin": "MUFU", "wp_rsq": "MUFU"}
BLOCKS, TPB, ITERS = SMS * 8, 256, 512
CLOCK_MHZ = float(os.environ.get("CLOCK_MHZ", "1979.5"))


def rate_rows(name, counts, us):
    """Rows `kernel opcode per_loop_body warp_insts_per_clk_per_sm us` of one kernel."""
    c = counts.get(name, {})
    first = c.get(FIRST[name], 0)
    if not first:
        return [f"{name}\tNO-LOOP\t0\t0\t{us:.1f}"]
    bodies = ITERS * 16 / first
    denom = us * 1e-6 * CLOCK_MHZ * 1e6 * SMS
    warps = BLOCKS * TPB / 32
    rows = [f"{name}\t{op}\t{n}\t{warps * bodies * n / denom:.3f}\t{us:.1f}" for op, n in sorted(c.items())]
    total = sum(c.values())
    rows.append(f"{name}\tALL\t{total}\t{warps * bodies * total / denom:.3f}\t{us:.1f}")
    return rows


def loop_counts(sass):
    """{function: Counter(opcode -> count in its loop)} from cuobjdump -sass text."""
    out = {}
    for part in re.split(r"\n\s*Function : ", sass)[1:]:
        name = part.split()[0]
        insts = []
        for m in re.finditer(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)([^;]*);", part):
            insts.append((int(m.group(1), 16), m.group(3), m.group(4)))
        best = None
        for addr, op, rest in insts:
            if op.startswith("BRA"):
                t = re.search(r"0x([0-9a-f]+)", rest)
                if t and int(t.group(1), 16) < addr:
                    lo = int(t.group(1), 16)
                    if best is None or addr - lo > best[1] - best[0]:
                        best = (lo, addr)
        c = Counter()
        if best:
            for addr, op, _ in insts:
                if best[0] <= addr <= best[1]:
                    c[op.split(".")[0]] += 1
        out[name] = c
    return out


def build(name, out_dir):
    """Compiles scripts/h100/NAME.cu to a cubin (`nvcc -cubin -arch=sm_90 -O3`, `$NVCC`), writes its
    SASS to OUT_DIR/NAME_sass.txt and returns the cubin's path and each kernel's loop counts."""
    os.makedirs(out_dir, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    cubin = os.path.join(tempfile.mkdtemp(prefix="ws-" + name + "-"), name + ".cubin")
    nvcc = os.environ.get("NVCC", "nvcc")
    subprocess.run([nvcc, "-cubin", "-arch=sm_90", "-O3", os.path.join(here, name + ".cu"), "-o", cubin], check=True)
    sass = subprocess.run(["cuobjdump", "-sass", cubin], capture_output=True, text=True).stdout
    with open(os.path.join(out_dir, name + "_sass.txt"), "w") as f:
        f.write(sass)
    return cubin, loop_counts(sass)


def main():
    if sys.argv[1] == "--count":
        for f, c in loop_counts(open(sys.argv[2]).read()).items():
            print(f, dict(c))
        return 0
    header = [f"# sm clock {CLOCK_MHZ} MHz; {BLOCKS}x{TPB} threads, {ITERS} iterations",
              "kernel\topcode\tper_loop_body\twarp_insts_per_clk_per_sm\tus"]
    if sys.argv[1] == "--recompute":
        counts = loop_counts(open(sys.argv[3]).read())
        times = {}
        for line in open(sys.argv[2]):
            f = line.rstrip("\n").split("\t")
            if len(f) == 5 and f[0] in KERNELS:
                times[f[0]] = float(f[4])
        rows = list(header)
        for name in KERNELS:
            if name in times:
                rows += rate_rows(name, counts, times[name])
        print("\n".join(rows))
        return 0
    import cupy as cp
    import numpy as np
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from run_spec_cupy import timed_batches

    out_dir = sys.argv[1]
    cubin, counts = build("model_pipes", out_dir)
    mod = cp.RawModule(path=cubin)
    ai = cp.arange(TPB, dtype=cp.uint32)
    af = cp.random.random(TPB, dtype=cp.float32) + 0.5
    outb = cp.zeros(4, dtype=cp.float64)
    rows = list(header)
    for name in KERNELS:
        fn = mod.get_function(name)
        if name in ("wp_sin", "wp_rsq"):
            args = (af, outb, np.int32(ITERS), np.float32(0.0), np.float32(0.0))
        else:
            args = (ai, outb, np.int32(ITERS), np.uint32(12345), np.uint32(0x9e3779b9))

        def launch(f=fn, a=args):
            f((BLOCKS,), (TPB,), a)
        per = timed_batches(launch, 11, 5, True)
        rows += rate_rows(name, counts, per[len(per) // 2] * 1e3)
        print("\n".join(rows[-3:]), flush=True)
    with open(os.path.join(out_dir, "model_pipes.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
