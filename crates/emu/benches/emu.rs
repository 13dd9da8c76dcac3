//! Emulator throughput on corpus kernels, in thread-instructions per second (criterion's
//! "elements"), on one core (deterministic mode) and on all cores.
//!
//!     cargo bench -p warpscope-emu --bench emu
//!
//! Each benchmark repeats one launch of a corpus spec after the spec's earlier launches
//! prepared its inputs. The comparison with ptoxide lives in bench/emu-ptoxide.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::path::Path;
use warpscope_emu::{ExecConfig, LaunchSpec, NoObserver, RunOptions, SpecRun, load_spec_module};

const CASES: &[(&str, &str)] = &[
    ("matmul", "matmul_naive"),
    ("matmul", "matmul_tiled"),
    ("coalesced", "saxpy_grid_stride"),
    ("reduction", "reduce_divergent"),
    ("loops", "collatz_steps"),
    ("transpose", "transpose_tiled"),
    ("lavamd", "lavamd_128"),
];

fn config(deterministic: bool) -> ExecConfig {
    ExecConfig {
        deterministic,
        max_instructions: u64::MAX / 4,
        ..ExecConfig::default()
    }
}

fn corpus(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut g = c.benchmark_group("corpus");
    g.sample_size(10);
    for &(spec_name, kernel) in CASES {
        let spec = LaunchSpec::load(&root.join(format!("{spec_name}.toml"))).expect("spec");
        let opts = RunOptions {
            exec: config(true),
            ..RunOptions::default()
        };
        let loaded = load_spec_module(&spec, &opts.compile).expect("module");
        let text = loaded.source.text.clone();
        let mut run = SpecRun::new(&spec, loaded.module, Some(&text), &opts).expect("buffers");
        // Run the whole spec once so the repeated launch sees its real inputs.
        let mut target = None;
        for (li, t) in run.schedule() {
            run.launch(li, t, &mut NoObserver).expect("launch");
            let name = warpscope_ir::names::qualified_name(&spec.launches[li].kernel)
                .unwrap_or_else(|| spec.launches[li].kernel.clone());
            if name == kernel && target.is_none() {
                target = Some((li, t));
            }
        }
        let (li, t) = target.expect("kernel in spec");
        let ti = run
            .launch(li, t, &mut NoObserver)
            .expect("launch")
            .stats
            .thread_instructions;
        g.throughput(Throughput::Elements(ti));
        for (label, det) in [("1_core", true), ("all_cores", false)] {
            run.emulator().set_config(config(det));
            g.bench_function(format!("{spec_name}/{kernel}/{label}"), |b| {
                b.iter(|| run.launch(li, t, &mut NoObserver).expect("launch"))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, corpus);
criterion_main!(benches);
