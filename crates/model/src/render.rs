//! Output of `warpscope model`, with `profile`'s conventions: text tables, JSON in an envelope
//! (`{format: "warpscope-model", version, tool, tool_version, model, report}` where `report` is
//! the report crate's findings), and CSV with one row per kernel.
//!
//! Findings: one `divergent-branch` finding (origin dynamic, certainty definite: measured on
//! the run) per branch the model assigns divergence cost to, with the cost in cycles and as a
//! share of the kernel's BBV-weighted-scheduled estimate, ranked by that cost.

use serde::Serialize;
use std::fmt::Write as _;
use warpscope_report::{Certainty, Finding, Gain, KernelInfo, Measure, Origin, Report, Rule, Unit};

use crate::{ModelReport, regroup::Algorithm};

/// The CSV header: one row per kernel, estimates in cycles; `sorting`, `greedy`, `greedy_max`
/// are the BBV-weighted-scheduled estimate after each regrouping; `h100` (after them, so that
/// the paper's columns keep their places) is warpscope's own H100 throughput estimate
/// ([`crate::throughput`]), not one of the paper's metrics, and `sorting_h100`, `greedy_h100`,
/// `greedy_max_h100` the same after each regrouping, with the original run's sectors.
pub const CSV_COLUMNS: [&str; 14] = [
    "kernel",
    "launches",
    "threads",
    "bbv_weighted",
    "bbv_weighted_scheduled",
    "no_divergence",
    "divergence_cost",
    "sorting",
    "greedy",
    "greedy_max",
    "h100",
    "sorting_h100",
    "greedy_h100",
    "greedy_max_h100",
];

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn cycles(v: f64) -> String {
    format!("{v:.0}")
}

fn regrouped(k: &crate::KernelModel, a: Algorithm) -> Option<f64> {
    k.regrouped.iter().find(|(x, _)| *x == a).map(|r| r.1)
}

fn regrouped_h100(k: &crate::KernelModel, a: Algorithm) -> Option<f64> {
    k.regrouped_h100.iter().find(|(x, _)| *x == a).map(|r| r.1)
}

