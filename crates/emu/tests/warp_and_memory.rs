//! Warp-level instructions (shfl with widths and partial masks, vote, match, redux), atomics
//! on global and shared memory, and the memory spaces (shared static and dynamic, local,
//! const and global variables with initializers, generic addressing).

mod common;
use common::*;
use warpscope_emu::KernelArg;

/// CUDA's `__shfl_*_sync(mask, v, x, width)` reference (the PTX c operand is
/// `((32 - width) << 8) | 0x1f`, or `(32 - width) << 8` for `up`).
fn shfl_src(mode: &str, lane: u32, x: u32, width: u32) -> u32 {
    let base = lane & !(width - 1);
    match mode {
        "up" => {
            if (lane - base) >= x {
                lane - x
            } else {
                lane
            }
        }
        "down" => {
            if (lane - base) + x < width {
                lane + x
            } else {
                lane
            }
        }
        "bfly" => {
            let j = lane ^ x;
            if j < base + width { j } else { lane }
        }
        _ => base + (x % width),
    }
}

fn shfl_kernel(mode: &str, x: u32, width: u32) -> String {
    let c = if mode == "up" {
        (32 - width) << 8
    } else {
        ((32 - width) << 8) | 0x1f
    };
    module(&format!(
        r#"
.visible .entry k(.param .u64 out)
{{
    .reg .pred %p<4>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mul.lo.s32 %r2, %r1, 7;
    add.s32 %r2, %r2, 3;
    // Lanes 0..15 only: a partial membermask.
    setp.lt.u32 %p1, %r1, 16;
    mov.u32 %r4, 0;
    @!%p1 bra FULL;
    shfl.sync.{mode}.b32 %r4|%p2, %r2, {x}, {c}, 0x0000ffff;
FULL:
    shfl.sync.{mode}.b32 %r3|%p3, %r2, {x}, {c}, -1;
    selp.u32 %r5, 1, 0, %p3;
    mul.wide.u32 %rd2, %r1, 12;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r3;
    st.global.u32 [%rd3+4], %r4;
    st.global.u32 [%rd3+8], %r5;
    ret;
}}
"#
    ))
}

#[test]
fn shfl_modes_widths_and_partial_masks() {
    let vals: [u32; 32] = std::array::from_fn(|l| l as u32 * 7 + 3);
    for mode in ["up", "down", "bfly", "idx"] {
        for (x, width) in [(1, 32), (3, 32), (2, 8), (5, 16), (0, 4), (17, 32)] {
            let ptx = shfl_kernel(mode, x, width);
            let out = both_modes(&ptx, "k", [1, 1, 1], [32, 1, 1], 32 * 12);
            for lane in 0..32u32 {
                let src = shfl_src(mode, lane, x, width);
                let expect = vals[src as usize];
                assert_eq!(
                    out[3 * lane as usize],
                    expect,
                    "{mode} x={x} width={width} lane {lane}"
                );
                // Partial-mask shuffles among lanes 0..15 agree when they read an active lane.
                if lane < 16 && src < 16 {
                    assert_eq!(
                        out[3 * lane as usize + 1],
                        expect,
                        "{mode} partial lane {lane}"
                    );
                }
                let valid = src != lane || (mode == "idx") || x == 0;
                if mode != "idx" && x != 0 {
                    assert_eq!(
                        out[3 * lane as usize + 2],
                        u32::from(valid),
                        "{mode} p lane {lane}"
                    );
                }
            }
        }
    }
}

