//! A cache analysis (`warpscope cache`, [`warpscope_cache::CacheReport`]) on a report page
//! ([`Page`]): per-line heat-map columns (L1 load misses by GRAB fault type, misses the line's
//! accesses caused), the cache's rows on each kernel's card (L1 geometry, L1 / global-load /
//! L2 hit rates, misses by fault type), the root causes ranked by the misses they cause with
//! their fix class (rows link to the root cause's line) and where those misses happen, and
//! charts: misses by fault type per kernel (or per configuration of a sweep) and, for each
//! swept parameter, load hits and misses against it per warp scheduler.
//!
//! Lines, cards and root causes are of the first configuration (the one the text report
//! details and the findings come from); the charts cover every configuration.

use std::collections::BTreeMap;
use warpscope_cache::CacheReport;
use warpscope_cache::config::format_size;
use warpscope_cache::grab::Fault;
use warpscope_cache::model::{ConfigReport, KernelReport, Place, Totals};
use warpscope_report::page::{Chart, ChartKind, LineRef, Metric, Page, Row, Series, Table};

/// The heat-map columns of a cache analysis, in menu order.
pub fn metrics() -> Vec<Metric> {
    vec![
        Metric::new(
            "cache_faults",
            "cache faults (L1 load misses)",
            "32-byte L1 sector misses of the line's global loads, every GRAB fault type \
             (mh + m*h + mm; warpscope cache, first configuration)",
        ),
        Metric::new(
            "fault_mh",
            "cache: mh misses",
            "load misses a private cache would have hit while the L1 had room: other threads' \
             blocks took the set (fix: pad or relocate)",
        ),
        Metric::new(
            "fault_mstar_h",
            "cache: m*h misses",
            "load misses a private cache would have hit, with the L1 full: capacity shared \
             with other threads (fix: shared memory, fewer threads per SM)",
        ),
        Metric::new(
            "fault_mm",
            "cache: mm misses",
            "load misses a private cache would have missed too: first touches and the \
             thread's own footprint (fix: keep values in registers)",
        ),
        Metric::new(
            "cache_caused",
            "cache: misses caused",
            "misses of other accesses whose eviction chains start at this line's accesses \
             (GRAB's root-cause priority)",
        ),
    ]
}

fn line_ref(p: &Place) -> Option<LineRef> {
    p.file.as_ref().filter(|_| p.line > 0).map(|f| LineRef {
        file: f.clone(),
        line: p.line,
    })
}

fn pct(r: Option<f64>) -> String {
    r.map_or("-".into(), |r| format!("{:.1}%", 100.0 * r))
}

/// Load misses of a kernel or line (every fault type).
fn faults(t: &Totals) -> u64 {
    t.fault_mh + t.fault_mstar_h + t.fault_mm
}

/// Adds `report` to `page`: sources (text from `source`, by `.file` name; toolkit headers
/// left out) with the metric columns, the kernels' card rows, the root-cause and effect tables
/// (`top` rows each) and the charts. The caller adds the findings
/// ([`warpscope_cache::findings::report`]).
pub fn fill(
    page: &mut Page,
    report: &CacheReport,
    source: &dyn Fn(&str) -> Option<String>,
    top: usize,
) {
    let Some(first) = report.configs.first() else {
        return;
    };
    for m in metrics() {
        page.add_metric(m);
    }
    for k in &first.kernels {
        for l in &k.lines {
            let Some(file) = l.file.as_deref().filter(|_| l.line > 0) else {
                continue;
            };
            if warpscope_report::is_system_file(file) {
                continue;
            }
            let text = source(file);
            let d = page.source_mut(file, text.as_deref()).line_mut(l.line);
            let t = &l.totals;
            for (id, v) in [
                ("cache_faults", faults(t)),
                ("fault_mh", t.fault_mh),
                ("fault_mstar_h", t.fault_mstar_h),
                ("fault_mm", t.fault_mm),
                ("cache_caused", t.interference_caused),
            ] {
                *d.values.entry(id.into()).or_default() += v as f64;
            }
        }
    }
    for k in &first.kernels {
        card(page, k);
    }
    tables(page, first, top);
    charts(page, report);
    page.notes.push(format!(
        "cache: {} configuration{} analysed; lines, cards and root causes are of the first \
         ({}, capacity test {:?}, memory latency {} cycles); L1 and L2 are warpscope's model \
         (docs/cache.md), not measured",
        report.configs.len(),
        if report.configs.len() == 1 { "" } else { "s" },
        first.label(),
        first.capacity_test,
        first.memory_latency
    ));
}