/// One row per kernel (columns [`CSV_COLUMNS`]); a regrouping not computed is left empty.
pub fn csv(m: &ModelReport) -> String {
    let mut out = CSV_COLUMNS.join(",");
    out.push('\n');
    for k in &m.kernels {
        let e = &k.estimates;
        let r = |a| regrouped(k, a).map(cycles).unwrap_or_default();
        let rh = |a| regrouped_h100(k, a).map(cycles).unwrap_or_default();
        let fields = [
            csv_field(&k.name),
            k.launches.to_string(),
            k.threads.to_string(),
            cycles(e.bbv_weighted),
            cycles(e.bbv_weighted_scheduled),
            cycles(e.no_divergence),
            cycles(e.divergence_cost),
            r(Algorithm::Sorting),
            r(Algorithm::Greedy),
            r(Algorithm::GreedyMax),
            cycles(k.h100),
            rh(Algorithm::Sorting),
            rh(Algorithm::Greedy),
            rh(Algorithm::GreedyMax),
        ];
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

/// The findings of a model: one per branch with divergence cost.
pub fn report(m: &ModelReport) -> Report {
    let mut findings = Vec::new();
    let mut kernels = Vec::new();
    for k in &m.kernels {
        kernels.push(KernelInfo {
            name: k.name.clone(),
            ptx_name: k.ptx_name.clone(),
            geometry: format!(
                "{} launch{} ({} threads), from {}",
                k.launches,
                if k.launches == 1 { "" } else { "es" },
                k.threads,
                m.spec
            ),
            notes: k.memory_bound.iter().cloned().collect(),
        });
        let best = k
            .regrouped
            .iter()
            .copied()
            .min_by(|a, b| a.1.total_cmp(&b.1));
        for b in &k.branches {
            if b.cost_cycles <= 0.0 {
                continue;
            }
            let mut f = Finding::new(
                Rule::DivergentBranch,
                Certainty::Definite,
                k.name.clone(),
                format!(
                    "divergence at this branch costs about {} cycles, {:.1}% of the kernel's estimated time",
                    cycles(b.cost_cycles),
                    100.0 * b.share
                ),
                b.location.clone(),
            );
            f.source = Origin::Dynamic;
            f.function = (b.function != k.ptx_name)
                .then(|| warpscope_profile::model::display_name(&b.function));
            f.measures.insert(
                "divergence_cost_cycles".into(),
                Measure::exact(b.cost_cycles.round(), Unit::Count),
            );
            f.measures.insert(
                "divergence_cost_share".into(),
                Measure::exact(b.share, Unit::Ratio),
            );
            f.measures.insert(
                "divergent_visits".into(),
                Measure::exact(b.divergent_visits as f64, Unit::Count),
            );
            f.measures.insert(
                "branch_visits".into(),
                Measure::exact(b.visits as f64, Unit::Count),
            );
            f.estimated_gain = Some(Gain {
                metric: "estimated_cycles".into(),
                value: b.cost_cycles.round(),
                unit: Unit::Count,
            });
            f.fix = Some(
                "group threads that take the same path into the same warps: `warpscope model \
                 --regroup greedy-max --emit DIR` writes a regrouped launch (reference \
                 redirection), or make the condition warp-uniform"
                    .into(),
            );
            f.notes.push(format!(
                "model of {} ({} SMs, latency table: {})",
                m.spec, m.sms, m.latency_table
            ));
            if let Some((a, t)) = best {
                f.notes.push(format!(
                    "best regrouping: {} (estimated {} → {} cycles)",
                    a.name(),
                    cycles(k.estimates.bbv_weighted_scheduled),
                    cycles(t)
                ));
            }
            if let Some(mb) = &k.memory_bound {
                f.notes.push(mb.clone());
            }
            findings.push(f);
        }
    }
    findings.sort_by(|a, b| {
        let c = |f: &Finding| {
            f.measures
                .get("divergence_cost_cycles")
                .map(|m| m.max)
                .unwrap_or(0.0)
        };
        c(b).total_cmp(&c(a))
    });
    Report {
        inputs: vec![m.spec.clone(), m.module.clone()],
        kernels,
        findings,
    }
}

/// JSON envelope version.
pub const JSON_VERSION: u32 = 1;

#[derive(Serialize)]
struct JsonEnvelope<'a> {
    format: &'static str,
    version: u32,
    tool: &'static str,
    tool_version: &'static str,
    model: &'a ModelReport,
    report: &'a Report,
}

/// The model and its findings as pretty-printed JSON.
pub fn json(m: &ModelReport) -> String {
    let report = report(m);
    let env = JsonEnvelope {
        format: "warpscope-model",
        version: JSON_VERSION,
        tool: warpscope_report::TOOL_NAME,
        tool_version: warpscope_report::TOOL_VERSION,
        model: m,
        report: &report,
    };
    let mut s =
        serde_json::to_string_pretty(&env).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    s.push('\n');
    s
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// Text: per kernel its estimates, regroupings and most costly branches; then per launch
/// occupancy and divergence.
pub fn text(m: &ModelReport, top: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "divergence model of {} ({} SMs, regrouping groups of {} threads)",
        m.spec, m.sms, m.group_size
    );
    let _ = writeln!(s, "latency table: {}", m.latency_table);
    let _ = writeln!(
        s,
        "H100 estimate's instruction counts: {}",
        m.instruction_counts
    );
    let to_ms = |c: f64| m.clock_mhz.map(|mhz| c / (mhz * 1000.0));
    for k in &m.kernels {
        let e = &k.estimates;
        let _ = writeln!(
            s,
            "\n{} ({} launch{}, {} threads)",
            k.name,
            k.launches,
            if k.launches == 1 { "" } else { "es" },
            k.threads
        );
        let ms = to_ms(e.bbv_weighted_scheduled)
            .map(|v| format!(" (~{v:.4} ms at the table's clock)"))
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "  BBV-weighted            {:>14} cycles",
            cycles(e.bbv_weighted)
        );
        let _ = writeln!(
            s,
            "  BBV-weighted-scheduled  {:>14} cycles{ms}",
            cycles(e.bbv_weighted_scheduled)
        );
        let ms = to_ms(k.h100)
            .map(|v| format!(" (~{v:.4} ms)"))
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "  H100 throughput         {:>14} cycles{ms}, bound: {} (warpscope's extension, not the paper's)",
            cycles(k.h100),
            k.h100_bound.describe()
        );
        let share = if e.bbv_weighted_scheduled > 0.0 {
            e.divergence_cost / e.bbv_weighted_scheduled
        } else {
            0.0
        };
        let _ = writeln!(
            s,
            "  no divergence           {:>14} cycles",
            cycles(e.no_divergence)
        );
        let _ = writeln!(
            s,
            "  divergence cost         {:>14} cycles ({})",
            cycles(e.divergence_cost),
            pct(share)
        );
        for (a, t) in &k.regrouped {
            let ratio = |before: f64, after: f64| if after > 0.0 { before / after } else { 1.0 };
            let sp = ratio(e.bbv_weighted_scheduled, *t);
            let h = regrouped_h100(k, *a).unwrap_or(0.0);
            let _ = writeln!(
                s,
                "  regrouped: {:<12} {:>14} cycles (estimated speedup {sp:.2}x; H100 {} cycles, \
                 {:.2}x, original sectors)",
                a.name(),
                cycles(*t),
                cycles(h),
                ratio(k.h100, h)
            );
        }
        if let Some(mb) = &k.memory_bound {
            let _ = writeln!(s, "  note: {mb}");
        }
        if !k.branches.is_empty() {
            let _ = writeln!(
                s,
                "  divergence cost by branch (δ/τ from the divergence map):"
            );
            for b in k.branches.iter().take(top) {
                let _ = writeln!(
                    s,
                    "    {:>14} cycles {:>6}  {}  δ {} / τ {}",
                    cycles(b.cost_cycles),
                    pct(b.share),
                    b.location,
                    b.divergent_visits,
                    b.visits
                );
            }
            if k.unattributed_cost > 0.5 {
                let _ = writeln!(
                    s,
                    "    {:>14} cycles in blocks that depend on no conditional branch",
                    cycles(k.unattributed_cost)
                );
            }
        }
    }
    let _ = writeln!(s, "\nlaunches:");
    for l in &m.launches {
        let o = &l.occupancy;
        let _ = writeln!(
            s,
            "  #{} {} grid {}x{}x{} block {}x{}x{}: {} of {} warps divergent, {} distinct vectors, {} blocks/SM ({} limit; {} registers from {})",
            l.launch,
            l.kernel,
            l.grid[0],
            l.grid[1],
            l.grid[2],
            l.block[0],
            l.block[1],
            l.block[2],
            l.divergent_warps,
            l.warps,
            l.distinct_vectors,
            o.blocks_per_sm,
            o.limiter,
            o.regs_per_thread,
            o.regs_from.as_str()
        );
        let h = &l.h100;
        let _ = writeln!(
            s,
            "      H100 estimate {} cycles = max(dispatch {}, launch {} + max(compute {}, memory {})); {} blocks share an SM; {} sectors; bound: {}",
            cycles(h.cycles),
            cycles(h.dispatch),
            cycles(h.launch),
            cycles(h.compute),
            cycles(h.memory),
            h.blocks_sharing_sm,
            cycles(h.sectors),
            h.bound.describe()
        );
    }
    s
}
