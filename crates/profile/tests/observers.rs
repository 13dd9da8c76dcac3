//! Every observer on small hand-written PTX kernels whose answers are known.

use std::sync::Arc;
use warpscope_emu::{Emulator, ExecConfig, KernelArg};
use warpscope_profile::bbv::{self, BasicBlockVectors, BbvFile};
use warpscope_profile::trace::{MemoryTrace, TraceEvent, TraceReader, TraceSpace};
use warpscope_profile::{
    Both, Coalescing, DivergenceMap, InstIndex, LaunchWindow, Profiler, SimtEfficiency,
    build_profile,
};

const PTX: &str = r#"
.version 8.0
.target sm_90
.address_size 64

// Lane t reads in[2t]: a stride-2 load (8 sectors per request, 4 ideal), then writes
// out[t] (coalesced).
.visible .entry stride2(.param .u64 p_in, .param .u64 p_out)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<8>;
    .reg .f32 %f<2>;
    ld.param.u64 %rd1, [p_in];
    ld.param.u64 %rd2, [p_out];
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd5, %r1, 8;
    add.s64 %rd6, %rd3, %rd5;
    ld.global.f32 %f1, [%rd6];
    mul.wide.u32 %rd5, %r1, 4;
    add.s64 %rd7, %rd4, %rd5;
    st.global.f32 [%rd7], %f1;
    ret;
}

// A 32x32 float tile read down a column: all 32 lanes in bank 0 (32-way), then a
// contiguous row store (conflict-free).
.visible .entry column(.param .u64 p_out)
{
    .reg .b32 %r<8>;
    .reg .f32 %f<2>;
    .shared .align 4 .b8 tile[4096];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, tile;
    shl.b32 %r3, %r1, 7;
    add.s32 %r4, %r2, %r3;
    ld.shared.f32 %f1, [%r4];
    shl.b32 %r5, %r1, 2;
    add.s32 %r6, %r2, %r5;
    st.shared.f32 [%r6], %f1;
    ret;
}

// if (tid % 2) out[tid] = tid;  -- every warp visit diverges (delta = tau); then a
// predicated add that half the lanes execute.
.visible .entry oddeven(.param .u64 p_out)
{
    .reg .pred %p<3>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [p_out];
    cvta.to.global.u64 %rd1, %rd1;
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 1;
    setp.eq.s32 %p1, %r2, 0;
    @%p1 bra $L_even;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r1;
$L_even:
    setp.lt.u32 %p2, %r1, 16;
    @%p2 add.s32 %r3, %r1, 1;
    ret;
}
"#;

fn emulator() -> Emulator {
    let cfg = ExecConfig {
        schedule: warpscope_emu::Schedule::Emulated,
        ..ExecConfig::default()
    };
    Emulator::from_ptx(PTX, cfg).expect("test PTX loads")
}

fn buf(emu: &mut Emulator, name: &str, bytes: u64) -> KernelArg {
    KernelArg::U64(emu.alloc(name, bytes).unwrap())
}

#[test]
fn coalescing_stride_two_is_eight_sectors_for_four_ideal() {
    let mut emu = emulator();
    let index = Arc::new(InstIndex::new(&emu.module));
    let mut obs = Coalescing::new(index.clone(), LaunchWindow::ALL);
    let k = emu.find_kernel("stride2").unwrap();
    let a = buf(&mut emu, "in", 4096);
    let b = buf(&mut emu, "out", 4096);
    emu.launch_with(k, [1, 1, 1], [64, 1, 1], 0, &[a, b], &mut obs)
        .unwrap();
    let counts = obs.into_counts();
    let rows = &counts[&(k.as_u32())];
    let globals: Vec<_> = rows
        .iter()
        .filter(|(_, m)| m.global.requests > 0)
        .map(|(_, m)| m.global)
        .collect();
    assert_eq!(globals.len(), 2, "one load and one store");
    let (ld, st) = (globals[0], globals[1]);
    assert_eq!((ld.requests, ld.sectors, ld.ideal_sectors), (2, 16, 8));
    assert_eq!(
        (ld.sectors_min, ld.sectors_max, ld.lines_min, ld.lines_max),
        (8, 8, 2, 2)
    );
    assert_eq!(
        (st.requests, st.sectors, st.ideal_sectors, st.lines),
        (2, 8, 8, 2)
    );
    assert_eq!(ld.strided_sectors(), 8);
    assert_eq!(ld.misaligned_sectors, 0);
}

