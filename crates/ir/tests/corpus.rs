//! Every corpus module lowers without errors, and its structural analyses hold their
//! invariants: each reachable block's immediate post-dominator post-dominates it, each
//! conditional branch's reconvergence point is reachable from both sides, and every read
//! register has a reaching definition.

use std::path::PathBuf;
use warpscope_ir::{FunctionAnalyses, effects, lower_module};

fn corpus_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn corpus_lowers_and_analyses_hold() {
    let files = corpus_files();
    assert!(files.len() >= 10, "corpus missing: {} files", files.len());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let (ast, perr) = warpscope_ptx::parse(&text);
        assert!(perr.is_empty(), "{}: {:?}", path.display(), perr);
        let (m, lerr) = lower_module(ast);
        assert!(lerr.is_empty(), "{}: {:?}", path.display(), lerr);
        for f in m.funcs.values().filter(|f| !f.is_declaration) {
            let a = FunctionAnalyses::compute(f);
            for b in f.blocks.keys() {
                if !a.cfg.is_reachable(b) {
                    continue;
                }
                if let Some(p) = a.postdom.ipdom(b) {
                    assert!(a.postdom.post_dominates(p, b));
                    assert_ne!(p, b);
                }
                if let Some(d) = a.domtree.idom(b) {
                    assert!(a.domtree.dominates(d, b));
                }
            }
            for (_, inst) in f.insts_in_order() {
                if !a.cfg.is_reachable(f.inst_block[inst]) {
                    continue;
                }
                effects::for_each_use(&f.insts[inst], |r| {
                    assert!(
                        !a.defuse.reaching(inst, r).is_empty(),
                        "{}: {} reads {} with no reaching definition",
                        path.display(),
                        warpscope_ir::inst_to_string(&m, f, inst),
                        f.regs[r].name
                    );
                });
            }
        }
    }
}

/// An instruction inlined several calls deep keeps every call site: each level's `.loc`
/// names the call it was inlined at, whether written just before the instruction or before an
/// earlier one of the same call (nvcc writes a call site's `.loc` once).
#[test]
fn inlined_call_chains_are_kept_whole() {
    let ptx = r#"
.version 9.0
.target sm_90
.address_size 64
.file 1 "k.cu"
.file 2 "lib.h"
.visible .entry k(.param .u32 p)
{
    .reg .b32 %r<4>;
    .loc 1 10 5
    ld.param.u32 %r1, [p];
    .loc 1 20 3, function_name $L__info_string0, inlined_at 1 30 7
    .loc 2 40 9, function_name $L__info_string1, inlined_at 1 20 3
    .loc 2 50 2, function_name $L__info_string2, inlined_at 2 40 9
    add.s32 %r2, %r1, 1;
    add.s32 %r3, %r2, 1;
    .loc 2 60 1, function_name $L__info_string3, inlined_at 1 31 4
    add.s32 %r3, %r3, 1;
    .loc 2 51 2, function_name $L__info_string2, inlined_at 2 40 9
    add.s32 %r3, %r3, 1;
    ret;
}
"#;
    let (ast, perr) = warpscope_ptx::parse(ptx);
    assert!(perr.is_empty(), "{perr:?}");
    let (m, lerr) = lower_module(ast);
    assert!(lerr.is_empty(), "{lerr:?}");
    let f = m.funcs.values().find(|f| !f.is_declaration).unwrap();
    let insts: Vec<_> = f.insts_in_order().map(|(_, i)| i).collect();
    // ld.param: not inlined.
    assert!(f.insts[insts[0]].loc.unwrap().inlined_at.is_none());
    assert!(!f.inline_chains.contains_key(&insts[0]));
    // The two adds at lib.h:50: inlined at lib.h:40, which was inlined at k.cu:20, which was
    // inlined at k.cu:30.
    for &i in &insts[1..3] {
        let l = f.insts[i].loc.unwrap();
        assert_eq!((l.file, l.line), (2, 50));
        assert_eq!(l.inlined_at, Some((2, 40, 9)));
        assert_eq!(&f.inline_chains[&i][..], &[(1, 20, 3), (1, 30, 7)][..]);
    }
    // Another call: one level only.
    assert_eq!(f.insts[insts[3]].loc.unwrap().inlined_at, Some((1, 31, 4)));
    assert!(!f.inline_chains.contains_key(&insts[3]));
    // Back in the first call, its outer `.loc`s written before earlier instructions.
    assert_eq!(
        &f.inline_chains[&insts[4]][..],
        &[(1, 20, 3), (1, 30, 7)][..]
    );
}
