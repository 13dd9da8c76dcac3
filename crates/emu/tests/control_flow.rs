//! SIMT control flow: reconvergence at immediate post-dominators with nested divergence,
//! loops with break/continue, early exits, guarded calls and returns, barriers.

mod common;
use common::*;
use warpscope_emu::{CountingObserver, KernelArg, Observer, WarpInfo};
use warpscope_ir::{Block, FuncId, Inst};

/// Records the basic blocks warp 0 of block 0 enters, with their active masks, and its
/// branches.
#[derive(Default)]
struct Trace {
    events: Vec<String>,
}

impl Observer for Trace {
    const INSTRUCTIONS: bool = false;
    const MEMORY: bool = false;
    fn fork(&self) -> Self {
        Trace::default()
    }
    fn join(&mut self, o: Self) {
        self.events.extend(o.events);
    }
    fn block_entered(&mut self, w: &WarpInfo, _f: FuncId, b: Block, active: u32) {
        if w.cta_linear == 0 && w.warp_in_cta == 0 {
            self.events.push(format!("{b} {active:08x}"));
        }
    }
    fn branch(&mut self, w: &WarpInfo, _f: FuncId, i: Inst, active: u32, taken: u32) {
        if w.cta_linear == 0 && w.warp_in_cta == 0 {
            self.events.push(format!(
                "  branch {i} active {active:08x} taken {taken:08x}"
            ));
        }
    }
}

const NESTED: &str = r#"
.visible .entry nest(.param .u64 out)
{
    .reg .pred %p<4>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, 0;
    and.b32 %r3, %r1, 1;
    setp.eq.s32 %p1, %r3, 0;
    @%p1 bra EVEN;
    and.b32 %r4, %r1, 2;
    setp.eq.s32 %p2, %r4, 0;
    @%p2 bra ODD_A;
    add.s32 %r2, %r2, 100;
    bra ODD_END;
ODD_A:
    add.s32 %r2, %r2, 200;
ODD_END:
    activemask.b32 %r6;
    add.s32 %r2, %r2, 1;
    bra JOIN;
EVEN:
    add.s32 %r2, %r2, 10;
JOIN:
    activemask.b32 %r5;
    mul.wide.u32 %rd2, %r1, 12;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r2;
    st.global.u32 [%rd3+4], %r5;
    st.global.u32 [%rd3+8], %r6;
    ret;
}
"#;

#[test]
fn nested_divergence_reconverges_at_post_dominators() {
    let ptx = module(NESTED);
    let out = both_modes(&ptx, "nest", [2, 1, 1], [64, 1, 1], 64 * 12);
    for t in 0..64usize {
        let v = out[3 * t];
        let expect = if t % 2 == 0 {
            10
        } else if t & 2 == 0 {
            201
        } else {
            101
        };
        assert_eq!(v, expect, "thread {t}");
        // Everyone is back together at JOIN.
        assert_eq!(out[3 * t + 1], u32::MAX, "thread {t} at JOIN");
        if t % 2 == 1 {
            // The odd lanes reconverged at ODD_END.
            assert_eq!(out[3 * t + 2], 0xaaaa_aaaa, "thread {t} at ODD_END");
        }
    }
    let mut r = Run::new(&ptx, 64 * 12, det());
    let mut trace = Trace::default();
    let a = out_arg(&r);
    r.launch_obs("nest", [1, 1, 1], [32, 1, 1], 0, &[a], &mut trace)
        .unwrap();
    insta::assert_snapshot!(trace.events.join("\n"));
}

const LOOPS: &str = r#"
// for (i = 0; i < tid; i++) { if (i == 7) break; if (i & 1) continue; sum += i; }
// if (tid > 20) return; out[tid] = sum + activemask-popc * 1000
.visible .entry loops(.param .u64 out)
{
    .reg .pred %p<6>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, 0;
    mov.u32 %r3, 0;
HEAD:
    setp.ge.u32 %p1, %r3, %r1;
    @%p1 bra DONE;
    setp.eq.u32 %p2, %r3, 7;
    @%p2 bra DONE;
    and.b32 %r4, %r3, 1;
    setp.ne.u32 %p3, %r4, 0;
    @%p3 bra NEXT;
    add.s32 %r2, %r2, %r3;
NEXT:
    add.s32 %r3, %r3, 1;
    bra HEAD;
DONE:
    setp.gt.u32 %p4, %r1, 20;
    @%p4 ret;
    activemask.b32 %r5;
    popc.b32 %r6;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    popc.b32 %r6, %r5;
    mad.lo.s32 %r7, %r6, 1000, %r2;
    st.global.u32 [%rd3], %r7;
    ret;
}
"#;

