//! The cost of profiling: plain emulation against the full profile (divergence map, SIMT
//! efficiency, coalescing and bank conflicts) and against the profile with basic-block
//! vectors and a memory trace, on corpus launch specs, on one host thread (`threads = 1`)
//! so the ratio does not depend on how many cores are free.
//!
//! `cargo bench -p warpscope-profile --bench profile`

use criterion::{Criterion, criterion_group, criterion_main};
use std::sync::Arc;
use warpscope_emu::{LaunchSpec, NoObserver, Observer, RunOptions};
use warpscope_ir::Module;
use warpscope_profile::bbv::{BasicBlockVectors, BlockColumns};
use warpscope_profile::trace::MemoryTrace;
use warpscope_profile::{Both, InstIndex, LaunchWindow, Profiler, load_spec, run_observed};

struct Case {
    spec: LaunchSpec,
    module: Module,
    text: String,
}

fn case(name: &str, opts: &RunOptions) -> Case {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(format!("{name}.toml"));
    let spec = load_spec(&path).expect("spec");
    let loaded = warpscope_emu::load_spec_module(&spec, &opts.compile).expect("module");
    Case {
        spec,
        module: loaded.module,
        text: loaded.source.text,
    }
}

fn run<O: Observer>(c: &Case, opts: &RunOptions, mut o: O) {
    run_observed(&c.spec, c.module.clone(), Some(&c.text), opts, &mut o).expect("runs");
}

fn bench(cr: &mut Criterion) {
    let mut opts = RunOptions::default();
    opts.exec.threads = Some(1);
    opts.save_dir = Some(std::env::temp_dir().join("ws-profile-bench"));
    // A coalescing-heavy, a shared-memory-heavy, a divergence-heavy and a compute-heavy
    // program.
    for name in [
        "coalesced",
        "bank_conflicts",
        "branch_tid",
        "reduction",
        "lavamd",
    ] {
        let c = case(name, &opts);
        let index = Arc::new(InstIndex::new(&c.module));
        let cols = Arc::new(BlockColumns::new(&c.module));
        let mut g = cr.benchmark_group(name);
        g.sample_size(10);
        g.bench_function("plain", |b| b.iter(|| run(&c, &opts, NoObserver)));
        g.bench_function("profile", |b| {
            b.iter(|| run(&c, &opts, Profiler::new(index.clone(), LaunchWindow::ALL)))
        });
        g.bench_function("profile+bbv+trace", |b| {
            b.iter(|| {
                let trace =
                    MemoryTrace::new(Box::new(std::io::sink()), LaunchWindow::ALL).expect("trace");
                run(
                    &c,
                    &opts,
                    Both(
                        Profiler::new(index.clone(), LaunchWindow::ALL),
                        Both(
                            BasicBlockVectors::new(cols.clone(), LaunchWindow::ALL),
                            trace,
                        ),
                    ),
                )
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
