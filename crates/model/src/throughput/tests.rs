//! Unit tests of the throughput estimate, which exercise its private simulation.
use super::*;

/// Round numbers: issue 4/clk per SM (1 per scheduler), every unit 4/clk (1 per scheduler)
/// except MUFU 1/clk (a quarter per scheduler), L1 4 sectors/clk/SM, L2 10 sectors/clk,
/// DRAM 5 sectors/clk, a 1000-byte L2; an empty kernel costs 1 µs per block beyond the first
/// (blocks 1 → 0 µs, 1001 → 1000 µs) at 1 MHz: 1 cycle per block.
fn machine() -> H100Machine {
    let mut t = String::from("issue_per_sm\t4\n");
    for u in Unit::ALL {
        let r = if u == Unit::Mufu { 1 } else { 4 };
        t.push_str(&format!("{}_per_sm\t{r}\tx\n", u.name()));
    }
    t.push_str(
        "l1_sectors_per_sm\t4\nl2_sectors_per_clk\t10\ndram_sectors_per_clk\t5\nl2_bytes\t1000\n",
    );
    H100Machine::parse(
        &t,
        "blocks\tthreads\tgraph_us\n1\t1024\t0\n1001\t1024\t1000\n",
    )
    .unwrap()
}

fn cost(issue: f64, unit: Option<Unit>, sectors: f64, chain: f64) -> ColumnCost {
    let mut c = ColumnCost {
        issue,
        sectors,
        // the test machine's L1: 4 sectors per clock
        l1_clk: sectors / 4.0,
        chain,
        ..ColumnCost::default()
    };
    if let Some(u) = unit {
        c.units[u as usize] = issue;
    }
    c
}

struct Launch<'a> {
    counts: &'a [u32],
    cost: &'a [ColumnCost],
    tpb: u32,
    sms: u32,
    per_sm: u32,
    bytes: f64,
    local_bytes: f64,
}

fn run(l: Launch) -> H100Estimate {
    let lat = vec![1.0; l.cost.len()];
    let classes = Classes::new(l.counts, l.cost.len(), &lat);
    estimate(
        &LaunchInput {
            classes: &classes,
            cost: l.cost,
            threads_per_block: l.tpb,
            order: None,
            sms: l.sms,
            blocks_per_sm: l.per_sm,
            buffer_bytes: l.bytes,
            local_bytes_per_thread: l.local_bytes,
            l1_cold_sectors: 0.0,
            clock_mhz: 1.0,
        },
        &machine(),
    )
}

fn one_sm<'a>(counts: &'a [u32], cost: &'a [ColumnCost], tpb: u32) -> Launch<'a> {
    Launch {
        counts,
        cost,
        tpb,
        sms: 1,
        per_sm: 1,
        bytes: 0.0,
        local_bytes: 0.0,
    }
}

#[test]
fn one_warp_is_bound_by_its_dependent_chain() {
    // 32 threads, one column run 3 times: chain 3 × 100; issue 3 × 2 on one scheduler.
    let c = [cost(2.0, None, 0.0, 100.0)];
    let e = run(one_sm(&[3; 32], &c, 32));
    assert_eq!(
        (e.compute, e.bound, e.cycles),
        (300.0, Bound::Latency, 300.0)
    );
}

#[test]
fn warps_of_a_scheduler_share_its_issue() {
    // one block of 1024 threads: 32 warps, 8 per scheduler, each issuing 2 × 10: 160 per
    // scheduler > the chain 2 × 5.
    let c = [cost(10.0, None, 0.0, 5.0)];
    let e = run(one_sm(&[2; 1024], &c, 1024));
    assert_eq!((e.compute, e.bound), (160.0, Bound::Issue));
    // two such blocks on one SM at once: each takes 2 × 160 ...
    let two = Launch {
        per_sm: 2,
        ..one_sm(&[2; 2048], &c, 1024)
    };
    let e = run(two);
    assert_eq!((e.blocks_sharing_sm, e.compute), (2, 320.0));
    // ... or one after the other on one slot: the same
    assert_eq!(run(one_sm(&[2; 2048], &c, 1024)).compute, 320.0);
}

