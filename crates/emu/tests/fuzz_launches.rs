//! Random launches of small kernels: whatever the geometry and arguments, a run either
//! succeeds with the expected contents or stops with a fault; it never panics.

mod common;
use common::*;
use proptest::prelude::*;
use warpscope_emu::{EmuError, ExecConfig, KernelArg, Schedule};

const KERNEL: &str = r#"
.visible .entry k(.param .u64 buf, .param .u32 n, .param .u32 stride, .param .u32 shift)
{
    .shared .align 4 .b8 s[1024];
    .reg .pred %p<4>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [buf];
    ld.param.u32 %r1, [n];
    ld.param.u32 %r2, [stride];
    ld.param.u32 %r3, [shift];
    mov.u32 %r4, %tid.x;
    mov.u32 %r5, %ctaid.x;
    mov.u32 %r6, %ntid.x;
    mad.lo.s32 %r7, %r5, %r6, %r4;
    // Data-dependent loop and a divergent branch.
    mov.u32 %r8, 0;
    and.b32 %r9, %r7, 7;
L:
    setp.ge.u32 %p1, %r8, %r9;
    @%p1 bra DONE;
    add.s32 %r8, %r8, 1;
    bra L;
DONE:
    // Shared memory through a barrier (every thread reaches it).
    and.b32 %r10, %r4, 255;
    shl.b32 %r10, %r10, 2;
    mov.u32 %r11, s;
    add.s32 %r11, %r11, %r10;
    st.shared.u32 [%r11], %r8;
    bar.sync 0;
    ld.shared.u32 %r12, [%r11];
    setp.ge.u32 %p2, %r7, %r1;
    @%p2 bra END;
    // Possibly out of bounds or misaligned: index * stride + shift bytes.
    mul.lo.s32 %r13, %r7, %r2;
    add.s32 %r13, %r13, %r3;
    cvt.u64.u32 %rd2, %r13;
    add.s64 %rd3, %rd1, %rd2;
    atom.global.add.u32 %r14, [%rd3], %r12;
END:
    ret;
}
"#;

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn random_launches_never_panic(
        grid in 1u32..5,
        block in 1u32..300,
        n in 0u32..2000,
        stride in prop_oneof![Just(4u32), Just(8), Just(2), Just(0), 1u32..64],
        shift in prop_oneof![Just(0u32), Just(4), 0u32..4096],
        schedule in prop_oneof![Just(Schedule::Auto), Just(Schedule::Emulated), Just(Schedule::Parallel)],
        budget in prop_oneof![Just(u64::MAX / 4), 10u64..5000],
    ) {
        let ptx = module(KERNEL);
        let cfg = ExecConfig {
            schedule,
            threads: Some(2),
            max_instructions: budget,
            ..ExecConfig::default()
        };
        let mut r = Run::new(&ptx, 4096, cfg);
        let a = out_arg(&r);
        let res = r.launch(
            "k",
            [grid, 1, 1],
            [block, 1, 1],
            &[a, KernelArg::U32(n), KernelArg::U32(stride), KernelArg::U32(shift)],
        );
        let threads = grid * block;
        let last = n.min(threads);
        // Every address an active thread adds at is 4-byte aligned and inside the buffer (one
        // thread at index 0 is aligned whatever the stride).
        let in_bounds = (0..u64::from(last)).all(|t| {
            let a = t * u64::from(stride) + u64::from(shift);
            a % 4 == 0 && a + 4 <= 4096
        });
        match res {
            Ok(_) => {
                prop_assert!(in_bounds, "a run that should fault succeeded");
                // Every active thread added (tid & 7) at its slot.
                let mut expect = vec![0u32; 1024];
                for t in 0..last {
                    let slot = (t * stride + shift) / 4;
                    expect[slot as usize] = expect[slot as usize].wrapping_add(t & 7);
                }
                prop_assert_eq!(r.u32s(), expect);
            }
            Err(EmuError::Fault(f)) => {
                let text = f.to_string();
                prop_assert!(
                    !in_bounds || text.starts_with("instruction budget"),
                    "unexpected fault: {}", text
                );
            }
            Err(e) => prop_assert!(false, "unexpected error: {e}"),
        }
    }
}
