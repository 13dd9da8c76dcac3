#!/usr/bin/env python3
"""Measure the H100's approximate-math instructions on fixed inputs, for the emulator's tests.

    python3 scripts/h100/approx_probe.py OUT.tsv

Each PTX instruction below runs through inline asm in a CuPy RawKernel on a deterministic set
of inputs (special values, then values spread over the range where the function is used, then
random bit patterns). OUT.tsv gets one row per (instruction, input): `op  input_bits
output_bits`, hexadecimal f32 bits. crates/emu/tests/approx_h100.rs compares the emulator's
`float::approx` with these rows and states its bound per instruction.
"""

import sys

import cupy as cp
import numpy as np

OPS = [
    "ex2.approx.f32",
    "ex2.approx.ftz.f32",
    "lg2.approx.f32",
    "lg2.approx.ftz.f32",
    "rcp.approx.f32",
    "rcp.approx.ftz.f32",
    "sqrt.approx.f32",
    "rsqrt.approx.f32",
    "sin.approx.f32",
    "sin.approx.ftz.f32",
    "cos.approx.f32",
    "cos.approx.ftz.f32",
    "tanh.approx.f32",
]

# Where each function is evaluated (besides the specials and random bit patterns).
RANGES = {
    "ex2": [(-30.0, 30.0), (-1.0, 1.0), (-126.5, -120.0)],
    "lg2": [(1e-3, 1e3), (0.5, 2.0), (1e-38, 1e-30)],
    "rcp": [(-1e3, 1e3), (1.0, 2.0), (1e30, 1e38)],
    "sqrt": [(0.0, 1e3), (1.0, 4.0), (1e-38, 1e-30)],
    "rsqrt": [(1e-3, 1e3), (1.0, 4.0)],
    "sin": [(-3.1415927, 3.1415927), (-300.0, 300.0), (1e3, 1e5)],
    "cos": [(-3.1415927, 3.1415927), (-300.0, 300.0), (1e3, 1e5)],
    "tanh": [(-10.0, 10.0), (-1.0, 1.0), (-1e-3, 1e-3)],
}
SPECIALS = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40,
            3.4e38, -3.4e38, 1.1754944e-38, 100.0, 128.0, -126.0, -127.0, -150.0]
PER_RANGE = 1024
RANDOM_BITS = 1024


def kernel(op):
    return cp.RawKernel(
        r"""
extern "C" __global__ void k(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float r;
        asm("%s %%0, %%1;" : "=f"(r) : "f"(x[i]));
        y[i] = r;
    }
}
""" % op,
        "k",
    )


def inputs(op, rng):
    fn = op.split(".")[0]
    xs = [np.array(SPECIALS, dtype=np.float32)]
    for lo, hi in RANGES[fn]:
        xs.append(rng.uniform(lo, hi, PER_RANGE).astype(np.float32))
    xs.append(rng.integers(0, 2**32, RANDOM_BITS, dtype=np.uint64).astype(np.uint32).view(np.float32))
    return np.concatenate(xs)


def main():
    out = sys.argv[1]
    rng = np.random.default_rng(20261122)
    with open(out, "w") as f:
        f.write("op\tinput\toutput\n")
        for op in OPS:
            x = inputs(op, rng)
            dx = cp.asarray(x)
            dy = cp.empty_like(dx)
            n = x.size
            kernel(op)(((n + 255) // 256,), (256,), (dx, dy, np.int32(n)))
            y = cp.asnumpy(dy)
            for a, b in zip(x.view(np.uint32), y.view(np.uint32)):
                f.write(f"{op}\t{a:08x}\t{b:08x}\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
