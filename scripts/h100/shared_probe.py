#!/usr/bin/env python3
"""Measure how the H100 serves shared-memory loads of chosen lane address patterns.

    ncu --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum \\
        -k regex:probe_ --csv python3 scripts/h100/shared_probe.py run > RAW.csv
    python3 scripts/h100/shared_probe.py reduce RAW.csv OUT.tsv

`run` launches, for every (access size, pattern, active mask) below, one block of one warp
that executes exactly one `ld.shared` of that size (inline PTX) at the pattern's byte offsets
with the lanes of the mask active. `reduce` joins Nsight Compute's per-launch counters with the
patterns: OUT.tsv has one row per launch, `size mask wavefronts instructions offsets...`
(32 byte offsets, hexadecimal mask). crates/cost/tests/h100_shared.rs checks the cost model
against it. Launch order is the pattern order, which is how the two are joined.
"""

import sys

import numpy as np

SIZES = [4, 8, 16]
FULL = 0xFFFFFFFF


def patterns(size):
    """(name, offsets[32], mask) for one access size; offsets are multiples of `size`."""
    rng = np.random.default_rng(7 + size)
    lane = np.arange(32, dtype=np.int64)
    out = []

    def add(name, offs, masks=(FULL,)):
        offs = (np.asarray(offs, dtype=np.int64) % 16384) // size * size
        for m in masks:
            out.append((name, offs, m))

    partial = (FULL, 0x0000FFFF, 0xFFFF0000, 0x000000FF, 0x00FF00FF, 0x55555555, 0x80000001, 0x00000001)
    add("consecutive", lane * size, partial)
    add("broadcast", np.zeros(32), partial)
    for k in (2, 3, 4, 8, 16, 32):
        add(f"stride{k}", lane * size * k, (FULL, 0x0000FFFF, 0x000000FF))
    add("reversed", (31 - lane) * size)
    add("pairs", (lane // 2) * size)
    add("quads", (lane // 4) * size)
    add("octets", (lane // 8) * size)
    add("half_broadcast", (lane // 16) * 512)
    add("quarter_broadcast_same_bank", (lane // 8) * 128)
    add("quarter_broadcast_other_banks", (lane // 8) * size)
    add("quarter_repeat", (lane % 8) * size)
    add("half_repeat", (lane % 16) * size)
    add("eighth_repeat", (lane % 4) * size)
    add("two_rows_128", (lane % 16) * size + (lane // 16) * 128)
    add("two_rows_256", (lane % 16) * size + (lane // 16) * 256)
    add("column_129", lane * 129 * 4)
    add("column_33", lane * 33 * 4)
    add("column_32", lane * 32 * 4)
    add("swizzle_xor", (lane ^ 1) * size)
    for r in range(6):
        add(f"random{r}", rng.integers(0, 4096, 32) * size)
    for r in range(3):
        add(f"random_small{r}", rng.integers(0, 64, 32) * size)
    return out


def all_launches():
    return [(s, name, offs, m) for s in SIZES for (name, offs, m) in patterns(s)]


KERNELS = r"""
extern "C" __global__ void probe_%(n)d(const int* offs, unsigned mask, float* out) {
    __shared__ __align__(16) float sm[4096 + 64];
    unsigned lane = threadIdx.x;
    // Initialise (stores are not what is measured: the probe counts loads only).
    for (int i = lane; i < 4096 + 64; i += 32) sm[i] = (float)i;
    __syncthreads();
    if ((mask >> lane) & 1u) {
        unsigned a = (unsigned)__cvta_generic_to_shared(sm) + (unsigned)offs[lane];
        %(body)s
    }
}
"""
BODIES = {
    4: 'float x; asm volatile("ld.shared.f32 %0, [%1];" : "=f"(x) : "r"(a)); out[lane] = x;',
    8: 'float x, y; asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];" : "=f"(x), "=f"(y) : "r"(a)); out[lane] = x + y;',
    16: 'float x, y, z, w; asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(x), "=f"(y), "=f"(z), "=f"(w) : "r"(a)); out[lane] = x + y + z + w;',
}


def run():
    import cupy as cp

    src = "".join(KERNELS % {"n": s, "body": BODIES[s]} for s in SIZES)
    mod = cp.RawModule(code=src)
    out = cp.zeros(32, dtype=cp.float32)
    for s, _name, offs, m in all_launches():
        k = mod.get_function(f"probe_{s}")
        k((1,), (32,), (cp.asarray(offs.astype(np.int32)), np.uint32(m), out))
    cp.cuda.Device().synchronize()


def reduce(raw, dst):
    import csv

    launches = all_launches()
    rows = [r for r in csv.reader(open(raw)) if r]
    hdr = next(i for i, r in enumerate(rows) if "Metric Name" in r)
    h = rows[hdr]
    col = {n: h.index(n) for n in ("ID", "Kernel Name", "Metric Name", "Metric Value")}
    per = {}
    for r in rows[hdr + 1:]:
        if len(r) < len(h) or not r[col["Kernel Name"]].startswith("probe_"):
            continue
        i = int(r[col["ID"]])
        per.setdefault(i, {"kernel": r[col["Kernel Name"]]})[r[col["Metric Name"]]] = float(
            r[col["Metric Value"]].replace(",", ""))
    ids = sorted(per)
    if len(ids) != len(launches):
        sys.exit(f"{len(ids)} profiled launches, {len(launches)} patterns")
    with open(dst, "w") as f:
        f.write("size\tname\tmask\twavefronts\tinstructions\toffsets\n")
        for i, (s, name, offs, m) in zip(ids, launches):
            p = per[i]
            assert p["kernel"].startswith(f"probe_{s}"), (p, s)
            wf = p["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"]
            n = p["smsp__inst_executed_op_shared_ld.sum"]
            f.write(f"{s}\t{name}\t{m:08x}\t{wf:.0f}\t{n:.0f}\t{','.join(str(int(o)) for o in offs)}\n")
    print(f"wrote {dst}: {len(launches)} launches")


if __name__ == "__main__":
    if sys.argv[1] == "run":
        run()
    else:
        reduce(sys.argv[2], sys.argv[3])
