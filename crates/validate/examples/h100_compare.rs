//! Static findings beside H100 measurements, per CUDA source line of the corpus (the table in
//! docs/accuracy.md): `cargo run --release -p warpscope-validate --features tools --example h100_compare
//! [-- NCU_DIR]`.
//!
//! H100 data, per corpus file `NAME` (first found): every `NCU_DIR/NAME*.csv` (Nsight Compute
//! source-page exports written by `scripts/h100/ncu_source_counters.sh`; `NCU_DIR` defaults to
//! `validation/h100/ncu`), `NCU_DIR/NAME.lines.tsv` (the lead's per-kernel reduction of the same
//! exports), or `corpus/h100/NAME.tsv` (the corpus' reduced tables: memory counters only).
//!
//! Memory: a line is compared when either side reports something on it. Divergence: Nsight
//! Compute 2025.3's source page has no "Divergent Branches" column, so each conditional branch
//! of a kernel (PTX, `.loc` line in the `.cu`) is compared through lanes: the H100 saw it
//! diverge when the lines of its divergent region (the blocks before its reconvergence point,
//! other than the branch's own line) ran with fewer predicated-on lanes per warp instruction
//! than the lanes that reached the branch line (thread instructions per warp instruction).
//! Branches are grouped per (kernel, line); boundary checks are reported (`--boundary`) since
//! the hardware sees their tail warp.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use warpscope_analysis::{CheckResult, Engine, Input, check};
use warpscope_ir::{FunctionAnalyses, Module, control};
use warpscope_ncu::{LineCounters, SourcePage, parse_kernel_metrics_tsv};
use warpscope_report::{Certainty, Rule};
use warpscope_validate::corpus::Spec;

#[derive(Default)]
struct Tally {
    both: u32,
    static_only: u32,
    hw_only: u32,
    neither: u32,
}

/// A kernel's name without parameters, template arguments or namespaces.
fn short(name: &str) -> String {
    let s = name.split('(').next().unwrap_or(name);
    let s = s.split('<').next().unwrap_or(s);
    s.rsplit("::").next().unwrap_or(s).trim().to_string()
}

/// Adds `r`'s values into `e` (maximum for N-way columns).
fn merge(e: &mut LineCounters, r: &LineCounters) {
    for (k, v) in &r.values {
        let x = e.values.entry(k.clone()).or_insert(0.0);
        if k.to_ascii_lowercase().contains("n-way") || k == "shared_nway" {
            *x = x.max(*v);
        } else {
            *x += v;
        }
    }
}

/// H100 rows of corpus program `name`, and where they came from.
fn h100_rows(root: &Path, ncu_dir: &Path, name: &str) -> (Vec<LineCounters>, &'static str) {
    let mut csvs: Vec<_> = std::fs::read_dir(ncu_dir)
        .into_iter()
        .flatten()
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
    if !csvs.is_empty() {
        let mut rows = Vec::new();
        for p in csvs {
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            let kernel = stem.split_once("__").map(|(_, k)| k.to_string());
            for mut r in SourcePage::parse(&std::fs::read_to_string(&p).unwrap_or_default()).lines {
                r.kernel = kernel.clone();
                rows.push(r);
            }
        }
        return (rows, "ncu CSV");
    }
    if let Ok(t) = std::fs::read_to_string(ncu_dir.join(format!("{name}.lines.tsv"))) {
        return (SourcePage::parse(&t).lines, "validation/h100/ncu TSV");
    }
    if let Ok(t) = std::fs::read_to_string(root.join(format!("corpus/h100/{name}.tsv"))) {
        return (SourcePage::parse(&t).lines, "corpus/h100 TSV");
    }
    (Vec::new(), "none")
}

fn analyse(ptx: &Path, module: &Module, text: &str, spec: &Spec) -> CheckResult {
    let root = warpscope_validate::root();
    let files = module.files.clone();
    let source = move |i: u32| -> Option<String> {
        let name = files.iter().find(|(k, _)| *k == i)?.1.clone();
        std::fs::read_to_string(warpscope_validate::root().join(name)).ok()
    };
    let name = ptx.strip_prefix(&root).unwrap_or(ptx).display().to_string();
    let opts = spec.options(Engine::Acf);
    let input = Input {
        module,
        ptx_name: &name,
        ptx_text: text,
        source: &source,
    };
    check(&input, &opts)
}

