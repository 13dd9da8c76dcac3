#!/usr/bin/env python3
"""Compare the emulator's saved buffers with the GPU's, for every launch spec of a corpus.

    python3 scripts/h100/compare.py --gpu validation/h100/outputs --emu OUT/emu [--specs GLOB...]
                                    [--markdown] [--timing]

Both directories hold one sub-directory per spec (the spec file's stem) with the files its
buffers `save`. Integer buffers must be bit-identical; float buffers are compared in units in
the last place (ulp) of their type (NaN equals NaN of any payload, +0 equals -0) and must stay
within the bound of their type (--ulp-f32 etc.); buffers whose table says
`# order nondeterministic` are compared as sorted multisets. With --timing, the GPU's per-launch
times (timing.json from run_spec_cupy.py) are set against the emulator's (timing.json from
`warpscope run --timing`). Exit status: 0 when every buffer passes.
"""

import argparse
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spec_common as sc  # noqa: E402

import numpy as np  # noqa: E402

DEFAULT_ULP = {"f16": 1, "bf16": 1, "f32": 4, "f64": 4}
# Second criterion for floats: the largest absolute difference is at most this fraction of
# the buffer's largest GPU magnitude. It admits the approximate functions (ex2/lg2/tanh.approx
# are within 1-2 ulp of the hardware, not bit for bit: crates/emu/tests/approx_h100.rs) and
# cancellation near zero, where ulp distances explode while the values agree. A buffer whose
# kernel amplifies those differences further carries its own bound, derived in a
# `# error bound 2^-N: why` comment of its spec table. A NaN on one side only always fails.
DEFAULT_REL = 2.0 ** -16


def compare_buffer(t, a, b, unordered):
    """(verdict fields) for emulator array a vs GPU array b of type t."""
    n = len(a)
    if unordered:
        a = np.sort(a.view(np.dtype("u%d" % a.itemsize)))
        b = np.sort(b.view(np.dtype("u%d" % b.itemsize)))
        a = a.view(sc.TYPES[t][0])
        b = b.view(sc.TYPES[t][0])
    kind = sc.TYPES[t][2]
    if kind in ("int", "uint"):
        diff = int(np.count_nonzero(a != b))
        idx = np.nonzero(a != b)[0][:3]
        first = [(int(k), int(a[k]), int(b[k])) for k in idx]
        return {"elements": n, "mismatches": diff, "max_ulp": 0 if diff == 0 else None,
                "first": first}
    va, vb = sc.float_values(a, t), sc.float_values(b, t)
    both_nan = np.isnan(va) & np.isnan(vb)
    ia = np.asarray(sc.ordered_ints(a, t), dtype=np.float64)
    ib = np.asarray(sc.ordered_ints(b, t), dtype=np.float64)
    ulp = np.abs(ia - ib)
    ulp[both_nan] = 0
    one_nan = np.isnan(va) ^ np.isnan(vb)
    ulp[one_nan] = np.inf
    mism = int(np.count_nonzero(ulp > 0))
    max_ulp = float(ulp.max()) if n else 0.0
    diff_idx = np.nonzero(ulp > 0)[0][:3]
    first = [(int(k), float(va[k]), float(vb[k])) for k in diff_idx]
    scale = float(np.nanmax(np.abs(vb))) if n and not np.all(np.isnan(vb)) else 0.0
    with np.errstate(invalid="ignore"):  # inf - inf: equal infinities, handled below
        absdiff = np.abs(va - vb)
    absdiff[(va == vb)] = 0
    absdiff[both_nan] = 0
    max_abs = float(np.nanmax(absdiff)) if n else 0.0
    return {
        "elements": n,
        "mismatches": mism,
        "max_ulp": max_ulp,
        "max_abs": max_abs,
        "scale": scale,
        "nan_mismatches": int(np.count_nonzero(one_nan)),
        "first": first,
    }