#[test]
fn votes_match_redux_and_elect() {
    let ptx = module(
        r#"
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<8>;
    .reg .b32 %r<20>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    rem.u32 %r2, %r1, 3;
    setp.eq.u32 %p1, %r2, 0;
    vote.sync.ballot.b32 %r3, %p1, -1;
    vote.sync.any.pred %p2, %p1, -1;
    vote.sync.all.pred %p3, %p1, -1;
    setp.lt.u32 %p4, %r1, 64;
    vote.sync.uni.pred %p5, %p4, -1;
    selp.u32 %r4, 1, 0, %p2;
    selp.u32 %r5, 2, 0, %p3;
    selp.u32 %r6, 4, 0, %p5;
    or.b32 %r4, %r4, %r5;
    or.b32 %r4, %r4, %r6;
    shr.u32 %r7, %r1, 3;
    match.any.sync.b32 %r8, %r7, -1;
    redux.sync.add.u32 %r9, %r1, -1;
    redux.sync.max.u32 %r10, %r2, -1;
    redux.sync.or.b32 %r11, %r1, -1;
    // Odd lanes only: min, elect, activemask.
    and.b32 %r12, %r1, 1;
    setp.eq.u32 %p6, %r12, 1;
    mov.u32 %r13, 0;
    mov.u32 %r14, 0;
    @!%p6 bra SKIP;
    redux.sync.min.s32 %r13, %r1, 0xaaaaaaaa;
    elect.sync %r14|%p7, 0xaaaaaaaa;
SKIP:
    mul.wide.u32 %rd2, %r1, 32;
    add.s64 %rd3, %rd1, %rd2;
    st.global.v4.u32 [%rd3], {%r3, %r4, %r8, %r9};
    st.global.v4.u32 [%rd3+16], {%r10, %r11, %r13, %r14};
    ret;
}
"#,
    );
    let out = both_modes(&ptx, "k", [1, 1, 1], [64, 1, 1], 64 * 32);
    for t in 0..64u32 {
        let w = t / 32;
        let base = w * 32;
        let o = &out[8 * t as usize..8 * t as usize + 8];
        let ballot = (0..32)
            .filter(|l| (base + l) % 3 == 0)
            .fold(0u32, |m, l| m | 1 << l);
        assert_eq!(o[0], ballot, "ballot {t}");
        assert_eq!(o[1], 1 | 4, "any/all/uni {t}");
        let group = (t % 32) / 8;
        assert_eq!(o[2], 0xffu32 << (8 * group), "match.any {t}");
        assert_eq!(o[3], (base..base + 32).sum::<u32>(), "redux.add {t}");
        assert_eq!(o[4], 2, "redux.max {t}");
        assert_eq!(
            o[5],
            (base..base + 32).fold(0, |a, b| a | b),
            "redux.or {t}"
        );
        if t % 2 == 1 {
            assert_eq!(o[6], base + 1, "redux.min over odd lanes {t}");
            assert_eq!(o[7], 1, "elect leader lane {t}");
        }
    }
}

#[test]
fn global_atomics_across_blocks() {
    let ptx = module(
        r#"
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<4>;
    .reg .b32 %r<12>;
    .reg .f32 %f<3>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    atom.global.add.u32 %r2, [%rd1], 1;
    red.global.add.u32 [%rd1+4], 2;
    atom.global.inc.u32 %r3, [%rd1+8], 99;
    atom.global.add.f32 %f1, [%rd1+12], 0f3F800000;
    atom.global.max.s32 %r4, [%rd1+16], %r1;
    neg.s32 %r5, %r1;
    atom.global.min.s32 %r4, [%rd1+20], %r5;
    mov.u32 %r6, 1;
    and.b32 %r7, %r1, 31;
    shl.b32 %r6, %r6, %r7;
    atom.global.or.b32 %r8, [%rd1+24], %r6;
    atom.global.xor.b32 %r8, [%rd1+28], %r6;
    atom.global.add.u64 %rd2, [%rd1+32], 3;
    // A CAS loop increment.
LOOP:
    ld.volatile.global.u32 %r9, [%rd1+40];
    add.s32 %r10, %r9, 1;
    atom.global.cas.b32 %r11, [%rd1+40], %r9, %r10;
    setp.ne.u32 %p1, %r11, %r9;
    @%p1 bra LOOP;
    atom.global.exch.b32 %r11, [%rd1+44], 5;
    atom.global.add.f64 %rd3, [%rd1+48], 0d3FF0000000000000;
    ret;
}
"#,
    );
    let threads = 64 * 256u64;
    for cfg in [det(), par()] {
        let mut r = Run::new(&ptx, 56, cfg);
        let a = out_arg(&r);
        r.launch("k", [64, 1, 1], [256, 1, 1], &[a]).unwrap();
        let w = r.u32s();
        assert_eq!(w[0] as u64, threads);
        assert_eq!(w[1] as u64, 2 * threads);
        assert_eq!(w[2] as u64, threads % 100);
        assert_eq!(f32::from_bits(w[3]), threads as f32);
        assert_eq!(w[4], 255);
        assert_eq!(w[5] as i32, -255);
        assert_eq!(w[6], u32::MAX);
        assert_eq!(w[7], 0, "each bit toggled an even number of times");
        assert_eq!(u64::from(w[8]) | u64::from(w[9]) << 32, 3 * threads);
        assert_eq!(w[10] as u64, threads, "CAS loop");
        assert_eq!(w[11], 5);
        let d = f64::from_bits(u64::from(w[12]) | u64::from(w[13]) << 32);
        assert_eq!(d, threads as f64);
    }
}

