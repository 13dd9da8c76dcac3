//! Faults stop a run with a message naming the kernel, block, thread, PTX line and CUDA
//! line; unsupported instructions are rejected before running. The messages are snapshots.

mod common;
use common::*;
use warpscope_emu::{EmuError, ExecConfig, KernelArg};

/// A kernel whose body after the prologue is `body`; %rd1 holds `out` (a 64-byte buffer),
/// %r1 holds %tid.x.
fn kernel(body: &str) -> String {
    module(&format!(
        r#".file 1 "faults.cu"
.visible .entry k(.param .u64 out)
{{
    .shared .align 4 .b8 sbuf[64];
    .reg .pred %p<4>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<10>;
    .loc 1 10 5
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    .loc 1 12 7
{body}
    ret;
}}
"#
    ))
}

fn fault_text(body: &str, grid: u32, block: u32, cfg: ExecConfig) -> String {
    let ptx = kernel(body);
    let mut r = Run::new(&ptx, 64, cfg);
    let a = out_arg(&r);
    match r.launch("k", [grid, 1, 1], [block, 1, 1], &[a]) {
        Ok(_) => panic!("expected a fault"),
        Err(e) => {
            // Addresses of allocations are stable, so the text is too.
            e.to_string()
        }
    }
}

#[test]
fn out_of_bounds_global_load() {
    let t = fault_text(
        "    mul.wide.u32 %rd2, %r1, 4;\n    add.s64 %rd3, %rd1, %rd2;\n    ld.global.u32 %r2, [%rd3];",
        1,
        32,
        det(),
    );
    insta::assert_snapshot!(t);
}

#[test]
fn misaligned_global_store() {
    let t = fault_text("    st.global.u32 [%rd1+2], %r1;", 1, 32, det());
    insta::assert_snapshot!(t);
}

#[test]
fn out_of_bounds_shared_store() {
    let t = fault_text(
        "    mov.u32 %r2, sbuf;\n    shl.b32 %r3, %r1, 2;\n    add.s32 %r4, %r2, %r3;\n    st.shared.u32 [%r4], %r1;",
        1,
        64,
        det(),
    );
    insta::assert_snapshot!(t);
}

#[test]
fn null_generic_pointer() {
    let t = fault_text(
        "    mov.u64 %rd2, 0;\n    ld.u32 %r2, [%rd2+8];",
        1,
        32,
        det(),
    );
    insta::assert_snapshot!(t);
}

#[test]
fn trap_in_one_lane() {
    let t = fault_text(
        "    setp.eq.u32 %p1, %r1, 37;\n    @%p1 trap;",
        2,
        64,
        det(),
    );
    insta::assert_snapshot!(t);
}

#[test]
fn divergent_barrier() {
    let t = fault_text(
        "    setp.lt.u32 %p1, %r1, 16;\n    @%p1 bra SKIP;\n    bar.sync 0;\nSKIP:",
        1,
        64,
        det(),
    );
    insta::assert_snapshot!(t);
}

#[test]
fn deadlocked_barriers() {
    let t = fault_text(
        "    setp.lt.u32 %p1, %r1, 32;\n    @%p1 bra A;\n    bar.sync 1;\n    bra B;\nA:\n    bar.sync 0;\nB:",
        1,
        64,
        det(),
    );
    insta::assert_snapshot!(t);
}

#[test]
fn instruction_budget() {
    let cfg = ExecConfig {
        max_instructions: 100_000,
        ..det()
    };
    let t = fault_text("L:\n    add.s32 %r2, %r2, 1;\n    bra L;", 1, 32, cfg);
    insta::assert_snapshot!(t);
}

#[test]
fn budget_also_stops_parallel_runs() {
    let cfg = ExecConfig {
        max_instructions: 1_000_000,
        ..par()
    };
    let t = fault_text("L:\n    add.s32 %r2, %r2, 1;\n    bra L;", 64, 256, cfg);
    assert!(t.starts_with("instruction budget of 1000000"), "{t}");
}

