#!/usr/bin/env python3
"""Check that every timed chain of latency_bench.cu is what it claims to time.

    cuobjdump -sass latency_bench > latency_sass.txt
    python3 scripts/h100/latency_sass_check.py latency_sass.txt scripts/h100/latency_bench.cu

The expectations are the source's `// sass: REGEX [single]` lines, each naming the benchmark
kernel defined right after it. For each benchmark kernel, the timed region is the SASS between its first and its last clock
read (`SR_CLOCKLO`), in address order. The check passes when the intended opcode (a regular
expression over the whole mnemonic, guard and operands excluded) occurs there exactly `count`
times (CHAIN, one per link: nothing folded, merged, hoisted or sunk) and, for a benchmark whose link is
one SASS instruction (`single`), when the region holds at most 8 other instructions (the
chain's start and end pins). Prints one line per kernel and exits 1 if any check fails.
"""
import re
import sys
from collections import Counter

SLACK = 8


def functions(path):
    """Kernel name -> list of mnemonics (in address order) of its SASS."""
    funcs, cur = {}, None
    for line in open(path):
        m = re.search(r"Function : (\S+)", line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        m = re.match(r"\s+/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;", line)
        if m and cur is not None:
            text = re.sub(r"^@!?U?P\w+\s+", "", m.group(1).strip())
            cur.append(text)
    return funcs


def timed_region(insts):
    idx = [i for i, s in enumerate(insts) if "SR_CLOCKLO" in s]
    if len(idx) < 2:
        return None
    return insts[idx[0] + 1 : idx[-1]]


def expectations(source):
    """(kernel, opcode regex, single) from the `// sass:` lines of latency_bench.cu, and CHAIN."""
    text = open(source).read()
    chain = int(re.search(r"#define CHAIN (\d+)", text).group(1))
    out, pending = [], None
    for line in text.splitlines():
        m = re.match(r"//\s*sass:\s*(\S+)(\s+single)?\s*$", line)
        if m:
            pending = (m.group(1), bool(m.group(2)))
            continue
        m = re.match(r'(?:BENCH\((b_\w+),|extern "C" __global__ void (b_\w+)\()', line)
        if m and pending:
            out.append((m.group(1) or m.group(2), pending[0], pending[1]))
            pending = None
    return out, chain


def main():
    funcs = functions(sys.argv[1])
    exp, count = expectations(sys.argv[2])
    if not exp:
        print(f"SASS check: no `// sass:` expectations found in {sys.argv[2]}")
        sys.exit(1)
    ok = True
    print("# kernel\tstatus\tintended\tfound/expected\tinstructions in timed region\tper link\tother opcodes")
    for kernel, opcode, single in exp:
        insts = funcs.get(kernel)
        region = timed_region(insts) if insts else None
        if region is None:
            print(f"{kernel}\tFAIL\t{opcode}\tno timed region (kernel or clock reads missing)")
            ok = False
            continue
        mnems = [s.split()[0] for s in region if s.split() and s.split()[0] != "NOP"]
        pat = re.compile(opcode + r"$")
        found = sum(1 for m in mnems if pat.match(m))
        others = Counter(m for m in mnems if not pat.match(m))
        good = found == count and (not single or sum(others.values()) <= SLACK)
        ok &= good
        top = ", ".join(f"{k} {v}" for k, v in others.most_common(4))
        print(f"{kernel}\t{'OK' if good else 'FAIL'}\t{opcode}\t{found}/{count}\t{len(mnems)}"
              f"\t{len(mnems) / count:.2f}\t{top}")
    print("SASS check:", "all chains OK" if ok else "SOME CHAINS FAILED (see FAIL lines)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
