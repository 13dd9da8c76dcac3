//! A model on a report page ([`warpscope_report::page::Page`]): the estimated divergence cost
//! of each source line (a heat-map column), its rows on each kernel's card (estimates,
//! occupancy, best regrouping; in a combined report the same card as the profile's), the
//! branches ranked by divergence cost (rows link to their lines), and charts: each kernel's
//! estimate as run against no divergence and each regrouping, and each branch's estimated
//! cost against the divergent visits the run measured there.
//!
//! The page shows no measured time: the model's estimates are cycles of the latency table, for
//! comparing versions of a kernel (docs/model.md); how they track H100 times is in
//! docs/accuracy.md.

use crate::{BranchCost, KernelModel, LatencyTable, ModelReport};
use warpscope_ir::{Inst, Module};
use warpscope_profile::Profile;
use warpscope_report::page::{Card, Chart, ChartKind, LineRef, Metric, Page, Row, Series, Table};

/// The heat-map columns a model fills.
pub fn metrics() -> Vec<Metric> {
    vec![
        Metric::new(
            "divergence_cost",
            "model: divergence cost (cycles)",
            "cycles of the kernel's BBV-weighted-scheduled estimate the model assigns to the \
         line's branches (estimate as run − estimate without divergence, split by control \
         dependence)",
        ),
        Metric::new(
            "estimated_cycles",
            "model: estimated cycles",
            "latency-table cycles of the line's instructions times the warp instructions the \
             run issued there, over all warps (the work the BBV-weighted estimates divide \
             among SMs and schedule; not a kernel time)",
        ),
    ]
}

/// Fills the `estimated_cycles` column: for every profiled instruction, its latency-table
/// cycles times the warp instructions issued, added to the line reports show it at (inlined
/// header code at its call site; toolkit headers left out).
pub fn fill_line_cycles(
    page: &mut Page,
    module: &Module,
    profile: &Profile,
    table: &LatencyTable,
    source: &dyn Fn(&str) -> Option<String>,
) {
    for k in &profile.kernels {
        for i in &k.instructions {
            let Some((file, line, _)) = i.shown_at() else {
                continue;
            };
            let Some(f) = module.func_by_name(&i.function) else {
                continue;
            };
            let func = &module.funcs[f];
            let inst = Inst::from_u32(i.inst);
            if line == 0
                || warpscope_report::is_system_file(file)
                || i.counters.instructions == 0
                || !func.insts.is_valid(inst)
            {
                continue;
            }
            let cycles = table.inst(&func.insts[inst]) * i.counters.instructions as f64;
            let text = source(file);
            let d = page.source_mut(file, text.as_deref()).line_mut(line);
            *d.values.entry("estimated_cycles".into()).or_default() += cycles;
        }
    }
}

fn line_ref(b: &BranchCost) -> Option<LineRef> {
    b.location.cuda.as_ref().map(|c| LineRef {
        file: c.file.clone(),
        line: c.line,
    })
}

fn cycles(v: f64) -> String {
    let a = v.abs();
    if a >= 1e9 {
        format!("{:.2}G", v / 1e9)
    } else if a >= 1e6 {
        format!("{:.2}M", v / 1e6)
    } else if a >= 1e4 {
        format!("{:.1}k", v / 1e3)
    } else {
        format!("{v:.0}")
    }
}

fn share(part: f64, whole: f64) -> String {
    if whole > 0.0 {
        format!("{:.1}%", 100.0 * part / whole)
    } else {
        "-".into()
    }
}

/// Adds `m` to `page`: sources (text from `source`, by `.file` name; toolkit headers left out)
/// with the divergence-cost column, a card per kernel, the branch table (`top` rows) and the
/// charts. The caller adds findings ([`crate::render::report`]).
pub fn fill(page: &mut Page, m: &ModelReport, source: &dyn Fn(&str) -> Option<String>, top: usize) {
    if m.kernels.is_empty() {
        return;
    }
    for x in metrics() {
        page.add_metric(x);
    }
    for k in &m.kernels {
        for b in &k.branches {
            let Some(at) = line_ref(b) else { continue };
            if warpscope_report::is_system_file(&at.file) || b.cost_cycles <= 0.0 {
                continue;
            }
            let text = source(&at.file);
            let d = page.source_mut(&at.file, text.as_deref()).line_mut(at.line);
            *d.values.entry("divergence_cost".into()).or_default() += b.cost_cycles;
        }
    }
    for k in &m.kernels {
        card(page.card_mut(&k.name), m, k);
    }
    branch_table(page, m, top);
    charts(page, m, top);
    page.notes.push(format!(
        "model: {} SMs, regrouping groups of {} threads, latency table {}; estimates are \
         cycles for comparing versions of a kernel, not predicted times",
        m.sms, m.group_size, m.latency_table
    ));
    if let Some(mb) = m.kernels.iter().find_map(|k| k.memory_bound.as_ref()) {
        page.notes.push(format!(
            "model: a kernel marked memory-bound on its card has few thread instructions per \
             byte of global traffic; for example {mb}"
        ));
    }
}

