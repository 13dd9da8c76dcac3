//! The papers' own examples, with the papers' verdicts: GPUCheck (Lloyd, Ali, Amaral) figures
//! 1, 3, 6–9, 11–13 and GPUDrano (Alur et al.) figure 2a/2b and its false-positive classes.
//! Sources and their committed PTX (nvcc 13.0.88, `-ptx -lineinfo -arch=sm_90 -O3` by
//! `scripts/regen-ptx.sh`; CI checks it is current) live in `tests/papers/`; expectations are
//! `// expect:` comments as in the corpus.

mod common;

use cranelift_entity::SecondaryMap;
use std::collections::BTreeSet;
use std::path::PathBuf;
use warpscope_analysis::acf::Builder;
use warpscope_analysis::{CheckResult, DivClass, Engine};
use warpscope_ir::control::ControlInfo;
use warpscope_ir::{AddrBase, FuncId, FunctionAnalyses, Operand};
use warpscope_ptx::Opcode;
use warpscope_report::Rule;
use warpscope_validate::corpus::{Spec, score};

fn paper(name: &str) -> (String, PathBuf, Spec) {
    let rel = format!("crates/analysis/tests/papers/{name}.cu");
    let cu = common::root().join(&rel);
    let spec = Spec::parse(&std::fs::read_to_string(&cu).unwrap()).unwrap();
    (rel, cu.with_extension("ptx"), spec)
}

fn run(name: &str, engine: Engine) -> (String, Spec, CheckResult) {
    let (rel, ptx, spec) = paper(name);
    let r = common::run(&ptx, &spec.options(engine));
    (rel, spec, r)
}

/// Every expectation found with its certainty, and nothing else (precise engine).
fn exact(name: &str) -> CheckResult {
    let (rel, spec, r) = run(name, Engine::Acf);
    let (_, mism) = score(&spec, &rel, &r.report.findings);
    assert!(
        mism.is_empty(),
        "{name}: {:#?}",
        mism.iter()
            .map(|m| format!("line {} {} {}: {}", m.line, m.rule, m.kind, m.detail))
            .collect::<Vec<_>>()
    );
    r
}

fn lines(r: &CheckResult, rule: Rule, kernel: &str) -> BTreeSet<u32> {
    r.report
        .findings
        .iter()
        .filter(|f| f.rule == rule && f.kernel == kernel)
        .filter_map(|f| f.location.cuda.as_ref().map(|c| c.line))
        .collect()
}

#[test]
fn gpucheck_fig1_srad_clamp_branches_are_data_dependent_and_the_fix_has_none() {
    let r = exact("gpucheck_fig1_srad");
    let k = r.kernels.iter().find(|k| k.name == "srad_fig1").unwrap();
    assert!(!k.branches.is_empty());
    for b in &k.branches {
        assert_eq!(b.class, DivClass::Unknown, "{}", k.expr(b.site.cond));
        assert!(b.data_dependent);
    }
    let fixed = r.kernels.iter().find(|k| k.name == "srad_fig2").unwrap();
    assert!(fixed.branches.is_empty(), "fminf/fmaxf leave no branch");
    // The fix hint of the clamp branches is the paper's (the kernel's divisions also get
    // `slow-path` findings, ptxas's branch for special operands, with a hint of their own).
    let f = r
        .report
        .findings
        .iter()
        .find(|f| f.rule == Rule::DivergentBranch && f.kernel == "srad_fig1" && !f.is_slow_path())
        .unwrap();
    assert!(f.fix.as_deref().unwrap().contains("fminf/fmaxf"));
}

#[test]
fn gpucheck_fig3_streamcluster_aos_weight_is_strided_soa_is_not() {
    let r = exact("gpucheck_fig3_streamcluster");
    let f = r
        .report
        .findings
        .iter()
        .find(|f| f.rule == Rule::UncoalescedAccess)
        .unwrap();
    assert_eq!(f.kernel, "compute_cost_aos");
    assert_eq!(f.measures["sectors_per_request"].max, 24.0);
    // GPUCheck's Figure 10 count for lanes 24 bytes apart: 768 bytes in 256-byte requests.
    let req = f.measures["gpucheck_requests"];
    assert!(req.min >= 3.0 && req.max <= 4.0, "{req:?}");
    assert!(f.fix.as_deref().unwrap().contains("structure of arrays"));
    // d_dist was analysed in the calling context of each kernel (IACF).
    assert!(r.kernels.iter().all(|k| k.contexts.len() >= 2));
}

