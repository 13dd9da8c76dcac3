//! The cost of GRAB: plain emulation against the full cache analysis (original L1 and L2
//! traces, golden per-thread caches, root causes) on corpus launch specs, single-threaded
//! (deterministic mode) so the ratio does not depend on free cores.
//!
//! `emulate` runs with the cache command's schedule (GTO, 300-cycle load latency) and no
//! observer; `emulate-default` with the emulator's default schedule; `cache` is
//! `warpscope cache`'s analysis with the default H100 configuration.
//!
//! `cargo bench -p warpscope-cache --bench cache`

use criterion::{Criterion, criterion_group, criterion_main};
use std::sync::Arc;
use warpscope_cache::sites::InstTable;
use warpscope_cache::{CacheObserver, Settings};
use warpscope_emu::{LaunchSpec, NoObserver, Observer, RunOptions};
use warpscope_ir::Module;

struct Case {
    spec: LaunchSpec,
    module: Module,
    text: String,
}

fn case(name: &str, opts: &RunOptions) -> Case {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(format!("{name}.toml"));
    let spec = LaunchSpec::load(&path).expect("spec");
    let loaded = warpscope_emu::load_spec_module(&spec, &opts.compile).expect("module");
    Case {
        spec,
        module: loaded.module,
        text: loaded.source.text,
    }
}

fn run<O: Observer>(c: &Case, opts: &RunOptions, o: &mut O) {
    warpscope_emu::run_spec_module(&c.spec, c.module.clone(), Some(&c.text), opts, o)
        .expect("runs");
}

fn bench(cr: &mut Criterion) {
    let settings = Settings::default();
    let mut plain = RunOptions::default();
    plain.exec.schedule = warpscope_emu::Schedule::Emulated;
    plain.save_dir = Some(std::env::temp_dir().join("ws-cache-bench"));
    let mut sched = RunOptions {
        exec: plain.exec.clone(),
        save_dir: plain.save_dir.clone(),
        ..RunOptions::default()
    };
    sched.exec.scheduler = settings.schedulers[0];
    sched.exec.memory_latency = settings.memory_latency;
    // Memory-heavy programs with and without reuse, and a compute-heavy one.
    for name in [
        "coalesced",
        "cache_thrash",
        "transpose",
        "matmul",
        "grab_bitonic",
        "grab_lbm",
    ] {
        let c = case(name, &plain);
        let table = Arc::new(InstTable::new(&c.module, Some(&c.text)));
        let mut g = cr.benchmark_group(name);
        g.sample_size(10);
        g.bench_function("emulate-default", |b| {
            b.iter(|| run(&c, &plain, &mut NoObserver))
        });
        g.bench_function("emulate", |b| b.iter(|| run(&c, &sched, &mut NoObserver)));
        g.bench_function("cache", |b| {
            b.iter(|| {
                let mut o = CacheObserver::new(table.clone(), settings.configs());
                run(&c, &sched, &mut o);
                o.launches.len()
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
