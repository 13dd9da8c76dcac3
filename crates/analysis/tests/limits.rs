//! `check` stays within bounds whatever the input (issue 10, "budgets, not hangs"): kernels of
//! our own, generated at sizes that used to overflow the stack or stall, must end quickly
//! with an answer.
//!
//! * a dependence chain as long as the input: no recursion deeper than the stack;
//! * an expression whose tree form is exponential: its rendering in a finding is bounded;
//! * a loop nest whose lane-by-lane enumeration is too costly: the evaluation budget stops
//!   it, the rest stays symbolic and the result says so.

use std::fmt::Write as _;
use std::sync::mpsc;
use std::time::Duration;
use warpscope_analysis::{CheckOptions, CheckResult, Input, check};

/// Parses, lowers and checks `ptx` on a thread with `stack` bytes of stack; fails when it
/// takes longer than `limit`.
fn check_within(ptx: String, stack: usize, limit: Duration) -> CheckResult {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || {
            let (ast, errs) = warpscope_ptx::parse(&ptx);
            assert!(errs.is_empty(), "{:?}", errs.first());
            let (module, errs) = warpscope_ir::lower_module(ast);
            assert!(errs.is_empty(), "{:?}", errs.first());
            let source = |_: u32| None;
            let input = Input {
                module: &module,
                ptx_name: "generated.ptx",
                ptx_text: &ptx,
                source: &source,
            };
            let _ = tx.send(check(&input, &CheckOptions::default()));
        })
        .expect("spawn");
    rx.recv_timeout(limit)
        .unwrap_or_else(|e| panic!("check gave no answer within {limit:?}: {e}"))
}

fn kernel(name: &str, regs: usize, body: &str) -> String {
    format!(
        ".version 8.5\n.target sm_90\n.address_size 64\n\n\
         .visible .entry {name}(\n\t.param .u64 {name}_param_0\n)\n{{\n\
         \t.reg .pred %p<4>;\n\t.reg .b32 %r<{regs}>;\n\t.reg .b64 %rd<8>;\n\n\
         \tld.param.u64 %rd1, [{name}_param_0];\n\tcvta.to.global.u64 %rd2, %rd1;\n\
         \tmov.u32 %r1, %tid.x;\n{body}\tret;\n}}\n"
    )
}

/// A store whose address and guard end a 10,000-instruction dependence chain: building,
/// evaluating and rendering its ACF recurse along the chain. On a 1 MiB stack (and rayon's
/// workers' default) this overflowed before the recursions got room to grow.
#[test]
fn a_dependence_chain_as_long_as_the_input_does_not_overflow_the_stack() {
    const N: usize = 10_000;
    let mut body = String::new();
    for i in 1..N {
        let _ = writeln!(body, "\txor.b32 %r{}, %r{i}, {};", i + 1, i % 7 + 1);
    }
    let _ = write!(
        body,
        "\tsetp.lt.u32 %p1, %r{N}, 16;\n\t@%p1 bra $L_end;\n\
         \tmul.wide.u32 %rd3, %r{N}, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n\
         \tst.global.u32 [%rd4], %r1;\n$L_end:\n"
    );
    let r = check_within(
        kernel("chain", N + 2, &body),
        1 << 20,
        Duration::from_secs(300),
    );
    let k = &r.kernels[0];
    assert_eq!(k.accesses.len(), 1, "the store is thread-dependent");
    assert!(k.expr(k.accesses[0].site.addr).len() <= 2 * warpscope_analysis::acf::DISPLAY_CHARS);
}

