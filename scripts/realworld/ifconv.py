#!/usr/bin/env python3
"""How ptxas lowered each branch `check` reports, from the H100's SASS.

For every `divergent-branch` finding of `warpscope check --no-host-source --format json` on the
real-world modules, looks up the SASS Nsight Compute listed for the finding's source line
(the raw source pages of truth/ncu_source_pages*.tar.xz) and records whether a BRA
instruction is there, with the PTX body the branch skips. Prints, per finding kind
(`branch`, `predicated`, `exit`, ...), how many lines have a branch in the SASS, and lists
the `predicated` ones that do (where lowering.rs guessed wrong).

  mkdir -p /tmp/p1 /tmp/p2
  tar -xJf validation/realworld/truth/ncu_source_pages.tar.xz -C /tmp/p1
  tar -xJf validation/realworld/truth/ncu_source_pages_set2.tar.xz -C /tmp/p2
  scripts/realworld/ifconv.py /tmp/p1/csv /tmp/p2/csv [--out rows.json]
"""
import argparse, csv, json, os, re, subprocess, sys, glob, collections
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reduce import rel  # the truth tables' path form, which check's report uses too
import ptx_pack  # the modules are committed packed; unpacked on first use
def sass_lines(path):
    """(file, line) -> SASS texts by address, files named as reduce.py names them."""
    out=collections.defaultdict(dict)
    cur_file=None; cur_line=None
    for r in csv.reader(open(path, errors='replace')):
        if not r: continue
        if r[0]=='File Path': cur_file=rel(r[1]); continue
        if r[0] in ('Function Name','Line No'): continue
        if r[0]!='':
            try: cur_line=int(r[0])
            except: cur_line=None
            continue
        if len(r)>3 and r[2].startswith('0x') and cur_line is not None:
            out[(cur_file,cur_line)][r[2]]=r[3].strip()
    return out
def apps():
    res=[]
    for l in open(f'{ROOT}/validation/realworld/apps.tsv'):
        if l.startswith('#') or not l.strip(): continue
        f=l.rstrip('\n').split('\t')
        if len(f)>=3: res.append(f[0])
    return res
INSTR=re.compile(r'^\s*(@!?%p\w+\s+)?([a-z][\w.]*)')
def body(ptx_lines, bline):
    """instructions between the branch at 1-based bline and its target label (forward only)."""
    m=re.search(r'bra(\.uni)?\s+(\$?\w+);', ptx_lines[bline-1])
    if not m: return None
    lab=m.group(2)
    ops=[]
    for i in range(bline, min(len(ptx_lines), bline+400)):
        t=ptx_lines[i].strip()
        if t.startswith(lab+':'): return ops
        if not t or t.startswith('.') or t.startswith('//') or t.endswith(':') or t in '{}': continue
        mm=INSTR.match(t)
        if mm: ops.append(mm.group(2))
    return None
ap = argparse.ArgumentParser()
ap.add_argument('csv_dirs', nargs='+')
ap.add_argument('--out')
args = ap.parse_args()
ptx_pack.unpack()
rows=[]
for a in apps():
    pages=[f'{d}/{a}.source.csv' for d in args.csv_dirs]
    page=next((p for p in pages if os.path.exists(p)), None)
    if not page: continue
    sl=sass_lines(page)
    for m in sorted(glob.glob(f'{ROOT}/validation/realworld/ptx/{a}.ptx')+glob.glob(f'{ROOT}/validation/realworld/ptx/{a}__*.ptx')):
        j=subprocess.run([f'{ROOT}/target/release/warpscope','check','--no-host-source','--format','json',m],capture_output=True,text=True,cwd=ROOT)
        try: d=json.loads(j.stdout)['report']
        except Exception: continue
        ptx=open(m).read().split('\n')
        for f in d['findings']:
            if f['rule']!='divergent-branch': continue
            loc=f['location']; c=loc.get('origin') or loc.get('cuda')
            if not c: continue
            key=(c['file'], c['line'])
            if key not in sl: continue
            sass=list(sl[key].values())
            has_bra=any(re.search(r'\bBRA\b', s) for s in sass)
            bl=loc.get('ptx',{}).get('line')
            ops=body(ptx,bl) if bl else None
            rows.append(dict(app=a, line=f"{key[0]}:{key[1]}", kind=f.get('kind') or 'branch', cert=f['certainty'], has_bra=has_bra, n=None if ops is None else len(ops), ops=ops, insn=loc.get('ptx',{}).get('instruction','')))
if args.out:
    json.dump(rows, open(args.out, 'w'))
c = collections.Counter((r['kind'], r['has_bra']) for r in rows)
for (kind, bra), n in sorted(c.items()):
    print(f"{kind}\t{'BRA in SASS' if bra else 'no BRA'}\t{n}")
for r in rows:
    if r['kind'] == 'predicated' and r['has_bra']:
        print('predicated but branched:', r['app'], r['line'], r['n'], r['ops'])
