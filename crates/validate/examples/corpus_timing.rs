//! Per-module analysis times over the corpus (the table in docs/performance.md):
//! `cargo run --release -p warpscope-validate --features tools --example corpus_timing [-- RUNS]`.
//! Each module is parsed and lowered once, then checked RUNS times (default 20); the table
//! gives the median of each phase.

use std::time::{Duration, Instant};
use warpscope_analysis::{Engine, Input, check};
use warpscope_validate::corpus::Spec;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1e3)
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    let files = warpscope_validate::cu_with_ptx(&warpscope_validate::root().join("corpus"));
    println!(
        "| module | kernels | PTX lines | parse + lower | structure | uniformity | ACF | evaluation | findings | check total (acf) | check total (drano) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let mut sum_load = Duration::ZERO;
    let mut sum_acf = Duration::ZERO;
    let mut sum_drano = Duration::ZERO;
    let mut all_acf: Vec<Duration> = Vec::new();
    for cu in &files {
        let spec = Spec::parse(&std::fs::read_to_string(cu).unwrap()).unwrap();
        let ptx = cu.with_extension("ptx");
        let mut loads = Vec::new();
        let mut loaded = None;
        for _ in 0..runs.min(5) {
            let t = Instant::now();
            loaded = Some(warpscope_validate::load(&ptx));
            loads.push(t.elapsed());
        }
        let (module, text) = loaded.unwrap();
        let files_ = module.files.clone();
        let source = move |i: u32| -> Option<String> {
            let name = files_.iter().find(|(k, _)| *k == i)?.1.clone();
            std::fs::read_to_string(warpscope_validate::root().join(name)).ok()
        };
        let input = Input {
            module: &module,
            ptx_name: "x.ptx",
            ptx_text: &text,
            source: &source,
        };
        let mut phases: [Vec<Duration>; 5] = Default::default();
        let mut totals = Vec::new();
        let mut dtotals = Vec::new();
        for _ in 0..runs {
            let t = Instant::now();
            let r = check(&input, &spec.options(Engine::Acf));
            totals.push(t.elapsed());
            phases[0].push(r.timings.structure);
            phases[1].push(r.timings.uniformity);
            phases[2].push(r.timings.acf);
            phases[3].push(r.timings.evaluation);
            phases[4].push(r.timings.findings);
            let t = Instant::now();
            let _ = check(&input, &spec.options(Engine::Drano));
            dtotals.push(t.elapsed());
        }
        let load = median(loads);
        let total = median(totals);
        let dtotal = median(dtotals);
        sum_load += load;
        sum_acf += total;
        sum_drano += dtotal;
        all_acf.push(total);
        let [p0, p1, p2, p3, p4] = phases;
        println!(
            "| `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cu.file_name().unwrap().to_string_lossy(),
            module.kernels().count(),
            text.lines().count(),
            ms(load),
            ms(median(p0)),
            ms(median(p1)),
            ms(median(p2)),
            ms(median(p3)),
            ms(median(p4)),
            ms(total),
            ms(dtotal)
        );
    }
    println!(
        "| **all {} modules** | | | {} | | | | | | **{}** | **{}** |",
        files.len(),
        ms(sum_load),
        ms(sum_acf),
        ms(sum_drano)
    );
    println!();
    println!(
        "median check time per module (acf): {} ms",
        ms(median(all_acf))
    );
}