/// `x = min(x, x + 1)` forty times over: a DAG of 120 nodes whose tree form has 2⁴⁰ leaves.
/// Rendering the address into the finding walked the tree and never finished (the stall of
/// cs_FDTD3d and cs_quasirandomGenerator); it is now bounded and elided with `…`.
#[test]
fn an_expression_exponential_as_a_tree_is_rendered_within_bounds() {
    let mut body = String::new();
    let mut x = 1;
    for _ in 0..40 {
        let _ = writeln!(body, "\tadd.s32 %r{}, %r{x}, 1;", x + 1);
        let _ = writeln!(body, "\tmin.s32 %r{}, %r{x}, %r{};", x + 2, x + 1);
        x += 2;
    }
    let _ = write!(
        body,
        "\tmul.wide.s32 %rd3, %r{x}, 12;\n\tadd.s64 %rd4, %rd2, %rd3;\n\
         \tst.global.u32 [%rd4], %r1;\n"
    );
    let r = check_within(
        kernel("doubling", x + 2, &body),
        64 << 20,
        Duration::from_secs(60),
    );
    let a = &r.kernels[0].accesses[0];
    let address = r.kernels[0].expr(a.site.addr);
    assert!(address.contains('…'), "{address}");
    assert!(address.chars().count() <= 2 * warpscope_analysis::acf::DISPLAY_CHARS);
    // The verdict is still computed lane by lane: 12-byte stride, uncoalesced.
    assert!(
        r.report
            .findings
            .iter()
            .any(|f| f.rule == warpscope_report::Rule::UncoalescedAccess),
        "{:?}",
        r.report.findings
    );
}

/// A store in a loop nest whose inner trip count is the thread index: every warp needs its
/// iterations simulated (512 samples) and each sample evaluates a 1,000-node address. The
/// site's budget runs out after a few warps; the rest get their symbolic answer, and the
/// finding says the budget was spent.
#[test]
fn a_costly_enumeration_stops_at_its_budget_and_says_so() {
    const CHAIN: usize = 500;
    let mut body = String::from(
        "\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, 0;\n$L_outer:\n\tmov.u32 %r4, 0;\n$L_inner:\n\
         \tmad.lo.s32 %r5, %r3, %r1, %r4;\n",
    );
    let mut x = 5;
    for _ in 0..CHAIN {
        let _ = writeln!(body, "\tshr.u32 %r{}, %r{x}, 1;", x + 1);
        let _ = writeln!(body, "\txor.b32 %r{}, %r{x}, %r{};", x + 2, x + 1);
        x += 2;
    }
    let _ = write!(
        body,
        "\tand.b32 %r{y}, %r{x}, 1023;\n\tmul.wide.u32 %rd3, %r{y}, 4;\n\
         \tadd.s64 %rd4, %rd2, %rd3;\n\tst.global.u32 [%rd4], %r2;\n\
         \tadd.s32 %r4, %r4, 1;\n\tsetp.lt.u32 %p1, %r4, %r1;\n\t@%p1 bra $L_inner;\n\
         \tadd.s32 %r3, %r3, 1;\n\tsetp.lt.u32 %p2, %r3, 64;\n\t@%p2 bra $L_outer;\n",
        y = x + 1
    );
    let r = check_within(
        kernel("spin", x + 3, &body),
        64 << 20,
        Duration::from_secs(300),
    );
    let a = &r.kernels[0].accesses[0];
    assert!(a.budget_spent, "the enumeration should have hit its budget");
    let memory = r.report.findings.iter().filter(|f| {
        matches!(
            f.rule,
            warpscope_report::Rule::UncoalescedAccess | warpscope_report::Rule::MisalignedAccess
        )
    });
    for f in memory {
        assert!(
            f.notes
                .iter()
                .any(|n| n.contains("evaluation budget spent")),
            "{f:?}"
        );
    }
}

/// A 64-bit bit-field insert: its mask was built as `(1 << 63) - 1` on an `i64`, which
/// overflowed (a panic in a debug build; found by the mutated-module test once the second
/// real-world set changed its sample).
#[test]
fn a_64_bit_field_insert_is_analysed_without_overflow() {
    // The inserted value indexes the store, so its ACF is built.
    let body = "\tcvt.u64.u32 %rd3, %r1;\n\tbfi.b64 %rd4, %rd3, %rd3, 3, 5;\n\
                \tshl.b64 %rd5, %rd4, 3;\n\tadd.s64 %rd6, %rd2, %rd5;\n\tst.global.u64 [%rd6], %rd3;\n";
    let r = check_within(kernel("bfi64", 4, body), 8 << 20, Duration::from_secs(60));
    assert!(!r.report.kernels.is_empty());
}

