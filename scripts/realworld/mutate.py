#!/usr/bin/env python3
"""Feed `warpscope check` mutated real PTX and keep what makes it abort, panic or stall.

Each case takes one module (validation/realworld/ptx/*.ptx and corpus/*.ptx) and applies 1-3
random mutations: drop a line, duplicate a line, swap two lines, or swap two tokens (within a
line or between lines). `check --format json` runs on it with a time limit; the outcome is
  ok       exit 0/1 with a report
  error    exit 2 with an `error:` message (a clean refusal)
  panic    a Rust panic (exit 101 or "panicked" on stderr)
  abort    killed by a signal (stack overflow, abort)
  stall    still running at the limit
Panics, aborts and stalls are written to OUT_DIR/<kind>_<n>.ptx with a header comment naming
the seed, the source module and the mutations, and listed in OUT_DIR/cases.tsv.

Usage: scripts/realworld/mutate.py --warpscope target/release/warpscope --cases 2000
           [--seed 1] [--limit 10] [--jobs 2] [--out mutants]
"""
import argparse
import concurrent.futures as cf
import glob
import os
import random
import re
import signal
import subprocess

import ptx_pack  # the modules are committed packed; unpacked on first use
import tempfile
import time

TOKEN = re.compile(r"%?[A-Za-z_$.][\w$.]*|\d+|\S")


def mutate(lines, rng):
    done = []
    for _ in range(rng.randint(1, 3)):
        n = len(lines)
        if n < 2:
            break
        op = rng.choice(["drop", "dup", "swap", "token", "token"])
        i, j = rng.randrange(n), rng.randrange(n)
        if op == "drop":
            del lines[i]
            done.append("drop %d" % (i + 1))
        elif op == "dup":
            lines.insert(i, lines[i])
            done.append("dup %d" % (i + 1))
        elif op == "swap":
            lines[i], lines[j] = lines[j], lines[i]
            done.append("swap %d %d" % (i + 1, j + 1))
        else:
            ti = list(TOKEN.finditer(lines[i]))
            tj = list(TOKEN.finditer(lines[j]))
            if not ti or not tj:
                continue
            a, b = rng.choice(ti), rng.choice(tj)
            if i == j:
                if a.start() == b.start():
                    continue
                x, y = sorted([a, b], key=lambda m: m.start())
                s = lines[i]
                lines[i] = (s[: x.start()] + y.group() + s[x.end(): y.start()] + x.group()
                            + s[y.end():])
            else:
                si, sj = lines[i], lines[j]
                lines[i] = si[: a.start()] + b.group() + si[a.end():]
                lines[j] = sj[: b.start()] + a.group() + sj[b.end():]
            done.append("token %d:%r <-> %d:%r" % (i + 1, a.group(), j + 1, b.group()))
    return done


def run_case(args, n, src, text, tmpdir):
    rng = random.Random(args.seed * 1_000_003 + n)
    lines = text.split("\n")
    ops = mutate(lines, rng)
    path = os.path.join(tmpdir, "case_%d.ptx" % n)
    body = "\n".join(lines)
    with open(path, "w") as f:
        f.write(body)
    t0 = time.time()
    p = subprocess.Popen([args.warpscope, "check", "--format", "json", path],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        _, err = p.communicate(timeout=args.limit)
        kind = None
        if p.returncode < 0:
            kind = "abort"
        elif p.returncode == 101 or b"panicked" in err:
            kind = "panic"
        elif p.returncode in (0, 1):
            kind = "ok"
        elif p.returncode == 2 and b"error" in err:
            kind = "error"
        else:
            kind = "other"
        detail = err.decode(errors="replace").strip().splitlines()[-1:] or [""]
        detail = "rc=%d %s" % (p.returncode, detail[0][:200])
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        kind, detail = "stall", "no answer in %g s" % args.limit
    os.unlink(path)
    return n, src, ops, kind, detail, time.time() - t0, body


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warpscope", default="target/release/warpscope")
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=float, default=10.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default="mutants")
    ap.add_argument("--max-lines", type=int, default=20000,
                    help="skip modules longer than this (their runs are slow)")
    args = ap.parse_args()
    ptx_pack.unpack()
    mods = sorted(glob.glob("validation/realworld/ptx/*.ptx") + glob.glob("corpus/*.ptx"))
    texts = {}
    for m in mods:
        t = open(m).read()
        if t.count("\n") <= args.max_lines:
            texts[m] = t
    names = sorted(texts)
    os.makedirs(args.out, exist_ok=True)
    counts = {}
    found = []
    with tempfile.TemporaryDirectory() as tmp, cf.ThreadPoolExecutor(args.jobs) as ex:
        futs = [ex.submit(run_case, args, n, names[n % len(names)], texts[names[n % len(names)]],
                          tmp) for n in range(args.cases)]
        for fu in cf.as_completed(futs):
            n, src, ops, kind, detail, secs, body = fu.result()
            counts[kind] = counts.get(kind, 0) + 1
            if kind in ("panic", "abort", "stall", "other"):
                name = "%s_s%d_%d.ptx" % (kind, args.seed, n)
                with open(os.path.join(args.out, name), "w") as f:
                    f.write("// mutated from %s (seed %d, case %d): %s\n// outcome: %s: %s\n"
                            % (src, args.seed, n, "; ".join(ops), kind, detail))
                    f.write(body)
                found.append((name, src, kind, detail, "; ".join(ops)))
    new = not os.path.exists(os.path.join(args.out, "cases.tsv"))
    with open(os.path.join(args.out, "cases.tsv"), "a") as f:
        if new:
            f.write("file\tsource\toutcome\tdetail\tmutations\n")
        for r in sorted(found):
            f.write("\t".join(r) + "\n")
    print("seed %d, %d cases, limit %g s: %s" % (args.seed, args.cases, args.limit,
          ", ".join("%s %d" % kv for kv in sorted(counts.items()))))


if __name__ == "__main__":
    main()
