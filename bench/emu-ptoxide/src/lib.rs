//! Shared setup of the ptoxide comparison: ptoxide's `gemm` kernel (kernels/gemm.ptx, copied
//! from ptoxide 0.1.0, MIT OR Apache-2.0) run by both VMs on the same launch.

use std::time::{Duration, Instant};
use warpscope_emu::{Emulator, ExecConfig, KernelArg, Schedule};

/// ptoxide 0.1.0's gemm kernel (`c = a × b` for n×n f32 matrices, one thread per element).
pub const GEMM_PTX: &str = include_str!("../kernels/gemm.ptx");

/// Block edge of the launch (16 × 16 threads per block, n/16 × n/16 blocks).
pub const BLOCK: u32 = 16;

/// Runs the gemm on warpscope; returns (thread-instructions, time, c). The time is the
/// calling thread's CPU time on the emulated schedule (one host thread), wall time otherwise.
pub fn run_warpscope(n: usize, config: ExecConfig) -> (u64, Duration, Vec<f32>) {
    let single = config.schedule == Schedule::Emulated;
    let mut emu = Emulator::from_ptx(GEMM_PTX, config).expect("load gemm");
    let k = emu.find_kernel("gemm").expect("gemm kernel");
    let bytes = (n * n * 4) as u64;
    let a = emu.alloc("a", bytes).expect("alloc");
    let b = emu.alloc("b", bytes).expect("alloc");
    let c = emu.alloc("c", bytes).expect("alloc");
    let (da, db) = inputs(n);
    emu.write(a, &f32_bytes(&da)).expect("write");
    emu.write(b, &f32_bytes(&db)).expect("write");
    let g = (n as u32).div_ceil(BLOCK);
    let args = [
        KernelArg::U64(a),
        KernelArg::U64(b),
        KernelArg::U64(c),
        KernelArg::U64(n as u64),
        KernelArg::U64(n as u64),
        KernelArg::U64(n as u64),
    ];
    let (t0, c0) = (Instant::now(), thread_cpu_time());
    let out = emu
        .launch(k, [g, g, 1], [BLOCK, BLOCK, 1], 0, &args)
        .expect("gemm runs");
    let wall = match (single, c0, thread_cpu_time()) {
        (true, Some(a), Some(b)) => b - a,
        _ => t0.elapsed(),
    };
    let raw = emu.read(c, bytes).expect("read");
    let cv = raw
        .chunks_exact(4)
        .map(|x| f32::from_le_bytes([x[0], x[1], x[2], x[3]]))
        .collect();
    (out.stats.thread_instructions, wall, cv)
}

/// Runs the gemm on ptoxide (single-threaded); returns (CPU time of the run, c).
pub fn run_ptoxide(n: usize) -> (Duration, Vec<f32>) {
    use ptoxide::{Argument, Context, LaunchParams};
    let mut ctx = Context::new_with_module(GEMM_PTX).expect("ptoxide loads gemm");
    let a = ctx.alloc::<f32>(n * n);
    let b = ctx.alloc::<f32>(n * n);
    let c = ctx.alloc::<f32>(n * n);
    let (da, db) = inputs(n);
    ctx.write(a, &da);
    ctx.write(b, &db);
    let g = (n as u32).div_ceil(BLOCK);
    let (t0, c0) = (Instant::now(), thread_cpu_time());
    ctx.run(
        LaunchParams::func_id(0).grid2d(g, g).block2d(BLOCK, BLOCK),
        &[
            Argument::ptr(a),
            Argument::ptr(b),
            Argument::ptr(c),
            Argument::U64(n as u64),
            Argument::U64(n as u64),
            Argument::U64(n as u64),
        ],
    )
    .expect("ptoxide runs gemm");
    let wall = match (c0, thread_cpu_time()) {
        (Some(a), Some(b)) => b - a,
        _ => t0.elapsed(),
    };
    let mut out = vec![0f32; n * n];
    ctx.read(c, &mut out);
    (wall, out)
}

/// Deterministic inputs: small integers, so every f32 sum is exact and both VMs must agree.
pub fn inputs(n: usize) -> (Vec<f32>, Vec<f32>) {
    let a = (0..n * n).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let b = (0..n * n).map(|i| ((i * 5) % 11) as f32 - 5.0).collect();
    (a, b)
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// CPU time consumed so far by the calling thread (Linux `/proc/thread-self/schedstat`),
/// or `None` where unavailable. Contention from other processes inflates wall time on a
/// shared machine; CPU time of a single-threaded run does not include time spent waiting.
pub fn thread_cpu_time() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}