#[test]
fn loops_with_break_continue_and_early_exit() {
    let ptx = module(&LOOPS.replace("    popc.b32 %r6;\n", ""));
    let out = both_modes(&ptx, "loops", [1, 1, 1], [32, 1, 1], 32 * 4);
    for t in 0..32u32 {
        let mut sum = 0;
        for i in 0..t {
            if i == 7 {
                break;
            }
            if i & 1 == 1 {
                continue;
            }
            sum += i;
        }
        let expect = if t > 20 { 0 } else { sum + 21 * 1000 };
        assert_eq!(out[t as usize], expect, "thread {t}");
    }
}

const CALLS: &str = r#"
.func (.param .b32 ret) fact(.param .b32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    ld.param.u32 %r1, [n];
    setp.le.u32 %p1, %r1, 1;
    @%p1 bra BASE;
    add.s32 %r2, %r1, -1;
    {
    .param .b32 a0;
    st.param.b32 [a0], %r2;
    .param .b32 r0;
    call.uni (r0), fact, (a0);
    ld.param.b32 %r3, [r0];
    }
    mul.lo.s32 %r4, %r3, %r1;
    st.param.b32 [ret], %r4;
    ret;
BASE:
    mov.u32 %r5, 1;
    st.param.b32 [ret], %r5;
    ret;
}

.func (.param .b32 ret) twice(.param .b32 x)
{
    .reg .b32 %r<3>;
    ld.param.u32 %r1, [x];
    shl.b32 %r2, %r1, 1;
    st.param.b32 [ret], %r2;
    ret;
}

.visible .entry calls(.param .u64 out)
{
    .reg .pred %p<3>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 7;
    {
    .param .b32 a0;
    st.param.b32 [a0], %r2;
    .param .b32 r0;
    call.uni (r0), fact, (a0);
    ld.param.b32 %r3, [r0];
    }
    // Guarded call from half the lanes, through a function pointer.
    mov.u32 %r4, 0;
    setp.lt.u32 %p1, %r1, 16;
    mov.u64 %rd4, twice;
    {
    .param .b32 a1;
    st.param.b32 [a1], %r3;
    .param .b32 r1;
    proto: .callprototype (.param .b32 _) _ (.param .b32 _);
    @%p1 call (r1), %rd4, (a1), proto;
    @%p1 ld.param.b32 %r4, [r1];
    }
    activemask.b32 %r5;
    mul.wide.u32 %rd2, %r1, 12;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r3;
    st.global.u32 [%rd3+4], %r4;
    st.global.u32 [%rd3+8], %r5;
    ret;
}
"#;

#[test]
fn recursive_and_indirect_calls_with_param_abi() {
    let ptx = module(CALLS);
    let out = both_modes(&ptx, "calls", [1, 1, 1], [32, 1, 1], 32 * 12);
    let fact = |n: u32| (1..=n.max(1)).product::<u32>();
    for t in 0..32u32 {
        let f = fact(t & 7);
        assert_eq!(out[3 * t as usize], f, "fact of thread {t}");
        let twice = if t < 16 { 2 * f } else { 0 };
        assert_eq!(out[3 * t as usize + 1], twice, "twice of thread {t}");
        assert_eq!(
            out[3 * t as usize + 2],
            u32::MAX,
            "reconverged after the call"
        );
    }
}

const BARRIERS: &str = r#"
.visible .entry reverse(.param .u64 out)
{
    .shared .align 4 .b8 buf[1024];
    .reg .pred %p<3>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, buf;
    shl.b32 %r3, %r1, 2;
    add.s32 %r4, %r2, %r3;
    st.shared.u32 [%r4], %r1;
    bar.sync 0;
    mov.u32 %r5, 255;
    sub.s32 %r6, %r5, %r1;
    shl.b32 %r7, %r6, 2;
    add.s32 %r8, %r2, %r7;
    ld.shared.u32 %r9, [%r8];
    // popc of (tid % 3 == 0) over the block
    rem.u32 %r10, %r1, 3;
    setp.eq.u32 %p1, %r10, 0;
    bar.red.popc.u32 %r11, 0, %p1;
    bar.red.or.pred %p2, 1, %p1;
    selp.u32 %r10, 1000000, 0, %p2;
    add.s32 %r11, %r11, %r10;
    mul.wide.u32 %rd2, %r1, 8;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r9;
    st.global.u32 [%rd3+4], %r11;
    ret;
}
"#;