/// Adds the model's rows to the kernel's card (a combined report has the profile's there).
fn card(c: &mut Card, m: &ModelReport, k: &KernelModel) {
    let e = &k.estimates;
    if !c.has("launches") {
        c.item("launches", k.launches.to_string());
    }
    c.item("threads", k.threads.to_string())
        .item("BBV-weighted", format!("{} cycles", cycles(e.bbv_weighted)))
        .item(
            "BBV-weighted-scheduled",
            format!("{} cycles", cycles(e.bbv_weighted_scheduled)),
        )
        .item(
            "H100 throughput (warpscope's, not the paper's)",
            format!(
                "{} cycles, bound: {}",
                cycles(k.h100),
                k.h100_bound.describe()
            ),
        )
        .item(
            "without divergence",
            format!("{} cycles", cycles(e.no_divergence)),
        )
        .item(
            "divergence cost",
            format!(
                "{} cycles ({})",
                cycles(e.divergence_cost),
                share(e.divergence_cost, e.bbv_weighted_scheduled)
            ),
        );
    if let Some((a, t)) = k
        .regrouped
        .iter()
        .copied()
        .min_by(|a, b| a.1.total_cmp(&b.1))
    {
        let speedup = if t > 0.0 {
            e.bbv_weighted_scheduled / t
        } else {
            1.0
        };
        c.item(
            "best regrouping",
            format!("{} ({} cycles, ×{speedup:.2})", a.name(), cycles(t)),
        );
    }
    if let Some(l) = m.launches.iter().find(|l| l.kernel == k.name) {
        let o = &l.occupancy;
        c.item(
            "occupancy",
            format!(
                "{} blocks/SM ({} binds; {} registers/thread)",
                o.blocks_per_sm, o.limiter, o.regs_per_thread
            ),
        );
    }
    // The card keeps the ratio; the page's notes say what it means.
    if let Some(mb) = &k.memory_bound {
        let ratio = mb.split_whitespace().next().unwrap_or_default();
        c.item(
            "memory-bound",
            format!("likely ({ratio} thread instructions / byte)"),
        );
    }
}

/// Branches of every kernel with a positive cost, most expensive first.
fn ranked(m: &ModelReport) -> Vec<(&KernelModel, &BranchCost)> {
    let mut v: Vec<_> = m
        .kernels
        .iter()
        .flat_map(|k| k.branches.iter().map(move |b| (k, b)))
        .filter(|(_, b)| b.cost_cycles > 0.0)
        .collect();
    v.sort_by(|a, b| b.1.cost_cycles.total_cmp(&a.1.cost_cycles));
    v
}

fn branch_table(page: &mut Page, m: &ModelReport, top: usize) {
    let rows: Vec<Row> = ranked(m)
        .into_iter()
        .take(top)
        .map(|(k, b)| Row {
            cells: vec![
                b.location.to_string(),
                k.name.clone(),
                cycles(b.cost_cycles),
                format!("{:.1}%", 100.0 * b.share),
                b.divergent_visits.to_string(),
                b.visits.to_string(),
                b.location
                    .ptx
                    .as_ref()
                    .and_then(|p| p.instruction.clone())
                    .unwrap_or_default(),
            ],
            at: line_ref(b),
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    page.tables.push(Table {
        title: "Model: divergence cost per branch (estimated cycles, ranked)".into(),
        columns: [
            "where",
            "kernel",
            "cost (cycles)",
            "of kernel",
            "δ measured",
            "τ measured",
            "instruction",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    });
}

fn charts(page: &mut Page, m: &ModelReport, top: usize) {
    let kernels: Vec<&KernelModel> = m.kernels.iter().collect();
    let bar = |name: &str, f: &dyn Fn(&KernelModel) -> Option<f64>| Series {
        name: name.into(),
        points: kernels
            .iter()
            .enumerate()
            .filter_map(|(i, k)| f(k).map(|v| (i as f64, v)))
            .collect(),
    };
    let mut series = vec![
        bar("as run", &|k| Some(k.estimates.bbv_weighted_scheduled)),
        bar("no divergence", &|k| Some(k.estimates.no_divergence)),
    ];
    for a in crate::Algorithm::ALL {
        let s = bar(a.name(), &|k| {
            k.regrouped.iter().find(|r| r.0 == a).map(|r| r.1)
        });
        if !s.points.is_empty() {
            series.push(s);
        }
    }
    page.charts.push(Chart {
        title: "Model: estimated cycles per kernel (BBV-weighted-scheduled)".into(),
        kind: ChartKind::Bars,
        x_label: "kernel".into(),
        y_label: "estimated cycles".into(),
        categories: kernels.iter().map(|k| k.name.clone()).collect(),
        series,
        diagonal: false,
        log_x: false,
    });
    // Each branch: estimated cost against the divergence the run measured there.
    let branches: Vec<_> = ranked(m).into_iter().take(top.max(1) * 4).collect();
    if !branches.is_empty() {
        let mut per: Vec<Series> = Vec::new();
        for (k, b) in branches {
            let p = (b.divergent_visits as f64, b.cost_cycles);
            match per.iter_mut().find(|s| s.name == k.name) {
                Some(s) => s.points.push(p),
                None => per.push(Series {
                    name: k.name.clone(),
                    points: vec![p],
                }),
            }
        }
        page.charts.push(Chart {
            title: "Model: estimated divergence cost vs measured divergent visits, per branch"
                .into(),
            kind: ChartKind::Scatter,
            x_label: "divergent visits δ (measured on the run)".into(),
            y_label: "estimated cost (cycles)".into(),
            categories: Vec::new(),
            series: per,
            diagonal: false,
            log_x: false,
        });
    }
}