#[test]
fn shared_memory_atomics_dynamic_shared_and_generic_addresses() {
    let ptx = module(
        r#"
.extern .shared .align 16 .b8 dyn[];
.visible .entry k(.param .u64 out)
{
    .shared .align 4 .b8 hist[64];
    .reg .pred %p<4>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    // Zero the histogram (16 bins).
    setp.lt.u32 %p1, %r1, 16;
    mov.u32 %r2, hist;
    shl.b32 %r3, %r1, 2;
    add.s32 %r4, %r2, %r3;
    @%p1 st.shared.u32 [%r4], 0;
    bar.sync 0;
    and.b32 %r5, %r1, 15;
    shl.b32 %r6, %r5, 2;
    add.s32 %r7, %r2, %r6;
    atom.shared.add.u32 %r8, [%r7], 1;
    // Dynamic shared memory through a generic pointer.
    mov.u32 %r9, dyn;
    add.s32 %r10, %r9, %r3;
    cvt.u64.u32 %rd5, %r10;
    cvta.shared.u64 %rd2, %rd5;
    st.u32 [%rd2], %r1;
    bar.sync 0;
    @%p1 ld.shared.u32 %r11, [%r4];
    mul.wide.u32 %rd6, %r1, 8;
    add.s64 %rd7, %rd1, %rd6;
    @%p1 st.global.u32 [%rd7], %r11;
    ld.u32 %r11, [%rd2];
    st.global.u32 [%rd7+4], %r11;
    ret;
}
"#,
    );
    for cfg in [det(), par()] {
        let mut r = Run::new(&ptx, 256 * 8, cfg);
        let k = r.emu.find_kernel("k").unwrap();
        let a = out_arg(&r);
        r.emu.launch(k, [2, 1, 1], [256, 1, 1], 1024, &[a]).unwrap();
        let w = r.u32s();
        for t in 0..256usize {
            if t < 16 {
                assert_eq!(w[2 * t], 16, "bin {t}");
            }
            assert_eq!(w[2 * t + 1], t as u32, "dynamic shared {t}");
        }
    }
}

#[test]
fn local_const_and_global_variables() {
    let ptx = module(
        r#"
.const .align 4 .b8 table[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};
.global .align 4 .u32 gvar = 1000;
.global .align 8 .u64 gptr = gvar;
.visible .entry k(.param .u64 out)
{
    .local .align 4 .b8 depot[64];
    .reg .b32 %r<12>;
    .reg .b64 %rd<10>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    // Fill a per-thread local array, then read it back in reverse through a generic pointer.
    mov.u64 %rd2, depot;
    cvta.local.u64 %rd3, %rd2;
    mov.u32 %r2, 0;
FILL:
    mul.wide.u32 %rd4, %r2, 4;
    add.s64 %rd5, %rd3, %rd4;
    add.s32 %r3, %r1, %r2;
    st.u32 [%rd5], %r3;
    add.s32 %r2, %r2, 1;
    setp.lt.u32 %p1, %r2, 16;
    @%p1 bra FILL;
    ld.local.u32 %r4, [depot+60];
    and.b32 %r5, %r1, 3;
    mul.wide.u32 %rd6, %r5, 4;
    mov.u64 %rd7, table;
    add.s64 %rd7, %rd7, %rd6;
    ld.const.u32 %r6, [%rd7];
    ld.global.u64 %rd8, [gptr];
    ld.global.u32 %r7, [%rd8];
    add.s32 %r8, %r4, %r6;
    add.s32 %r8, %r8, %r7;
    mul.wide.u32 %rd6, %r1, 4;
    add.s64 %rd9, %rd1, %rd6;
    st.global.u32 [%rd9], %r8;
    ret;
}
"#,
    );
    let ptx = ptx.replace(
        ".reg .b32 %r<12>;",
        ".reg .b32 %r<12>;\n    .reg .pred %p<2>;",
    );
    let out = both_modes(&ptx, "k", [2, 1, 1], [64, 1, 1], 64 * 4);
    for t in 0..64u32 {
        assert_eq!(out[t as usize], (t + 15) + (t % 4 + 1) + 1000, "thread {t}");
    }
}

