//! Profiles of corpus launch specs: known answers, the corpus's own `// expect:` comments,
//! snapshots of the annotated source and the CSV, findings through the report crate's
//! renderers, `--confirm` verdicts and the Nsight Compute comparison on a hand-written CSV.

use std::collections::BTreeMap;
use std::path::PathBuf;
use warpscope_profile::{
    Counters, Profile, ProfileOptions, ProfileRun, confirm, findings, load_spec, ncu, profile_spec,
    render,
};
use warpscope_report::{
    Certainty, Finding, Location, Origin, Rule, SourceLocation, Verdict, json, sarif, text,
};

fn corpus(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(name)
}

fn run(name: &str) -> ProfileRun {
    let spec = load_spec(&corpus(&format!("{name}.toml"))).expect("spec loads");
    let mut opts = ProfileOptions::default();
    opts.run.save_dir =
        Some(std::env::temp_dir().join(format!("ws-profile-{}", std::process::id())));
    profile_spec(&spec, &opts).expect("profile runs")
}

fn sources(r: &ProfileRun) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    for (i, name) in &r.module.files {
        if let Some(t) = r.sources.file(*i).and_then(|f| f.text()) {
            m.insert(name.clone(), t.to_string());
        }
    }
    m
}

fn line(p: &Profile, file: &str, l: u32) -> Counters {
    p.line(file, l, true)
}

#[test]
fn bank_conflicts_known_answers() {
    let r = run("bank_conflicts");
    let p = &r.profile;
    let f = "bank_conflicts.cu";
    // s[(2t) & 255]: 2-way; 2048 warp requests (256 blocks x 8 warps).
    let c = line(p, f, 43);
    assert_eq!(
        (
            c.shared.requests,
            c.shared.wavefronts,
            c.shared.ideal_wavefronts
        ),
        (2048, 4096, 2048)
    );
    assert_eq!(c.shared.ways_max, 2);
    // 32x32 column: 32-way.
    let c = line(p, f, 57);
    assert_eq!(
        (
            c.shared.wavefronts,
            c.shared.ideal_wavefronts,
            c.shared.ways_max
        ),
        (65536, 2048, 32)
    );
    // Padded to 33: none; stride 3: none; broadcast: none; bytes: none.
    for l in [73, 86, 96, 126] {
        let c = line(p, f, l);
        assert!(c.shared.requests > 0, "line {l}");
        assert_eq!(c.shared.excess_wavefronts(), 0, "line {l}");
    }
    // Doubles: contiguous = 2 wavefronts per request (ideal), stride 2 = 4 (2-way).
    let c = line(p, f, 106);
    assert_eq!(
        (c.shared.wavefronts, c.shared.ideal_wavefronts),
        (4096, 4096)
    );
    let c = line(p, f, 116);
    assert_eq!(
        (
            c.shared.wavefronts,
            c.shared.ideal_wavefronts,
            c.shared.ways_max
        ),
        (8192, 4096, 2)
    );
    // Global traffic is coalesced everywhere: 4 sectors per float request.
    assert_eq!(p.totals().global.excess_sectors(), 0);
}

#[test]
fn snapshots_of_annotated_source_and_csv() {
    let r = run("bank_conflicts");
    insta::assert_snapshot!(
        "bank_conflicts_annotated",
        render::annotate(&r.profile, &sources(&r))
    );
    insta::assert_snapshot!("bank_conflicts_csv", render::csv(&r.profile));
    let r = run("branch_tid");
    insta::assert_snapshot!(
        "branch_tid_annotated",
        render::annotate(&r.profile, &sources(&r))
    );
    insta::assert_snapshot!("branch_tid_csv", render::csv(&r.profile));
    insta::assert_snapshot!("branch_tid_tables", render::tables(&r.profile, 10));
}

/// `// expect: RULE definite` comments of a corpus source, by line.
fn expectations(cu: &str) -> Vec<(u32, Rule)> {
    let text = std::fs::read_to_string(corpus(cu)).unwrap();
    let mut v = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let Some(at) = l.find("// expect:") else {
            continue;
        };
        let rest = &l[at + "// expect:".len()..];
        for part in rest.split(',') {
            let mut w = part.split_whitespace();
            if let (Some(rule), Some("definite")) = (w.next(), w.next())
                && let Some(r) = Rule::from_id(rule)
            {
                v.push((i as u32 + 1, r));
            }
        }
    }
    v
}

