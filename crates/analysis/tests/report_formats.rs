//! `check`'s findings through every renderer: SARIF that validates against the SARIF 2.1.0
//! schema, JSON that reads back, rustc-style text with the source line; and the
//! `// warpscope: allow(RULE)` suppression comment.

mod common;

use warpscope_analysis::{Engine, Input, check};
use warpscope_report::{Rule, json, sarif, text};
use warpscope_validate::corpus::Spec;

fn corpus(name: &str) -> (std::path::PathBuf, Spec) {
    let cu = common::root().join(format!("corpus/{name}.cu"));
    let spec = Spec::parse(&std::fs::read_to_string(&cu).unwrap()).unwrap();
    (cu.with_extension("ptx"), spec)
}

#[test]
fn sarif_of_real_findings_validates() {
    let text = include_str!("../../report/tests/sarif-schema-2.1.0.json").replace(
        "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$",
        "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$",
    );
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    for name in [
        "strided",
        "bank_conflicts",
        "branch_data",
        "device_calls",
        "nw",
    ] {
        let (ptx, spec) = corpus(name);
        for engine in [Engine::Acf, Engine::Drano] {
            let r = common::run(&ptx, &spec.options(engine));
            if engine == Engine::Acf {
                assert!(!r.report.findings.is_empty(), "{name}");
            }
            let log = sarif::to_value(&r.report);
            let errors: Vec<String> = validator
                .iter_errors(&log)
                .map(|e| format!("{e} at {}", e.instance_path()))
                .collect();
            assert!(errors.is_empty(), "{name}: {errors:#?}");
            if r.report.findings.is_empty() {
                continue;
            }
            let first = &log["runs"][0]["results"][0];
            assert!(first["ruleId"].is_string());
            assert!(first["properties"]["certainty"].is_string());
            assert!(
                first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap()
                    .starts_with("corpus/")
            );
        }
    }
}

#[test]
fn json_round_trips_and_text_quotes_the_source() {
    let (ptx, spec) = corpus("strided");
    let r = common::run(&ptx, &spec.options(Engine::Acf));
    let back = json::parse(&json::render(&r.report)).unwrap();
    assert_eq!(back, r.report);
    let mut sources = text::Sources::new();
    sources.insert(
        "corpus/strided.cu",
        std::fs::read_to_string(common::root().join("corpus/strided.cu")).unwrap(),
    );
    let out = text::render(&r.report, &sources, &text::TextOptions::default());
    assert!(out.contains("warning[uncoalesced-access]"), "{out}");
    assert!(out.contains("corpus/strided.cu:33:"), "{out}");
    assert!(out.contains("out[i] = in[2 * i] + 1.0f;"), "{out}");
    assert!(out.contains("why:"), "{out}");
    assert!(out.contains("help:"), "{out}");
}

#[test]
fn allow_comment_on_the_line_above_suppresses() {
    let (ptx, spec) = corpus("strided");
    let (module, text) = common::load(&ptx);
    // Line 32 becomes the suppression comment for line 33 (line numbers stay put).
    let src = std::fs::read_to_string(common::root().join("corpus/strided.cu")).unwrap();
    let patched: String = src
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 31 {
                "    // warpscope: allow(uncoalesced-access)".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let source = move |i: u32| (i == 1).then(|| patched.clone());
    let input = Input {
        module: &module,
        ptx_name: "corpus/strided.ptx",
        ptx_text: &text,
        source: &source,
    };
    let r = check(&input, &spec.options(Engine::Acf));
    assert_eq!(r.suppressed, 1);
    assert!(
        !r.report
            .findings
            .iter()
            .any(|f| f.rule == Rule::UncoalescedAccess
                && f.location.cuda.as_ref().is_some_and(|c| c.line == 33))
    );
}

#[test]
fn default_geometry_is_gpuchecks_and_is_reported() {
    let (ptx, _) = corpus("strided");
    let r = common::run(&ptx, &warpscope_analysis::CheckOptions::default());
    let k = &r.report.kernels[0];
    assert!(k.geometry.contains("256x1x1"), "{}", k.geometry);
    assert!(k.geometry.contains("GPUCheck"), "{}", k.geometry);
    assert!(k.geometry.contains("grid unknown"), "{}", k.geometry);
}