#[test]
fn printf_prints_per_lane() {
    let ptx = module(
        r#"
.global .align 1 .b8 $str[18] = {116, 105, 100, 32, 37, 100, 32, 120, 61, 37, 46, 49, 102, 33, 10, 0, 0, 0};
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.visible .entry k(.param .u64 out)
{
    .local .align 8 .b8 __local_depot0[16];
    .reg .b32 %r<4>;
    .reg .f64 %fd<2>;
    .reg .b64 %rd<8>;
    mov.u64 %rd1, __local_depot0;
    cvta.local.u64 %rd2, %rd1;
    mov.u32 %r1, %tid.x;
    cvt.rn.f64.u32 %fd1, %r1;
    st.local.u32 [__local_depot0], %r1;
    st.local.f64 [__local_depot0+8], %fd1;
    mov.u64 %rd3, $str;
    cvta.global.u64 %rd4, %rd3;
    {
    .param .b64 param0;
    st.param.b64 [param0], %rd4;
    .param .b64 param1;
    st.param.b64 [param1], %rd2;
    .param .b32 retval0;
    call.uni (retval0), vprintf, (param0, param1);
    }
    ret;
}
"#,
    );
    let mut r = Run::new(&ptx, 4, det());
    let a = out_arg(&r);
    r.launch("k", [1, 1, 1], [3, 1, 1], &[a]).unwrap();
    let text = String::from_utf8(r.emu.printf_output()).unwrap();
    assert_eq!(text, "tid 0 x=0.0!\ntid 1 x=1.0!\ntid 2 x=2.0!\n");
    let _ = KernelArg::U32(0);
}

#[test]
fn tile_membermasks_split_votes_and_reductions() {
    // Each half-warp reduces and votes over its own membermask, as cooperative-groups tiles
    // of 16 do.
    let ptx = module(
        r#"
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<3>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 16;
    setp.eq.u32 %p1, %r2, 0;
    selp.u32 %r3, 0x0000ffff, 0xffff0000, %p1;
    redux.sync.add.u32 %r4, %r1, %r3;
    setp.lt.u32 %p2, %r1, 20;
    vote.sync.ballot.b32 %r5, %p2, %r3;
    elect.sync %r6|%p2, %r3;
    mul.wide.u32 %rd2, %r1, 12;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r4;
    st.global.u32 [%rd3+4], %r5;
    st.global.u32 [%rd3+8], %r6;
    ret;
}
"#,
    );
    let out = both_modes(&ptx, "k", [1, 1, 1], [32, 1, 1], 32 * 12);
    for t in 0..32u32 {
        let (lo, mask) = if t < 16 {
            (0, 0xffffu32)
        } else {
            (16, 0xffff_0000)
        };
        assert_eq!(out[3 * t as usize], (lo..lo + 16).sum::<u32>(), "redux {t}");
        assert_eq!(out[3 * t as usize + 1], 0x000f_ffff & mask, "ballot {t}");
        assert_eq!(out[3 * t as usize + 2], lo, "elect {t}");
    }
}

#[test]
fn mul_then_add_without_rounding_modifiers_is_fused_like_ptxas() {
    // (1 + 2^-12)^2 - (1 + 2^-11) is 2^-24 when fused, 0 when the product is rounded first.
    let ptx = module(
        r#"
.visible .entry k(.param .u64 out)
{
    .reg .f32 %f<8>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [out];
    mov.f32 %f1, 0f3F800800;
    mov.f32 %f2, 0f3F801000;
    mul.f32 %f3, %f1, %f1;
    sub.f32 %f4, %f3, %f2;
    mul.rn.f32 %f5, %f1, %f1;
    sub.f32 %f6, %f5, %f2;
    st.global.f32 [%rd1], %f4;
    st.global.f32 [%rd1+4], %f6;
    ret;
}
"#,
    );
    let mut r = Run::new(&ptx, 8, det());
    let a = out_arg(&r);
    r.launch("k", [1, 1, 1], [1, 1, 1], &[a]).unwrap();
    let f = r.f32s();
    assert_eq!(f[0], 2f32.powi(-24), "contracted into an fma");
    assert_eq!(f[1], 0.0, "mul.rn is never contracted");
}

#[test]
fn set_with_half_destination_writes_one_point_zero() {
    // cuda_fp16's hexp fix-ups compute `set.eq.f16.f16 p, h, spc; fma.rn.f16 r, p, ulp, r`.
    let ptx = module(
        r#"
.visible .entry k(.param .u64 out)
{
    .reg .b16 %h<8>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [out];
    mov.b16 %h1, 0x3C00;
    mov.b16 %h2, 0x3C00;
    set.eq.f16.f16 %h3, %h1, %h2;
    set.ne.f16.f16 %h4, %h1, %h2;
    set.eq.bf16.f32 %h5, 0f3F800000, 0f3F800000;
    mov.b32 %r1, {%h3, %h4};
    st.global.u32 [%rd1], %r1;
    st.global.u16 [%rd1+4], %h5;
    ret;
}
"#,
    );
    let mut r = Run::new(&ptx, 8, det());
    let a = out_arg(&r);
    r.launch("k", [1, 1, 1], [1, 1, 1], &[a]).unwrap();
    let w = r.u32s();
    assert_eq!(w[0], 0x0000_3c00);
    assert_eq!(w[1] & 0xffff, 0x3f80);
}