#[test]
fn gpucheck_fig6_b_is_thread_dependent_after_the_join() {
    let r = exact("gpucheck_fig6_7_8");
    let k = r.kernels.iter().find(|k| k.name == "fig6").unwrap();
    // `if (c)` with c = a % 2: every warp diverges.
    let b = k
        .branches
        .iter()
        .find(|b| k.expr(b.site.cond).contains("tid.x"))
        .unwrap();
    assert_eq!(b.class, DivClass::Total);
    assert_eq!(b.ratio, (1.0, 1.0));
    // Arr[b] (line 30): thread-dependent address, two words: measured, not a finding.
    let arr_b = k
        .accesses
        .iter()
        .find(|a| {
            k.expr(a.site.addr).contains("tid.x")
                && a.global.as_ref().is_some_and(|g| g.sectors.1 == 1)
        })
        .expect("Arr[b] is a thread-dependent access");
    assert!(arr_b.verdicts.is_empty());
}

#[test]
fn gpucheck_fig7_bounded_read_lanes_are_four_bytes_apart() {
    let r = exact("gpucheck_fig6_7_8");
    let k = r.kernels.iter().find(|k| k.name == "fig7").unwrap();
    let load = k
        .accesses
        .iter()
        .find(|a| a.site.kind == warpscope_analysis::acf::AccessKind::Load)
        .unwrap();
    let g = load.global.as_ref().unwrap();
    assert_eq!(g.stride, Some(4), "ACF_1(addr) - ACF_0(addr) = 4");
    assert_eq!(g.sectors, (4, 4));
    assert!(load.verdicts.is_empty());
}

#[test]
fn gpucheck_fig8_memcpy_is_coalesced_and_its_exit_is_a_boundary() {
    let r = exact("gpucheck_fig6_7_8");
    let k = r.kernels.iter().find(|k| k.name == "fig8").unwrap();
    assert!(k.accesses.iter().all(|a| a.verdicts.is_empty()));
    assert!(
        k.branches
            .iter()
            .all(|b| matches!(b.class, DivClass::Boundary | DivClass::NonDivergent))
    );
}

#[test]
fn gpucheck_fig9_iacf_resolves_down_and_up_the_call_stack() {
    let (_, ptx, _) = paper("gpucheck_fig9_iacf");
    let (module, _) = common::load(&ptx);
    let mut analyses: SecondaryMap<FuncId, FunctionAnalyses> = SecondaryMap::new();
    let mut controls: SecondaryMap<FuncId, ControlInfo> = SecondaryMap::new();
    for (f, func) in module.funcs.iter() {
        if !func.is_declaration {
            let fa = FunctionAnalyses::compute(func);
            controls[f] = ControlInfo::compute(func, &fa);
            analyses[f] = fa;
        }
    }
    let no_td = |_: &Builder<'_>, _: usize, _: warpscope_ir::Inst| 0u64;
    let mut b = Builder::new(&module, &analyses, &controls, &no_td);
    let one = b.acf.konst(1);
    let kernel = module.kernels().next().unwrap().0;
    let ctx0 = b.context(kernel, Vec::new(), None, 0, one);
    let (mut br, mut ac) = (Vec::new(), Vec::new());
    b.collect(ctx0, &mut br, &mut ac);
    b.finish();
    // The value each context of a function returns.
    let returns = |b: &mut Builder<'_>, name: &str| -> BTreeSet<i64> {
        let mut out = BTreeSet::new();
        for c in 0..b.ctxs.len() {
            let func = &module.funcs[b.ctxs[c].func];
            if warpscope_analysis::names::base_name(&func.name) != name {
                continue;
            }
            for (_, i) in func.insts_in_order() {
                let d = &func.insts[i];
                if d.op == Opcode::St
                    && matches!(
                        d.operands.first(),
                        Some(Operand::Addr(AddrBase::Return(0), _))
                    )
                {
                    let v = d.operands[1].clone();
                    let n = b.operand(c, i, &v);
                    out.insert(b.acf.poly(n).as_const().expect("constant in context"));
                }
            }
        }
        out
    };
    // IACF(br) = {12, 4}: b(4) and b(y) with y = a(12) = -4.
    assert_eq!(returns(&mut b, "b"), BTreeSet::from([4, 12]));
    assert_eq!(returns(&mut b, "a"), BTreeSet::from([-4]));
    // The kernel stores y + z = -4 + 4.
    assert_eq!(ac.len(), 1);
    let func = &module.funcs[kernel];
    let st = ac[0].inst;
    let v = func.insts[st].operands[1].clone();
    let n = b.operand(ctx0, st, &v);
    assert_eq!(b.acf.poly(n).as_const(), Some(0));
}

