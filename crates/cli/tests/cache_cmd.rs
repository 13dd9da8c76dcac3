//! `warpscope cache` end to end: formats, sweeps, schedulers and configuration errors.

mod common;
use common::warpscope;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use warpscope_cache::config::{L1Size, Ways};
use warpscope_cache::{CacheRun, Settings, analyze_spec, findings, render};
use warpscope_emu::{LaunchSpec, RunOptions};
use warpscope_report::{json, sarif, text};

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

/// Issue 14 for the cache debugger, at the command line: `--threads` reaches the emulator and
/// changes nothing in any format. One small spec whose blocks communicate through atomics
/// (their interleaving decides what it computes); every corpus spec is compared below,
/// through the library.
#[test]
fn cli_reports_are_byte_identical_on_1_and_8_host_threads() {
    let spec = "corpus/atomics_index.toml";
    for format in ["text", "json", "csv", "sarif"] {
        let run = |threads: &str| {
            let (code, out, err) =
                warpscope(&["cache", spec, "--format", format, "--threads", threads]);
            assert_eq!(code, 0, "{spec} {format} --threads {threads}: {err}");
            out
        };
        assert!(
            run("1") == run("8"),
            "{spec} --format {format}: 1 and 8 host threads differ"
        );
    }
}

/// Everything `warpscope cache` can print for one analysis, by name: the text report, its
/// root-cause findings as text, JSON and SARIF, the CSV, and the sweep table in its three
/// formats (what `--format json` adds to the report is the table and the findings).
fn cache_outputs(run: &CacheRun) -> BTreeMap<&'static str, String> {
    let r = &run.report;
    let report = findings::report(r);
    let mut sources = text::Sources::new();
    for (i, name) in &run.module.files {
        if let Some(t) = run.sources.file(*i).and_then(|f| f.text()) {
            sources.insert(name.clone(), t.to_string());
        }
    }
    let opts = text::TextOptions {
        show_ptx: true,
        show_kernels: true,
    };
    BTreeMap::from([
        ("text", render::text(r, usize::MAX)),
        ("findings text", text::render(&report, &sources, &opts)),
        ("findings json", json::render(&report)),
        ("sarif", sarif::render(&report)),
        (
            "json",
            serde_json::to_string_pretty(r).expect("the report serialises"),
        ),
        ("csv", render::csv(r)),
        ("table text", render::table_text(r)),
        ("table csv", render::table_csv(r)),
        ("table json", render::table_json(r)),
    ])
}

/// A change to a spec's own cache settings.
type Adjust = fn(&mut Settings);

/// Analyses `spec` with its own cache settings, changed by `adjust`, on `threads` host threads.
fn analyse(spec: &Path, adjust: Adjust, threads: usize) -> Result<CacheRun, String> {
    let s = LaunchSpec::load(spec).map_err(|e| e.to_string())?;
    let mut settings = Settings::default();
    settings.apply_spec(&s).map_err(|e| e.to_string())?;
    adjust(&mut settings);
    let name = spec.file_stem().unwrap_or_default().to_string_lossy();
    let dir = std::env::temp_dir().join(format!(
        "warpscope-cache-reproducible-{}-{name}-{threads}",
        std::process::id()
    ));
    let mut opts = RunOptions {
        save_dir: Some(dir.clone()),
        ..RunOptions::default()
    };
    opts.exec.threads = Some(threads);
    let run = analyze_spec(&s, &settings, &opts).map_err(|e| e.to_string());
    let _ = std::fs::remove_dir_all(&dir);
    run
}

