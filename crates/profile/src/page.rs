//! A profile on a report page ([`warpscope_report::page::Page`]): per-line heat-map columns
//! and PTX, per-kernel summary cards, ranked tables linked to their lines, the SIMT-efficiency
//! and divergence-map charts, and the profile's findings.

use crate::model::{Counters, InstProfile, Profile};
use crate::render::{human, lines_by_file, loc, ranked};
use warpscope_report::page::{Card, Chart, ChartKind, LineRef, Metric, Page, Row, Series, Table};

/// The heat-map columns a profile fills, in menu order.
pub fn metrics() -> Vec<Metric> {
    vec![
        Metric::new(
            "idle_lanes",
            "idle lanes",
            "32 × warp instructions − predicated-on lanes (divergence, partial warps, guards)",
        ),
        Metric::new(
            "divergent_visits",
            "divergent visits",
            "warp visits of the line's branches whose active lanes disagreed (δ)",
        ),
        Metric::new(
            "excess_sectors",
            "excess sectors",
            "global 32-byte sectors beyond the ideal for the bytes the lanes use",
        ),
        Metric::new(
            "bank_ways",
            "bank-conflict ways",
            "worst N-way shared-memory bank conflict of the line's requests",
        ),
        Metric::new(
            "excess_wavefronts",
            "excess wavefronts",
            "shared-memory wavefronts beyond the ideal (bank conflicts)",
        ),
        Metric::new(
            "warp_instructions",
            "warp instructions",
            "warp instructions issued on the line",
        ),
    ]
}

fn line_values(c: &Counters) -> Vec<(&'static str, f64)> {
    let mut v = vec![
        ("warp_instructions", c.instructions as f64),
        ("idle_lanes", c.idle_lanes() as f64),
    ];
    if c.branch_visits > 0 {
        v.push(("divergent_visits", c.divergent_branches as f64));
    }
    if c.global.requests > 0 {
        v.push(("excess_sectors", c.global.excess_sectors() as f64));
    }
    if c.shared.requests > 0 {
        v.push(("bank_ways", f64::from(c.shared.ways_max)));
        v.push(("excess_wavefronts", c.shared.excess_wavefronts() as f64));
    }
    v
}

fn line_ref(i: &InstProfile) -> Option<LineRef> {
    i.shown_at().map(|(f, line, _)| LineRef {
        file: f.to_string(),
        line,
    })
}