#[test]
fn bank_conflicts_column_read_is_32_way() {
    let mut emu = emulator();
    let index = Arc::new(InstIndex::new(&emu.module));
    let mut obs = Coalescing::new(index, LaunchWindow::ALL);
    let k = emu.find_kernel("column").unwrap();
    let out = buf(&mut emu, "out", 4096);
    emu.launch_with(k, [1, 1, 1], [32, 1, 1], 0, &[out], &mut obs)
        .unwrap();
    let counts = obs.into_counts();
    let shared: Vec<_> = counts[&k.as_u32()]
        .iter()
        .filter(|(_, m)| m.shared.requests > 0)
        .map(|(_, m)| m.shared)
        .collect();
    assert_eq!(shared.len(), 2);
    assert_eq!(
        (
            shared[0].wavefronts,
            shared[0].ideal_wavefronts,
            shared[0].ways_max
        ),
        (32, 1, 32)
    );
    assert_eq!(
        (
            shared[1].wavefronts,
            shared[1].ideal_wavefronts,
            shared[1].ways_max
        ),
        (1, 1, 1)
    );
}

#[test]
fn divergence_map_odd_lanes_diverge_on_every_visit() {
    let mut emu = emulator();
    let index = Arc::new(InstIndex::new(&emu.module));
    let mut obs = DivergenceMap::new(index, LaunchWindow::ALL);
    let k = emu.find_kernel("oddeven").unwrap();
    let out = buf(&mut emu, "out", 4096);
    emu.launch_with(k, [2, 1, 1], [64, 1, 1], 0, &[out], &mut obs)
        .unwrap();
    let counts = obs.into_counts();
    let branches = &counts[&k.as_u32()];
    assert_eq!(branches.len(), 1, "one conditional branch");
    let b = branches[0].1;
    assert_eq!((b.visits, b.divergent), (4, 4), "delta = tau = 4 warps");
    assert_eq!((b.active_lanes, b.taken_lanes), (128, 64));
}

#[test]
fn simt_efficiency_counts_idle_and_predicated_off_lanes() {
    let mut emu = emulator();
    let index = Arc::new(InstIndex::new(&emu.module));
    let mut obs = SimtEfficiency::new(index.clone(), LaunchWindow::ALL);
    let k = emu.find_kernel("oddeven").unwrap();
    let out = buf(&mut emu, "out", 4096);
    // One warp of 32 threads.
    emu.launch_with(k, [1, 1, 1], [32, 1, 1], 0, &[out], &mut obs)
        .unwrap();
    let counts = obs.into_counts();
    let c = &counts[&k.as_u32()];
    let f = &emu.module.funcs[k];
    let layout = index.kernel(k).unwrap();
    let text = |d: usize| {
        let (fid, i) = layout.resolve(d);
        assert_eq!(fid, k);
        warpscope_ir::inst_to_string(&emu.module, f, i)
    };
    let executed: Vec<(String, u64, u64, u64)> = c
        .iter()
        .enumerate()
        .filter(|(_, x)| x.warps > 0)
        .map(|(d, x)| (text(d), x.warps, x.active, x.executed))
        .collect();
    // The store runs on the 16 odd lanes only.
    let st = executed.iter().find(|e| e.0.contains("st.global")).unwrap();
    assert_eq!((st.1, st.2, st.3), (1, 16, 16));
    // The predicated add: all 32 active, 16 with a true guard.
    let add = executed.iter().find(|e| e.0.contains("add.s32")).unwrap();
    assert_eq!((add.1, add.2, add.3), (1, 32, 16));
    // Before the branch everything is fully active.
    let and = executed.iter().find(|e| e.0.contains("and.b32")).unwrap();
    assert_eq!((and.1, and.2, and.3), (1, 32, 32));
}