#[test]
fn latency_bound_and_throughput_bound_phases_add_up() {
    // 32 warps (8 per scheduler): a first block with a 300-cycle chain and one instruction,
    // then a loop of 10 iterations of 10 instructions (chain 5 each): 300 + 8 × 100, more
    // than either the longest chain (350) or the issue (8 × 101).
    let c = [cost(1.0, None, 0.0, 300.0), cost(10.0, None, 0.0, 5.0)];
    let mut counts = Vec::new();
    for _ in 0..1024 {
        counts.extend_from_slice(&[1, 10]);
    }
    let e = run(one_sm(&counts, &c, 1024));
    assert!((e.compute - 1100.0).abs() < 1e-9, "{}", e.compute);
    assert_eq!(e.bound, Bound::Issue);
}

#[test]
fn warps_on_different_paths_overlap() {
    // 32 warps, 8 per scheduler: half run a MUFU block 10 times (chain 10), half an
    // issue-only block 10 times (chain 10). At full speed the MUFU warps would ask 4 × 0.1
    // MUFU per clock of a scheduler's 0.25: all run at 0.625 of their speed and end
    // together at 160, not 160 + 100 as if the two sides ran one after the other.
    let c = [
        cost(1.0, Some(Unit::Mufu), 0.0, 10.0),
        cost(1.0, None, 0.0, 10.0),
    ];
    let mut counts = Vec::new();
    for t in 0..1024 {
        let warp = t / 32;
        counts.extend_from_slice(if (warp / 4) % 2 == 0 {
            &[10, 0]
        } else {
            &[0, 10]
        });
    }
    let e = run(one_sm(&counts, &c, 1024));
    assert!((e.compute - 160.0).abs() < 1e-6, "{}", e.compute);
    assert_eq!(e.bound, Bound::Unit(Unit::Mufu));
}

#[test]
fn a_slow_unit_binds_before_issue() {
    // 8 warps per scheduler × 10 MUFU at a quarter per clock: 320 > issue 80
    let c = [cost(10.0, Some(Unit::Mufu), 0.0, 5.0)];
    let e = run(one_sm(&[1; 1024], &c, 1024));
    assert_eq!((e.compute, e.bound), (320.0, Bound::Unit(Unit::Mufu)));
}

#[test]
fn a_scheduler_with_the_heavy_warps_decides() {
    // 4 warps, one per scheduler: warp 0 runs the column 10 times, the others once. The
    // SM's pooled issue would be (10 + 3) × 10 / 4; warp 0's scheduler needs 10 × 10.
    let c = [cost(10.0, None, 0.0, 1.0)];
    let mut counts = vec![10; 32];
    counts.extend(vec![1; 96]);
    let e = run(one_sm(&counts, &c, 128));
    assert_eq!((e.compute, e.bound), (100.0, Bound::Issue));
}

#[test]
fn memory_is_charged_by_sectors_and_coalescing_shows() {
    // 32 warps, one access each: 4 sectors per request (coalesced) or 32 (scattered)
    let co = run(one_sm(&[1; 1024], &[cost(1.0, None, 4.0, 1.0)], 1024));
    assert_eq!(co.sectors, 128.0);
    assert_eq!(co.memory, 12.8); // 128 / 10 per clock from the L2
    let c = [cost(1.0, None, 32.0, 1.0)];
    let sc = run(one_sm(&[1; 1024], &c, 1024));
    assert_eq!(sc.memory, 102.4);
    // on one SM its L1 (4 sectors per clock) binds first: 1024 / 4 = 256
    assert_eq!((sc.compute, sc.bound, sc.cycles), (256.0, Bound::L1, 256.0));
    // 64 such blocks on 64 SMs share the L2: 65536 / 10
    let counts = vec![1; 64 * 1024];
    let many = run(Launch {
        sms: 64,
        ..one_sm(&counts, &c, 1024)
    });
    assert_eq!((many.compute, many.memory), (256.0, 6553.6));
    assert_eq!(many.bound, Bound::L2);
    // data beyond the L2 come from DRAM: 32000 bytes / 32 / 5
    let c1 = [cost(1.0, None, 1.0, 1.0)];
    let dr = run(Launch {
        bytes: 32000.0,
        ..one_sm(&[1; 32], &c1, 32)
    });
    assert_eq!((dr.memory, dr.bound), (200.0, Bound::Dram));
}