/// What the H100 counted around one branch (lanes per warp instruction).
#[derive(Clone, Copy)]
struct Lanes {
    /// Lanes that ran the branch's line.
    reached: f64,
    /// Fewest lanes that ran a line of its region.
    ran: f64,
    /// Fewest predicated-on lanes on a line of its region.
    on: f64,
}

impl Lanes {
    /// 2: the active mask shrank inside (the warp split); 1: only predicated-on lanes dropped
    /// (if-converted: split, or whole warps predicated off); 0: all lanes that reached ran.
    fn kind(&self) -> u8 {
        if self.ran < self.reached - 0.05 {
            2
        } else if self.on < self.reached - 0.05 {
            1
        } else {
            0
        }
    }
}

struct BranchLine {
    /// `check` reports a divergent branch on the line.
    st: bool,
    /// `None`: not executed, or no line of the region of its own.
    hw: Option<Lanes>,
}

/// Per (kernel, branch line) of one program: whether `check` reports a divergent branch there,
/// and whether the H100 saw lanes split (`None`: not executed or no lane counters).
fn branch_lines(
    module: &Module,
    res: &CheckResult,
    file: &str,
    hw: &BTreeMap<(String, u32), LineCounters>,
) -> BTreeMap<(String, u32), BranchLine> {
    let mut out: BTreeMap<(String, u32), BranchLine> = BTreeMap::new();
    let file_idx: Vec<u32> = module
        .files
        .iter()
        .filter(|(_, n)| n.ends_with(file))
        .map(|(i, _)| *i)
        .collect();
    for k in &res.kernels {
        let kname = short(&k.name);
        let func = &module.funcs[k.func];
        let fa = FunctionAnalyses::compute(func);
        let line_of = |i: warpscope_ir::Inst| {
            func.insts[i]
                .loc
                .filter(|l| file_idx.contains(&l.file))
                .map(|l| l.line)
        };
        let branches: Vec<_> = func
            .blocks
            .keys()
            .filter_map(|b| control::cond_branch(func, b))
            .map(|cb| (cb, control::divergent_region(&fa, cb.block)))
            .collect();
        let guarded: BTreeSet<u32> = func
            .insts
            .keys()
            .filter(|&i| func.insts[i].guard.is_some())
            .filter_map(line_of)
            .collect();
        for (cb, region) in &branches {
            let Some(line) = line_of(cb.inst) else {
                continue;
            };
            // Lines of the blocks this branch splits directly (not those of a nested branch's
            // region), and only lines with no instruction outside the region.
            let nested = |rb: warpscope_ir::Block| {
                branches.iter().any(|(o, r)| {
                    o.inst != cb.inst
                        && region[o.block.as_u32() as usize]
                        && r[rb.as_u32() as usize]
                })
            };
            let mut lines = BTreeSet::new();
            let mut outside = BTreeSet::new();
            for rb in func.blocks.keys() {
                for &i in &func.blocks[rb].insts {
                    if let Some(l) = line_of(i) {
                        if !region[rb.as_u32() as usize] {
                            outside.insert(l);
                        } else if !nested(rb) {
                            lines.insert(l);
                        }
                    }
                }
            }
            // A nested branch's own line mixes its lanes before and after the split.
            let nested_lines: BTreeSet<u32> = branches
                .iter()
                .filter(|(o, _)| o.inst != cb.inst && region[o.block.as_u32() as usize])
                .filter_map(|(o, _)| line_of(o.inst))
                .collect();
            lines.retain(|l| *l != line && !outside.contains(l) && !nested_lines.contains(l));
            let reached = hw
                .get(&(kname.clone(), line))
                .and_then(|c| c.lanes_per_instruction());
            // Lanes inside, two readings: the lanes that ran (an active mask that shrank: the
            // warp split), and the predicated-on lanes (ptxas may if-convert a branch, but then
            // whole warps predicated off look the same), except on lines whose PTX has guarded
            // instructions of their own, whose predicated-off lanes say nothing of this branch.
            let min = |v: Option<f64>, x: f64| Some(v.map_or(x, |m: f64| m.min(x)));
            let (mut ran, mut on) = (None, None);
            for l in &lines {
                let Some(c) = hw.get(&(kname.clone(), *l)) else {
                    continue;
                };
                if let Some(x) = c.lanes_per_instruction() {
                    ran = min(ran, x);
                    if guarded.contains(l) {
                        on = min(on, x);
                    }
                }
                if !guarded.contains(l)
                    && let Some(x) = c.active_lanes_per_instruction()
                {
                    on = min(on, x);
                }
            }
            let st = res.report.findings.iter().any(|f| {
                f.rule == Rule::DivergentBranch
                    && short(&f.kernel) == kname
                    && f.location
                        .cuda
                        .as_ref()
                        .is_some_and(|c| c.file.ends_with(file) && c.line == line)
            });
            let e = out
                .entry((kname.clone(), line))
                .or_insert(BranchLine { st, hw: None });
            if let (Some(reached), Some(ran), Some(on)) = (reached, ran, on) {
                let h = Lanes { reached, ran, on };
                // Several PTX branches on one line: keep the most split.
                if e.hw.is_none_or(|o| h.kind() > o.kind()) {
                    e.hw = Some(h);
                }
            }
        }
    }
    out
}