/// The hard limit of the evaluation budget: a module's kernels share it in proportion to their
/// code, and once a kernel's share is spent its remaining sites are not measured, the kernel's
/// notes say how many. The costly loop nest above, with a second store after it, among 29
/// kernels of 2,000 instructions that have nothing to measure: its share (a few percent, at the
/// floor) is gone after the first store, so the second is not measured; checked alone
/// (`--kernel`), it has the whole module's limit and both are.
#[test]
fn a_kernel_past_its_share_of_the_hard_limit_leaves_the_rest_unmeasured_and_says_so() {
    const CHAIN: usize = 500;
    let mut body = String::from(
        "\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, 0;\n$L_outer:\n\tmov.u32 %r4, 0;\n$L_inner:\n\
         \tmad.lo.s32 %r5, %r3, %r1, %r4;\n",
    );
    let mut x = 5;
    for _ in 0..CHAIN {
        let _ = writeln!(body, "\tshr.u32 %r{}, %r{x}, 1;", x + 1);
        let _ = writeln!(body, "\txor.b32 %r{}, %r{x}, %r{};", x + 2, x + 1);
        x += 2;
    }
    let _ = write!(
        body,
        "\tand.b32 %r{y}, %r{x}, 1023;\n\tmul.wide.u32 %rd3, %r{y}, 4;\n\
         \tadd.s64 %rd4, %rd2, %rd3;\n\tst.global.u32 [%rd4], %r2;\n\
         \tadd.s32 %r4, %r4, 1;\n\tsetp.lt.u32 %p1, %r4, %r1;\n\t@%p1 bra $L_inner;\n\
         \tadd.s32 %r3, %r3, 1;\n\tsetp.lt.u32 %p2, %r3, 64;\n\t@%p2 bra $L_outer;\n\
         \tmul.wide.u32 %rd5, %r1, 12;\n\tadd.s64 %rd6, %rd2, %rd5;\n\tst.global.u32 [%rd6], %r2;\n",
        y = x + 1
    );
    let mut ptx = kernel("spin", x + 3, &body);
    // Kernels with much code and nothing to measure: the budget is shared by code size.
    let idle_body = "\tadd.s32 %r2, %r2, 1;\n".repeat(2_000);
    for i in 0..29 {
        let _ = write!(
            ptx,
            "\n.visible .entry idle{i}(\n\t.param .u64 idle{i}_param_0\n)\n{{\n\
             \t.reg .b32 %r<4>;\n\tmov.u32 %r2, 0;\n{idle_body}\tret;\n}}\n"
        );
    }
    let not_measured = |r: &CheckResult| {
        let k = r.kernels.iter().find(|k| k.name == "spin").unwrap();
        (
            k.accesses.len(),
            k.notes
                .iter()
                .find(|n| n.contains("evaluation budget exhausted"))
                .cloned(),
        )
    };
    let r = check_within(ptx.clone(), 64 << 20, Duration::from_secs(300));
    let (measured, note) = not_measured(&r);
    assert_eq!(measured, 1, "the first store is measured, the second not");
    let note = note.expect("a note on the sites left unmeasured");
    assert!(note.contains("1 access(es) were not measured"), "{note}");
    // Alone, the kernel has the module's whole limit.
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let (ast, _) = warpscope_ptx::parse(&ptx);
            let (module, _) = warpscope_ir::lower_module(ast);
            let source = |_: u32| None;
            let input = Input {
                module: &module,
                ptx_name: "generated.ptx",
                ptx_text: &ptx,
                source: &source,
            };
            let opts = CheckOptions {
                kernels: vec!["spin".into()],
                ..CheckOptions::default()
            };
            let _ = tx.send(check(&input, &opts));
        })
        .expect("spawn");
    let r = rx
        .recv_timeout(Duration::from_secs(300))
        .expect("an answer");
    let (measured, note) = not_measured(&r);
    assert_eq!((measured, note), (2, None));
}