#[test]
fn local_memory_costs_l1_sectors_but_no_l2_traffic() {
    let c = [ColumnCost {
        issue: 1.0,
        local_sectors: 16.0,
        chain: 1.0,
        ..ColumnCost::default()
    }];
    let e = run(one_sm(&[1; 1024], &c, 1024));
    // 32 warps × 16 sectors / 4 per clock (no measured curve: the L1's rate)
    assert_eq!(
        (e.compute, e.bound, e.sectors, e.memory),
        (128.0, Bound::Local, 0.0, 0.0)
    );
    // with a curve, at the rate for the resident threads' local bytes: 1024 threads × 64
    // bytes = 65536, half way between 2 (at 32768) and 1 (at 98304): 1.5 per clock
    let mut m = machine();
    m.local_curve = vec![(32768.0, 2.0), (98304.0, 1.0)];
    assert_eq!(m.local_sectors_per_sm(65536.0), 1.5);
    assert_eq!(m.local_sectors_per_sm(1.0), 2.0);
    assert_eq!(m.local_sectors_per_sm(1e9), 1.0);
    let lat = vec![1.0];
    let counts = [1u32; 1024];
    let classes = Classes::new(&counts, 1, &lat);
    let e = estimate(
        &LaunchInput {
            classes: &classes,
            cost: &c,
            threads_per_block: 1024,
            order: None,
            sms: 1,
            blocks_per_sm: 1,
            buffer_bytes: 0.0,
            local_bytes_per_thread: 64.0,
            l1_cold_sectors: 0.0,
            clock_mhz: 1.0,
        },
        &m,
    );
    assert!((e.compute - 512.0 / 1.5).abs() < 1e-9, "{}", e.compute);
}

#[test]
fn ptxas_lowering_drops_moves_and_splits_integer_adds() {
    let m = module_of(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<8>;\n.reg .f32 %f<4>;\n.reg .pred %p<4>;\n\
         .reg .b64 %rd<4>;\n\
         mov.u32 %r1, %tid.x;\n\
         mov.u32 %r2, %ntid.x;\n\
         mov.b32 %f1, %r1;\n\
         mov.u32 %r3, 16;\n\
         add.s32 %r4, %r1, %r2;\n\
         mul.wide.s32 %rd1, %r4, 4;\n\
         cvt.s64.s32 %rd2, %r4;\n\
         cvt.u64.u32 %rd3, %r4;\n\
         cvta.to.global.u64 %rd2, %rd2;\n\
         xor.b32 %r5, %r4, %r3;\n\
         setp.eq.s32 %p1, %r5, 0;\n\
         and.pred %p2, %p1, %p1;\n\
         rem.u32 %r6, %r4, %r5;\n\
         ret;\n}\n",
    );
    let f = m.funcs.values().next().unwrap();
    let b = f.blocks.keys().next().unwrap();
    let got: Vec<(f64, f64, f64)> = f.blocks[b]
        .insts
        .iter()
        .map(|&i| {
            let (issue, u) = lowered(&f.insts[i]);
            (issue, u[Unit::Alu as usize], u[Unit::Imad as usize])
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (1.0, 0.0, 0.0),   // S2R
            (0.0, 0.0, 0.0),   // constant bank
            (0.0, 0.0, 0.0),   // register rename
            (0.0, 0.0, 0.0),   // immediate
            (1.0, 0.5, 0.5),   // IADD3 or VIADD
            (1.0, 0.0, 2.0),   // IMAD.WIDE: half rate, twice on its pipe (v9 measured)
            (1.0, 1.0, 0.0),   // SHF (sign)
            (0.0, 0.0, 0.0),   // zero extension
            (0.0, 0.0, 0.0),   // cvta
            (1.0, 1.0, 0.0),   // LOP3
            (1.0, 1.0, 0.0),   // ISETP
            (0.0, 0.0, 0.0),   // folded into the compare or the branch
            (18.0, 10.0, 4.0), // I2F, MUFU.RCP, F2I, IMAD.HI, ... (+ conv 2, MUFU 1, fp32 1)
            (1.0, 0.0, 0.0),   // ret
        ]
    );
    let issue: f64 = got.iter().map(|g| g.0).sum();
    assert_eq!(issue, 25.0);
    // the remainder, and only it, takes the divider's measured rate once
    let idiv: Vec<f64> = f.blocks[b]
        .insts
        .iter()
        .map(|&i| lowered(&f.insts[i]).1[Unit::Idiv as usize])
        .collect();
    assert_eq!(idiv.iter().sum::<f64>(), 1.0);
    assert_eq!(idiv[12], 1.0);
}

