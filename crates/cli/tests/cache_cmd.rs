//! `warpscope cache` end to end: formats, sweeps, schedulers and configuration errors.

mod common;
use common::warpscope;

const SPEC: &str = "crates/cli/tests/specs/cache_matmul_small.toml";

#[test]
fn text_report_names_fault_types_root_causes_and_fixes() {
    let (code, out, err) = warpscope(&["cache", SPEC]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("kernel matmul_basic"), "{out}");
    assert!(out.contains("kernel matmul_modified"), "{out}");
    assert!(out.contains("L1 64K = 4 sets × 128 ways"), "{out}");
    assert!(out.contains("#1 priority"), "{out}");
    assert!(out.contains("estimated gain:"), "{out}");
    assert!(out.contains("fix ("), "{out}");
}

#[test]
fn csv_has_the_issue_columns_and_one_row_per_config_kernel_line() {
    let (code, out, err) = warpscope(&["cache", SPEC, "--l1", "16K,32K", "--format", "csv"]);
    assert_eq!(code, 0, "{err}");
    let mut lines = out.lines();
    let header = lines.next().unwrap();
    let cols: Vec<&str> = header.split(',').collect();
    // The issue's columns come first, in its order; more may follow.
    assert_eq!(
        cols[..12],
        [
            "l1_bytes",
            "scheduler",
            "kernel",
            "file",
            "line",
            "l1_sectors",
            "l1_hits",
            "l1_misses",
            "fault_mh",
            "fault_mstar_h",
            "fault_mm",
            "interference_caused",
        ],
        "{header}"
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let col = |n: &str| cols.iter().position(|c| *c == n).unwrap();
    assert!(rows.iter().all(|r| r.len() == cols.len()));
    for size in ["16384", "32768"] {
        assert!(
            rows.iter()
                .any(|r| r[col("l1_bytes")] == size && r[col("kernel")] == "matmul_modified"),
            "no row for {size}"
        );
    }
    // Hits and misses add up to lookups on every row; a smaller L1 misses at least as often.
    let mut misses = std::collections::BTreeMap::new();
    for r in &rows {
        let n = |c: &str| r[col(c)].parse::<u64>().unwrap();
        assert_eq!(n("l1_hits") + n("l1_misses"), n("l1_sectors"));
        assert!(n("fault_mh") + n("fault_mstar_h") + n("fault_mm") <= n("l1_misses"));
        *misses.entry(r[col("l1_bytes")]).or_insert(0) += n("l1_misses");
    }
    assert!(misses["16384"] >= misses["32768"], "{misses:?}");
}

#[test]
fn schedulers_side_by_side_in_the_table() {
    let (code, out, err) = warpscope(&[
        "cache",
        SPEC,
        "--scheduler",
        "lrr,gto,tl",
        "--table",
        "--format",
        "csv",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(rows.len(), 6, "{out}");
    for s in ["lrr", "gto", "tl"] {
        assert_eq!(
            rows.iter()
                .filter(|r| r.split(',').nth(3) == Some(s))
                .count(),
            2
        );
    }
    let (code, text, _) = warpscope(&["cache", SPEC, "--l1-assoc", "2,8", "--table"]);
    assert_eq!(code, 0);
    assert!(text.contains("GRAB Table 5 shape"), "{text}");
    assert!(text.contains("2-way") && text.contains("8-way"), "{text}");
}

#[test]
fn sarif_and_json_carry_cache_findings() {
    let (code, out, err) = warpscope(&["cache", SPEC, "--format", "sarif"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert!(!results.is_empty());
    assert!(
        results
            .iter()
            .all(|r| r["ruleId"].as_str().unwrap().starts_with("cache-"))
    );
    let (code, out, _) = warpscope(&["cache", SPEC, "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["configs"][0]["scheduler"], "gto");
    assert!(
        v["configs"][0]["kernels"][0]["faults"]
            .as_array()
            .unwrap()
            .len()
            == 3
    );
    assert!(v["findings"]["report"]["findings"].as_array().is_some());
}

#[test]
fn impossible_configurations_name_the_flag_or_key() {
    for (args, want) in [
        (vec!["--l1", "1000", "--l1-assoc", "4"], "--l1"),
        (vec!["--l1-assoc", "0"], "--l1-assoc"),
        (vec!["--l1", "16K,,32K"], "--l1"),
        (vec!["--l1", "12Q"], "--l1"),
        (vec!["--scheduler", "fifo"], "--scheduler"),
        (vec!["--line-size", "96"], "--line-size"),
    ] {
        let mut a = vec!["cache", SPEC];
        a.extend(args.iter());
        let (code, _, err) = warpscope(&a);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    let (code, _, err) = warpscope(&["cache", "crates/cli/tests/specs/cache_bad_key.toml"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cache_bad_key.toml:5: `cache.lines`"), "{err}");
}

/// Issue 14 for the cache debugger: the same spec gives byte-identical reports (text, JSON,
/// CSV) on 1, 2 and 8 host threads. The specs are the GRAB case study, a kernel whose blocks
/// communicate through atomics (its interleaving decides what it computes) and a histogram
/// with shared and global atomics.
#[test]
fn reports_are_byte_identical_on_1_2_and_8_host_threads() {
    let specs = [SPEC, "corpus/atomics_index.toml", "corpus/histogram.toml"];
    for spec in specs {
        for format in ["text", "json", "csv"] {
            let run = |threads: &str| {
                let (code, out, err) =
                    warpscope(&["cache", spec, "--format", format, "--threads", threads]);
                assert_eq!(code, 0, "{spec} {format} --threads {threads}: {err}");
                out
            };
            let one = run("1");
            for threads in ["2", "8"] {
                assert!(
                    one == run(threads),
                    "{spec} --format {format}: 1 and {threads} host threads differ"
                );
            }
        }
    }
}