#[test]
fn barriers_order_warps_of_a_block() {
    let ptx = module(BARRIERS);
    let out = both_modes(&ptx, "reverse", [3, 1, 1], [256, 1, 1], 256 * 8);
    let popc = (0..256).filter(|t| t % 3 == 0).count() as u32;
    for t in 0..256u32 {
        assert_eq!(out[2 * t as usize], 255 - t, "thread {t}");
        assert_eq!(out[2 * t as usize + 1], popc + 1_000_000, "thread {t}");
    }
    // Every scheduler gives the same result.
    for s in [
        warpscope_emu::SchedulerKind::Lrr,
        warpscope_emu::SchedulerKind::TwoLevel,
    ] {
        let cfg = warpscope_emu::ExecConfig {
            scheduler: s,
            memory_latency: 300,
            ..det()
        };
        let mut r = Run::new(&ptx, 256 * 8, cfg);
        let a = out_arg(&r);
        r.launch("reverse", [3, 1, 1], [256, 1, 1], &[a]).unwrap();
        assert_eq!(r.u32s(), out, "scheduler {s:?}");
    }
}

#[test]
fn early_exited_warps_do_not_block_barriers() {
    // Warps 1..7 exit before the barrier; warp 0 still passes it.
    let ptx = module(
        r#"
.visible .entry k(.param .u64 out)
{
    .shared .align 4 .b8 s[4];
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p1, %r1, 32;
    @%p1 ret;
    bar.sync 0;
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], 7;
    ret;
}
"#,
    );
    let out = both_modes(&ptx, "k", [1, 1, 1], [256, 1, 1], 32 * 4);
    assert!(out.iter().all(|&v| v == 7));
}

#[test]
fn observers_see_the_same_events_in_both_modes() {
    let ptx = module(NESTED);
    let mut counts = Vec::new();
    for cfg in [det(), par()] {
        let mut r = Run::new(&ptx, 64 * 12 * 8, cfg);
        let mut obs = CountingObserver::default();
        let a = out_arg(&r);
        r.launch_obs("nest", [8, 1, 1], [64, 1, 1], 0, &[a], &mut obs)
            .unwrap();
        counts.push(obs);
    }
    assert_eq!(counts[0], counts[1]);
    let c = &counts[0];
    assert_eq!(c.ctas, 8);
    assert_eq!(c.warps, 16);
    assert_eq!(c.warp_exits, 16);
    // Per warp: one divergent branch at the top (odd/even) and one among the odd lanes.
    assert_eq!(c.divergent_branches, 32);
    assert_eq!(c.memory_requests, 16 * 4); // 1 param load + 3 stores per warp
}

#[test]
fn partial_warps_and_2d_blocks() {
    // 2-D block 8×5 = 40 threads: the second warp has 8 lanes.
    let ptx = module(
        r#"
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %tid.y;
    mov.u32 %r3, %ntid.x;
    mad.lo.s32 %r4, %r2, %r3, %r1;
    mov.u32 %r5, %laneid;
    mov.u32 %r6, %warpid;
    shl.b32 %r6, %r6, 8;
    or.b32 %r5, %r5, %r6;
    activemask.b32 %r7;
    mul.wide.u32 %rd2, %r4, 8;
    add.s64 %rd3, %rd1, %rd2;
    st.global.v2.u32 [%rd3], {%r5, %r7};
    ret;
}
"#,
    );
    let out = both_modes(&ptx, "k", [1, 1, 1], [8, 5, 1], 40 * 8);
    for t in 0..40u32 {
        let (lane, warp) = (t % 32, t / 32);
        assert_eq!(out[2 * t as usize], lane | (warp << 8));
        let mask = if warp == 0 { u32::MAX } else { 0xff };
        assert_eq!(out[2 * t as usize + 1], mask);
    }
    let _ = KernelArg::U32(0);
}
