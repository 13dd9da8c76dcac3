//! Static findings beside H100 measurements, per CUDA source line of the corpus (the table in
//! docs/accuracy.md): `cargo run --release -p warpscope-analysis --example h100_compare
//! [-- NCU_DIR]`.
//!
//! H100 data, per corpus file `NAME`: every `NCU_DIR/NAME*.csv` (Nsight Compute source-page
//! exports written by `scripts/h100/ncu_source_counters.sh`; default `validation/h100/ncu`),
//! else `corpus/h100/NAME.tsv` (the corpus' reduced tables: memory counters only, no
//! divergence). A line is compared when either side reports something on it.

#[path = "../tests/common/mod.rs"]
mod common;

use std::collections::{BTreeMap, BTreeSet};
use warpscope_analysis::Engine;
use warpscope_analysis::corpus::Spec;
use warpscope_analysis::ncu::{self, LineCounters};
use warpscope_report::{Certainty, Rule};

#[derive(Default)]
struct Tally {
    both: u32,
    static_only: u32,
    hw_only: u32,
}

fn main() {
    let root = common::root();
    let ncu_dir = std::env::args()
        .nth(1)
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("validation/h100/ncu"));
    let mut files: Vec<_> = std::fs::read_dir(root.join("corpus"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cu") && p.with_extension("ptx").is_file())
        .collect();
    files.sort();
    let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut rows = Vec::new();
    let mut sources = BTreeSet::new();
    let mut have_div = false;
    for cu in &files {
        let name = cu.file_stem().unwrap().to_string_lossy().into_owned();
        let file = format!("{name}.cu");
        // H100 side.
        let mut hw: Vec<LineCounters> = Vec::new();
        if let Ok(rd) = std::fs::read_dir(&ncu_dir) {
            let mut csvs: Vec<_> = rd
                .map(|e| e.unwrap().path())
                .filter(|p| {
                    p.extension().is_some_and(|x| x == "csv")
                        && p.file_stem().is_some_and(|s| {
                            let s = s.to_string_lossy();
                            s == name || s.starts_with(&format!("{name}__"))
                        })
                })
                .collect();
            csvs.sort();
            // Per-kernel exports when present (a whole-report export repeats them).
            if csvs.len() > 1 {
                csvs.retain(|p| {
                    p.file_stem()
                        .is_some_and(|s| s.to_string_lossy().contains("__"))
                });
            }
            for p in csvs {
                hw.extend(ncu::parse_source_csv(
                    &std::fs::read_to_string(&p).unwrap_or_default(),
                ));
                sources.insert("ncu CSV");
            }
        }
        if hw.is_empty()
            && let Ok(t) = std::fs::read_to_string(root.join(format!("corpus/h100/{name}.tsv")))
        {
            hw = ncu::parse_lines_tsv(&t);
            sources.insert("corpus/h100 TSV");
        }
        let mut by_line: BTreeMap<u32, LineCounters> = BTreeMap::new();
        for r in hw.into_iter().filter(|r| r.file == file) {
            let e = by_line.entry(r.line).or_insert_with(|| LineCounters {
                file: r.file.clone(),
                line: r.line,
                values: BTreeMap::new(),
            });
            for (k, v) in r.values {
                let x = e.values.entry(k.clone()).or_insert(0.0);
                if k.to_ascii_lowercase().contains("n-way") {
                    *x = x.max(v);
                } else {
                    *x += v;
                }
            }
        }
        have_div |= by_line.values().any(|r| r.divergent_branches().is_some());
        // Static side.
        let spec = Spec::parse(&std::fs::read_to_string(cu).unwrap()).unwrap();
        let res = common::run(&cu.with_extension("ptx"), &spec.options(Engine::Acf));
        let mut st: BTreeMap<u32, Vec<(Rule, Certainty)>> = BTreeMap::new();
        for f in &res.report.findings {
            if let Some(c) = &f.location.cuda
                && c.file.ends_with(&file)
            {
                let v = st.entry(c.line).or_default();
                if !v.iter().any(|(r, _)| *r == f.rule) {
                    v.push((f.rule, f.certainty));
                }
            }
        }
        let lines: BTreeSet<u32> = st.keys().chain(by_line.keys()).copied().collect();
        for line in lines {
            let h = by_line.get(&line);
            let s = st.get(&line).cloned().unwrap_or_default();
            let has = |r: Rule| s.iter().any(|(x, _)| *x == r);
            let excess = h.and_then(|h| h.l2_excess()).unwrap_or(0.0);
            let nway = h.and_then(|h| h.shared_nway()).unwrap_or(0.0);
            let div = h.and_then(|h| h.divergent_branches());
            let lanes = h.and_then(|h| h.active_lanes_per_instruction());
            let mut cmp = |key: &'static str, st: bool, hwv: Option<bool>| {
                let Some(hwv) = hwv else { return };
                let t = tallies.entry(key).or_default();
                match (st, hwv) {
                    (true, true) => t.both += 1,
                    (true, false) => t.static_only += 1,
                    (false, true) => t.hw_only += 1,
                    _ => {}
                }
            };
            let mem_st = has(Rule::UncoalescedAccess) || has(Rule::MisalignedAccess);
            cmp(
                "global memory (uncoalesced or misaligned) vs L2 excessive sectors",
                mem_st,
                h.map(|_| excess > 0.0),
            );
            cmp(
                "bank-conflict vs L1 shared N-way > 1",
                has(Rule::BankConflict),
                h.map(|_| nway > 1.0),
            );
            cmp(
                "divergent-branch vs Divergent Branches > 0",
                has(Rule::DivergentBranch),
                div.map(|d| d > 0.0),
            );
            if s.is_empty() && excess == 0.0 && nway <= 1.0 && div.is_none_or(|d| d == 0.0) {
                continue;
            }
            // Without a divergence counter there is nothing to set a branch finding beside.
            if div.is_none()
                && s.iter().all(|(r, _)| *r == Rule::DivergentBranch)
                && excess == 0.0
                && nway <= 1.0
            {
                continue;
            }
            let st_text = s
                .iter()
                .map(|(r, c)| format!("{} {}", r.id(), c.as_str()))
                .collect::<Vec<_>>()
                .join(", ");
            let hw_text = match h {
                None => "no counters".to_string(),
                Some(h) => {
                    let mut p = Vec::new();
                    if let Some(d) = div {
                        p.push(format!("divergent branches {d}"));
                    }
                    if let Some(l) = lanes
                        && l < 31.5
                    {
                        p.push(format!("{l:.1} active lanes/inst"));
                    }
                    if let (Some(x), Some(sec)) = (
                        h.l2_excess(),
                        h.get("l2_sectors").or(h.get("Sectors Global")),
                    ) {
                        p.push(format!("excess {x} of {sec} sectors"));
                    }
                    if nway > 0.0 {
                        p.push(format!("shared {nway}-way"));
                    }
                    p.join("; ")
                }
            };
            rows.push(format!("| `{file}:{line}` | {st_text} | {hw_text} |"));
        }
    }
    println!(
        "H100 data from: {}",
        sources.into_iter().collect::<Vec<_>>().join(", ")
    );
    if !have_div {
        println!("(no Divergent Branches column in the data: divergence not compared)");
    }
    println!();
    println!("| comparison | both | static only | H100 only |");
    println!("|---|---|---|---|");
    for (k, t) in &tallies {
        println!("| {k} | {} | {} | {} |", t.both, t.static_only, t.hw_only);
    }
    println!();
    println!("| line | static finding | H100 (Nsight Compute SourceCounters) |");
    println!("|---|---|---|");
    for r in rows {
        println!("{r}");
    }
}
