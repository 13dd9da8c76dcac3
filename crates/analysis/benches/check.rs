//! Criterion benchmarks of `warpscope check` over the corpus:
//! `cargo bench -p warpscope-analysis --bench check` (all), or filter with
//! `-- check/corpus`, `-- module/`.
//!
//! * `load/corpus`: parse and lower every corpus module;
//! * `check/corpus` and `check/corpus_drano`: check every (pre-loaded) module with each engine,
//!   geometry and assumptions from the corpus comments;
//! * `module/<name>`: one module with the default engine;
//! * `realworld/all` and `realworld/<name>`: the real-world evaluation set
//!   (validation/realworld/ptx: public CUDA applications), defaults (no geometry, no
//!   assumptions), every module and each one;
//! * `shape/<name>`: PTX of our own under `benches/ptx` that reproduces a slow pattern met in
//!   real code, defaults (`shape/tiled_loops`: kernels whose thread-dependent loops spend the
//!   evaluation budget, docs/performance.md "The hard limit bounds the enumeration").

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use warpscope_analysis::{Engine, Input, check};
use warpscope_ir::Module;
use warpscope_validate::corpus::Spec;

struct Loaded {
    name: String,
    module: Module,
    text: String,
    spec: Spec,
    sources: Vec<(u32, String)>,
}

fn corpus() -> Vec<Loaded> {
    warpscope_validate::cu_with_ptx(&common::root().join("corpus"))
        .into_iter()
        .map(|cu| {
            let spec = Spec::parse(&std::fs::read_to_string(&cu).unwrap()).unwrap();
            let (module, text) = common::load(&cu.with_extension("ptx"));
            let sources = module
                .files
                .iter()
                .filter_map(|(i, p)| {
                    std::fs::read_to_string(common::root().join(p))
                        .ok()
                        .map(|t| (*i, t))
                })
                .collect();
            Loaded {
                name: cu.file_stem().unwrap().to_string_lossy().into_owned(),
                module,
                text,
                spec,
                sources,
            }
        })
        .collect()
}

/// The real-world modules (validation/realworld/ptx), with default options.
fn realworld() -> Vec<Loaded> {
    let root = common::root();
    ptx_dir(&warpscope_realworld::packed::ptx_dir(&root).expect("real-world PTX"))
}

/// Every PTX module of `dir`, with default options.
fn ptx_dir(dir: &std::path::Path) -> Vec<Loaded> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let (module, text) = common::load(&p);
            Loaded {
                name: p.file_stem().unwrap().to_string_lossy().into_owned(),
                module,
                text,
                spec: Spec::default(),
                sources: Vec::new(),
            }
        })
        .collect()
}

fn run(l: &Loaded, engine: Engine) -> usize {
    let source = |i: u32| {
        l.sources
            .iter()
            .find(|(k, _)| *k == i)
            .map(|(_, t)| t.clone())
    };
    let input = Input {
        module: &l.module,
        ptx_name: &l.name,
        ptx_text: &l.text,
        source: &source,
    };
    check(&input, &l.spec.options(engine)).report.findings.len()
}

fn benches(c: &mut Criterion) {
    let mods = corpus();
    let paths: Vec<_> = mods
        .iter()
        .map(|m| {
            common::root()
                .join("corpus")
                .join(format!("{}.ptx", m.name))
        })
        .collect();
    let mut g = c.benchmark_group("load");
    g.sample_size(10);
    g.bench_function("corpus", |b| {
        b.iter(|| {
            for p in &paths {
                black_box(common::load(p));
            }
        })
    });
    g.finish();
    let mut g = c.benchmark_group("check");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    g.bench_function("corpus", |b| {
        b.iter(|| mods.iter().map(|m| run(m, Engine::Acf)).sum::<usize>())
    });
    g.bench_function("corpus_drano", |b| {
        b.iter(|| mods.iter().map(|m| run(m, Engine::Drano)).sum::<usize>())
    });
    g.finish();
    let mut g = c.benchmark_group("module");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(600));
    for m in &mods {
        g.bench_function(&m.name, |b| b.iter(|| run(m, Engine::Acf)));
    }
    g.finish();
    let shapes = ptx_dir(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/ptx"));
    let mut g = c.benchmark_group("shape");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for m in &shapes {
        g.bench_function(&m.name, |b| b.iter(|| run(m, Engine::Acf)));
    }
    g.finish();
    let real = realworld();
    let mut g = c.benchmark_group("realworld");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    g.bench_function("all", |b| {
        b.iter(|| real.iter().map(|m| run(m, Engine::Acf)).sum::<usize>())
    });
    g.warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(600));
    for m in &real {
        g.bench_function(&m.name, |b| b.iter(|| run(m, Engine::Acf)));
    }
    g.finish();
}

criterion_group!(check_benches, benches);
criterion_main!(check_benches);
