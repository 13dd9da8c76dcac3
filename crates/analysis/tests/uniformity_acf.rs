//! Thread dependence with provenance and Arithmetic Control Form on small hand-written PTX.

use cranelift_entity::SecondaryMap;
use warpscope_analysis::acf::Builder;
use warpscope_analysis::uniformity::{Cause, ModuleUniformity, SourceKind};
use warpscope_ir::control::ControlInfo;
use warpscope_ir::{FuncId, FunctionAnalyses, Module};

fn module(ptx: &str) -> Module {
    let (ast, errs) = warpscope_ptx::parse(ptx);
    assert!(errs.is_empty(), "{errs:?}");
    let (m, errs) = warpscope_ir::lower_module(ast);
    assert!(errs.is_empty(), "{errs:?}");
    m
}

fn analyses(m: &Module) -> SecondaryMap<FuncId, FunctionAnalyses> {
    let mut a = SecondaryMap::new();
    for (f, func) in m.funcs.iter() {
        if !func.is_declaration {
            a[f] = FunctionAnalyses::compute(func);
        }
    }
    a
}

/// GPUCheck's figure 6 in PTX: `b` is 1 or 0 under a branch on `tid % 2`; the store through
/// `b` after the join is thread dependent by control dependence only.
const FIG6: &str = r#"
.version 8.0
.target sm_90
.address_size 64
.file 1 "fig6.cu"
.visible .entry k(.param .u64 arr, .param .u32 n)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  .loc 1 20 1
  ld.param.u64 %rd1, [arr];
  ld.param.u32 %r7, [n];
  mov.u32 %r1, %tid.x;
  .loc 1 21 1
  and.b32 %r2, %r1, 1;
  setp.eq.s32 %p1, %r2, 0;
  .loc 1 22 1
  @%p1 bra ELSE;
  .loc 1 23 1
  mov.u32 %r3, 1;
  bra.uni JOIN;
ELSE:
  .loc 1 25 1
  mov.u32 %r3, 0;
JOIN:
  .loc 1 28 1
  mul.wide.u32 %rd2, %r3, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  .loc 1 29 1
  mov.u32 %r4, 0;
LOOP:
  add.s32 %r4, %r4, 1;
  setp.lt.u32 %p2, %r4, %r1;
  @%p2 bra LOOP;
  .loc 1 30 1
  mul.wide.u32 %rd4, %r4, 4;
  add.s64 %rd5, %rd1, %rd4;
  st.global.u32 [%rd5], %r7;
  ret;
}
"#;

#[test]
fn control_dependence_and_loop_exits_make_values_thread_dependent() {
    let m = module(FIG6);
    let a = analyses(&m);
    let mu = ModuleUniformity::compute(&m, &a);
    let (f, func) = m.kernels().next().unwrap();
    let u = mu.get(f, 0).unwrap();
    let fa = &a[f];
    let stores: Vec<_> = func
        .insts_in_order()
        .map(|(_, i)| i)
        .filter(|i| func.insts[*i].op == warpscope_ptx::Opcode::St)
        .collect();
    assert_eq!(stores.len(), 2);
    // Arr[b]: thread dependent through the branch (each assignment is a constant).
    let c = u
        .address_cause(func, fa, stores[0])
        .expect("Arr[b] is thread dependent");
    let chain = u.chain(func, fa, c, 16);
    assert!(
        chain.iter().any(|l| l.text.contains("merges values")),
        "{:#?}",
        chain.iter().map(|l| &l.text).collect::<Vec<_>>()
    );
    assert!(chain.last().unwrap().text.contains("%tid.x"));
    assert_eq!(
        u.root_source(c),
        Some(SourceKind::Tid(warpscope_ptx::Dim::X))
    );
    // The loop counter after a loop whose exit depends on tid: lanes leave at different trips.
    let c2 = u
        .address_cause(func, fa, stores[1])
        .expect("counter after the loop");
    assert!(matches!(c2, Cause::Data { .. } | Cause::Control { .. }));
    // Both branches are thread dependent.
    assert_eq!(u.td_branches().len(), 2);
}

#[test]
fn acf_merges_with_path_predicates() {
    let m = module(FIG6);
    let a = analyses(&m);
    let mut controls: SecondaryMap<FuncId, ControlInfo> = SecondaryMap::new();
    for (f, func) in m.funcs.iter() {
        controls[f] = ControlInfo::compute(func, &a[f]);
    }
    let no_td = |_: &Builder<'_>, _: usize, _: warpscope_ir::Inst| 0u64;
    let mut b = Builder::new(&m, &a, &controls, &no_td);
    let one = b.acf.konst(1);
    let (f, _) = m.kernels().next().unwrap();
    let ctx = b.context(f, Vec::new(), None, 0, one);
    let (mut br, mut ac) = (Vec::new(), Vec::new());
    b.collect(ctx, &mut br, &mut ac);
    b.finish();
    b.acf.finalize();
    // Eq. 2: the address of Arr[b] selects 4 or 0 by the branch condition.
    let text = b.acf.display(ac[0].addr);
    assert!(text.contains("tid.x & 1"), "{text}");
    assert!(text.contains('?'), "{text}");
    assert!(b.acf.is_td(ac[0].addr));
    // The loop counter is loop carried with a closed form 1 + [iter] after its increment.
    assert_eq!(b.acf.loopvars.len(), 1);
    assert!(b.acf.loopvars[0].closed.is_some());
    // The counter read after the loop is per-lane (lanes left at different trips).
    assert!(b.acf.is_td(ac[1].addr));
    // Both branches were collected with their conditions.
    assert_eq!(br.len(), 2);
}

#[test]
fn reqntid_gives_the_block_and_flags_win_over_it() {
    let m = module(
        r#"
.version 8.0
.target sm_90
.address_size 64
.visible .entry k() .reqntid 16, 16, 1
{
  ret;
}
"#,
    );
    let (f, _) = m.kernels().next().unwrap();
    let g = warpscope_analysis::kernel_geometry(&m, f, &Default::default());
    assert_eq!(g.block, [16, 16, 1]);
    assert_eq!(g.block_source, warpscope_analysis::GeometrySource::Reqntid);
    let opts = warpscope_analysis::CheckOptions {
        geometry: Some(warpscope_analysis::KernelGeometry {
            block: Some([8, 32, 1]),
            grid: None,
            source: warpscope_analysis::GeometrySource::Flags,
        }),
        ..Default::default()
    };
    let g = warpscope_analysis::kernel_geometry(&m, f, &opts);
    assert_eq!(g.block, [8, 32, 1]);
    assert!(g.to_string().contains("command line"));
}
