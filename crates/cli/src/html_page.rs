//! What the CLI adds to a report page ([`warpscope_report::page::Page`]) beyond what each
//! mode's crate fills: static findings with their per-line columns, the control-flow graphs
//! of the kernels with divergent branches and reconvergence points marked.

use std::collections::BTreeMap;
use std::collections::HashSet;
use warpscope_ir::{Function, FunctionAnalyses, Inst, Module};
use warpscope_report::page::{Graph, GraphEdge, GraphNode, LineRef, Metric, NodeMark, Page};
use warpscope_report::{Finding, Rule, is_system_file};

/// Kernels with more blocks than this get no CFG drawing (it would be unreadable and slow
/// to lay out).
const MAX_CFG_BLOCKS: usize = 200;

/// The measure a static finding of `rule` shows in its heat-map column.
fn static_measure(rule: Rule) -> (&'static str, &'static str, &'static str) {
    match rule {
        Rule::DivergentBranch => (
            "static_divergence",
            "static: divergence ratio",
            "the fraction of warps the analysis says diverge at the line's branch",
        ),
        Rule::UncoalescedAccess | Rule::MisalignedAccess => (
            "static_sectors",
            "static: sectors per request",
            "32-byte sectors per warp request the analysis predicts",
        ),
        Rule::BankConflict => (
            "static_ways",
            "static: conflict ways",
            "N-way shared-memory bank conflict the analysis predicts",
        ),
        Rule::DivergentConstant => (
            "static_const_addresses",
            "static: constant addresses",
            "distinct constant-memory addresses (serialized passes) per warp request the analysis predicts",
        ),
        // Cache findings come from `warpscope cache`, never from the static check.
        Rule::CacheInterference | Rule::CacheCapacity | Rule::CacheReuseWithinThread => (
            "cache_misses",
            "cache: misses caused",
            "L1 misses the root cause caused (warpscope cache)",
        ),
    }
}

fn measure_key(rule: Rule) -> &'static str {
    match rule {
        Rule::DivergentBranch => "divergence_ratio",
        Rule::UncoalescedAccess | Rule::MisalignedAccess => "sectors_per_request",
        Rule::BankConflict => "conflict_ways",
        Rule::DivergentConstant => "constant_addresses",
        Rule::CacheInterference | Rule::CacheCapacity | Rule::CacheReuseWithinThread => {
            "misses_caused"
        }
    }
}

/// Adds static findings to the page: their files' text, a `static findings` count column and
/// one column per kind of predicted cost (the worst bound of the finding's measure).
pub fn add_static_findings(
    page: &mut Page,
    findings: &[Finding],
    source: &dyn Fn(&str) -> Option<String>,
) {
    let statics: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.source == warpscope_report::Origin::Static)
        .collect();
    if !statics.is_empty() {
        page.add_metric(Metric::new(
            "static_findings",
            "static findings",
            "findings of warpscope check on the line",
        ));
    }
    for f in statics {
        let Some(c) = &f.location.cuda else { continue };
        if is_system_file(&c.file) {
            continue;
        }
        let (id, label, help) = static_measure(f.rule);
        page.add_metric(Metric::new(id, label, help));
        let text = source(&c.file);
        let d = page.source_mut(&c.file, text.as_deref()).line_mut(c.line);
        *d.values.entry("static_findings".into()).or_default() += 1.0;
        if let Some(m) = f.measures.get(measure_key(f.rule)) {
            let v = d.values.entry(id.into()).or_default();
            *v = v.max(m.max);
        }
    }
    page.findings.extend(findings.iter().cloned());
}