#[test]
fn sixth_version_float_negations_are_free_selects_split_and_min_max_is_alu() {
    let m = module_of(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<8>;\n.reg .f32 %f<8>;\n.reg .pred %p<4>;\n\
         mov.u32 %r1, %tid.x;\n\
         cvt.rn.f32.u32 %f1, %r1;\n\
         setp.gt.f32 %p1, %f1, 0f3F800000;\n\
         neg.f32 %f2, %f1;\n\
         abs.f32 %f3, %f2;\n\
         selp.f32 %f4, %f2, %f3, %p1;\n\
         selp.u32 %r2, 1, 0, %p1;\n\
         max.f32 %f5, %f4, %f1;\n\
         neg.s32 %r3, %r2;\n\
         ret;\n}\n",
    );
    let f = m.funcs.values().next().unwrap();
    let b = f.blocks.keys().next().unwrap();
    let got: Vec<(f64, f64, f64, f64)> = f.blocks[b]
        .insts
        .iter()
        .skip(2)
        .map(|&i| {
            let (issue, u) = lowered(&f.insts[i]);
            (
                issue,
                u[Unit::Alu as usize],
                u[Unit::Imad as usize],
                u[Unit::Fp32 as usize],
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (1.0, 1.0, 0.0, 0.0), // FSETP: integer ALU (measured)
            (0.0, 0.0, 0.0, 0.0), // neg.f32: an operand modifier
            (0.0, 0.0, 0.0, 0.0), // abs.f32: likewise
            (1.0, 1.0, 0.0, 0.0), // FSEL: integer ALU (measured)
            (1.0, 0.5, 0.5, 0.0), // SEL or a predicated IMAD.MOV
            (1.0, 1.0, 0.0, 0.0), // FMNMX: integer ALU (measured)
            (1.0, 1.0, 0.0, 0.0), // an integer negation still issues
            (1.0, 0.0, 0.0, 0.0), // ret
        ]
    );
}

#[test]
fn sixth_version_adds_and_selects_balance_the_alu_and_imad_pipes() {
    let mut u = [0.0; Unit::COUNT];
    // 12 fixed on the ALU (compares and selects), 9 flexible counted half on each pipe
    u[Unit::Alu as usize] = 12.0 + 4.5;
    u[Unit::Imad as usize] = 4.5;
    balance_alu_imad(&mut u, 9.0);
    assert_eq!((u[Unit::Alu as usize], u[Unit::Imad as usize]), (12.0, 9.0));
    // nothing fixed: half and half, as before
    let mut u = [0.0; Unit::COUNT];
    u[Unit::Alu as usize] = 2.0;
    u[Unit::Imad as usize] = 2.0;
    balance_alu_imad(&mut u, 4.0);
    assert_eq!((u[Unit::Alu as usize], u[Unit::Imad as usize]), (2.0, 2.0));
    // 4 IMAD fixed, 2 flexible: both to the ALU
    let mut u = [0.0; Unit::COUNT];
    u[Unit::Alu as usize] = 1.0;
    u[Unit::Imad as usize] = 5.0;
    balance_alu_imad(&mut u, 2.0);
    assert_eq!((u[Unit::Alu as usize], u[Unit::Imad as usize]), (2.0, 4.0));
}

#[test]
fn seventh_version_int_to_float_is_alu_and_the_fast_divide_is_five_sass() {
    let m = module_of(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<8>;\n.reg .f32 %f<8>;\n\
         mov.u32 %r1, %tid.x;\n\
         cvt.rn.f32.s32 %f1, %r1;\n\
         cvt.rn.f32.u32 %f2, %r1;\n\
         cvt.rzi.s32.f32 %r2, %f1;\n\
         brev.b32 %r3, %r1;\n\
         div.approx.f32 %f3, %f1, %f2;\n\
         sin.approx.f32 %f4, %f3;\n\
         ret;\n}\n",
    );
    let f = m.funcs.values().next().unwrap();
    let b = f.blocks.keys().next().unwrap();
    let got: Vec<(f64, f64, f64, f64, f64)> = f.blocks[b]
        .insts
        .iter()
        .skip(1)
        .map(|&i| {
            let (issue, u) = lowered(&f.insts[i]);
            (
                issue,
                u[Unit::Alu as usize],
                u[Unit::Conv as usize],
                u[Unit::Mufu as usize],
                u[Unit::Fp32 as usize],
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (1.0, 1.0, 0.0, 0.0, 0.0), // I2FP.F32.S32: integer ALU (measured)
            (1.0, 1.0, 0.0, 0.0, 0.0), // I2FP.F32.U32: likewise
            (1.0, 0.0, 1.0, 0.0, 0.0), // F2I: conversion unit (measured)
            (1.0, 0.0, 1.0, 0.0, 0.0), // BREV: conversion unit (measured)
            (5.0, 1.0, 0.0, 1.0, 3.0), // FSETP, 2 FMUL, MUFU.RCP, FMUL (SASS)
            (2.0, 0.0, 0.0, 1.0, 1.0), // FMUL.RZ + MUFU.SIN
            (1.0, 0.0, 0.0, 0.0, 0.0), // ret
        ]
    );
}

