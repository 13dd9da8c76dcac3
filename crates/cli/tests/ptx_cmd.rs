//! `warpscope ptx` end to end: exit codes, summary, IR and DOT output, error locations.

mod common;
use common::warpscope;

#[test]
fn summary_lists_kernels() {
    let (code, out, err) = warpscope(&["ptx", "corpus/loops.ptx"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("entry _Z8tid_tripPKfPf"), "{out}");
    assert!(out.contains("total:"), "{out}");
}

#[test]
fn kernel_filter_and_ir() {
    let (code, out, err) = warpscope(&["ptx", "corpus/loops.ptx", "--ir", "--kernel", "tid_trip"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("ipdom:"), "{out}");
    assert!(
        !out.contains("fill_counts"),
        "filter leaks other functions: {out}"
    );
}

#[test]
fn cfg_dot_is_a_digraph() {
    let (code, out, err) = warpscope(&[
        "ptx",
        "corpus/loops.ptx",
        "--cfg",
        "dot",
        "--kernel",
        "tid_trip",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("digraph"), "{out}");
    assert!(out.contains("->"), "{out}");
}

#[test]
fn unknown_kernel_is_an_error() {
    let (code, _, err) = warpscope(&["ptx", "corpus/loops.ptx", "--kernel", "no_such_kernel"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("no function matches `no_such_kernel`"),
        "{err}"
    );
}

#[test]
fn malformed_ptx_reports_file_line_col_and_fails() {
    let dir = std::env::temp_dir().join(format!("ws-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ptx");
    std::fs::write(
        &bad,
        ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tadd.u32 %r1, %r2;\n\tbogus.op;\n\tret;\n}\n",
    )
    .unwrap();
    let (code, _, err) = warpscope(&["ptx", bad.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("bad.ptx:7:2"), "{err}");
    assert!(err.contains("unknown instruction"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn missing_input_fails_cleanly() {
    let (code, _, err) = warpscope(&["ptx", "does/not/exist.ptx"]);
    assert_ne!(code, 0);
    assert!(err.contains("cannot read does/not/exist.ptx"), "{err}");
}
