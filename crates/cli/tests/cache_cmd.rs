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

#[test]
fn html_page_has_fault_heat_map_cards_ranked_root_causes_and_sweep_chart() {
    use common::page::{Html, assert_row_links_to_its_line};
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cache_html");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cache.html");
    let sweep = ["--l1", "16K,64K"];
    let mut args = vec![
        "cache",
        SPEC,
        "--format",
        "html",
        "-o",
        file.to_str().unwrap(),
    ];
    args.extend(sweep);
    let (code, out, err) = warpscope(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty(), "{out}");
    let page = Html::read(&file);
    page.assert_well_formed("cache --format html");
    // The same run as JSON, to check the page against.
    let mut args = vec!["cache", SPEC, "--format", "json"];
    args.extend(sweep);
    let (code, json, err) = warpscope(&args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let first = &v["configs"][0];

    // A card per kernel with its hit rates (first configuration: 16K).
    for k in first["kernels"].as_array().unwrap() {
        let card = page.card(k["name"].as_str().unwrap());
        let get = |l: &str| {
            card.iter()
                .find(|(x, _)| x == l)
                .unwrap_or_else(|| panic!("{l} missing from {card:?}"))
                .1
                .clone()
        };
        assert!(get("L1 (cache model)").starts_with("16K = "), "{card:?}");
        for (label, key) in [
            ("L1 hit rate", "l1_hit_rate"),
            ("L2 hit rate", "l2_hit_rate"),
        ] {
            let want = k["totals"][key]
                .as_f64()
                .map_or("-".to_string(), |r| format!("{:.1}%", 100.0 * r));
            assert_eq!(get(label), want, "{label}");
        }
    }

    // The fault types are heat-map metrics; the hottest line of all faults is the line with
    // the most load misses in the report.
    let metrics = page.metrics();
    for m in ["cache_faults", "fault_mh", "fault_mstar_h", "fault_mm"] {
        assert!(metrics.iter().any(|x| x == m), "{m} not in {metrics:?}");
    }
    let mut per_line = std::collections::BTreeMap::new();
    for k in first["kernels"].as_array().unwrap() {
        for l in k["lines"].as_array().unwrap() {
            let t = &l["totals"];
            let n = ["fault_mh", "fault_mstar_h", "fault_mm"]
                .iter()
                .map(|f| t[f].as_u64().unwrap())
                .sum::<u64>();
            *per_line.entry(l["line"].as_u64().unwrap()).or_insert(0) += n;
        }
    }
    let (&line, &most) = per_line.iter().max_by_key(|e| *e.1).unwrap();
    let (max, hot) = page.hottest("cache_faults");
    assert_eq!(max, most as f64);
    assert!(
        hot.iter().any(|h| h.ends_with(&format!("-L{line}"))),
        "{hot:?} vs line {line}"
    );

    // Root causes ranked by the misses they cause, each with its fix, linked to its line.
    let t = page.table("Cache: root causes").expect("root-cause table");
    assert!(t.rows.len() >= 2);
    let col = |n: &str| t.columns.iter().position(|c| c == n).unwrap();
    let caused: Vec<u64> = t
        .rows
        .iter()
        .map(|r| r.cells[col("misses caused")].parse().unwrap())
        .collect();
    assert!(caused.windows(2).all(|w| w[0] >= w[1]), "{caused:?}");
    let top = first["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|k| k["faults"].as_array().unwrap())
        .flat_map(|f| f["root_causes"].as_array().unwrap())
        .map(|r| r["priority"].as_u64().unwrap())
        .max()
        .unwrap();
    assert_eq!(caused[0], top);
    for r in &t.rows {
        assert_row_links_to_its_line(&page, r, col("root cause"));
        assert!(["mh", "m*h", "mm"].contains(&r.cells[col("fault")].as_str()));
        assert!(!r.cells[col("fix")].is_empty());
    }
    assert!(
        page.table("Cache: where")
            .is_some_and(|t| !t.rows.is_empty())
    );

    // Charts: misses by fault type per configuration, and the L1 sweep.
    let charts = page.charts();
    assert_eq!(charts.len(), 2, "{charts:?}");
    assert!(charts.iter().all(|c| c.starts_with("<svg")));
    assert!(charts[1].contains("L1 size"), "{}", charts[1]);
    assert!(charts[1].contains("gto hits") && charts[1].contains("gto misses"));
}
