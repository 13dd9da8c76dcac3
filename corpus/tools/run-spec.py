#!/usr/bin/env python3
"""Run a corpus launch spec (corpus/<name>.toml) on a real GPU through CuPy, using the committed PTX.

    python3 corpus/tools/run-spec.py corpus/<name>.toml [OUTDIR]

Allocates the spec's buffers, initialises them, performs every [[launch]] in order (with
`repeat`), then writes each buffer that has `save = "..."` to OUTDIR (raw little-endian elements)
and prints one line per saved buffer: name, element count, and the checksum
sum(v[i] * ((i % 7) + 1)) in double precision (the checksum most corpus mains print), so a spec
can be checked against its main(). The .bin files are the GPU reference for the emulator.
"""
import os
import re
import sys
import tomllib

import numpy as np
import cupy as cp

DTYPES = {
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
    "f16": np.float16, "bf16": np.uint16, "f32": np.float32, "f64": np.float64,
}
SCALARS = {
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
    "f32": np.float32, "f64": np.float64,
}


def f32_to_bf16_bits(x):
    b = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    b = (b + 0x7FFF + ((b >> 16) & 1)) >> 16  # round to nearest even
    return b.astype(np.uint16)


def init_host(spec, name):
    typ, n, init = spec["type"], int(spec["len"]), spec.get("init", "zeros")
    dt = DTYPES[typ]
    if init == "zeros":
        return np.zeros(n, dtype=dt)
    if init == "iota":
        if typ == "bf16":
            return f32_to_bf16_bits(np.arange(n, dtype=np.float32))
        if np.issubdtype(dt, np.integer):
            return np.arange(n, dtype=np.int64).astype(dt)  # wraps like a C cast
        return np.arange(n, dtype=np.float64).astype(dt)
    if isinstance(init, dict) and "constant" in init:
        v = init["constant"]
        if typ == "bf16":
            return f32_to_bf16_bits(np.full(n, v, dtype=np.float32))
        return np.full(n, v, dtype=dt)
    if isinstance(init, dict) and "file" in init:
        return np.fromfile(init["file"], dtype=dt, count=n)
    raise SystemExit("buffer %s: init %r not supported by this runner" % (name, init))


def entry_symbols(ptx_text):
    return re.findall(r"^\.(?:visible|weak)\s+\.entry\s+(\w+)\s*\(", ptx_text, re.M)


def resolve(kernel, symbols):
    if kernel in symbols:
        return kernel
    want = "_Z%d%s" % (len(kernel), kernel)
    hits = [s for s in symbols if s.startswith(want) and not s[len(want):len(want) + 1].isdigit()]
    if len(hits) != 1:
        raise SystemExit("kernel %s: %d matching entries in module" % (kernel, len(hits)))
    return hits[0]


def main():
    spec_path = sys.argv[1]
    outdir = sys.argv[2] if len(sys.argv) > 2 else "."
    os.makedirs(outdir, exist_ok=True)
    spec = tomllib.load(open(spec_path, "rb"))
    base = os.path.dirname(spec_path)
    ptx_path = os.path.join(base, spec["module"])
    symbols = entry_symbols(open(ptx_path).read())
    mod = cp.RawModule(path=ptx_path)
    bufs = {}
    for name, b in spec.get("buffer", {}).items():
        bufs[name] = cp.asarray(init_host(b, name))
    for li, la in enumerate(spec.get("launch", [])):
        fn = mod.get_function(resolve(la["kernel"], symbols))
        rep = la.get("repeat")
        values = [None] if rep is None else range(int(rep["from"]), int(rep["to"]) + 1)
        for v in values:
            args = []
            for a in la["args"]:
                if "buffer" in a:
                    arr = bufs[a["buffer"]]
                    off = int(a.get("offset", 0))
                    args.append(arr.view(cp.uint8)[off:] if off else arr)
                elif "var" in a:
                    args.append(np.int32(v))
                else:
                    (k, val), = a.items()
                    args.append(SCALARS[k](val))
            fn(tuple(la["grid"]), tuple(la["block"]), tuple(args), shared_mem=int(la.get("shared_bytes", 0)))
    cp.cuda.runtime.deviceSynchronize()
    for name, b in spec.get("buffer", {}).items():
        if "save" not in b:
            continue
        host = cp.asnumpy(bufs[name])
        host.tofile(os.path.join(outdir, b["save"]))
        if b["type"] == "bf16":
            vals = (host.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
        else:
            vals = host.astype(np.float64)
        w = (np.arange(vals.size) % 7 + 1).astype(np.float64)
        print("%s %s len=%d checksum=%.6e" % (os.path.basename(spec_path), name, host.size, float(np.sum(vals * w))))


if __name__ == "__main__":
    main()