/// The cache's rows on the kernel's card.
fn card(page: &mut Page, k: &KernelReport) {
    let t = &k.totals;
    let geo: Vec<String> = k.l1.iter().map(|g| g.to_string()).collect();
    page.card_mut(&k.name)
        .item("L1 (cache model)", geo.join(", "))
        .item("L1 hit rate", pct(t.l1_hit_rate))
        .item("global-load hit rate", pct(t.load_hit_rate))
        .item("L2 hit rate", pct(t.l2_hit_rate))
        .item(
            "load misses mh / m*h / mm",
            format!("{} / {} / {}", t.fault_mh, t.fault_mstar_h, t.fault_mm),
        )
        .item("compulsory misses", t.compulsory.to_string());
}

fn tables(page: &mut Page, c: &ConfigReport, top: usize) {
    let mut causes = Vec::new();
    let mut effects = Vec::new();
    for k in &c.kernels {
        for fr in &k.faults {
            for r in &fr.root_causes {
                causes.push((r.priority, k, fr.fault, r));
                for e in &r.effects {
                    effects.push((e.misses, k, fr.fault, r, e));
                }
            }
        }
    }
    // Ties keep the report's order (kernels in launch order, ranks within a fault type).
    causes.sort_by_key(|c| std::cmp::Reverse(c.0));
    effects.sort_by_key(|e| std::cmp::Reverse(e.0));
    if !causes.is_empty() {
        page.tables.push(Table {
            title: "Cache: root causes, ranked by the L1 misses they cause".into(),
            columns: [
                "root cause",
                "kernel",
                "fault",
                "misses caused",
                "effects",
                "fix",
                "gain (misses)",
                "instruction",
            ]
            .map(String::from)
            .to_vec(),
            rows: causes
                .iter()
                .take(top)
                .map(|(_, k, f, r)| Row {
                    cells: vec![
                        r.at.short(),
                        k.name.clone(),
                        f.name().into(),
                        r.priority.to_string(),
                        r.effects.len().to_string(),
                        r.fix.short().into(),
                        r.estimated_gain_misses.to_string(),
                        r.at.instruction.clone(),
                    ],
                    at: line_ref(&r.at),
                })
                .collect(),
        });
    }
    if !effects.is_empty() {
        page.tables.push(Table {
            title: "Cache: where the root causes' misses happen".into(),
            columns: [
                "where",
                "kernel",
                "fault",
                "misses",
                "re-reads",
                "root cause",
                "instruction",
            ]
            .map(String::from)
            .to_vec(),
            rows: effects
                .iter()
                .take(top)
                .map(|(_, k, f, r, e)| Row {
                    cells: vec![
                        e.at.short(),
                        k.name.clone(),
                        f.name().into(),
                        e.misses.to_string(),
                        e.rereads.to_string(),
                        r.at.short(),
                        e.at.instruction.clone(),
                    ],
                    at: line_ref(&e.at),
                })
                .collect(),
        });
    }
}

/// A cache parameter a sweep can vary.
#[derive(Clone, Copy, PartialEq)]
enum Param {
    L1Bytes,
    Ways,
    Line,
}

const PARAMS: [Param; 3] = [Param::L1Bytes, Param::Ways, Param::Line];

impl Param {
    fn label(self) -> &'static str {
        match self {
            Param::L1Bytes => "L1 size (bytes)",
            Param::Ways => "L1 ways",
            Param::Line => "line size (bytes)",
        }
    }

    /// The value a kernel ran with under `c` (an `auto` size or way count is the kernel's).
    fn value(self, c: &ConfigReport, k: &KernelReport) -> u64 {
        let g = k.l1.first();
        match self {
            Param::L1Bytes => g.map_or(0, |g| g.bytes),
            Param::Ways => g.map_or(0, |g| u64::from(g.ways)),
            Param::Line => u64::from(c.line_bytes),
        }
    }

    /// How the configuration names it (`auto`, `32K`, ...): what tells sweep points apart.
    fn setting(self, c: &ConfigReport) -> String {
        match self {
            Param::L1Bytes => c.l1.clone(),
            Param::Ways => c.l1_assoc.clone(),
            Param::Line => c.line_bytes.to_string(),
        }
    }

    fn show(self, v: u64) -> String {
        match self {
            Param::L1Bytes => format_size(v),
            _ => v.to_string(),
        }
    }
}

