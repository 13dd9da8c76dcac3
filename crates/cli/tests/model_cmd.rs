//! `warpscope model`: the CSV interface, JSON findings, bad input, and `--regroup ALG --emit
//! DIR` end to end: the emitted spec runs and saves the same buffers as the original.

mod common;

use common::warpscope;
use std::path::{Path, PathBuf};

/// A small launch of corpus/liang.ptx (8 blocks per kernel) in a fresh directory.
fn small_spec(tag: &str) -> (PathBuf, PathBuf) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let module = std::fs::canonicalize(root.join("corpus/liang.ptx")).expect("corpus/liang.ptx");
    let dir =
        std::env::temp_dir().join(format!("warpscope-model-test-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let n = 2048;
    let g = n / 256;
    let mut s = format!("module = \"{}\"\n\n", module.display());
    for (name, ty, len, save) in [
        ("field", "f32", 8 * n, None),
        ("mc_out", "f32", n, Some("mc.bin")),
        ("cre", "f32", n, None),
        ("cim", "f32", n, None),
        ("la", "i32", n, None),
        ("lb", "i32", n, None),
        ("score", "i32", n, Some("score.bin")),
        ("iters", "i32", n, Some("iters.bin")),
    ] {
        s += &format!("[buffer.{name}]\ntype = \"{ty}\"\nlen = {len}\ninit = \"zeros\"\n");
        if let Some(f) = save {
            s += &format!("save = \"{f}\"\n");
        }
        s += "\n";
    }
    let launch = |k: &str, grid: usize, args: &str| {
        format!(
            "[[launch]]\nkernel = \"{k}\"\ngrid = [{grid}, 1, 1]\nblock = [256, 1, 1]\nargs = [ {args} ]\n\n"
        )
    };
    s += &launch(
        "liang_fill_f32",
        8 * g,
        r#"{ buffer = "field" }, { u32 = 1 }, { f32 = 0.0 }, { f32 = 1.0 }"#,
    );
    s += &launch(
        "liang_fill_i32",
        g,
        r#"{ buffer = "la" }, { u32 = 2 }, { i32 = 2 }, { i32 = 6 }"#,
    );
    s += &launch(
        "liang_fill_i32",
        g,
        r#"{ buffer = "lb" }, { u32 = 3 }, { i32 = 2 }, { i32 = 6 }"#,
    );
    s += &launch(
        "liang_fill_f32",
        g,
        r#"{ buffer = "cre" }, { u32 = 4 }, { f32 = -2.0 }, { f32 = 0.5 }"#,
    );
    s += &launch(
        "liang_fill_f32",
        g,
        r#"{ buffer = "cim" }, { u32 = 5 }, { f32 = -1.25 }, { f32 = 1.25 }"#,
    );
    s += &launch(
        "liang_mc",
        g,
        &format!(
            r#"{{ buffer = "field" }}, {{ buffer = "mc_out" }}, {{ i32 = {n} }}, {{ f32 = 0.5 }}, {{ i32 = 2 }}"#
        ),
    );
    s += &launch(
        "liang_nw",
        g,
        r#"{ buffer = "la" }, { buffer = "lb" }, { buffer = "score" }"#,
    );
    s += &launch(
        "liang_escape",
        g,
        r#"{ buffer = "cre" }, { buffer = "cim" }, { buffer = "iters" }, { i32 = 32 }"#,
    );
    let spec = dir.join("small.toml");
    std::fs::write(&spec, s).unwrap();
    (dir, spec)
}

fn csv_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

#[test]
fn csv_has_the_documented_columns_and_divergence_costs() {
    let (dir, spec) = small_spec("csv");
    let (code, out, err) = warpscope(&["model", spec.to_str().unwrap(), "--format", "csv"]);
    assert_eq!(code, 0, "{err}");
    let rows = csv_rows(&out);
    assert_eq!(
        rows[0].join(","),
        "kernel,launches,threads,bbv_weighted,bbv_weighted_scheduled,no_divergence,divergence_cost,sorting,greedy,greedy_max,h100,sorting_h100,greedy_h100,greedy_max_h100"
    );
    let row = |k: &str| {
        rows.iter()
            .find(|r| r[0] == k)
            .unwrap_or_else(|| panic!("no row for {k}: {out}"))
            .iter()
            .skip(1)
            .map(|v| v.parse::<f64>().unwrap_or_else(|_| panic!("{v} in {out}")))
            .collect::<Vec<f64>>()
    };
    let esc = row("liang_escape");
    assert_eq!(esc[0], 1.0);
    assert_eq!(esc[1], 2048.0);
    let (sched, nodiv, cost) = (esc[3], esc[4], esc[5]);
    assert!(sched > nodiv && cost > 0.0, "{out}");
    assert!((sched - nodiv - cost).abs() <= 1.0, "{out}");
    // Greedy fills warps with threads of equal trip count and keeps blocks in thread order:
    // under the model that must help (Sorting and Greedy-Max also pack the longest threads
    // into the same blocks, which a single wave of 8 blocks does not reward)
    assert!(esc[7] < sched, "{out}");
    // the fill kernels are uniform: no divergence cost
    assert_eq!(row("liang_fill_f32")[5], 0.0, "{out}");
    // warpscope's H100 estimate is at least one empty kernel's launch cost (about 1.1 µs =
    // 2200 cycles at the table's clock), before and after each regrouping; a regrouping that
    // groups threads of equal trip count must not make this compute-bound kernel slower
    assert!(esc[9] > 2000.0, "{out}");
    assert!(esc[10..13].iter().all(|&h| h > 2000.0), "{out}");
    assert!(esc[10..13].iter().all(|&h| h <= esc[9] * 1.001), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn json_carries_the_model_and_ranked_divergent_branch_findings() {
    let (dir, spec) = small_spec("json");
    let (code, out, err) = warpscope(&["model", spec.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["format"], "warpscope-model");
    let kernels = v["model"]["kernels"].as_array().unwrap();
    assert!(kernels.iter().any(|k| k["name"] == "liang_nw"));
    let findings = v["report"]["findings"].as_array().unwrap();
    assert!(!findings.is_empty());
    let costs: Vec<f64> = findings
        .iter()
        .map(|f| {
            assert_eq!(f["rule"], "divergent-branch");
            assert_eq!(f["source"], "dynamic");
            f["measures"]["divergence_cost_cycles"]["max"]
                .as_f64()
                .unwrap()
        })
        .collect();
    assert!(costs.windows(2).all(|w| w[0] >= w[1]), "{costs:?}");
    // branches are placed on their CUDA lines
    assert!(findings.iter().any(|f| {
        f["location"]["cuda"]["file"] == "corpus/liang.cu" && f["kernel"] == "liang_escape"
    }));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_input_is_refused_with_a_clear_error() {
    let (dir, spec) = small_spec("bad");
    let s = spec.to_str().unwrap();
    let (code, _, err) = warpscope(&["model", s, "--format", "xml"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown format `xml`"), "{err}");
    let (code, _, err) = warpscope(&["model", s, "--group-size", "48"]);
    assert_eq!(code, 2);
    assert!(err.contains("multiple of the warp size"), "{err}");
    let (code, _, err) = warpscope(&["model", s, "--regroup", "bogo", "--emit", "/tmp/x"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown regrouping `bogo`"), "{err}");
    let (code, _, _) = warpscope(&["model", s, "--regroup", "sorting"]);
    assert_eq!(code, 2, "--regroup needs --emit");
    let (code, _, err) = warpscope(&["model", "no/such/spec.toml"]);
    assert_eq!(code, 2);
    assert!(err.contains("no/such/spec.toml"), "{err}");
    let bad_table = dir.join("lat.tsv");
    std::fs::write(&bad_table, "int_alu\tfour\n").unwrap();
    let (code, _, err) = warpscope(&["model", s, "--latency", bad_table.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("line 1"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn every_regrouped_launch_runs_and_saves_the_same_buffers() {
    let (dir, spec) = small_spec("emit");
    let s = spec.to_str().unwrap();
    let orig = dir.join("orig");
    let (code, _, err) = warpscope(&["run", s, "-q", "--save-dir", orig.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    for alg in ["sorting", "greedy", "greedy-max"] {
        let em = dir.join(format!("em-{alg}"));
        let (code, _, err) = warpscope(&[
            "model",
            s,
            "--format",
            "csv",
            "--regroup",
            alg,
            "--emit",
            em.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{alg}: {err}");
        assert!(err.contains("kernels rewritten"), "{err}");
        let text = std::fs::read_to_string(em.join("spec.toml")).unwrap();
        assert!(
            text.contains("ws_perm_7"),
            "the escape launch gets a permutation: {text}"
        );
        let ptx = std::fs::read_to_string(em.join("liang.regrouped.ptx")).unwrap();
        assert!(ptx.contains("%ws_tid_x"));
        let out = dir.join(format!("out-{alg}"));
        let (code, _, err) = warpscope(&[
            "run",
            em.join("spec.toml").to_str().unwrap(),
            "-q",
            "--save-dir",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{alg}: {err}");
        for f in ["mc.bin", "score.bin", "iters.bin"] {
            let a = std::fs::read(orig.join(f)).unwrap();
            let b = std::fs::read(out.join(f)).unwrap();
            assert!(a == b, "{alg}: {f} differs from the original run's");
        }
        // the permutation really permutes: some thread slot runs another thread's work
        let perm = std::fs::read(em.join("perm_7.bin")).unwrap();
        let ids: Vec<u32> = perm
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(ids.len(), 2048);
        assert!(ids.iter().enumerate().any(|(i, &t)| i as u32 != t), "{alg}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn html_page_has_cards_ranked_branches_linked_to_their_lines_and_charts() {
    use common::page::{Html, assert_row_links_to_its_line};
    // branch_tid: six kernels, one divergent branch each (the small liang spec takes minutes
    // to model in a debug build).
    let spec = "corpus/branch_tid.toml";
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("model_html");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("branch_tid.html");
    let (code, out, err) = warpscope(&[
        "model",
        spec,
        "--format",
        "html",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty(), "{out}");
    let page = Html::read(&file);
    page.assert_well_formed("model --format html");
    // The same answers as the JSON report.
    let (_, json, _) = warpscope(&["model", spec, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    let kernels = v["model"]["kernels"].as_array().unwrap();

    // One card per kernel, with the estimates.
    let titles = page.card_titles();
    assert_eq!(titles.len(), kernels.len(), "{titles:?}");
    for k in kernels {
        let name = k["name"].as_str().unwrap();
        assert!(titles.iter().any(|t| t == name), "{name} not in {titles:?}");
    }
    let esc = page.card("odd_even");
    let labels: Vec<&str> = esc.iter().map(|(l, _)| l.as_str()).collect();
    for l in [
        "BBV-weighted-scheduled",
        "H100 throughput (warpscope's, not the paper's)",
        "without divergence",
        "divergence cost",
        "best regrouping",
        "occupancy",
    ] {
        assert!(labels.contains(&l), "{l} missing from {esc:?}");
    }

    // The branches ranked by cost, each row linking to its own CUDA line, the first row the
    // most expensive branch of the JSON report.
    let t = page
        .table("Model: divergence cost per branch")
        .expect("branch table");
    assert!(!t.rows.is_empty());
    for r in &t.rows {
        assert_row_links_to_its_line(&page, r, 0);
    }
    let costs: Vec<f64> = kernels
        .iter()
        .flat_map(|k| k["branches"].as_array().unwrap())
        .map(|b| b["cost_cycles"].as_f64().unwrap())
        .collect();
    let top = costs.iter().copied().fold(0.0, f64::max);
    assert!(top > 0.0);
    let col = t.columns.iter().position(|c| c == "cost (cycles)").unwrap();
    let cycles = |c: &str| {
        let (num, scale) = match c.chars().last() {
            Some('k') => (&c[..c.len() - 1], 1e3),
            Some('M') => (&c[..c.len() - 1], 1e6),
            Some('G') => (&c[..c.len() - 1], 1e9),
            _ => (c, 1.0),
        };
        num.parse::<f64>().unwrap_or_else(|_| panic!("{c}")) * scale
    };
    let shown: Vec<f64> = t.rows.iter().map(|r| cycles(&r.cells[col])).collect();
    assert!(shown.windows(2).all(|w| w[0] >= w[1]), "{shown:?}");
    assert!((shown[0] - top).abs() <= top * 0.01, "{shown:?} vs {top}");

    // The heat map opens on the divergence cost; its hottest line holds at least the most
    // expensive branch and a ranked row leads to it.
    assert_eq!(page.selected_metric().as_deref(), Some("divergence_cost"));
    let (max, hot) = page.hottest("divergence_cost");
    assert!(max >= top * 0.99, "{max} vs {top}");
    assert!(
        t.rows
            .iter()
            .any(|r| r.target.as_ref().is_some_and(|x| hot.contains(x))),
        "no row leads to the hottest line {hot:?}"
    );

    // Two SVG charts: estimates per kernel, cost against measured divergent visits.
    let charts = page.charts();
    assert_eq!(charts.len(), 2, "{}", charts.len());
    assert!(charts.iter().all(|c| c.starts_with("<svg")));
    assert!(charts[0].contains("odd_even"));
}