#[test]
fn profiler_builds_per_instruction_and_kernel_counters() {
    let mut emu = emulator();
    let index = Arc::new(InstIndex::new(&emu.module));
    let mut obs = Profiler::new(index.clone(), LaunchWindow::ALL);
    let k = emu.find_kernel("oddeven").unwrap();
    let out = buf(&mut emu, "out", 4096);
    emu.launch_with(k, [1, 1, 1], [64, 1, 1], 0, &[out], &mut obs)
        .unwrap();
    let module = emu.module.clone();
    let p = build_profile(&module, &index, Some(PTX), obs, "test", "test.ptx");
    assert_eq!(p.kernels.len(), 1);
    let kp = &p.kernels[0];
    assert_eq!(kp.name, "oddeven");
    assert_eq!(kp.launches, 1);
    assert_eq!(
        (kp.totals.branch_visits, kp.totals.divergent_branches),
        (2, 2)
    );
    let bra = kp
        .instructions
        .iter()
        .find(|i| i.counters.branch_visits > 0)
        .unwrap();
    assert!(bra.text.contains("bra"), "{}", bra.text);
    assert!(
        PTX.lines()
            .nth(bra.ptx_line as usize - 1)
            .unwrap()
            .contains("@%p1 bra")
    );
    let st = kp
        .instructions
        .iter()
        .find(|i| i.text.contains("st.global"))
        .unwrap();
    assert_eq!(st.counters.global.requests, 2);
    assert_eq!(st.counters.simt_efficiency(), 0.5);
    // Findings: the divergent branch, and the store it leaves to every other lane (16 lanes
    // x 4 bytes spread over 4 sectors: 2 would do).
    let f = warpscope_profile::findings::findings(&p);
    let rules: Vec<_> = f.iter().map(|f| f.rule).collect();
    use warpscope_report::Rule;
    assert_eq!(rules, vec![Rule::DivergentBranch, Rule::UncoalescedAccess]);
    assert_eq!(
        (st.counters.global.sectors, st.counters.global.ideal_sectors),
        (8, 4)
    );
}

#[test]
fn launch_window_skips_launches() {
    let mut emu = emulator();
    let index = Arc::new(InstIndex::new(&emu.module));
    let mut obs = Profiler::new(index.clone(), LaunchWindow::skip_count(1, Some(1)));
    let k = emu.find_kernel("oddeven").unwrap();
    let out = buf(&mut emu, "out", 4096);
    for blocks in [1, 2, 4] {
        emu.launch_with(
            k,
            [blocks, 1, 1],
            [32, 1, 1],
            0,
            std::slice::from_ref(&out),
            &mut obs,
        )
        .unwrap();
    }
    let module = emu.module.clone();
    let p = build_profile(&module, &index, Some(PTX), obs, "test", "test.ptx");
    assert_eq!(p.launches.len(), 3);
    assert_eq!(
        p.launches.iter().map(|l| l.profiled).collect::<Vec<_>>(),
        vec![false, true, false]
    );
    assert_eq!(
        p.kernels[0].totals.branch_visits, 2,
        "only the 2-block launch"
    );
}