fn main() {
    let root = warpscope_validate::root();
    let ncu_dir = std::env::args()
        .nth(1)
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("validation/h100/ncu"));
    let files = warpscope_validate::cu_with_ptx(&root.join("corpus"));
    let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut rows = Vec::new();
    let mut div_rows = Vec::new();
    let mut bank_rows = Vec::new();
    let mut sources = BTreeSet::new();
    for cu in &files {
        let name = cu.file_stem().unwrap().to_string_lossy().into_owned();
        let file = format!("{name}.cu");
        // H100 side.
        let (hw, from) = h100_rows(&root, &ncu_dir, &name);
        sources.insert(from);
        let mut by_line: BTreeMap<u32, LineCounters> = BTreeMap::new();
        let mut by_kline: BTreeMap<(String, u32), LineCounters> = BTreeMap::new();
        for r in hw.iter().filter(|r| r.file == file) {
            let e = by_line.entry(r.line).or_insert_with(|| LineCounters {
                kernel: None,
                file: r.file.clone(),
                line: r.line,
                ..LineCounters::default()
            });
            merge(e, r);
            if let Some(k) = &r.kernel {
                let e = by_kline
                    .entry((short(k), r.line))
                    .or_insert_with(|| LineCounters {
                        kernel: Some(short(k)),
                        file: r.file.clone(),
                        line: r.line,
                        ..LineCounters::default()
                    });
                merge(e, r);
            }
        }
        // Static side.
        let spec = Spec::parse(&std::fs::read_to_string(cu).unwrap()).unwrap();
        let ptx = cu.with_extension("ptx");
        let (module, text) = warpscope_validate::load(&ptx);
        let res = analyse(&ptx, &module, &text, &spec);
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
        let mut cmp = |key: &'static str, st: bool, hwv: Option<bool>| {
            let Some(hwv) = hwv else { return };
            let t = tallies.entry(key).or_default();
            match (st, hwv) {
                (true, true) => t.both += 1,
                (true, false) => t.static_only += 1,
                (false, true) => t.hw_only += 1,
                (false, false) => t.neither += 1,
            }
        };
        // Divergence, per branch line (needs per-kernel lane counters).
        if !by_kline.is_empty() {
            for ((k, line), b) in branch_lines(&module, &res, &file, &by_kline) {
                let Some(h) = b.hw else { continue };
                cmp(
                    "divergent-branch vs active lanes drop in the branch's region",
                    b.st,
                    Some(h.kind() == 2),
                );
                cmp(
                    "divergent-branch vs active or predicated-on lanes drop there",
                    b.st,
                    Some(h.kind() >= 1),
                );
                if b.st || h.kind() > 0 {
                    let what = ["all ran", "predicated off", "split"][h.kind() as usize];
                    div_rows.push(format!(
                        "| `{file}:{line}` | {k} | {} | {what}: {:.1} reach, {:.1} ran, {:.1} on |",
                        if b.st { "divergent-branch" } else { "—" },
                        h.reached,
                        h.ran,
                        h.on
                    ));
                }
            }
        }
        // Bank conflicts, per kernel: the per-line "L1 Conflicts Shared N-Way" column does not
        // count them (0 conflicts in a kernel whose lines show 36-way), the kernel-level
        // l1tex bank-conflict metrics do.
        if let Ok(t) = std::fs::read_to_string(ncu_dir.join(format!("{name}.shared.tsv"))) {
            for (k, m) in parse_kernel_metrics_tsv(&t) {
                let sum = |key: &str| -> f64 {
                    m.iter()
                        .filter(|(n, _)| n.contains(key))
                        .map(|(_, v)| v)
                        .sum()
                };
                let conflicts = sum("data_bank_conflicts_pipe_lsu_mem_shared");
                let wavefronts = sum("data_pipe_lsu_wavefronts_mem_shared");
                let insts = sum("sass_inst_executed_op_shared");
                let kname = short(&k);
                let lines: Vec<String> = res
                    .report
                    .findings
                    .iter()
                    .filter(|f| f.rule == Rule::BankConflict && short(&f.kernel) == kname)
                    .filter_map(|f| f.location.cuda.as_ref().map(|c| c.line.to_string()))
                    .collect();
                if insts == 0.0 && lines.is_empty() {
                    continue;
                }
                cmp(
                    "bank-conflict in a kernel vs l1tex shared bank conflicts > 0",
                    !lines.is_empty(),
                    Some(conflicts > 0.0),
                );
                bank_rows.push(format!(
                    "| `{file}` | {kname} | {} | {conflicts} conflicts, {wavefronts} wavefronts for {insts} instructions |",
                    if lines.is_empty() {
                        "—".to_string()
                    } else {
                        format!("lines {}", lines.join(", "))
                    }
                ));
            }
        }
        // Memory, per line.
        let lines: BTreeSet<u32> = st.keys().chain(by_line.keys()).copied().collect();
        for line in lines {
            let h = by_line.get(&line);
            let s: Vec<_> = st
                .get(&line)
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .filter(|(r, _)| *r != Rule::DivergentBranch)
                .collect();
            let has = |r: Rule| s.iter().any(|(x, _)| *x == r);
            let excess = h.and_then(|h| h.l2_excess()).unwrap_or(0.0);
            let mem_st = has(Rule::UncoalescedAccess) || has(Rule::MisalignedAccess);
            // Lines with global sectors counted (atomics/reductions count none there).
            let has_mem = h.is_some_and(|h| {
                h.get("l2_sectors")
                    .or(h.get("Sectors Global"))
                    .is_some_and(|x| x > 0.0)
            });
            cmp(
                "global memory (uncoalesced or misaligned) vs L2 excessive sectors",
                mem_st,
                h.filter(|_| has_mem).map(|_| excess > 0.0),
            );
            if s.is_empty() && excess == 0.0 {
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
                    if let (Some(x), Some(sec)) = (
                        h.l2_excess(),
                        h.get("l2_sectors").or(h.get("Sectors Global")),
                    ) {
                        p.push(format!("excess {x} of {sec} sectors"));
                    }
                    p.join("; ")
                }
            };
            rows.push(format!("| `{file}:{line}` | {st_text} | {hw_text} |"));
        }
    }
    sources.remove("none");
    println!(
        "H100 data from: {}",
        sources.into_iter().collect::<Vec<_>>().join(", ")
    );
    println!();
    println!("| comparison | both | static only | H100 only | neither |");
    println!("|---|---|---|---|---|");
    for (k, t) in &tallies {
        println!(
            "| {k} | {} | {} | {} | {} |",
            t.both, t.static_only, t.hw_only, t.neither
        );
    }
    println!();
    println!("| line | static finding | H100 (Nsight Compute SourceCounters) |");
    println!("|---|---|---|");
    for r in rows {
        println!("{r}");
    }
    println!();
    println!("| file | kernel | static bank-conflict | H100 (kernel-level l1tex metrics) |");
    println!("|---|---|---|---|");
    for r in bank_rows {
        println!("{r}");
    }
    println!();
    println!("| branch | kernel | static | H100 (lanes per warp instruction) |");
    println!("|---|---|---|---|");
    for r in div_rows {
        println!("{r}");
    }
}
