//! Same input, same answer (issue 14): every corpus spec profiled with 1, 2 and 8 host
//! threads gives byte-identical outputs: every buffer's final contents (saved or not), the
//! `printf` output, the per-launch counts behind `run`'s summary lines, and the profile in
//! each format `warpscope profile` writes (annotated source and tables, JSON, CSV, SARIF,
//! findings, basic-block vectors). One profile per spec and thread count covers `run` too: a
//! profile runs the same schedule as `run` (the profiler's observers share no state between
//! SMs), and its buffers are `run`'s saved files.
//!
//! The library is called directly rather than the binary, so each spec is loaded and
//! emulated once per thread count and rendered in every format from that one run.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use warpscope_emu::Schedule;
use warpscope_profile::{
    ProfileOptions, ProfileRun, bbv, findings, load_spec, profile_spec, render,
};
use warpscope_report::{sarif, text};

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

fn specs() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(corpus())
        .expect("corpus/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    v.sort();
    v
}

/// Profiles `spec` on `threads` host threads; `tag` keeps concurrent tests' files apart.
fn profile(spec: &Path, threads: usize, schedule: Schedule, tag: &str) -> ProfileRun {
    let s = load_spec(spec).unwrap_or_else(|e| panic!("{}: {e}", spec.display()));
    let mut opts = ProfileOptions {
        bbv: true,
        ..ProfileOptions::default()
    };
    opts.run.exec.threads = Some(threads);
    opts.run.exec.schedule = schedule;
    let name = spec.file_stem().unwrap_or_default().to_string_lossy();
    let dir = std::env::temp_dir().join(format!(
        "warpscope-reproducible-{}-{tag}-{name}-{threads}",
        std::process::id()
    ));
    opts.run.save_dir = Some(dir.clone());
    let run = profile_spec(&s, &opts).unwrap_or_else(|e| panic!("{}: {e}", spec.display()));
    let _ = std::fs::remove_dir_all(&dir);
    run
}

/// Everything a user can see of a run, by name, wall times left out.
fn outputs(run: &ProfileRun) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for (name, bytes) in &run.report.buffers {
        out.insert(format!("buffer {name}"), bytes.clone());
    }
    out.insert("printf".into(), run.report.printf.clone());
    let launches: Vec<String> = run
        .report
        .launches
        .iter()
        .map(|l| {
            format!(
                "{} {:?} {:?} {:?} {:?} {:?}",
                l.kernel, l.grid, l.block, l.stats, l.occupancy, l.order_dependence
            )
        })
        .collect();
    out.insert("launches".into(), launches.join("\n").into_bytes());
    let p = &run.profile;
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    let mut sources = text::Sources::new();
    for (i, name) in &run.module.files {
        if let Some(t) = run.sources.file(*i).and_then(|f| f.text()) {
            texts.insert(name.clone(), t.to_string());
            sources.insert(name.clone(), t.to_string());
        }
    }
    let report = findings::report(p);
    let opts = text::TextOptions {
        show_ptx: true,
        show_kernels: true,
    };
    out.insert(
        "profile text".into(),
        render::annotate(p, &texts).into_bytes(),
    );
    out.insert("profile tables".into(), render::tables(p, 10).into_bytes());
    out.insert(
        "profile findings".into(),
        text::render(&report, &sources, &opts).into_bytes(),
    );
    out.insert("profile json".into(), render::json(p).into_bytes());
    out.insert("profile csv".into(), render::csv(p).into_bytes());
    out.insert("profile sarif".into(), sarif::render(&report).into_bytes());
    if let Some(b) = &run.bbv {
        out.insert("bbv".into(), bbv::encode(&run.module, b));
        out.insert(
            "bbv summary".into(),
            serde_json::to_vec(&bbv::summary(&run.module, b)).expect("bbv summary serialises"),
        );
    }
    out
}

/// The first output that differs between `a` and `b`, with the first differing line.
fn first_difference(
    a: &BTreeMap<String, Vec<u8>>,
    b: &BTreeMap<String, Vec<u8>>,
) -> Option<String> {
    let names: Vec<&String> = a.keys().chain(b.keys()).collect();
    for name in names {
        let (x, y) = (a.get(name), b.get(name));
        if x == y {
            continue;
        }
        let (x, y) = (
            x.cloned().unwrap_or_default(),
            y.cloned().unwrap_or_default(),
        );
        let (xs, ys) = (String::from_utf8_lossy(&x), String::from_utf8_lossy(&y));
        let at = xs
            .lines()
            .zip(ys.lines())
            .position(|(l, r)| l != r)
            .map(|i| {
                let l = |s: &str| s.lines().nth(i).unwrap_or("").chars().take(200).collect();
                let (l, r): (String, String) = (l(&xs), l(&ys));
                format!("line {}: `{l}` vs `{r}`", i + 1)
            })
            .unwrap_or_else(|| format!("{} vs {} bytes", x.len(), y.len()));
        return Some(format!("`{name}` differs ({at})"));
    }
    None
}

#[test]
fn every_corpus_spec_is_byte_identical_on_1_2_and_8_host_threads() {
    let specs = specs();
    assert!(specs.len() >= 30, "the corpus lost its specs");
    // Specs run side by side (common::map_parallel); each still runs 1, 2 and 8 host threads.
    let failures: Vec<String> = common::map_parallel(&specs, |spec| {
        let one = outputs(&profile(spec, 1, Schedule::Auto, "auto"));
        let mut failures = Vec::new();
        for threads in [2, 8] {
            let other = outputs(&profile(spec, threads, Schedule::Auto, "auto"));
            if let Some(d) = first_difference(&one, &other) {
                failures.push(format!(
                    "{}: 1 vs {threads} threads: {d}",
                    spec.file_name().unwrap_or_default().to_string_lossy()
                ));
            }
        }
        failures
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(
        failures.is_empty(),
        "outputs depend on the host's thread count:\n{}",
        failures.join("\n")
    );
}

/// The test above is not vacuous: the order in which SMs run changes what a kernel whose
/// blocks communicate through atomics computes, so if the host decided that order the
/// outputs would change with it. Running SMs in parallel on one host thread is one such
/// host order (SM 0 to completion, then SM 1, ...): it must differ from the emulated
/// schedule on `atomics_index` (stream compaction by `atomicAdd`), and the default must
/// pick the emulated schedule there.
#[test]
fn atomics_index_depends_on_the_order_of_sms_so_the_default_follows_the_emulated_schedule() {
    let spec = corpus().join("atomics_index.toml");
    let auto = outputs(&profile(&spec, 2, Schedule::Auto, "order"));
    let emulated = outputs(&profile(&spec, 2, Schedule::Emulated, "order"));
    assert_eq!(first_difference(&auto, &emulated), None);
    let in_sequence = outputs(&profile(&spec, 1, Schedule::Parallel, "order"));
    // Compare the buffers only: the basic-block vectors differ too (they sort before the
    // buffers), but what a user sees first is that the kernel computes something else.
    let buffers = |m: &BTreeMap<String, Vec<u8>>| -> BTreeMap<String, Vec<u8>> {
        m.iter()
            .filter(|(k, _)| k.starts_with("buffer "))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };
    let d = first_difference(&buffers(&emulated), &buffers(&in_sequence));
    assert!(
        d.as_deref()
            .is_some_and(|d| d.contains("buffer src") || d.contains("buffer out")),
        "SMs one after another should fill `out`/`src` in another order than the emulated \
         schedule: {d:?}"
    );
}