/// Every definite expectation of a corpus program shows up as a dynamic finding on its line.
fn expectations_hold(name: &str) {
    let r = run(name);
    let found = findings::findings(&r.profile);
    let exp = expectations(&format!("{name}.cu"));
    assert!(!exp.is_empty(), "{name} has expectations");
    let mut missing = Vec::new();
    for (l, rule) in exp {
        let hit = found
            .iter()
            .any(|f| f.rule == rule && f.location.cuda.as_ref().is_some_and(|c| c.line == l));
        if !hit {
            missing.push(format!("{name}.cu:{l} {rule}"));
        }
    }
    assert!(missing.is_empty(), "not measured: {missing:?}");
}

#[test]
fn corpus_expectations_hold_dynamically() {
    for name in ["branch_tid", "misaligned", "bank_conflicts", "aos"] {
        expectations_hold(name);
    }
}

/// The same over the whole corpus (slow in debug builds:
/// `cargo test --release -p warpscope-profile --test corpus -- --ignored`).
#[test]
#[ignore = "slow in debug builds: cargo test --release -p warpscope-profile --test corpus -- --ignored"]
fn all_corpus_expectations() {
    let mut failures = Vec::new();
    let mut names: Vec<String> = std::fs::read_dir(corpus(""))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let p = e.path();
            (p.extension()? == "toml")
                .then(|| p.file_stem().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    for n in names {
        if expectations(&format!("{n}.cu")).is_empty() {
            continue;
        }
        if let Err(e) = std::panic::catch_unwind(|| expectations_hold(&n)) {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_else(|| "panic".into());
            failures.push(msg);
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn findings_render_through_the_report_crate() {
    let r = run("branch_tid");
    let report = findings::report(&r.profile);
    assert!(report.count(Rule::DivergentBranch) >= 4);
    assert!(report.findings.iter().all(|f| f.source == Origin::Dynamic));
    assert!(
        report
            .findings
            .iter()
            .all(|f| f.certainty == Certainty::Definite)
    );
    let mut srcs = text::Sources::new();
    for (k, v) in sources(&r) {
        srcs.insert(k, v);
    }
    let t = text::render(&report, &srcs, &text::TextOptions::default());
    assert!(t.contains("divergent-branch"), "{t}");
    assert!(
        t.contains("if (threadIdx.x % 2)"),
        "quotes the source line:\n{t}"
    );
    let j = json::render(&report);
    let back = json::parse(&j).expect("JSON round-trips");
    assert_eq!(back.findings.len(), report.findings.len());
    let s = sarif::render(&report);
    let v: serde_json::Value = serde_json::from_str(&s).unwrap();
    let ids: Vec<&str> = v["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["ruleId"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"divergent-branch"));
    assert!(ids.contains(&"misaligned-access"));
    // The profile's own JSON round-trips too.
    let pj = render::json(&r.profile);
    assert_eq!(render::parse_json(&pj).unwrap(), r.profile);
}

fn static_finding(rule: Rule, kernel: &str, line: u32) -> Finding {
    Finding::new(
        rule,
        Certainty::Definite,
        kernel,
        "static",
        Location {
            cuda: Some(SourceLocation {
                file: "corpus/branch_tid.cu".into(),
                line,
                col: 0,
            }),
            ptx: None,
            inlined_at: Vec::new(),
            origin: None,
        },
    )
}

#[test]
fn confirm_marks_static_findings() {
    let r = run("branch_tid");
    let statics = vec![
        static_finding(Rule::DivergentBranch, "odd_even", 36),
        // A wrong claim: line 34 (`int i = ...`) holds no shared access.
        static_finding(Rule::BankConflict, "odd_even", 34),
        // The right line, the wrong rule: the access is coalesced-but-misaligned.
        static_finding(Rule::UncoalescedAccess, "half_warps", 73),
        static_finding(Rule::DivergentBranch, "no_such_kernel", 36),
    ];
    let c = confirm::confirm(&statics, &r.profile);
    let v: Vec<Option<Verdict>> = c.findings.iter().map(|f| f.verdict).collect();
    assert_eq!(
        v,
        vec![
            Some(Verdict::Confirmed),
            Some(Verdict::NotExecuted),
            Some(Verdict::Refuted),
            Some(Verdict::NotExecuted),
        ]
    );
    assert!(c.findings[0].notes.last().unwrap().contains("diverged in"));
    // What the run found that these four do not cover.
    assert!(
        c.missed.iter().any(
            |f| f.rule == Rule::DivergentBranch && f.location.cuda.as_ref().unwrap().line == 48
        )
    );
    assert!(
        !c.missed.iter().any(
            |f| f.rule == Rule::DivergentBranch && f.location.cuda.as_ref().unwrap().line == 36
        )
    );
}

/// A hand-written CSV in the layout of `ncu -i REP --page source --csv --print-source
/// cuda,sass`: kernel name row, CUDA-line header and rows, then correlated SASS rows.
fn hand_written_ncu_csv(p: &Profile) -> String {
    let c43 = line(p, "bank_conflicts.cu", 43);
    let c57 = line(p, "bank_conflicts.cu", 57);
    let c41 = line(p, "bank_conflicts.cu", 41);
    let hdr = "\"Line No\",\"Source\",\"Instructions Executed\",\"Thread Instructions Executed\",\"Predicated-On Thread Instructions Executed\",\"Divergent Branches\",\"L1 Conflicts Shared N-Way\",\"L1 Wavefronts Shared Excessive\",\"L1 Wavefronts Shared\",\"L1 Wavefronts Shared Ideal\",\"L2 Theoretical Sectors Global Excessive\",\"L2 Theoretical Sectors Global\",\"L2 Theoretical Sectors Global Ideal\"";
    // ncu's N-Way of a line: wavefronts per request, summed over its shared instructions.
    let nway = |l: u32| -> f64 {
        p.kernels
            .iter()
            .flat_map(|k| &k.instructions)
            .filter(|i| i.line == l && i.counters.shared.requests > 0)
            .map(|i| i.counters.shared.wavefronts as f64 / i.counters.shared.requests as f64)
            .sum()
    };
    let row = |l: u32, src: &str, c: &Counters, sectors_override: Option<u64>| {
        let sectors = sectors_override.unwrap_or(c.global.sectors);
        format!(
            "\"{l}\",\"{src}\",\"{}\",\"{}\",\"{}\",\"0\",\"{}\",\"{}\",\"{}\",\"{}\",\"{}\",\"{}\",\"{}\"",
            c.instructions,
            c.thread_instructions,
            c.predicated_on_thread_instructions,
            nway(l),
            c.shared.excess_wavefronts(),
            // ncu prints thousands separators inside quotes.
            fmt_thousands(c.shared.wavefronts),
            c.shared.ideal_wavefronts,
            sectors.saturating_sub(c.global.ideal_sectors),
            sectors,
            c.global.ideal_sectors
        )
    };
    [
        "\"Kernel Name\",\"smem_stride2(const float *, float *)\"".to_string(),
        "\"File Path\",\"/home/user/warpscope/corpus/bank_conflicts.cu\"".to_string(),
        hdr.to_string(),
        row(41, "    s[t] = in[i];", &c41, None),
        "\"0x7f0000000100\",\"      LDG.E R2, desc[UR4][R2.64] \",\"1\"".to_string(),
        row(43, "    out[i] = s[(2 * t) & 255];", &c43, None),
        "\"Kernel Name\",\"smem_column32(const float *, float *)\"".to_string(),
        hdr.to_string(),
        // A deliberate difference: one sector more than we count.
        row(
            57,
            "        out[base + e] = s[(e % 32) * 32 + e / 32];",
            &c57,
            Some(c57.global.sectors + 1),
        ),
    ]
    .join("\n")
        + "\n"
}

fn fmt_thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[test]
fn ncu_comparison_on_a_hand_written_csv() {
    let r = run("bank_conflicts");
    let csv = hand_written_ncu_csv(&r.profile);
    let n = ncu::parse_source_csv(&csv);
    assert_eq!(n.kernels.len(), 2);
    let l43 = &n.lines[&("bank_conflicts.cu".to_string(), 43)];
    assert_eq!(
        l43.shared_wavefronts,
        Some(4096.0),
        "thousands separators parse"
    );
    assert_eq!(l43.shared_n_way, Some(2.0));
    assert_eq!(
        n.lines[&("bank_conflicts.cu".to_string(), 41)].sass.len(),
        1
    );
    let cmp = ncu::compare(&r.profile, &n);
    let get = |l: u32| cmp.lines.iter().find(|c| c.line == l).unwrap();
    assert!(get(41).exact());
    assert!(get(43).exact());
    assert!(!get(57).exact());
    assert!(!get(57).sectors_equal && get(57).wavefronts_equal == Some(true));
    let md = ncu::render_markdown("bank_conflicts", &cmp);
    assert!(md.contains("| bank_conflicts.cu:57 |"), "{md}");
    // Lines the CSV does not cover count as differences (ncu saw no traffic there).
    let (total, exact) = cmp.memory_agreement();
    assert!(total > 3 && exact == 2, "{total} {exact}");
}

/// Nsight Compute's source pages of three corpus programs on the H100 (copies from
/// `validation/h100/ncu/source-pages.tar.gz`): the comparison must explain what differs.
fn h100_page(name: &str) -> ncu::NcuSource {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/h100")
        .join(format!("{name}.source.csv"));
    ncu::parse_source_csv(&std::fs::read_to_string(path).expect("source page"))
}

#[test]
fn h100_inlined_atomics_count_where_ncu_shows_them() {
    let r = run("histogram");
    let cmp = ncu::compare(&r.profile, &h100_page("histogram"));
    let get = |l: u32| {
        cmp.lines
            .iter()
            .find(|c| c.file == "histogram.cu" && c.line == l)
            .unwrap()
    };
    // `atomicAdd(&sh[bin], 1u)`: ncu shows the inlined ATOMS on the calling line too;
    // `atomicAdd(&hist[bin], 1u)` in hist_global: only on the header's line.
    assert_eq!(get(49).inlined_code, Some(true));
    assert_eq!(get(37).inlined_code, Some(false));
    let (total, exact) = cmp.memory_agreement();
    assert_eq!(
        (total, exact),
        (7, 7),
        "{}",
        ncu::render_markdown("histogram", &cmp)
    );
}

#[test]
fn h100_differences_carry_their_reason() {
    let r = run("branch_tid");
    let cmp = ncu::compare(&r.profile, &h100_page("branch_tid"));
    let differing: Vec<&ncu::LineComparison> = cmp.memory_lines().filter(|l| !l.exact()).collect();
    // The hoisted `a[i]` load has `.loc 1 0 0`; ptxas puts it on line 73, we on line 68.
    let lines: Vec<u32> = differing.iter().map(|l| l.line).collect();
    assert_eq!(lines, [68, 73]);
    assert_eq!(differing[0].moved_with, [73]);
    assert!(differing[0].line_inferred);
    assert!(differing[0].reason().unwrap().starts_with("moved"));

    let r = run("atomics_index");
    let cmp = ncu::compare(&r.profile, &h100_page("atomics_index"));
    let why = |l: u32| {
        cmp.lines
            .iter()
            .find(|c| c.file == "atomics_index.cu" && c.line == l)
            .unwrap()
            .reason()
    };
    // atomicCAS retries: contention; out[pos] with pos from atomicAdd: addresses.
    assert!(
        why(54).unwrap().contains("atomic retry loop"),
        "{:?}",
        why(54)
    );
    assert!(
        why(41).unwrap().starts_with("as many requests"),
        "{:?}",
        why(41)
    );
    for l in cmp.memory_lines() {
        assert_eq!(l.exact(), l.reason().is_none(), "{}:{}", l.file, l.line);
    }
}

#[test]
fn inlined_header_code_is_reported_at_its_call_site() {
    // hist_global's atomicAdd is `atom.global.add` under `.loc` of
    // device_atomic_functions.hpp, inlined at histogram.cu:37: like `check`, the finding
    // points at the caller, and the annotated line carries the cost.
    let r = run("histogram");
    let fs = findings::findings(&r.profile);
    let f = fs
        .iter()
        .find(|f| f.rule == warpscope_report::Rule::UncoalescedAccess)
        .expect("the scattered atomicAdd is uncoalesced");
    let cuda = f.location.cuda.as_ref().unwrap();
    assert_eq!((cuda.file.as_str(), cuda.line), ("corpus/histogram.cu", 37));
    assert_eq!(f.location.inlined_at.len(), 1);
    // The atomic's own line in the toolkit header, where Nsight Compute lists it.
    let origin = f.location.origin.as_ref().expect("header origin");
    assert!(warpscope_report::is_system_file(&origin.file), "{origin:?}");
    assert!(line(&r.profile, "histogram.cu", 37).global.sectors > 0);
}