#[test]
fn the_committed_machine_has_the_sixth_versions_l1_facts() {
    let m = H100Machine::h100();
    assert_eq!(m.l1_lines_per_sm, 3.69);
    assert_eq!(m.l1_line_latency, 0.18);
}

#[test]
fn the_committed_machine_has_the_fifth_versions_facts() {
    let m = H100Machine::h100();
    assert_eq!(m.unit_per_sm[Unit::Idiv as usize], 0.1213);
    assert_eq!(m.l1_requests_per_sm, 0.477);
    assert_eq!(m.l1_wavefront_latency, 1.97);
}

#[test]
fn a_divergent_warp_pays_the_union_of_its_paths() {
    // two columns with chains 10 and 20; half the warp runs one, half the other: the warp
    // runs both (max vector [1, 1]): 30.
    let mut counts = Vec::new();
    for t in 0..32 {
        counts.extend_from_slice(if t % 2 == 0 { &[1, 0] } else { &[0, 1] });
    }
    let c = [cost(1.0, None, 0.0, 10.0), cost(1.0, None, 0.0, 20.0)];
    assert_eq!(run(one_sm(&counts, &c, 32)).compute, 30.0);
}

#[test]
fn a_grid_of_empty_blocks_costs_its_dispatch() {
    // 2001 blocks of one trivial warp: dispatch (interpolated/extrapolated) 2000 cycles
    let counts = vec![1; 2001 * 32];
    let c = [cost(1.0, None, 0.0, 1.0)];
    let e = run(Launch {
        sms: 1000,
        ..one_sm(&counts, &c, 32)
    });
    assert_eq!(e.dispatch, 2000.0);
    assert_eq!(e.bound, Bound::Dispatch);
    let m = machine();
    assert_eq!(m.empty_kernel_us(501, 256), 500.0);
    assert_eq!(m.empty_kernel_us(1, 4096), 0.0);
}

fn module_of(ptx: &str) -> Module {
    let (ast, errs) = warpscope_ptx::parse(ptx);
    assert!(errs.is_empty(), "{errs:?}");
    let (m, errs) = warpscope_ir::lower_module(ast);
    assert!(errs.is_empty(), "{errs:?}");
    m
}

#[test]
fn a_chain_waits_for_its_operands_and_issues_in_order() {
    let m = module_of(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n\
         ld.param.u64 %rd1, [p];\n\
         ld.global.u32 %r1, [%rd1];\n\
         add.s32 %r2, %r1, 1;\n\
         add.s32 %r3, %r5, 1;\n\
         mul.lo.s32 %r4, %r2, %r3;\n\
         st.local.v2.u32 [%rd1], {%r4, %r3};\n\
         ret;\n}\n",
    );
    let f = m.funcs.values().next().unwrap();
    let b = f.blocks.keys().next().unwrap();
    let t = LatencyTable::h100();
    // param load folded (0); the load issues at 0 and is ready at 300; the first add waits
    // for it (issues at 300); the second add, independent, still issues after it (301,
    // ready 306.14); the mul waits for that (306.14, ready 311.30); the local store waits
    // for the mul and issues (311.30); ret issues at 312.30 and resolves a branch latency
    // later.
    let c = chain_cycles(f, b, &t, 300.0);
    let want = 300.0 + 1.0 + 5.14 + 5.16 + 1.0 + t.get("bra");
    assert!((c - want).abs() < 1e-9, "{c} vs {want}");
    let costs: Vec<f64> = f.blocks[b]
        .insts
        .iter()
        .filter_map(|&i| local_bytes(&f.insts[i]))
        .collect();
    assert_eq!(costs, vec![8.0]);
}

#[test]
fn the_committed_tables_parse_and_bad_ones_are_refused() {
    let m = H100Machine::h100();
    assert_eq!(m.issue_per_sm, 4.0);
    assert!(m.empty_kernel_us(512, 256) > 0.5 && m.empty_kernel_us(512, 256) < 5.0);
    let e = H100Machine::parse("issue_per_sm\tfast\n", "1\t32\t1\n").unwrap_err();
    assert!(e.contains("line 1"), "{e}");
    assert!(H100Machine::parse(H100_MACHINE_TSV, "").is_err());
    assert_eq!(issue_slots("fp32_div"), 13.0);
    assert_eq!(Unit::of_class("sfu_ex2"), Some(Unit::Mufu));
    assert_eq!(Unit::of_class("bra"), None);
}

