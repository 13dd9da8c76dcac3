//! The SARIF output validates against the official SARIF 2.1.0 JSON schema (vendored as
//! `sarif-schema-2.1.0.json`: the OASIS schema in its draft-07 form, as published in the
//! oasis-tcs/sarif-spec repository and shipped in the `serde-sarif` 0.8.0 crate).

use warpscope_report::{
    Certainty, Finding, Gain, KernelInfo, Location, Measure, PtxLocation, Report, Rule,
    SourceLocation, Step, Unit, Verdict, sarif,
};

fn schema() -> serde_json::Value {
    // The published schema's `run.language` pattern, `^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`,
    // has a stray `]` that ECMAScript regexes read as a literal but the validator's regex engine
    // rejects; use the evidently intended pattern (the file itself stays as published).
    let text = include_str!("sarif-schema-2.1.0.json").replace(
        "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$",
        "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$",
    );
    serde_json::from_str(&text).expect("schema is JSON")
}

fn sample_report() -> Report {
    let mut findings = Vec::new();
    for (i, rule) in Rule::ALL.into_iter().enumerate() {
        let mut f = Finding::new(
            rule,
            if i % 2 == 0 {
                Certainty::Definite
            } else {
                Certainty::Possible
            },
            "stride2_load",
            format!("{} example", rule.id()),
            Location {
                cuda: Some(SourceLocation {
                    file: "corpus/strided file.cu".into(),
                    line: 33 + i as u32,
                    col: if i == 0 { 0 } else { 5 },
                }),
                ptx: Some(PtxLocation {
                    file: "corpus/strided.ptx".into(),
                    line: 40,
                    col: 2,
                    instruction: Some("ld.global.f32 %f1, [%rd6];".into()),
                }),
                inlined_at: vec![],
                // One finding in header code shown at its call.
                origin: (i == 1).then(|| SourceLocation {
                    file: "include/sm_60_atomic_functions.hpp".into(),
                    line: 74,
                    col: 3,
                }),
            },
        );
        f.measures.insert(
            "sectors_per_request".into(),
            Measure::range(8.0, 9.0, Unit::Sectors).with_ideal(4.0),
        );
        f.measures.insert(
            "divergence_ratio".into(),
            Measure::exact(0.125, Unit::Ratio),
        );
        f.provenance.push(Step {
            message: "depends on %tid.x".into(),
            location: Some(SourceLocation {
                file: "corpus/strided.cu".into(),
                line: 32,
                col: 0,
            }),
            ptx: None,
        });
        f.fix = Some("use a structure of arrays".into());
        f.estimated_gain = Some(Gain {
            metric: "excess_sectors_per_request".into(),
            value: 4.0,
            unit: Unit::Sectors,
        });
        f.notes.push("block 256x1x1".into());
        if i == 3 {
            f.verdict = Some(Verdict::Confirmed);
            f.location.cuda = None;
            f.function = Some("helper".into());
        }
        findings.push(f);
    }
    Report {
        inputs: vec!["corpus/strided.ptx".into()],
        kernels: vec![KernelInfo {
            name: "stride2_load".into(),
            ptx_name: "_Z12stride2_loadPKfPf".into(),
            geometry: "block 256x1x1 (corpus), grid 128x1x1".into(),
            notes: vec![],
        }],
        findings,
    }
}

#[test]
fn sarif_output_validates_against_the_2_1_0_schema() {
    let schema = schema();
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    for report in [sample_report(), Report::default()] {
        let log = sarif::to_value(&report);
        let errors: Vec<String> = validator
            .iter_errors(&log)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "SARIF invalid:\n{}", errors.join("\n"));
        assert_eq!(log["version"], "2.1.0");
    }
}

#[test]
fn results_carry_rule_location_and_properties() {
    let log = sarif::to_value(&sample_report());
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), Rule::ALL.len());
    let r = &results[1];
    assert_eq!(r["ruleId"], "uncoalesced-access");
    assert_eq!(
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "corpus/strided%20file.cu"
    );
    assert_eq!(
        r["locations"][0]["physicalLocation"]["region"]["startLine"],
        34
    );
    assert_eq!(r["properties"]["certainty"], "possible");
    assert_eq!(
        r["properties"]["measures"]["sectors_per_request"]["min"],
        8.0
    );
    // Header code's own line is a related location.
    assert!(
        r["relatedLocations"].as_array().unwrap().iter().any(
            |l| l["physicalLocation"]["artifactLocation"]["uri"]
                == "include/sm_60_atomic_functions.hpp"
                && l["physicalLocation"]["region"]["startLine"] == 74
        ),
        "{}",
        r["relatedLocations"]
    );
    // A finding without a CUDA position points at its PTX instruction.
    assert_eq!(
        results[3]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "corpus/strided.ptx"
    );
}

#[test]
fn invalid_logs_are_rejected() {
    // The validator really checks: a result without a message is refused.
    let schema = schema();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let mut log = sarif::to_value(&sample_report());
    log["runs"][0]["results"][0]
        .as_object_mut()
        .unwrap()
        .remove("message");
    assert!(!validator.is_valid(&log));
}
