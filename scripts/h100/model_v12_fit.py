#!/usr/bin/env python3
"""Twelfth version of `warpscope model`'s H100 estimate (docs/accuracy.md, "Twelfth version"):
what our own dependent-chain micro-benchmarks say about combining latency and throughput, and
the dependence factor's two weights. Reads only committed files:

  validation/h100/model/model_v12rates.tsv (+ _sass.txt)  scripts/h100/model_v12rates.py, H200
  validation/h100/model/model_v9rates.tsv (+ _sass.txt)   v9_chain_mix, v9_chain_alu

1. Combination: with L = clocks per link of one warp per scheduler and P = clocks per link and
   warp at 16 warps per scheduler, compares max(L, N x P) with the p-norm (L^p + (N P)^p)^(1/p)
   at N = 2, 4, 8 warps per scheduler (mean and max relative error).
2. Dependence factor: at 16 warps per scheduler, measured time per loop body (the launch's
   1.14 us empty-kernel time taken off) over the busiest pipe or issue bound of the loop's SASS
   (IMAD.HI/WIDE twice on the IMAD pipe); fits 1 + a*s + k*x by grid search (mean relative
   error; v9_chain_mix left out and reported), s and x the loop's instructions weighted by
   1/distance to the nearest earlier producer on the same / another pipe, over its instructions
   (the rule of crates/model/src/throughput/sass_deps.rs).

    python3 scripts/h100/model_v12_fit.py
"""
import collections
import os
import re
import sys

def parse(text):
    out={}
    for part in re.split(r"\n\s*Function : ", text)[1:]:
        name=part.split()[0]
        insts=[]
        for m in re.finditer(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)([^;]*);", part):
            insts.append((int(m.group(1),16), (m.group(2) or '').strip(), m.group(3), m.group(4).strip()))
        out[name]=insts
    return out
def loop(insts):
    best=None
    for a,g,op,rest in insts:
        if op.startswith('BRA'):
            t=re.search(r"0x([0-9a-f]+)",rest)
            if t and int(t.group(1),16)<a:
                lo=int(t.group(1),16)
                if best is None or a-lo>best[1]-best[0]: best=(lo,a)
    return [x for x in insts if best[0]<=x[0]<=best[1]]
ALU={'LOP3','LOP','IADD3','IADD','SHF','SEL','FSEL','ISETP','FSETP','FSET','IMNMX','FMNMX','LEA','IABS','PRMT','PLOP3','I2FP','MOV','P2R','R2P','VOTE','SGXT','BMSK','CSET','CSETP'}
IMADP={'IMAD','IMUL','VIADD','VIMNMX','VIMNMX3','VIADDMNMX','IDP','IDP4A'}
FP32={'FADD','FMUL','FFMA','HFMA2','HADD2','HMUL2','F2FP','FSWZADD'}
FP64={'DADD','DMUL','DFMA','DSETP','DMNMX'}
def pipe(op):
    b=op.split('.')[0]
    for n,s in (('alu',ALU),('imad',IMADP),('fp32',FP32),('fp64',FP64)):
        if b in s: return n
    if b=='MUFU': return 'mufu'
    return None
def regs(tok):
    tok=tok.strip().lstrip('-!|~').replace('.reuse','')
    out=[]
    for m in re.finditer(r"\b(U?R)(\d+)(\.64|\.128)?", tok):
        if m.group(1)=='UR': continue
        n=int(m.group(2)); w={'.64':2,'.128':4}.get(m.group(3),1)
        out+= [f"R{n+i}" for i in range(w)]
    for m in re.finditer(r"\bP(\d)\b", tok):
        out.append('P'+m.group(1))
    return out
def width(op):
    b=op.split('.')[0]
    if b in FP64 or '.WIDE' in op or '.64' in op: return 2
    if '.128' in op: return 4
    return 1
def defs_uses(op,ops,guard):
    b=op.split('.')[0]
    toks=[t for t in ops.split(',')] if ops else []
    uses=[];defs=[]
    if guard: uses+=regs(guard)
    nodest=b in ('ST','STG','STS','STL','RED','REDG','BRA','EXIT','BAR','BSYNC','BSSY','RET','NOP','CALL','JMP','WARPSYNC')
    start=0
    if not nodest and toks:
        d=regs(toks[0]); 
        if d and d[0].startswith('R'):
            n=int(d[0][1:]); defs=[f"R{n+i}" for i in range(width(op))] if d[0]!='R255' else []
        elif d and d[0].startswith('P'): defs=d[:1]
        start=1
        if b in ('ISETP','FSETP','DSETP','PLOP3','IADD3','LEA','LOP3','IMAD') and len(toks)>1 and re.fullmatch(r"\s*P\d\s*",toks[1]):
            defs+=regs(toks[1]); start=2
    for t in toks[start:]:
        r=regs(t)
        if b in FP64 or '.64' in t: pass
        uses+=r
    # fp64 sources pairs
    if b in FP64:
        u2=[]
        for r in uses:
            if r.startswith('R'): n=int(r[1:]); u2+=[r,f"R{n+1}"]
            else: u2.append(r)
        uses=u2
    return defs,uses