#[test]
fn stores_take_their_measured_rate_by_sectors_per_request() {
    let mut m = machine();
    m.store_curve = vec![(4.0, 8.0), (32.0, 4.0)];
    assert_eq!(m.store_sectors_per_clk(4.0), 8.0);
    assert_eq!(m.store_sectors_per_clk(18.0), 6.0);
    assert_eq!(m.store_sectors_per_clk(64.0), 4.0);
    assert_eq!(machine().store_sectors_per_clk(32.0), 10.0); // no curve: the L2's load rate
    // 32 warps storing 32 sectors each: 1024 store sectors at 4 per clock; nothing on the L2's
    // load side
    let c = [ColumnCost {
        issue: 1.0,
        sectors: 32.0,
        store_sectors: 32.0,
        store_clk: 32.0 / 4.0,
        chain: 1.0,
        ..ColumnCost::default()
    }];
    let e = run(Launch {
        sms: 8,
        ..one_sm(&[1; 1024], &c, 128)
    });
    assert_eq!((e.memory, e.bound), (256.0, Bound::L2));
}

#[test]
fn l1_resident_loads_skip_the_l2_but_for_each_sms_first_touch() {
    // 64 blocks of one warp on 64 SMs, each warp one load of 32 sectors the L1 serves
    let c = [ColumnCost {
        issue: 1.0,
        sectors: 32.0,
        l1_only: 32.0,
        chain: 1.0,
        ..ColumnCost::default()
    }];
    let counts = vec![1; 64 * 32];
    let lat = vec![1.0; 1];
    let classes = Classes::new(&counts, 1, &lat);
    let inp = LaunchInput {
        classes: &classes,
        cost: &c,
        threads_per_block: 32,
        order: None,
        sms: 64,
        blocks_per_sm: 1,
        buffer_bytes: 0.0,
        local_bytes_per_thread: 0.0,
        l1_cold_sectors: 64.0 * 4.0, // a 128-byte table read once by each SM
        clock_mhz: 1.0,
    };
    let e = estimate(&inp, &machine());
    assert_eq!(e.sectors, 2048.0);
    assert_eq!(e.memory, 256.0 / 10.0);
    // the cold sectors never exceed the loads' own
    let e = estimate(
        &LaunchInput {
            l1_cold_sectors: 1e9,
            ..inp
        },
        &machine(),
    );
    assert_eq!(e.memory, 2048.0 / 10.0);
}

const GATHER_PTX: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
     .visible .entry k(.param .u64 t, .param .u64 big, .param .u64 out, .param .u32 n)\n{\n\
     .reg .pred %p<2>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<16>;\n\
     ld.param.u64 %rd1, [t];\n ld.param.u64 %rd2, [big];\n ld.param.u64 %rd3, [out];\n\
     ld.param.u32 %r9, [n];\n\
     cvta.to.global.u64 %rd4, %rd1;\n cvta.to.global.u64 %rd5, %rd2;\n\
     mov.u32 %r1, %tid.x;\n mov.u32 %r2, 0;\n\
     $L1:\n and.b32 %r3, %r2, 255;\n mul.wide.u32 %rd6, %r3, 4;\n add.s64 %rd7, %rd4, %rd6;\n\
     ld.global.u32 %r4, [%rd7];\n\
     add.s32 %r10, %r1, %r9;\n mul.wide.u32 %rd8, %r10, 4;\n add.s64 %rd9, %rd5, %rd8;\n\
     ld.global.u32 %r5, [%rd9];\n\
     add.s64 %rd10, %rd7, %rd9;\n ld.global.u32 %r6, [%rd10];\n\
     ld.global.cg.u32 %r7, [%rd7];\n\
     add.s32 %r2, %r2, %r4;\n setp.lt.u32 %p1, %r2, 1000;\n @%p1 bra $L1;\n\
     cvta.to.global.u64 %rd11, %rd3;\n st.global.u32 [%rd11], %r2;\n ret;\n}\n";

