//! `warpscope check FILE --confirm SPEC` end to end.

mod common;
use common::warpscope;
use std::path::PathBuf;

#[test]
fn confirm_marks_each_static_finding() {
    let (code, out, err) = warpscope(&[
        "check",
        "corpus/histogram.ptx",
        "--confirm",
        "corpus/histogram.toml",
    ]);
    assert_eq!(code, 0, "{err}");
    // The scattered atomicAdd is confirmed; the shared one's possible conflict is refuted by
    // this data (bins spread over the banks).
    assert!(out.contains("run verdict: Confirmed"), "{out}");
    assert!(out.contains("run verdict: Refuted"), "{out}");
    assert!(
        out.contains(
            "confirm: 1 confirmed, 1 refuted, 0 not executed by the run; 0 found by the run only"
        ),
        "{out}"
    );
    assert!(out.contains("matched by PTX line"), "{out}");
}

#[test]
fn confirm_in_json_carries_verdicts_and_run_only_findings() {
    // branch_tid's spec runs every kernel; static analysis restricted to one kernel leaves
    // the others' run-time findings as "found by the run only".
    let (code, out, err) = warpscope(&[
        "check",
        "corpus/branch_tid.ptx",
        "--kernel",
        "half_warps",
        "--format",
        "json",
        "--confirm",
        "corpus/branch_tid.toml",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let findings = v["report"]["findings"].as_array().expect("findings");
    let verdicts: Vec<&str> = findings
        .iter()
        .filter_map(|f| f["verdict"].as_str())
        .collect();
    assert!(verdicts.contains(&"confirmed"), "{out}");
    assert!(
        findings.iter().any(|f| f["kernel"] != "half_warps"),
        "run-only findings of other kernels are reported: {out}"
    );
}

#[test]
fn confirm_with_a_bad_spec_fails_cleanly() {
    let (code, _out, err) = warpscope(&[
        "check",
        "corpus/histogram.ptx",
        "--confirm",
        "corpus/no_such_spec.toml",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--confirm corpus/no_such_spec.toml"), "{err}");
}

#[test]
fn other_ptx_of_the_same_source_matches_by_cuda_line() {
    // The checked file is a copy: PTX lines are not trusted, CUDA lines are.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = std::env::temp_dir().join(format!("ws-confirm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join("histogram.ptx");
    std::fs::copy(root.join("corpus/histogram.ptx"), &copy).unwrap();
    let (code, out, err) = warpscope(&[
        "check",
        copy.to_str().unwrap(),
        "--confirm",
        "corpus/histogram.toml",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("matched by CUDA line"), "{out}");
    assert!(
        out.contains(
            "confirm: 1 confirmed, 1 refuted, 0 not executed by the run; 0 found by the run only"
        ),
        "{out}"
    );
}
