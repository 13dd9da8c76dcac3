//! Wall time of every corpus launch spec: plain emulation against the full profile (and the
//! profile with basic-block vectors and a memory trace), on one host thread.
//!
//! `cargo run --release -p warpscope-profile --features tools --example corpus_overhead [-- NAME ...]`

use std::sync::Arc;
use std::time::Instant;
use warpscope_emu::{NoObserver, RunOptions};
use warpscope_profile::bbv::{BasicBlockVectors, BlockColumns};
use warpscope_profile::trace::MemoryTrace;
use warpscope_profile::{Both, InstIndex, LaunchWindow, Profiler, load_spec, run_observed};

/// Every event switched on, nothing done: what the emulator's event plumbing costs.
#[derive(Clone, Copy)]
struct AllEvents;
impl warpscope_emu::Observer for AllEvents {
    const BLOCKS: bool = false;
    fn fork(&self) -> Self {
        AllEvents
    }
    fn join(&mut self, _o: Self) {}
}

fn timed<O: warpscope_emu::Observer>(
    spec: &warpscope_emu::LaunchSpec,
    module: &warpscope_ir::Module,
    text: &str,
    opts: &RunOptions,
    mut o: O,
) -> f64 {
    let t0 = Instant::now();
    run_observed(spec, module.clone(), Some(text), opts, &mut o).unwrap();
    t0.elapsed().as_secs_f64()
}

fn breakdown(names: &[String]) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut opts = RunOptions::default();
    opts.exec.threads = Some(1);
    opts.save_dir = Some(std::env::temp_dir().join("ws-overhead"));
    println!("| program | plain | all events | simt | divergence | coalescing | profiler |");
    println!("|---|---|---|---|---|---|---|");
    for name in names {
        let spec = load_spec(&root.join(format!("{name}.toml"))).unwrap();
        let loaded = warpscope_emu::load_spec_module(&spec, &opts.compile).unwrap();
        let (m, t) = (&loaded.module, loaded.source.text.as_str());
        let index = Arc::new(InstIndex::new(m));
        let w = LaunchWindow::ALL;
        let plain = timed(&spec, m, t, &opts, NoObserver);
        let all = timed(&spec, m, t, &opts, AllEvents);
        let simt = timed(
            &spec,
            m,
            t,
            &opts,
            warpscope_profile::SimtEfficiency::new(index.clone(), w.clone()),
        );
        let div = timed(
            &spec,
            m,
            t,
            &opts,
            warpscope_profile::DivergenceMap::new(index.clone(), w.clone()),
        );
        let coal = timed(
            &spec,
            m,
            t,
            &opts,
            warpscope_profile::Coalescing::new(index.clone(), w.clone()),
        );
        let prof = timed(&spec, m, t, &opts, Profiler::new(index.clone(), w.clone()));
        println!(
            "| {name} | {plain:.3} | {all:.3} | {simt:.3} | {div:.3} | {coal:.3} | {prof:.3} |"
        );
    }
}

fn main() {
    if let Ok(mode) = std::env::var("ONLY") {
        // One configuration, for `perf stat`: ONLY=plain|events|simt|divergence|coalescing|profile NAME
        let name = std::env::args().nth(1).expect("program name");
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
        let mut opts = RunOptions::default();
        opts.exec.threads = Some(1);
        opts.save_dir = Some(std::env::temp_dir().join("ws-overhead"));
        let spec = load_spec(&root.join(format!("{name}.toml"))).unwrap();
        let loaded = warpscope_emu::load_spec_module(&spec, &opts.compile).unwrap();
        let (m, t) = (&loaded.module, loaded.source.text.as_str());
        let index = Arc::new(InstIndex::new(m));
        let w = LaunchWindow::ALL;
        let s = match mode.as_str() {
            "plain" => timed(&spec, m, t, &opts, NoObserver),
            "events" => timed(&spec, m, t, &opts, AllEvents),
            "simt" => timed(
                &spec,
                m,
                t,
                &opts,
                warpscope_profile::SimtEfficiency::new(index, w.clone()),
            ),
            "divergence" => timed(
                &spec,
                m,
                t,
                &opts,
                warpscope_profile::DivergenceMap::new(index, w.clone()),
            ),
            "coalescing" => timed(
                &spec,
                m,
                t,
                &opts,
                warpscope_profile::Coalescing::new(index, w.clone()),
            ),
            _ => timed(&spec, m, t, &opts, Profiler::new(index, w)),
        };
        println!("{name} {mode} {s:.3}");
        return;
    }
    if std::env::var_os("BREAKDOWN").is_some() {
        let names: Vec<String> = std::env::args().skip(1).collect();
        breakdown(&names);
        return;
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let wanted: Vec<String> = std::env::args().skip(1).collect();
    let mut specs: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .filter(|p| {
            wanted.is_empty()
                || wanted
                    .iter()
                    .any(|w| p.file_stem().is_some_and(|s| s == w.as_str()))
        })
        .collect();
    specs.sort();
    let mut opts = RunOptions::default();
    opts.exec.threads = Some(1);
    opts.save_dir = Some(std::env::temp_dir().join("ws-overhead"));
    println!("| program | warp insts | plain s | profile s | ratio | +bbv+trace s | ratio |");
    println!("|---|---|---|---|---|---|---|");
    let (mut tp, mut tq, mut tr) = (0.0, 0.0, 0.0);
    for p in specs {
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        let spec = match load_spec(&p) {
            Ok(s) => s,
            Err(e) => {
                println!("| {name} | spec error: {e} |");
                continue;
            }
        };
        let loaded = match warpscope_emu::load_spec_module(&spec, &opts.compile) {
            Ok(l) => l,
            Err(e) => {
                println!("| {name} | load error: {e} |");
                continue;
            }
        };
        let text = loaded.source.text.clone();
        let module = loaded.module;
        let index = Arc::new(InstIndex::new(&module));
        let cols = Arc::new(BlockColumns::new(&module));
        // Plain.
        let t0 = Instant::now();
        let r = run_observed(&spec, module.clone(), Some(&text), &opts, &mut NoObserver);
        let plain = t0.elapsed().as_secs_f64();
        let insts = match &r {
            Ok(r) => r.total.warp_instructions,
            Err(e) => {
                println!("| {name} | run error: {e} |");
                continue;
            }
        };
        // Profile.
        let mut prof = Profiler::new(index.clone(), LaunchWindow::ALL);
        let t0 = Instant::now();
        run_observed(&spec, module.clone(), Some(&text), &opts, &mut prof).unwrap();
        let profiled = t0.elapsed().as_secs_f64();
        // Profile + BBV + trace (to a sink).
        let trace = MemoryTrace::new(Box::new(std::io::sink()), LaunchWindow::ALL).unwrap();
        let mut all = Both(
            Profiler::new(index.clone(), LaunchWindow::ALL),
            Both(BasicBlockVectors::new(cols, LaunchWindow::ALL), trace),
        );
        let t0 = Instant::now();
        run_observed(&spec, module.clone(), Some(&text), &opts, &mut all).unwrap();
        let full = t0.elapsed().as_secs_f64();
        tp += plain;
        tq += profiled;
        tr += full;
        println!(
            "| {name} | {insts} | {plain:.3} | {profiled:.3} | {:.2} | {full:.3} | {:.2} |",
            profiled / plain,
            full / plain
        );
    }
    println!(
        "| **total** | | {tp:.2} | {tq:.2} | {:.2} | {tr:.2} | {:.2} |",
        tq / tp,
        tr / tp
    );
}
