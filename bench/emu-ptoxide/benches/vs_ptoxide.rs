//! Criterion: warpscope (one core, all cores) vs ptoxide on ptoxide's gemm, n = 256.
use criterion::{Criterion, criterion_group, criterion_main};
use warpscope_emu::ExecConfig;
use warpscope_emu_ptoxide::*;

fn gemm(c: &mut Criterion) {
    let n = 256;
    let mut g = c.benchmark_group("gemm_n256");
    g.sample_size(10);
    let (ti, _, _) = run_warpscope(n, ExecConfig::default());
    g.throughput(criterion::Throughput::Elements(ti));
    g.bench_function("warpscope_1_core", |b| {
        b.iter(|| {
            run_warpscope(
                n,
                ExecConfig {
                    schedule: warpscope_emu::Schedule::Emulated,
                    ..ExecConfig::default()
                },
            )
        })
    });
    g.bench_function("warpscope_all_cores", |b| {
        b.iter(|| run_warpscope(n, ExecConfig::default()))
    });
    g.bench_function("ptoxide", |b| b.iter(|| run_ptoxide(n)));
    g.finish();
}

criterion_group!(benches, gemm);
criterion_main!(benches);