def fractions(body):
    last={}  # reg -> (index, pipe)
    fs=fc=0.0; n=0
    for i,(a,g,op,rest) in enumerate(body):
        b=op.split('.')[0]
        if b in ('NOP','BSSY','BSYNC'): continue
        n+=1
        d,u=defs_uses(op,rest,g)
        p=pipe(op)
        if p in ('alu','imad','fp32','fp64'):
            prod=None
            for r in u:
                if r in last and (prod is None or last[r][0]>prod[0]): prod=last[r]
            if prod is not None and prod[1] is not None:
                w=1.0/max(1,i-prod[0])
                if prod[1]==p: fs+=w
                else: fc+=w
        for r in d: last[r]=(i,p)
    return fs/n, fc/n, n
RATE={'issue':1,'alu':.5,'imad':.5,'fp32':1,'fp64':.5,'mufu':.125}
def bound(body):
    dem=collections.Counter()
    for a,g,op,rest in body:
        b=op.split('.')[0]
        if b in ('NOP','BSSY','BSYNC'): continue
        dem['issue']+=1
        p=pipe(op)
        if p:
            w=2 if (b=='IMAD' and ('.HI' in op or '.WIDE' in op)) else 1
            dem[p]+=w
    return max(dem[k]/RATE[k] for k in dem)


HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "validation", "h100", "model")
# links (or v9 steps) per loop body where not 128
BODY = {"v12_k2_imad_lop": 64, "v12_k4_imad_lop": 32, "v12_dep_imadwide": 32, "v9_chain_mix": 16, "v9_chain_alu": 16}
EMPTY_US = 1.14


def main():
    curves = collections.defaultdict(dict)
    sat = {}
    for line in open(os.path.join(HERE, "model_v12rates.tsv")):
        f = line.rstrip("\n").split("\t")
        if len(f) == 5 and not f[0].startswith(("#", "kernel")):
            curves[f[0]][float(f[2])] = float(f[3])
            if f[2] == "16":
                sat[f[0]] = (float(f[3]), float(f[4]))
    for line in open(os.path.join(HERE, "model_v9rates.tsv")):
        f = line.rstrip("\n").split("\t")
        if len(f) == 6 and f[0].startswith("v9_chain"):
            curves[f[0]][float(f[1]) / 4] = float(f[2])
            if f[1] == "64":
                sat[f[0]] = (float(f[2]), float(f[5]))

    def err(p):
        es = []
        for d in curves.values():
            L, P = d[1], d[16] / 16
            for n in (2, 4, 8):
                if n in d:
                    x = n * P
                    pred = max(L, x) if p is None else (L ** p + x ** p) ** (1 / p)
                    es.append(abs(pred - d[n]) / d[n])
        return sum(es) / len(es), max(es), len(es)
    print("1. combination over %d intermediate points: max: mean %.1f%%, max %.1f%%" % (err(None)[2], 100 * err(None)[0], 100 * err(None)[1]))
    for p in (2, 3, 3.2, 4, 6, 8):
        m, x, _ = err(p)
        print("   p-norm p=%g: mean %.1f%%, max %.1f%%" % (p, 100 * m, 100 * x))
    sass = parse(open(os.path.join(HERE, "model_v12rates_sass.txt")).read())
    sass.update(parse(open(os.path.join(HERE, "model_v9rates_sass.txt")).read()))
    pts = []
    print("2. at 16 warps per scheduler: measured / pipe bound")
    for k, (clk, us) in sat.items():
        body = loop(sass[k])
        fs, fc, _ = fractions(body)
        pred = bound(body) / BODY.get(k, 128)
        meas = clk * (us - EMPTY_US) / us / 16
        pts.append((k, fs, fc, meas / pred))
    best = None
    for a in [x / 1000 for x in range(0, 60, 2)]:
        for kap in [x / 1000 for x in range(0, 200, 2)]:
            e = [abs(1 + a * fs + kap * fc - r) / r for k, fs, fc, r in pts if k != "v9_chain_mix"]
            m = sum(e) / len(e)
            if best is None or m < best[0]:
                best = (m, a, kap)
    m, a, kap = best
    for k, fs, fc, r in pts:
        print("   %-20s s=%.2f x=%.2f measured %.3f  rule %.3f" % (k, fs, fc, r, 1 + a * fs + kap * fc))
    print("   fit (v9_chain_mix left out): a=%.3f k=%.3f, mean error %.1f%%" % (a, kap, 100 * m))
    allp = [abs(1 + a * fs + kap * fc - r) / r for k, fs, fc, r in pts]
    nop = [abs(1 - r) / r for k, fs, fc, r in pts]
    print("   all %d shapes: pipe bound alone %.1f%%, with the rule %.1f%%" % (len(pts), 100 * sum(nop) / len(nop), 100 * sum(allp) / len(allp)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
