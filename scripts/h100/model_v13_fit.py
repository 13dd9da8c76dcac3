#!/usr/bin/env python3
"""Thirteenth version of `warpscope model`'s H100 estimate (docs/accuracy.md, "Thirteenth version"):
what our own micro-benchmarks (scripts/h100/model_v13rates.py -> validation/h100/model/model_v13rates.tsv
and its SASS, model_v13rates_sass.txt.gz: cuobjdump's listing as the device wrote it, compressed) say about register-bank conflicts, predicates and carries. Reads only committed files.

For each kernel's loop at 16 warps per scheduler (the throughput regime): the measured clocks per
loop body and warp (the 1.14 us empty-kernel time taken off, as model_v12_fit.py), against

  * v12: the busiest of issue and pipes (IMAD.HI/WIDE twice on the IMAD pipe) times the twelfth
    version's dependence factor 1 + 0.028 s + 0.124 x;
  * v13: the same with extra issue cycles per register-bank conflict (an instruction on the
    integer ALU, IMAD or fp32 pipe reading two different vector registers of one bank, register
    number mod 2, that the operand reuse cache does not hold: see bank_conflicts): 1.0 on the
    ALU and IMAD pipes, 0.6 on the fp32 pipe (crates/model/src/throughput/sass_deps.rs).

The cost per conflict is read off the three shapes whose loops conflict and nothing else changes
(v13_k4_imad_lop_vreg, v13_k4_imad_lop_vreg3 against v13_k4_imad_lop; v13_k8_ffma_vreg3 against
v13_k8_ffma_ureg): (measured / factor - issue) / conflicts. The one-warp (latency) clocks per
loop body are printed too: the predicate latencies come from v13_sel, v13_sel64 and v13_add64
(tests in sass_deps.rs run the model's chain on their SASS).

    python3 scripts/h100/model_v13_fit.py
"""
import collections
import gzip
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_v12_fit import parse, loop, fractions, pipe, RATE  # noqa: E402

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "validation", "h100", "model")
EMPTY_US = 1.14
# (opcode prefix counted in the loop body, how many of it one source iteration holds)
MARK = {"v13_add64": ("IADD3", 32), "v13_sel": ("ISETP.GT", 8), "v13_sel64": ("ISETP.GT", 16),
        "v13_mul64": ("IMAD.WIDE", 16), "v13_dep_imad_vreg": ("IMAD", 32), "v13_dep_imad_vreg2": ("IMAD", 32),
        "v13_k8_ffma_ureg": ("FFMA", 32), "v13_k8_ffma_vreg": ("FFMA", 32), "v13_k8_ffma_vreg3": ("FFMA", 32),
        "v13_k4_imad_lop": ("IMAD", 64), "v13_k4_imad_lop_vreg": ("IMAD", 32),
        "v13_k4_imad_lop_vreg3": ("IMAD", 32), "v13_long_k4_imad_lop": ("IMAD", 64),
        "v13_dep_lop_lop_imad": ("IMAD", 8), "v13_k4_lop_lop_imad": ("IMAD", 32),
        "v13_xorshift": ("SHF", 8), "v13_bisect64": ("SEL", 128)}
INNER = {"v13_bisect64"}


def inner_loop(insts):
    """The smallest backward branch's range (the innermost loop)."""
    best = None
    for a, g, op, rest in insts:
        if op.startswith("BRA"):
            t = re.search(r"0x([0-9a-f]+)", rest)
            if t and int(t.group(1), 16) < a:
                lo = int(t.group(1), 16)
                if best is None or a - lo < best[1] - best[0]:
                    best = (lo, a)
    return [x for x in insts if best[0] <= x[0] <= best[1]]


def src_regs(op, rest):
    """(slot, register number) of each 32-bit vector register source read from the register file
    (slot: operand position); None when an operand is a pair (.64) or the opcode is not counted."""
    toks = [t.strip() for t in rest.split(",")] if rest else []
    b = op.split(".")[0]
    start = 1
    if b in ("ISETP", "FSETP", "DSETP", "PLOP3", "IADD3", "LEA", "LOP3", "IMAD") and len(toks) > 1 \
            and re.fullmatch(r"P\d|PT", toks[1]):
        start = 2
    out = []
    for k, t in enumerate(toks[start:]):
        if ".64" in t or ".128" in t or "[" in t:
            return None
        m = re.fullmatch(r"[-!|~]*R(\d+)(\.reuse)?\|?(\.[A-Z0-9]+)*", t)
        if m and int(m.group(1)) < 255:
            out.append((k, int(m.group(1)), bool(m.group(2))))
    return out