/// Issue 14 for the cache debugger: every corpus spec gives byte-identical cache reports, in
/// every format, on 1, 2 and 8 host threads.
///
/// Each spec runs with its own `[cache]` settings, by default one configuration (the auto L1
/// size and the GTO scheduler): one emulation per thread count. What the host's threads
/// decide is all exercised by one configuration: which SMs run on which thread and in what
/// order, how each SM's observer is joined into the report, how the SMs' L2 streams are
/// merged. A sweep only adds cache models fed by the same per-SM request streams, and another
/// scheduler another emulated order that host threads do not reach either.
///
/// Two specs are made smaller: at full size they took most of this test's 5 minutes of CPU in
/// debug (68 s without them; the golden trace's private caches dominate). `matmul` runs with
/// one 32 KiB 4-way L1 (`--l1 32K --l1-assoc 4`: 7 s instead of 14 s per run in release), and
/// the GRAB case study `grab_matmul` (60 s per run in release, 20 s with the smallest L1) is
/// replaced by `crates/cli/tests/specs/cache_matmul_small.toml`, the same module and kernels
/// on 4 x 4 blocks, spread over 4 SMs here (its own `sms = 1` would put every block on one
/// host thread and compare nothing).
#[test]
fn every_corpus_spec_reports_byte_identical_on_1_2_and_8_host_threads() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut specs: Vec<PathBuf> = std::fs::read_dir(root.join("corpus"))
        .expect("corpus/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    specs.sort();
    assert!(specs.len() >= 30, "the corpus lost its specs");
    let keep: Adjust = |_| {};
    let mut runs: Vec<(PathBuf, Adjust)> = Vec::new();
    for spec in specs {
        match spec.file_name().and_then(|n| n.to_str()) {
            Some("grab_matmul.toml") => runs.push((root.join(SPEC), |s| s.sms = Some(4))),
            Some("matmul.toml") => runs.push((spec, |s| {
                s.l1 = vec![L1Size::Bytes(32 << 10)];
                s.l1_ways = vec![Ways::N(4)];
            })),
            _ => runs.push((spec, keep)),
        }
    }
    // Specs run side by side (common::map_parallel); each still runs 1, 2 and 8 host threads.
    let failures: Vec<String> = common::map_parallel(&runs, |(spec, adjust)| {
        let (spec, adjust) = (spec.as_path(), *adjust);
        let name = spec.file_name().unwrap_or_default().to_string_lossy();
        let one = match analyse(spec, adjust, 1) {
            Ok(run) => cache_outputs(&run),
            Err(e) => return vec![format!("{name}: not analysed: {e}")],
        };
        let mut failures = Vec::new();
        for threads in [2, 8] {
            let other = cache_outputs(
                &analyse(spec, adjust, threads)
                    .unwrap_or_else(|e| panic!("{name} on {threads} threads: {e}")),
            );
            if let Some(format) = one.keys().find(|k| one[*k] != other[*k]) {
                let line = one[format]
                    .lines()
                    .zip(other[format].lines())
                    .position(|(a, b)| a != b)
                    .map_or_else(|| "lengths".to_string(), |i| format!("line {}", i + 1));
                failures.push(format!(
                    "{name}: `{format}` differs between 1 and {threads} threads ({line})"
                ));
            }
        }
        failures
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(
        failures.is_empty(),
        "cache reports depend on the host's thread count:\n{}",
        failures.join("\n")
    );
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

/// A root cause as (fault, fix class, CUDA line, effect lines).
type Top = (String, String, u64, Vec<u64>);

/// The top root cause of one kernel (highest priority over all fault types), from
/// `warpscope cache SPEC --format json`.
fn top_root_cause(report: &serde_json::Value, kernel: &str) -> Option<Top> {
    let k = report["configs"][0]["kernels"]
        .as_array()?
        .iter()
        .find(|k| k["name"] == kernel)?;
    let mut best: Option<(u64, Top)> = None;
    for f in k["faults"].as_array()? {
        for r in f["root_causes"].as_array().into_iter().flatten() {
            let p = r["priority"].as_u64()?;
            if best.as_ref().is_none_or(|b| p > b.0) {
                let effects = r["effects"]
                    .as_array()?
                    .iter()
                    .filter_map(|e| e["at"]["line"].as_u64())
                    .collect();
                best = Some((
                    p,
                    (
                        f["fault"].as_str()?.to_string(),
                        r["fix"].as_str()?.to_string(),
                        r["at"]["line"].as_u64()?,
                        effects,
                    ),
                ));
            }
        }
    }
    best.map(|b| b.1)
}

fn case_report(spec: &str) -> serde_json::Value {
    let (code, out, err) = warpscope(&["cache", spec, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

/// docs/cache.md's bitonic-sort case study: at GRAB's 16 KiB L1 the basic sort's top root cause
/// is a capacity miss (`m*h`) at its global loads (lines 40/41) re-read by the same warps after
/// the next barrier, so the register fix does not apply; the fix names fewer threads per SM or
/// shared memory, and the shared-memory version has no root cause left.
#[test]
fn case_study_bitonic_top_root_cause_is_capacity_at_the_global_loads() {
    let v = case_report("crates/cli/tests/specs/cache_bitonic_small.toml");
    let (fault, fix, line, effects) = top_root_cause(&v, "bitonic_basic").expect("a root cause");
    assert_eq!(fault, "m*h");
    assert_eq!(fix, "fewer-threads-per-sm");
    assert!(line == 40 || line == 41, "root cause at line {line}");
    assert!(effects.iter().all(|l| *l == 40 || *l == 41), "{effects:?}");
    assert_eq!(top_root_cause(&v, "bitonic_best"), None);
}

/// docs/cache.md's lattice-Boltzmann case study: lbm_basic's top root cause is the first loop's
/// pull (line 81) evicting values the same threads read again (lines 81-83, 88-91): the register
/// fix, which is lbm_v1; lbm_v1's is the second loop's re-pull (line 114) of what the first loop
/// read (line 103): keep it in registers across the loops (fuse), which is lbm_v2, where no
/// interference is left.
#[test]
fn case_study_lbm_top_root_causes_lead_basic_to_v1_to_v2() {
    let v = case_report("crates/cli/tests/specs/cache_lbm_small.toml");
    let (fault, fix, line, effects) = top_root_cause(&v, "lbm_basic").expect("a root cause");
    assert_eq!(
        (fault.as_str(), fix.as_str(), line),
        ("m*h", "keep-in-register", 81)
    );
    assert!(
        effects
            .iter()
            .all(|l| [81, 82, 83, 88, 89, 90, 91].contains(l)),
        "{effects:?}"
    );
    let (fault, fix, line, effects) = top_root_cause(&v, "lbm_v1").expect("a root cause");
    assert_eq!(
        (fault.as_str(), fix.as_str(), line),
        ("m*h", "keep-in-register", 103)
    );
    assert!(effects.iter().all(|l| *l == 114), "{effects:?}");
    let k = v["configs"][0]["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == "lbm_v2")
        .unwrap();
    let interference: u64 = k["faults"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["fault"] != "mm")
        .map(|f| f["count"].as_u64().unwrap())
        .sum();
    assert_eq!(interference, 0);
}