/// The CFG of every kernel of `module` (up to [`MAX_CFG_BLOCKS`] blocks), with blocks ending
/// in a branch that `divergent(kernel, branch)` says diverged marked, and their
/// immediate post-dominators marked as reconvergence points.
pub fn cfg_graphs(module: &Module, divergent: &dyn Fn(&Function, Inst) -> bool) -> Vec<Graph> {
    let mut out = Vec::new();
    for (_, f) in module.kernels() {
        if f.blocks.len() > MAX_CFG_BLOCKS {
            continue;
        }
        let a = FunctionAnalyses::compute(f);
        let index: BTreeMap<_, usize> = f.blocks.keys().enumerate().map(|(i, b)| (b, i)).collect();
        let mut marks = vec![NodeMark::Plain; f.blocks.len()];
        for (b, data) in f.blocks.iter() {
            let Some(&last) = data.insts.last() else {
                continue;
            };
            if a.cfg.succs(b).len() > 1 && divergent(f, last) {
                let i = index[&b];
                marks[i] = NodeMark::Divergent;
                if let Some(p) = a.postdom.ipdom(b) {
                    let j = index[&p];
                    marks[j] = match marks[j] {
                        NodeMark::Divergent | NodeMark::DivergentAndReconvergence => {
                            NodeMark::DivergentAndReconvergence
                        }
                        _ => NodeMark::Reconvergence,
                    };
                }
            }
        }
        let mut g = Graph {
            title: format!(
                "{} ({} blocks, {} divergent)",
                warpscope_ir::names::qualified_name(&f.name).unwrap_or_else(|| f.name.clone()),
                f.blocks.len(),
                marks
                    .iter()
                    .filter(|m| matches!(
                        m,
                        NodeMark::Divergent | NodeMark::DivergentAndReconvergence
                    ))
                    .count()
            ),
            ..Graph::default()
        };
        for (b, data) in f.blocks.iter() {
            let locs: Vec<(&str, u32)> = data
                .insts
                .iter()
                .filter_map(|&i| f.insts[i].loc)
                .filter(|l| l.line > 0)
                .filter_map(|l| module.file_name(l.file).map(|n| (n, l.line)))
                .filter(|(n, _)| !is_system_file(n))
                .collect();
            let lo = locs.iter().map(|l| l.1).min();
            let hi = locs.iter().map(|l| l.1).max();
            let mut label = format!("{b}");
            if let Some(l) = data.labels.first() {
                label.push_str(&format!(" {l}"));
            }
            match (lo, hi) {
                (Some(lo), Some(hi)) if lo == hi => label.push_str(&format!("\nline {lo}")),
                (Some(lo), Some(hi)) => label.push_str(&format!("\nlines {lo}-{hi}")),
                _ => {}
            }
            let at = locs.first().map(|(n, _)| LineRef {
                file: n.to_string(),
                line: lo.unwrap_or(0),
            });
            g.nodes.push(GraphNode {
                label,
                mark: marks[index[&b]],
                at,
            });
            let succs = a.cfg.succs(b);
            for (k, s) in succs.iter().enumerate() {
                g.edges.push(GraphEdge {
                    from: index[&b],
                    to: index[s],
                    label: if succs.len() > 1 && k == 0 {
                        "T".into()
                    } else {
                        String::new()
                    },
                });
            }
        }
        out.push(g);
    }
    out
}

/// [`cfg_graphs`] of a checked module, marking the branches of its divergent-branch findings
/// (matched by PTX line).
pub fn cfg_graphs_static(m: &warpscope_frontend::LoadedModule, findings: &[Finding]) -> Vec<Graph> {
    let lines: HashSet<u32> = findings
        .iter()
        .filter(|f| f.rule == Rule::DivergentBranch)
        .filter_map(|f| f.location.ptx.as_ref())
        .filter(|p| p.file == m.source.display_name)
        .map(|p| p.line)
        .collect();
    let ptx_lines = warpscope_ptx::LineIndex::new(&m.source.text);
    cfg_graphs(&m.module, &|f, i| {
        lines.contains(&ptx_lines.line(f.insts[i].span.start))
    })
}

/// [`cfg_graphs`] of a profiled module, marking the branches that diverged in the run.
pub fn cfg_graphs_profile(module: &Module, profile: &warpscope_profile::Profile) -> Vec<Graph> {
    let diverged: HashSet<(&str, u32)> = profile
        .kernels
        .iter()
        .flat_map(|k| k.instructions.iter())
        .filter(|i| i.counters.divergent_branches > 0)
        .map(|i| (i.function.as_str(), i.inst))
        .collect();
    cfg_graphs(module, &|f, i| {
        diverged.contains(&(f.name.as_str(), i.as_u32()))
    })
}

/// The text of every file `module`'s `.file` table names that `sources` could read, by name.
pub fn source_texts(
    module: &Module,
    sources: &warpscope_frontend::SourceMap,
) -> BTreeMap<String, String> {
    let mut texts = BTreeMap::new();
    for (i, name) in &module.files {
        if let Some(t) = sources.file(*i).and_then(|f| f.text()) {
            texts.insert(name.clone(), t.to_string());
        }
    }
    texts
}

/// The page of a profiled run: its sources with the profile's heat-map columns and PTX,
/// cards, ranked tables (`top` rows), charts and CFGs. Findings are left to the caller.
pub fn profile_page(
    title: String,
    run: &warpscope_profile::ProfileRun,
    top: usize,
) -> (Page, BTreeMap<String, String>) {
    let texts = source_texts(&run.module, &run.sources);
    let mut page = Page {
        title,
        subtitle: vec![format!(
            // No host time: the page is the same on every run (docs/reliability.md).
            "module {}; {} launches, {} warp instructions",
            run.profile.module,
            run.report.launches.len(),
            run.report.total.warp_instructions,
        )],
        ..Page::default()
    };
    let source = |name: &str| texts.get(name).cloned();
    warpscope_profile::page::fill(&mut page, &run.profile, &source, top);
    page.graphs = cfg_graphs_profile(&run.module, &run.profile);
    (page, texts)
}