#[test]
fn failed_assert() {
    let ptx = module(
        r#"
.file 1 "assert.cu"
.global .align 1 .b8 $msg[6] = {120, 32, 62, 32, 48, 0};
.global .align 1 .b8 $file[9] = {97, 115, 115, 101, 114, 116, 46, 99, 117};
.global .align 1 .b8 $fn[2] = {107, 0};
.extern .func __assertfail(.param .b64 a, .param .b64 b, .param .b32 c, .param .b64 d, .param .b64 e);
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<6>;
    mov.u32 %r1, %tid.x;
    setp.ne.u32 %p1, %r1, 5;
    @%p1 bra OK;
    .loc 1 7 9
    mov.u64 %rd1, $msg;
    cvta.global.u64 %rd2, %rd1;
    mov.u64 %rd3, $file;
    cvta.global.u64 %rd4, %rd3;
    mov.u64 %rd5, $fn;
    {
    .param .b64 p0;
    st.param.b64 [p0], %rd2;
    .param .b64 p1;
    st.param.b64 [p1], %rd4;
    .param .b32 p2;
    st.param.b32 [p2], 7;
    .param .b64 p3;
    st.param.b64 [p3], %rd5;
    .param .b64 p4;
    st.param.b64 [p4], 1;
    call.uni __assertfail, (p0, p1, p2, p3, p4);
    }
OK:
    ret;
}
"#,
    )
    .replace("{97, 115, 115, 101, 114, 116, 46, 99, 117}", "{97, 115, 115, 101, 114, 116, 46, 99, 0}");
    let mut r = Run::new(&ptx, 4, det());
    let a = out_arg(&r);
    let e = r.launch("k", [1, 1, 1], [32, 1, 1], &[a]).unwrap_err();
    insta::assert_snapshot!(e.to_string());
}

#[test]
fn call_stack_overflow() {
    let ptx = module(
        r#"
.func forever(.param .b32 n)
{
    .local .align 4 .b8 pad[4096];
    .reg .b32 %r<3>;
    ld.param.u32 %r1, [n];
    st.local.u32 [pad], %r1;
    add.s32 %r2, %r1, 1;
    {
    .param .b32 a;
    st.param.b32 [a], %r2;
    call.uni forever, (a);
    }
    ret;
}
.visible .entry k(.param .u64 out)
{
    {
    .param .b32 a;
    st.param.b32 [a], 0;
    call.uni forever, (a);
    }
    ret;
}
"#,
    );
    let mut r = Run::new(&ptx, 4, det());
    let a = out_arg(&r);
    let e = r.launch("k", [1, 1, 1], [32, 1, 1], &[a]).unwrap_err();
    assert!(matches!(e, EmuError::Fault(_)));
    insta::assert_snapshot!(e.to_string());
}

#[test]
fn unsupported_instruction_is_rejected_before_running() {
    let ptx = kernel("    mapa.u64 %rd2, %rd1, 1;");
    let mut r = Run::new(&ptx, 64, det());
    let a = out_arg(&r);
    let e = r.launch("k", [1, 1, 1], [32, 1, 1], &[a]).unwrap_err();
    assert!(matches!(e, EmuError::Translate(_)));
    insta::assert_snapshot!(e.to_string());
}

#[test]
fn bad_launches_are_errors() {
    let ptx = kernel("");
    let mut r = Run::new(&ptx, 64, det());
    let a = out_arg(&r);
    let e = r
        .launch("k", [1, 1, 1], [2048, 1, 1], std::slice::from_ref(&a))
        .unwrap_err();
    assert!(e.to_string().contains("exceed the limit of 1024"), "{e}");
    let e = r.launch("k", [1, 1, 1], [32, 1, 1], &[]).unwrap_err();
    assert!(e.to_string().contains("takes 1 parameters"), "{e}");
    let e = r
        .launch("k", [1, 1, 1], [32, 1, 1], &[KernelArg::U32(1)])
        .unwrap_err();
    assert!(e.to_string().contains("is 4 bytes; the parameter"), "{e}");
    let e = r.launch("nope", [1, 1, 1], [32, 1, 1], &[a]).unwrap_err();
    assert!(e.to_string().contains("no kernel named `nope`"), "{e}");
}