fn charts(page: &mut Page, report: &CacheReport) {
    let configs = &report.configs;
    // Load misses by fault type: per kernel, or per configuration (summed over kernels).
    let sweep = configs.len() > 1;
    let (categories, counts): (Vec<String>, Vec<[u64; 3]>) = if sweep {
        configs
            .iter()
            .map(|c| {
                let mut t = [0; 3];
                for k in &c.kernels {
                    t[0] += k.totals.fault_mh;
                    t[1] += k.totals.fault_mstar_h;
                    t[2] += k.totals.fault_mm;
                }
                (c.label(), t)
            })
            .unzip()
    } else {
        configs[0]
            .kernels
            .iter()
            .map(|k| {
                let t = &k.totals;
                (k.name.clone(), [t.fault_mh, t.fault_mstar_h, t.fault_mm])
            })
            .unzip()
    };
    if counts.iter().flatten().any(|&n| n > 0) {
        page.charts.push(Chart {
            title: format!(
                "Cache: L1 load misses by fault type per {}",
                if sweep { "configuration" } else { "kernel" }
            ),
            kind: ChartKind::Bars,
            x_label: if sweep { "configuration" } else { "kernel" }.into(),
            y_label: "load misses (32-byte sectors)".into(),
            categories,
            series: Fault::ALL
                .iter()
                .map(|f| Series {
                    name: f.name().into(),
                    points: counts
                        .iter()
                        .enumerate()
                        .map(|(i, t)| (i as f64, t[f.index()] as f64))
                        .collect(),
                })
                .collect(),
            diagonal: false,
            log_x: false,
        });
    }
    for p in PARAMS {
        if let Some(c) = sweep_chart(configs, p) {
            page.charts.push(c);
        }
    }
}

/// For a parameter the configurations vary: global-load hits and misses (summed over kernels)
/// against it, one pair of curves per scheduler and setting of the other parameters.
fn sweep_chart(configs: &[ConfigReport], p: Param) -> Option<Chart> {
    let mut settings: Vec<String> = configs.iter().map(|c| p.setting(c)).collect();
    settings.sort();
    settings.dedup();
    if settings.len() < 2 {
        return None;
    }
    // The other parameters, named only where they vary.
    let others: Vec<Param> = PARAMS
        .into_iter()
        .filter(|&q| q != p)
        .filter(|&q| {
            let mut s: Vec<String> = configs.iter().map(|c| q.setting(c)).collect();
            s.sort();
            s.dedup();
            s.len() > 1
        })
        .collect();
    // curve name -> x -> (hits, misses)
    let mut curves: BTreeMap<String, BTreeMap<u64, (u64, u64)>> = BTreeMap::new();
    for c in configs {
        let mut name = c.scheduler.clone();
        for q in &others {
            name.push_str(&format!(", {} {}", q.label(), q.setting(c)));
        }
        for k in &c.kernels {
            let t = &k.totals;
            if t.load_sectors == 0 {
                continue;
            }
            let e = curves
                .entry(name.clone())
                .or_default()
                .entry(p.value(c, k))
                .or_default();
            e.0 += t.load_hits;
            e.1 += t.load_sectors - t.load_hits;
        }
    }
    if curves.is_empty() {
        return None;
    }
    let mut series = Vec::new();
    for (name, pts) in &curves {
        for (what, pick) in [
            ("hits", (|h: &(u64, u64)| h.0) as fn(&(u64, u64)) -> u64),
            ("misses", |h| h.1),
        ] {
            series.push(Series {
                name: format!("{name} {what}"),
                points: pts
                    .iter()
                    .map(|(&x, h)| (x as f64, pick(h) as f64))
                    .collect(),
            });
        }
    }
    let xs: Vec<String> = curves
        .values()
        .flat_map(|m| m.keys().copied())
        .collect::<std::collections::BTreeSet<u64>>()
        .into_iter()
        .map(|x| p.show(x))
        .collect();
    Some(Chart {
        title: format!(
            "Cache sweep: global-load sector hits and misses against {} ({})",
            p.label(),
            xs.join(", ")
        ),
        kind: ChartKind::Lines,
        x_label: p.label().into(),
        y_label: "global-load sectors".into(),
        categories: Vec::new(),
        series,
        diagonal: false,
        log_x: matches!(p, Param::L1Bytes),
    })
}