#[test]
fn basic_block_vectors_per_thread_and_round_trip() {
    let mut emu = emulator();
    let mut obs = BasicBlockVectors::for_module(&emu.module);
    let k = emu.find_kernel("oddeven").unwrap();
    let out = buf(&mut emu, "out", 4096);
    emu.launch_with(k, [2, 1, 1], [48, 1, 1], 0, &[out], &mut obs)
        .unwrap();
    assert_eq!(obs.unmapped, 0);
    assert_eq!(obs.launches.len(), 1);
    let l = &obs.launches[0];
    assert_eq!(l.threads(), 96);
    assert_eq!(l.columns.len(), 3, "entry, odd path, join");
    for t in 0..96 {
        let odd = (t % 48) % 2 == 1;
        assert_eq!(l.thread(t), &[1, u32::from(odd), 1], "thread {t}");
    }
    let bytes = bbv::encode(&emu.module, &obs.launches);
    let file = BbvFile::read(&bytes).unwrap();
    assert_eq!(file.launches.len(), 1);
    let fl = &file.launches[0];
    assert_eq!(fl.vectors.len(), 2, "two distinct vectors");
    assert_eq!((fl.grid, fl.block), ([2, 1, 1], [48, 1, 1]));
    assert_eq!(file.functions[fl.kernel as usize], "oddeven");
    for t in 0..96 {
        let want: Vec<u64> = l.thread(t).iter().map(|&c| u64::from(c)).collect();
        assert_eq!(fl.thread(t), want.as_slice());
    }
    assert!(bytes.len() < 200, "compact: {} bytes", bytes.len());
    let s = bbv::summary(&emu.module, &obs.launches);
    assert_eq!(s[0].distinct_vectors, 2);
    assert_eq!(s[0].columns[1].executions, 48);
    assert_eq!(s[0].columns[1].threads, 48);
}

#[test]
fn memory_trace_round_trips_requests_in_issue_order() {
    let mut emu = emulator();
    let path = std::env::temp_dir().join(format!("ws-trace-{}.bin", std::process::id()));
    let file = std::fs::File::create(&path).unwrap();
    let trace = MemoryTrace::new(Box::new(file), LaunchWindow::ALL).unwrap();
    let index = Arc::new(InstIndex::new(&emu.module));
    let mut obs = Both(Profiler::new(index, LaunchWindow::ALL), trace);
    let k = emu.find_kernel("stride2").unwrap();
    let a = buf(&mut emu, "in", 4096);
    let b = buf(&mut emu, "out", 4096);
    let (KernelArg::U64(abase), KernelArg::U64(bbase)) = (a.clone(), b.clone()) else {
        unreachable!()
    };
    emu.launch_with(k, [1, 1, 1], [64, 1, 1], 0, &[a, b], &mut obs)
        .unwrap();
    let stats = obs.1.finish().unwrap();
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).ok();
    assert_eq!(stats.bytes as usize, bytes.len());
    let events = TraceReader::new(bytes.as_slice())
        .unwrap()
        .read_all()
        .unwrap();
    let TraceEvent::Launch(l) = &events[0] else {
        panic!("first record is the launch")
    };
    assert_eq!((l.index, l.block), (0, [64, 1, 1]));
    let reqs: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            TraceEvent::Request(r) if r.space == TraceSpace::Global => Some(r),
            _ => None,
        })
        .collect();
    assert_eq!(reqs.len(), 4, "2 warps x (load + store)");
    let nreq = events
        .iter()
        .filter(|e| matches!(e, TraceEvent::Request(_)))
        .count();
    assert_eq!(stats.requests as usize, nreq);
    use warpscope_profile::trace::TraceKind;
    for r in &reqs {
        assert_eq!(r.active, u32::MAX);
        let (base, stride) = match r.kind {
            TraceKind::Load => (abase + 8 * 32 * r.warp, 8),
            _ => (bbase + 4 * 32 * r.warp, 4),
        };
        for lane in 0..32 {
            assert_eq!(r.addrs[lane], base + stride * lane as u64, "{r:?}");
        }
    }
    // Issue order within the SM: sequence numbers are 0, 1, 2, ... in file order.
    let seqs: Vec<u64> = events
        .iter()
        .filter_map(|e| match e {
            TraceEvent::Request(r) => Some(r.seq),
            _ => None,
        })
        .collect();
    assert_eq!(seqs, (0..seqs.len() as u64).collect::<Vec<_>>());
    // Compact: far fewer bytes than 32 raw addresses per request.
    assert!(bytes.len() < 50 * seqs.len() + 64, "{} bytes", bytes.len());
}
