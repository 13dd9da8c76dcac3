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