#[test]
fn gpucheck_fig11_gaussian_fan1_fan2() {
    let r = exact("gpucheck_fig11_gaussian");
    let fan2 = r.kernels.iter().find(|k| k.name == "Fan2").unwrap();
    let yidx0 = fan2
        .branches
        .iter()
        .find(|b| {
            let c = fan2.expr(b.site.cond);
            c.contains("!= 0") || c.contains("== 0")
        })
        .unwrap();
    assert_eq!(yidx0.class, DivClass::Partial);
    // Without Size, the column walks are "unknown" in GPUCheck's terms. warpscope calls them
    // definite on a stated assumption: lanes Size elements apart leave gaps for every Size
    // but 0 and ±1.
    let (rel, ptx, mut spec) = paper("gpucheck_fig11_gaussian");
    spec.assumptions.params.remove("Size");
    let unknown = common::run(&ptx, &spec.options(Engine::Acf));
    let f = unknown
        .report
        .findings
        .iter()
        .find(|f| {
            f.rule == Rule::UncoalescedAccess
                && f.location.cuda.as_ref().is_some_and(|c| c.line == 18)
        })
        .unwrap_or_else(|| panic!("{rel}: Fan1's column read"));
    assert_eq!(f.certainty, warpscope_report::Certainty::Definite);
    assert!(
        f.notes.iter().any(|n| n.contains("not 0 or ±1")),
        "{rel}: the assumption is not stated: {:?}",
        f.notes
    );
}

#[test]
fn gpucheck_fig12_lavamd_loop_splits_one_warp_of_four() {
    let r = exact("gpucheck_fig12_lavamd");
    let k = &r.kernels[0];
    let w = k.branches.iter().find(|b| b.divergent > 0).unwrap();
    assert_eq!(w.class, DivClass::Partial);
    assert_eq!(w.ratio, (0.25, 0.25));
}

#[test]
fn gpucheck_fig13_nw_corner_and_west_column() {
    let r = exact("gpucheck_fig13_nw");
    let k = &r.kernels[0];
    let corner = k
        .branches
        .iter()
        .find(|b| k.expr(b.site.cond).contains("tid.x"))
        .unwrap();
    assert_eq!(corner.class, DivClass::Total);
    let west = r
        .report
        .findings
        .iter()
        .find(|f| f.rule == Rule::UncoalescedAccess)
        .unwrap();
    assert!(
        west.fix
            .as_deref()
            .unwrap()
            .contains("map threadIdx.x to columns")
    );
}

#[test]
fn gpudrano_fig2_before_and_after_the_fix() {
    exact("gpudrano_fig2");
    let (_, _, d) = run("gpudrano_fig2", Engine::Drano);
    // Fig. 2a: A[xy] and M[xt] are ⊤ (lines 21 and 23); A[ty], B[x], B[t] are not flagged.
    assert_eq!(
        lines(&d, Rule::UncoalescedAccess, "fan2_a"),
        BTreeSet::from([21, 23])
    );
    // Fig. 2b: nothing uncoalesced.
    assert!(lines(&d, Rule::UncoalescedAccess, "fan2_b").is_empty());
}

#[test]
fn gpudrano_false_positive_classes() {
    let r = exact("gpudrano_false_positives");
    assert!(r.report.findings.is_empty());
    let (_, _, d) = run("gpudrano_false_positives", Engine::Drano);
    // (tid/w)*w2 + tid%w and the conditional index are ⊤ for GPUDrano.
    assert!(lines(&d, Rule::UncoalescedAccess, "div_mul_back").contains(&18));
    assert!(lines(&d, Rule::UncoalescedAccess, "cond_assign").contains(&25));
}