#[test]
fn loads_from_a_buffer_that_fits_in_the_l1_are_served_there() {
    let m = module_of(GATHER_PTX);
    let (k, f) = m.funcs.iter().next().unwrap();
    let loads: Vec<Inst> = f
        .insts
        .iter()
        .filter(|(_, d)| d.op == Opcode::Ld && d.mods.space == Some(StateSpace::Global))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(loads.len(), 4);
    let bytes = [Some(1024.0), Some(1e6), Some(4.0), None];
    // the 1 KB table fits: its plain load is an L1 load; the big buffer's does not fit, the
    // load through both pointers has no single base, the `.cg` load bypasses the L1
    let (l1, used) = crate::footprint::l1_resident_loads(&m, k, &bytes, 200_000.0);
    assert_eq!(used, 1024.0);
    assert_eq!(l1.loads.iter().copied().collect::<Vec<_>>(), vec![loads[0]]);
    // with room for both, the big buffer's load joins; with none, nothing
    let (l1, used) = crate::footprint::l1_resident_loads(&m, k, &bytes, 2e6);
    assert_eq!((l1.loads.len(), used), (2, 1024.0 + 1e6));
    let (l1, used) = crate::footprint::l1_resident_loads(&m, k, &bytes, 512.0);
    assert_eq!((l1.loads.len(), used), (0, 0.0));
    // in a chain the L1 load waits the L1-hit latency, the others the given one
    let t = LatencyTable::h100();
    let head = f.blocks.keys().nth(1).unwrap();
    let fast = chain_cycles_with(f, head, &t, 300.0, &|_| Some(t.get("ld_global")));
    let slow = chain_cycles(f, head, &t, 300.0);
    assert!(slow > fast + 200.0, "{slow} vs {fast}");
}