COST = {"alu": 1.0, "imad": 1.0, "fp32": 0.6}


def bank_conflicts(body):
    """(conflicting instructions, their issue cycles at COST) of a loop body: an instruction on
    the ALU, IMAD or fp32 pipe reading two different vector registers of one bank (mod 2) from
    the register file conflicts; a source in the same operand slot as a `.reuse` source of the
    previous instruction, same register, comes from the reuse cache (no read)."""
    conf, cost, prev = 0, 0.0, {}
    for a, g, op, rest in body:
        if op.split(".")[0] in ("NOP", "BSSY", "BSYNC"):
            continue
        srcs = src_regs(op, rest)
        p = pipe(op)
        cached = prev
        prev = {}
        if srcs is None:
            continue
        for k, r, reuse in srcs:
            if reuse:
                prev[k] = r
        if p not in COST:
            continue
        banks = [set(), set()]
        for k, r, reuse in srcs:
            if cached.get(k) == r:
                continue
            banks[r % 2].add(r)
        if any(len(s) > 1 for s in banks):
            conf += 1
            cost += COST[p]
    return conf, cost


def demands(body):
    dem = collections.Counter()
    for a, g, op, rest in body:
        b = op.split(".")[0]
        if b in ("NOP", "BSSY", "BSYNC"):
            continue
        dem["issue"] += 1
        p = pipe(op)
        if p:
            dem[p] += 2 if (b == "IMAD" and (".HI" in op or ".WIDE" in op)) else 1
    return dem


def main():
    rows = collections.defaultdict(dict)
    for line in open(os.path.join(HERE, "model_v13rates.tsv")):
        f = line.rstrip("\n").split("\t")
        if len(f) == 5 and not f[0].startswith(("#", "kernel")):
            rows[f[0]][float(f[2])] = (float(f[3]), float(f[4]))
    with gzip.open(os.path.join(HERE, "model_v13rates_sass.txt.gz"), "rt") as f:
        sass = parse(f.read())
    pts = []
    for k, (mark, per_iter) in MARK.items():
        body = inner_loop(sass[k]) if k in INNER else loop(sass[k])
        iters = sum(1 for x in body if x[2].startswith(mark)) / per_iter
        clk, us = rows[k][16.0]
        meas = clk * (us - EMPTY_US) / us / 16 * iters
        dem = demands(body)
        fs, fc, _ = fractions(body)
        factor = 1 + 0.028 * fs + 0.124 * fc
        conf, cost = bank_conflicts(body)
        lat = rows[k][1.0][0] * iters
        pts.append((k, meas, dem, factor, conf, cost, lat, len(body)))
    print("kernel                 body  meas/body   v12 rule (err)     conflicts  v13 rule (err)   1-warp/body")
    e12, e13 = [], []
    for k, meas, dem, factor, conf, cost, lat, n in pts:
        p12 = max(dem[x] / RATE[x] for x in dem) * factor
        d = dict(dem)
        d["issue"] += cost
        p13 = max(d[x] / RATE[x] for x in d) * factor
        e12.append(abs(p12 - meas) / meas)
        e13.append(abs(p13 - meas) / meas)
        print("%-22s %4d %9.1f %9.1f (%+5.1f%%) %9d %9.1f (%+5.1f%%) %9.1f" % (
            k, n, meas, p12, 100 * (p12 - meas) / meas, conf, p13, 100 * (p13 - meas) / meas, lat))
    print("mean |error| over %d shapes: v12 rule %.1f%%, v13 rule %.1f%%" % (
        len(pts), 100 * sum(e12) / len(e12), 100 * sum(e13) / len(e13)))
    for k, meas, dem, factor, conf, cost, lat, n in pts:
        if k in ("v13_k4_imad_lop_vreg", "v13_k4_imad_lop_vreg3", "v13_k8_ffma_vreg3"):
            print("cycles per conflict, %s: %.2f" % (k, (meas / factor - dem["issue"]) / conf))
    return 0


if __name__ == "__main__":
    sys.exit(main())