fn per_request(n: u64, requests: u64) -> f64 {
    if requests == 0 {
        0.0
    } else {
        n as f64 / requests as f64
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// Adds `profile` to `page`: sources (text from `source`, by `.file` name; toolkit headers
/// left out), metric columns, PTX per line, cards, tables (`top` rows each) and charts. The
/// caller adds findings: the profile's own ([`crate::findings::report`]), or static ones
/// confirmed against it.
pub fn fill(
    page: &mut Page,
    profile: &Profile,
    source: &dyn Fn(&str) -> Option<String>,
    top: usize,
) {
    for m in metrics() {
        page.add_metric(m);
    }
    for (file, lines) in lines_by_file(profile) {
        if warpscope_report::is_system_file(&file) {
            continue;
        }
        let text = source(&file);
        let sf = page.source_mut(&file, text.as_deref());
        for (line, c) in lines {
            let d = sf.line_mut(line);
            for (id, v) in line_values(&c) {
                *d.values.entry(id.to_string()).or_default() += v;
            }
        }
    }
    for k in &profile.kernels {
        for i in &k.instructions {
            let Some(at) = line_ref(i) else { continue };
            if let Some(sf) = page.sources.iter_mut().find(|s| s.name == at.file) {
                sf.line_mut(at.line)
                    .ptx
                    .push(format!("{:>5}: {}", i.ptx_line, i.text));
            }
        }
    }
    cards(page, profile);
    tables(page, profile, top);
    charts(page, profile, top);
}

fn cards(page: &mut Page, profile: &Profile) {
    for k in &profile.kernels {
        let t = &k.totals;
        let mut c = Card::new(&k.name);
        c.item("launches", k.launches.to_string())
            .item("warp instructions", human(t.instructions))
            .item("SIMT efficiency", pct(t.simt_efficiency()));
        if t.branch_visits > 0 {
            c.item(
                "divergent visits",
                format!(
                    "{} of {} ({})",
                    human(t.divergent_branches),
                    human(t.branch_visits),
                    pct(t.divergent_branches as f64 / t.branch_visits as f64)
                ),
            );
        }
        if t.global.requests > 0 {
            let g = &t.global;
            c.item(
                "sectors per request",
                format!(
                    "{:.2} (ideal {:.2})",
                    g.per_request(g.sectors),
                    g.per_request(g.ideal_sectors)
                ),
            );
        }
        if t.shared.requests > 0 {
            let s = &t.shared;
            c.item(
                "shared wavefronts per request",
                format!(
                    "{:.2} (ideal {:.2})",
                    per_request(s.wavefronts, s.requests),
                    per_request(s.ideal_wavefronts, s.requests)
                ),
            );
        }
        page.cards.push(c);
    }
}

fn tables(page: &mut Page, profile: &Profile, top: usize) {
    let rows = |keep: fn(&Counters) -> bool,
                key: fn(&Counters) -> u64,
                cells: &dyn Fn(&str, &InstProfile) -> Vec<String>| {
        ranked(profile, keep, key)
            .into_iter()
            .take(top)
            .map(|(k, i)| Row {
                cells: cells(&k.name, i),
                at: line_ref(i),
            })
            .collect::<Vec<Row>>()
    };
    let br = rows(
        |c| c.divergent_branches > 0,
        |c| c.divergent_branches,
        &|k, i| {
            let c = &i.counters;
            vec![
                loc(i),
                k.to_string(),
                c.divergent_branches.to_string(),
                c.branch_visits.to_string(),
                pct(c.divergent_branches as f64 / c.branch_visits as f64),
                i.text.clone(),
            ]
        },
    );
    push_table(
        page,
        "Divergent branches (ranked by divergent visits δ)",
        &["where", "kernel", "δ", "τ", "δ/τ", "instruction"],
        br,
    );
    let gl = rows(
        |c| c.global.excess_sectors() > 0,
        |c| c.global.excess_sectors(),
        &|k, i| {
            let g = &i.counters.global;
            vec![
                loc(i),
                k.to_string(),
                human(g.requests),
                format!("{:.2}", g.per_request(g.sectors)),
                format!("{:.2}", g.per_request(g.ideal_sectors)),
                human(g.excess_sectors()),
                i.text.clone(),
            ]
        },
    );
    push_table(
        page,
        "Global accesses (ranked by excess 32-byte sectors)",
        &[
            "where",
            "kernel",
            "requests",
            "sectors/req",
            "ideal",
            "excess",
            "instruction",
        ],
        gl,
    );
    let sh = rows(
        |c| c.shared.excess_wavefronts() > 0,
        |c| c.shared.excess_wavefronts(),
        &|k, i| {
            let s = &i.counters.shared;
            vec![
                loc(i),
                k.to_string(),
                human(s.requests),
                format!("{:.2}", per_request(s.wavefronts, s.requests)),
                format!("{}-way", s.ways_max),
                human(s.excess_wavefronts()),
                i.text.clone(),
            ]
        },
    );
    push_table(
        page,
        "Shared-memory bank conflicts (ranked by excess wavefronts)",
        &[
            "where",
            "kernel",
            "requests",
            "wavefronts/req",
            "worst",
            "excess",
            "instruction",
        ],
        sh,
    );
}

fn push_table(page: &mut Page, title: &str, columns: &[&str], rows: Vec<Row>) {
    if rows.is_empty() {
        return;
    }
    page.tables.push(Table {
        title: title.into(),
        columns: columns.iter().map(|c| c.to_string()).collect(),
        rows,
    });
}

fn charts(page: &mut Page, profile: &Profile, top: usize) {
    if profile.kernels.is_empty() {
        return;
    }
    page.charts.push(Chart {
        title: "SIMT efficiency per kernel".into(),
        kind: ChartKind::Bars,
        x_label: "kernel".into(),
        y_label: "SIMT efficiency (%)".into(),
        categories: profile.kernels.iter().map(|k| k.name.clone()).collect(),
        series: vec![Series {
            name: "SIMT efficiency".into(),
            points: profile
                .kernels
                .iter()
                .enumerate()
                .map(|(i, k)| (i as f64, 100.0 * k.totals.simt_efficiency()))
                .collect(),
        }],
        diagonal: false,
        log_x: false,
    });
    let branches: Vec<_> = ranked(profile, |c| c.branch_visits > 0, |c| c.divergent_branches)
        .into_iter()
        .take(top)
        .collect();
    if branches
        .iter()
        .any(|(_, i)| i.counters.divergent_branches > 0)
    {
        page.charts.push(Chart {
            title: "Divergence map: branch visits per branch".into(),
            kind: ChartKind::Bars,
            x_label: "branch".into(),
            y_label: "warp visits".into(),
            categories: branches.iter().map(|(_, i)| loc(i)).collect(),
            series: vec![
                Series {
                    name: "visits τ".into(),
                    points: branches
                        .iter()
                        .enumerate()
                        .map(|(n, (_, i))| (n as f64, i.counters.branch_visits as f64))
                        .collect(),
                },
                Series {
                    name: "divergent δ".into(),
                    points: branches
                        .iter()
                        .enumerate()
                        .map(|(n, (_, i))| (n as f64, i.counters.divergent_branches as f64))
                        .collect(),
                },
            ],
            diagonal: false,
            log_x: false,
        });
    }
}