#[test]
fn simt_counts_branch_regions_and_divergent_visits_are_charged() {
    use warpscope_profile::model::{Counters, InstProfile};
    // an if/else in a loop: block 0 entry, 1 loop head (branch), 2 one side, 3 other side,
    // 4 join (the loop's latch, branch back), 5 exit
    let m = module_of(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u32 n)\n{\n.reg .pred %p<3>;\n.reg .b32 %r<8>;\n\
         mov.u32 %r1, %tid.x;\n mov.u32 %r2, 0;\n\
         $H:\n and.b32 %r3, %r1, 1;\n setp.eq.u32 %p1, %r3, 0;\n @%p1 bra $E;\n\
         mul.lo.s32 %r4, %r4, 3;\n mul.lo.s32 %r4, %r4, 5;\n mul.lo.s32 %r4, %r4, 7;\n bra.uni $J;\n\
         $E:\n mul.lo.s32 %r5, %r5, 3;\n mul.lo.s32 %r5, %r5, 5;\n mul.lo.s32 %r5, %r5, 7;\n\
         $J:\n add.s32 %r2, %r2, 1;\n setp.lt.u32 %p2, %r2, 4;\n @%p2 bra $H;\n ret;\n}\n",
    );
    let (k, f) = m.funcs.iter().next().unwrap();
    let blocks: Vec<Block> = f.blocks.keys().collect();
    assert_eq!(blocks.len(), 6);
    let l = LaunchBbv {
        launch: 0,
        kernel: k,
        grid: [1, 1, 1],
        block: [32, 1, 1],
        columns: blocks.iter().map(|&b| (k, b, 1)).collect(),
        counts: Vec::new(),
    };
    // one warp, half its lanes on each side of every iteration: the paper's max counts each
    // side 4 times, SIMT runs both 4 times too; make the profile say 8 runs of side 2 (as
    // if the warp had split twice per iteration) to see the scaling
    let max_exec = [1.0, 4.0, 4.0, 4.0, 4.0, 1.0];
    let warp_runs = [1u64, 4, 8, 4, 4, 1];
    let mut kp = KernelProfile {
        name: "k".into(),
        ptx_name: "k".into(),
        launches: 1,
        totals: Counters::default(),
        instructions: Vec::new(),
        lines: Vec::new(),
    };
    for (j, &b) in blocks.iter().enumerate() {
        for (n, &i) in f.blocks[b].insts.iter().enumerate() {
            let mut c = Counters {
                instructions: warp_runs[j],
                ..Counters::default()
            };
            if j == 1 && n + 1 == f.blocks[b].insts.len() {
                c.branch_visits = 4;
                c.divergent_branches = 4;
            }
            use cranelift_entity::EntityRef;
            kp.instructions.push(InstProfile {
                function: "k".into(),
                inst: i.index() as u32,
                ptx_line: 0,
                ptx_col: 0,
                text: String::new(),
                file: None,
                line: 0,
                col: 0,
                line_inferred: false,
                inlined_at: None,
                access: None,
                access_size: 0,
                counters: c,
            });
        }
    }
    let mut mach = machine();
    mach.divergent_branch_issue = 7.0;
    let mut cost = vec![cost(1.0, Some(Unit::Alu), 0.0, 5.0); 6];
    simt_refine(&m, &l, Some(&kp), &max_exec, &mach, &|_, _| None, &mut cost);
    // block 2 ran twice as often as the max says: every cost doubled
    assert_eq!((cost[2].issue, cost[2].chain), (2.0, 10.0));
    assert_eq!(cost[2].units[Unit::Alu as usize], 2.0);
    // the head's branch diverged on each of its 4 visits: 7 issue cycles each
    assert_eq!(cost[1].issue, 1.0 + 7.0);
    // its reconvergence point (the join, block 4) holds the BSYNC, its region the BSSY: two
    // slots per run; the loop's own branch never diverged: nothing at the exit
    assert_eq!(cost[4].issue, 1.0 + 2.0);
    assert_eq!(cost[5].issue, 1.0);
    assert_eq!(cost[3].issue, 1.0);
    // thirteenth version: the large region again, but the SASS shows ptxas predicated the
    // head's branch (no BRA at its line, as h11_cordic's if/else of three adds a side): no
    // divergent visits, no BSSY/BSYNC; where the SASS kept it, charged as before
    for (kept, head, join) in [(Some(false), 1.0, 1.0), (Some(true), 8.0, 3.0)] {
        let mut c3 = vec![cost[0].clone(); 6];
        let head_block = blocks[1];
        let in_sass = |_: FuncId, b: Block| if b == head_block { kept } else { None };
        simt_refine(&m, &l, Some(&kp), &max_exec, &mach, &in_sass, &mut c3);
        assert_eq!((c3[1].issue, c3[4].issue), (head, join), "{kept:?}");
    }
    // sides of one instruction each: ptxas predicates the region (no BSSY, no divergence)
    let small = module_of(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u32 n)\n{\n.reg .pred %p<3>;\n.reg .b32 %r<8>;\n\
         mov.u32 %r1, %tid.x;\n mov.u32 %r2, 0;\n\
         $H:\n and.b32 %r3, %r1, 1;\n setp.eq.u32 %p1, %r3, 0;\n @%p1 bra $E;\n\
         add.s32 %r4, %r4, 1;\n bra.uni $J;\n\
         $E:\n add.s32 %r5, %r5, 2;\n\
         $J:\n add.s32 %r2, %r2, 1;\n setp.lt.u32 %p2, %r2, 4;\n @%p2 bra $H;\n ret;\n}\n",
    );
    let mut c2 = vec![cost[0].clone(); 6];
    c2.iter_mut().for_each(|c| *c = cost[0].clone());
    let l2 = LaunchBbv {
        kernel: small.funcs.keys().next().unwrap(),
        ..l
    };
    simt_refine(
        &small,
        &l2,
        Some(&kp),
        &max_exec,
        &mach,
        &|_, _| None,
        &mut c2,
    );
    // (block 1 keeps its one issue slot: no divergent-visit charge)
    assert_eq!(c2[1].issue, cost[0].issue);
}

#[test]
fn tenth_version_mul_hi_and_mul_wide_take_the_imad_pipe_twice() {
    // without ptxas the lowering table charges `IMAD.HI`/`IMAD.WIDE` at the half rate measured
    // for them (model_v9rates.tsv), a plain `mul.lo` at the full rate
    let m = module_of(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n\
         mov.u32 %r1, %tid.x;\n\
         mul.hi.u32 %r2, %r1, %r1;\n\
         mul.wide.u32 %rd1, %r1, %r2;\n\
         mul.lo.s32 %r3, %r1, %r2;\n\
         mad.hi.u32 %r4, %r1, %r2, %r3;\n\
         ret;\n}\n",
    );
    let f = m.funcs.values().next().unwrap();
    let b = f.blocks.keys().next().unwrap();
    let got: Vec<(f64, f64)> = f.blocks[b]
        .insts
        .iter()
        .skip(1)
        .take(4)
        .map(|&i| {
            let (issue, u) = lowered(&f.insts[i]);
            (issue, u[Unit::Imad as usize])
        })
        .collect();
    assert_eq!(got, vec![(1.0, 2.0), (1.0, 2.0), (1.0, 1.0), (1.0, 2.0)]);
}