def load(path, t):
    with open(path, "rb") as f:
        raw = f.read()
    return np.frombuffer(raw, dtype=np.dtype(sc.TYPES[t][0]).newbyteorder("<")).astype(sc.TYPES[t][0])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpu", required=True, help="GPU outputs (one directory per spec)")
    ap.add_argument("--emu", required=True, help="emulator outputs (one directory per spec)")
    ap.add_argument(
        "--specs",
        nargs="+",
        default=["corpus/*.toml", "crates/emu/tests/specs/typical.toml"],
        help="launch specs (globs) whose outputs to compare",
    )
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--timing", action="store_true", help="also compare launch times")
    for t, d in DEFAULT_ULP.items():
        ap.add_argument(f"--ulp-{t}", type=float, default=d, help=f"ulp bound for {t} (default {d})")
    ap.add_argument("--rel", type=float, default=DEFAULT_REL,
                    help="relative-to-range bound for floats outside their ulp bound (default 2^-16)")
    a = ap.parse_args()
    bound = {t: getattr(a, f"ulp_{t}") for t in DEFAULT_ULP}

    rows, failures, missing, details = [], 0, [], []
    times = []
    paths = sorted({p for g in a.specs for p in glob.glob(g)})
    for spec_path in paths:
        stem = os.path.splitext(os.path.basename(spec_path))[0]
        spec = sc.load_spec(spec_path)
        unordered = sc.unordered_buffers(spec)
        bounds = sc.error_bounds(spec)
        for name in sc.buffers_in_order(spec):
            buf = spec["buffer"][name]
            save = buf.get("save")
            if not save:
                continue
            t = sc.type_of(buf["type"])
            ge = os.path.join(a.gpu, stem, save)
            ee = os.path.join(a.emu, stem, save)
            if not (os.path.exists(ge) and os.path.exists(ee)):
                missing.append(f"{stem}/{save}" + ("" if os.path.exists(ge) else " (no GPU output)")
                               + ("" if os.path.exists(ee) else " (no emulator output)"))
                continue
            r = compare_buffer(t, load(ee, t), load(ge, t), name in unordered)
            kind = sc.TYPES[t][2]
            if kind in ("int", "uint"):
                ok = r["mismatches"] == 0
                result = "bit-identical" if ok else f"{r['mismatches']} elements differ"
            else:
                ok = r["max_ulp"] <= bound[t]
                rel, why = bounds.get(name, (a.rel, None))
                close = (not ok and r["nan_mismatches"] == 0
                         and r["max_abs"] <= rel * r["scale"])
                result = "bit-identical" if r["max_ulp"] == 0 else (
                    f"max {r['max_ulp']:.0f} ulp ({r['mismatches']} elements differ, "
                    f"max abs {r['max_abs']:.3g} of range {r['scale']:.3g})"
                )
                if r["nan_mismatches"]:
                    result += f", {r['nan_mismatches']} NaN on one side only"
                if close:
                    ok = True
                    result += (" [relative bound]" if why is None
                               else f" [its own bound 2^{np.log2(rel):.0f}: {why}]")
            if not ok:
                failures += 1
            rows.append((stem, name, t, r["elements"], result, "ok" if ok else "FAIL"))
            if r.get("first"):
                details.append(f"{stem}/{name}: first differences (index, emulator, GPU): "
                               + ", ".join(f"({k}, {x!r}, {y!r})" for k, x, y in r["first"]))
        if a.timing:
            try:
                with open(os.path.join(a.gpu, stem, "timing.json")) as f:
                    g = json.load(f)["launches"]
                with open(os.path.join(a.emu, stem, "timing.json")) as f:
                    e = json.load(f)["launches"]
                gms = sum(x["ms"] for x in g)
                ems = sum(x["ms"] for x in e)
                ti = sum(x.get("thread_instructions", 0) for x in e)
                times.append((stem, len(e), ti, ems, gms))
            except (OSError, KeyError, ValueError):
                pass

    if a.markdown:
        print("| spec | buffer | type | elements | emulator vs H100 | verdict |")
        print("|---|---|---|---:|---|---|")
        for r in rows:
            print("| %s | %s | %s | %d | %s | %s |" % r)
        if times:
            print()
            print("| spec | launches | thread-instructions | emulator ms | H100 ms | slowdown |")
            print("|---|---:|---:|---:|---:|---:|")
            for stem, n, ti, ems, gms in times:
                slow = ems / gms if gms > 0 else float("nan")
                print(f"| {stem} | {n} | {ti} | {ems:.1f} | {gms:.3f} | {slow:.3g}x |")
    else:
        w = max((len(r[0]) + len(r[1]) for r in rows), default=10) + 1
        for r in rows:
            print(f"{(r[0] + '/' + r[1]).ljust(w)} {r[2]:5} {r[3]:>9}  {r[5]:4}  {r[4]}")
        for stem, n, ti, ems, gms in times:
            print(f"time {stem}: emulator {ems:.1f} ms, H100 {gms:.3f} ms ({ems / max(gms, 1e-9):.0f}x)")
        for d in details:
            print(d)
    for m in missing:
        print(f"missing: {m}", file=sys.stderr)
    print(f"{len(rows)} buffers compared, {failures} outside their bound, {len(missing)} missing",
          file=sys.stderr)
    return 1 if failures or (missing and not rows) else 0


if __name__ == "__main__":
    sys.exit(main())
