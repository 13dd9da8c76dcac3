//! `-o FILE` for every format of every command that prints a report: the output goes to the
//! file (nothing on standard output), in the format asked for, and a file that cannot be
//! written is a clear error with a non-zero exit.

mod common;

use std::path::PathBuf;

fn out_dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("output_file");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// What a file of `format` must look like.
fn assert_format(format: &str, text: &str, what: &str) {
    assert!(!text.trim().is_empty(), "{what}: empty file");
    match format {
        "json" | "sarif" => {
            let v: serde_json::Value =
                serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: not JSON ({e})"));
            if format == "sarif" {
                assert_eq!(v["version"], "2.1.0", "{what}");
            }
        }
        "csv" => {
            let header = text.lines().next().unwrap();
            assert!(header.contains(','), "{what}: no CSV header: {header}");
        }
        "html" => {
            assert!(text.starts_with("<!DOCTYPE html>"), "{what}");
            assert!(text.trim_end().ends_with("</html>"), "{what}");
        }
        _ => {}
    }
}

/// Runs `args` with `--format F -o FILE` for each format and checks the file.
fn each_format(name: &str, args: &[&str], formats: &[&str]) {
    for format in formats {
        let path = out_dir().join(format!("{name}.{format}"));
        let _ = std::fs::remove_file(&path);
        let mut a: Vec<&str> = args.to_vec();
        let p = path.to_str().unwrap();
        a.extend(["--format", format, "-o", p]);
        let (code, stdout, stderr) = common::warpscope(&a);
        let what = format!("warpscope {}", a.join(" "));
        assert_eq!(code, 0, "{what}: {stderr}");
        assert!(stdout.is_empty(), "{what} printed on stdout:\n{stdout}");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_format(format, &text, &what);
    }
}

#[test]
fn check_writes_every_format_to_a_file() {
    each_format(
        "check",
        &["check", "corpus/branch_tid.ptx"],
        &["text", "json", "sarif", "html"],
    );
}

#[test]
fn profile_writes_every_format_to_a_file() {
    each_format(
        "profile",
        &["profile", "corpus/branch_tid.toml"],
        &["text", "json", "sarif", "csv", "html"],
    );
}

#[test]
fn report_writes_every_format_to_a_file() {
    each_format(
        "report",
        &["report", "corpus/branch_tid.toml"],
        &["html", "json"],
    );
    // The page's data holds every mode: the profile's, the static check's, the model's and
    // the cache's heat-map columns, and a chart of each (the cache's L1 sweep included).
    let page: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir().join("report.json")).unwrap())
            .unwrap();
    let ids: Vec<&str> = page["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    for id in [
        "idle_lanes",
        "divergent_visits",
        "static_findings",
        "divergence_cost",
        "estimated_cycles",
        "cache_faults",
        "fault_mm",
    ] {
        assert!(ids.contains(&id), "no {id} in {ids:?}");
    }
    let charts: Vec<&str> = page["charts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["title"].as_str().unwrap())
        .collect();
    for prefix in ["SIMT efficiency", "Model: ", "Cache: ", "Cache sweep: "] {
        assert!(
            charts.iter().any(|t| t.starts_with(prefix)),
            "no `{prefix}…` chart in {charts:?}"
        );
    }
}

#[test]
fn an_unwritable_output_is_an_error() {
    let bad = out_dir().join("no-such-dir").join("x.html");
    for args in [
        vec!["check", "corpus/branch_tid.ptx"],
        vec!["report", "corpus/branch_tid.toml"],
    ] {
        let mut a = args.clone();
        a.extend(["-o", bad.to_str().unwrap()]);
        let (code, _, stderr) = common::warpscope(&a);
        assert_ne!(code, 0, "{a:?}");
        assert!(
            stderr.contains("cannot write") && stderr.contains("x.html"),
            "{a:?}: {stderr}"
        );
    }
}
