//! Accuracy of `check` on the corpus: every `corpus/*.cu` with its committed `.ptx`, the
//! launch geometry of its `// geometry:` lines and the assumptions of its `// assume:` lines,
//! scored against its `// expect:` comments per rule, for both engines. The default engine
//! must reach ≥ 95% recall and ≥ 90% precision on `divergent-branch` and `uncoalesced-access`.
//!
//! `cargo test -p warpscope-analysis --test corpus -- --nocapture` prints the table that
//! docs/accuracy.md quotes.

mod common;

use std::collections::BTreeMap;
use warpscope_analysis::Engine;
use warpscope_report::Rule;
use warpscope_validate::corpus::{Score, Spec, score};

fn corpus_files() -> Vec<(String, std::path::PathBuf, std::path::PathBuf)> {
    let dir = common::root().join("corpus");
    let mut v = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "cu") {
            let ptx = p.with_extension("ptx");
            if ptx.is_file() {
                let name = p.file_name().unwrap().to_string_lossy().to_string();
                v.push((format!("corpus/{name}"), p, ptx));
            }
        }
    }
    v.sort();
    v
}

fn evaluate(engine: Engine, verbose: bool) -> BTreeMap<Rule, Score> {
    evaluate_with(engine, verbose, true)
}

/// Scores with the corpus geometry, and with the `// assume:` lines or without them (what a
/// user who passes no `--assume` gets).
fn evaluate_with(engine: Engine, verbose: bool, assumptions: bool) -> BTreeMap<Rule, Score> {
    let mut total: BTreeMap<Rule, Score> = BTreeMap::new();
    for (rel, cu, ptx) in corpus_files() {
        let text = std::fs::read_to_string(&cu).unwrap();
        let mut spec = Spec::parse(&text).unwrap_or_else(|e| panic!("{rel}: {e}"));
        if !assumptions {
            spec.assumptions = Default::default();
            spec.kernel_assumptions.clear();
        }
        let result = common::run(&ptx, &spec.options(engine));
        let (scores, mism) = score(&spec, &rel, &result.report.findings);
        for (r, s) in scores {
            total.entry(r).or_default().add(&s);
        }
        if verbose {
            for m in mism {
                println!(
                    "  [{}] {rel}:{} {} {} ({})",
                    engine.as_str(),
                    m.line,
                    m.rule,
                    m.kind,
                    m.detail
                );
            }
        }
    }
    total
}

fn table(rows: &[(&str, BTreeMap<Rule, Score>)]) -> String {
    let mut s = String::from(
        "| engine | rule | expected | found | TP | FP | FN | recall | precision | certainty agrees |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for (engine, scores) in rows {
        for rule in Rule::STATIC {
            let sc = scores.get(&rule).copied().unwrap_or_default();
            s.push_str(&format!(
                "| {} | `{}` | {} | {} | {} | {} | {} | {:.1}% | {:.1}% | {}/{} |\n",
                engine,
                rule.id(),
                sc.tp + sc.fn_,
                sc.tp + sc.fp,
                sc.tp,
                sc.fp,
                sc.fn_,
                100.0 * sc.recall(),
                100.0 * sc.precision(),
                sc.certainty_ok,
                sc.tp
            ));
        }
    }
    s
}

#[test]
fn corpus_accuracy() {
    let acf = evaluate(Engine::Acf, true);
    let drano = evaluate(Engine::Drano, true);
    println!(
        "{}",
        table(&[
            ("acf", acf.clone()),
            ("drano", drano),
            ("acf, no `assume`", evaluate_with(Engine::Acf, false, false)),
        ])
    );
    for rule in [Rule::DivergentBranch, Rule::UncoalescedAccess] {
        let s = acf.get(&rule).copied().unwrap_or_default();
        assert!(
            s.recall() >= 0.95,
            "{rule}: recall {:.3} < 0.95",
            s.recall()
        );
        assert!(
            s.precision() >= 0.90,
            "{rule}: precision {:.3} < 0.90",
            s.precision()
        );
    }
}
