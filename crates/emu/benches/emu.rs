//! Emulator throughput on corpus kernels, in thread-instructions per second (criterion's
//! "elements"), on one host thread and on all cores, and what reproducibility costs: kernels
//! whose blocks communicate through atomics run on the emulated schedule (the default), on
//! one thread, against `Schedule::Parallel` (`--fast-nondeterministic`); race-free kernels
//! forced onto the emulated schedule (`--deterministic`) against one host thread.
//!
//!     cargo bench -p warpscope-emu --bench emu
//!
//! Each benchmark repeats one launch of a corpus spec after the spec's earlier launches
//! prepared its inputs. The comparison with ptoxide lives in bench/emu-ptoxide.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::path::Path;
use warpscope_emu::{
    ExecConfig, LaunchSpec, NoObserver, RunOptions, Schedule, SpecRun, load_spec_module,
};

const CASES: &[(&str, &str)] = &[
    ("matmul", "matmul_naive"),
    ("matmul", "matmul_tiled"),
    ("coalesced", "saxpy_grid_stride"),
    ("reduction", "reduce_divergent"),
    ("loops", "collatz_steps"),
    ("transpose", "transpose_tiled"),
    ("lavamd", "lavamd_128"),
];

fn config(schedule: Schedule, threads: Option<usize>) -> ExecConfig {
    ExecConfig {
        schedule,
        threads,
        max_instructions: u64::MAX / 4,
        ..ExecConfig::default()
    }
}

/// Kernels whose blocks communicate (global atomics whose result is used), kernels with
/// global atomics whose order cannot matter (integer adds whose result is never read: they
/// keep parallel SMs by default), and race-free ones, for the cost of reproducibility.
const ORDERED: &[(&str, &str)] = &[
    ("atomics_index", "compact_positive"),
    ("atomics_index", "block_max_cas"),
    ("warp_shuffle", "aggregated_count"),
    ("histogram", "hist_global"),
    ("histogram", "hist_shared"),
    ("matmul", "matmul_tiled"),
    ("coalesced", "saxpy_grid_stride"),
];

/// Runs `spec_name` once (so the chosen launch sees its real inputs) and benchmarks its
/// first launch of `kernel` under each labelled configuration.
fn bench_launch(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    root: &Path,
    spec_name: &str,
    kernel: &str,
    configs: &[(&str, ExecConfig)],
) {
    let spec = LaunchSpec::load(&root.join(format!("{spec_name}.toml"))).expect("spec");
    let opts = RunOptions {
        exec: configs[0].1.clone(),
        ..RunOptions::default()
    };
    let loaded = load_spec_module(&spec, &opts.compile).expect("module");
    let text = loaded.source.text.clone();
    let mut run = SpecRun::new(&spec, loaded.module, Some(&text), &opts).expect("buffers");
    // Run the spec up to the first launch of `kernel`, so the repeated launch sees its real
    // inputs, and keep every buffer's contents from just before it: each timed launch starts
    // from them (atomic counters would otherwise grow past their arrays); restoring them is
    // not timed.
    let mut target = None;
    for (li, t) in run.schedule() {
        let name = warpscope_ir::names::qualified_name(&spec.launches[li].kernel)
            .unwrap_or_else(|| spec.launches[li].kernel.clone());
        if name == kernel {
            target = Some((li, t));
            break;
        }
        run.launch(li, t, &mut NoObserver).expect("launch");
    }
    let (li, t) = target.expect("kernel in spec");
    let places: Vec<(u64, u64)> = spec
        .buffers
        .iter()
        .filter_map(|b| run.buffer(&b.name))
        .collect();
    let buffers: Vec<(u64, Vec<u8>)> = places
        .into_iter()
        .map(|(a, n)| (a, run.emulator().read(a, n).expect("read")))
        .collect();
    let ti = run
        .launch(li, t, &mut NoObserver)
        .expect("launch")
        .stats
        .thread_instructions;
    g.throughput(Throughput::Elements(ti));
    for (label, cfg) in configs {
        run.emulator().set_config(cfg.clone());
        g.bench_function(format!("{spec_name}/{kernel}/{label}"), |b| {
            b.iter_custom(|iters| {
                let mut total = std::time::Duration::ZERO;
                for _ in 0..iters {
                    for (a, bytes) in &buffers {
                        run.emulator().write(*a, bytes).expect("restore");
                    }
                    let t0 = std::time::Instant::now();
                    run.launch(li, t, &mut NoObserver).expect("launch");
                    total += t0.elapsed();
                }
                total
            })
        });
    }
}

fn corpus(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut g = c.benchmark_group("corpus");
    g.sample_size(10);
    let configs = [
        ("1_core", config(Schedule::Auto, Some(1))),
        ("all_cores", config(Schedule::Auto, None)),
    ];
    for &(spec_name, kernel) in CASES {
        bench_launch(&mut g, &root, spec_name, kernel, &configs);
    }
    g.finish();
}

fn determinism(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut g = c.benchmark_group("determinism");
    g.sample_size(10);
    let configs = [
        ("default", config(Schedule::Auto, None)),
        ("1_core", config(Schedule::Auto, Some(1))),
        ("emulated", config(Schedule::Emulated, None)),
        ("fast_nondeterministic", config(Schedule::Parallel, None)),
    ];
    for &(spec_name, kernel) in ORDERED {
        bench_launch(&mut g, &root, spec_name, kernel, &configs);
    }
    g.finish();
}

criterion_group!(benches, corpus, determinism);
criterion_main!(benches);
