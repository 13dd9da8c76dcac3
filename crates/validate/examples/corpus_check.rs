//! Runs `check` on corpus files and prints findings, mismatches against the `// expect:`
//! comments and timings: `cargo run --release -p warpscope-validate --features tools --example corpus_check
//! [-- NAME_FILTER [acf|drano]]`.

use std::time::Instant;
use warpscope_analysis::Engine;
use warpscope_validate::corpus::{Spec, score};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let filter = args.first().cloned().unwrap_or_default();
    let engine = args
        .get(1)
        .and_then(|e| Engine::parse(e))
        .unwrap_or(Engine::Acf);
    let rel_dir = std::env::var("DIR").unwrap_or_else(|_| "corpus".into());
    let dir = warpscope_validate::root().join(&rel_dir);
    let files: Vec<_> = warpscope_validate::cu_with_ptx(&dir)
        .into_iter()
        .filter(|p| filter.is_empty() || p.file_stem().is_some_and(|s| *s == *filter.as_str()))
        .collect();
    for cu in files {
        let rel = format!("{rel_dir}/{}", cu.file_name().unwrap().to_string_lossy());
        let spec = Spec::parse(&std::fs::read_to_string(&cu).unwrap()).unwrap();
        let t = Instant::now();
        let r = warpscope_validate::run(&cu.with_extension("ptx"), &spec.options(engine));
        let dt = t.elapsed();
        println!(
            "== {rel}: {:.1} ms, {} findings",
            dt.as_secs_f64() * 1e3,
            r.report.findings.len()
        );
        if std::env::var("VERBOSE").is_ok() {
            for k in &r.report.kernels {
                println!("   kernel {}: {} {:?}", k.name, k.geometry, k.notes);
            }
        }
        for f in &r.report.findings {
            let loc = f.location.cuda.as_ref().map(|c| c.line).unwrap_or(0);
            println!(
                "   {loc:4} {} {} [{}] {}",
                f.rule, f.certainty, f.kernel, f.message
            );
            if std::env::var("VERBOSE").is_ok() {
                for n in &f.notes {
                    println!("          note: {n}");
                }
                for (k, m) in &f.measures {
                    println!("          {k}: {m}");
                }
            }
        }
        if std::env::var("BRANCHES").is_ok() {
            for k in &r.kernels {
                for b in &k.branches {
                    println!(
                        "   branch [{}] {:?} {:?} {:?} d={} m={} t={} cond={}",
                        k.name,
                        b.site.inst,
                        b.class,
                        b.ratio,
                        b.divergent,
                        b.maybe,
                        b.total,
                        k.expr(b.site.cond)
                    );
                }
            }
        }
        let (_, mism) = score(&spec, &rel, &r.report.findings);
        for m in mism {
            println!("   !! line {} {} {}: {}", m.line, m.rule, m.kind, m.detail);
        }
    }
}
