//! Renderings of a [`Profile`]: the CUDA source annotated line by line with what each line
//! cost ([`annotate`]), tables ranked by waste ([`tables`]), CSV with Nsight Compute-named
//! columns ([`csv`]) and JSON ([`json`]).

use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::model::{Counters, InstProfile, KernelProfile, Profile};

/// Source text lookup: `.file` name → text.
pub trait SourceText {
    fn source_line(&self, file: &str, line: u32) -> Option<String>;
}

impl SourceText for BTreeMap<String, String> {
    fn source_line(&self, file: &str, line: u32) -> Option<String> {
        let text = self.get(file)?;
        text.lines()
            .nth((line as usize).checked_sub(1)?)
            .map(str::to_string)
    }
}

/// Compact count: `987`, `12.3k`, `4.56M`, `7.89G`.
pub fn human(n: u64) -> String {
    let x = n as f64;
    if n < 10_000 {
        n.to_string()
    } else if x < 1e6 {
        format!("{:.1}k", x / 1e3)
    } else if x < 1e9 {
        format!("{:.2}M", x / 1e6)
    } else {
        format!("{:.2}G", x / 1e9)
    }
}

fn dot_or(n: u64, s: impl FnOnce() -> String) -> String {
    if n == 0 { ".".into() } else { s() }
}

/// Per (file, line) counters summed over kernels.
pub(crate) fn lines_by_file(profile: &Profile) -> BTreeMap<String, BTreeMap<u32, Counters>> {
    let mut out: BTreeMap<String, BTreeMap<u32, Counters>> = BTreeMap::new();
    for k in &profile.kernels {
        for l in &k.lines {
            let Some(f) = &l.file else { continue };
            out.entry(f.clone())
                .or_default()
                .entry(l.line)
                .or_default()
                .merge(&l.counters);
        }
    }
    out
}

const ANNOTATION_HEADER: &str =
    "  line  warp-insts  simt  divergent/visits  idle-lanes  excess-sectors  bank";

fn annotation(c: &Counters) -> String {
    let simt = if c.instructions == 0 {
        String::new()
    } else {
        format!("{:.0}%", 100.0 * c.simt_efficiency())
    };
    let div = if c.branch_visits == 0 {
        ".".to_string()
    } else {
        format!("{}/{}", human(c.divergent_branches), human(c.branch_visits))
    };
    let bank = if c.shared.requests == 0 {
        ".".to_string()
    } else if c.shared.excess_wavefronts() == 0 {
        "1-way".to_string()
    } else {
        format!("{}-way", c.shared.ways_max)
    };
    format!(
        "{:>10}  {:>4}  {:>16}  {:>10}  {:>14}  {:>6}",
        human(c.instructions),
        simt,
        div,
        dot_or(c.idle_lanes(), || human(c.idle_lanes())),
        if c.global.requests == 0 {
            ".".to_string()
        } else {
            human(c.global.excess_sectors())
        },
        bank
    )
}

/// The CUDA source of every file the profile touched, each line prefixed with what it cost
/// (all kernels together): warp instructions issued, SIMT efficiency, divergent branch
/// visits / visits, idle lane slots, excess global sectors and the worst bank conflict.
/// Stretches of more than 4 lines without cost are folded.
pub fn annotate(profile: &Profile, sources: &dyn SourceText) -> String {
    let mut out = String::new();
    for (file, lines) in lines_by_file(profile) {
        let _ = writeln!(out, "{file}");
        let _ = writeln!(out, "{ANNOTATION_HEADER}  | source");
        let counted: BTreeSet<u32> = lines.keys().copied().collect();
        let (Some(&first), Some(&last)) = (counted.first(), counted.last()) else {
            continue;
        };
        let near = |l: u32| counted.range(l.saturating_sub(2)..=l + 2).next().is_some();
        let mut folded = false;
        for l in first.saturating_sub(2).max(1)..=last + 2 {
            let text = sources.source_line(&file, l);
            if text.is_none() && !counted.contains(&l) {
                continue;
            }
            if !near(l) {
                if !folded {
                    let _ = writeln!(out, "{:>6}  ...", "");
                    folded = true;
                }
                continue;
            }
            folded = false;
            let ann = match lines.get(&l) {
                Some(c) => annotation(c),
                None => String::new(),
            };
            let _ = writeln!(
                out,
                "{l:>6}{:<width$}  | {}",
                ann,
                text.unwrap_or_default(),
                width = ANNOTATION_HEADER.len() - 6
            );
        }
        out.push('\n');
    }
    out
}

/// Where an instruction is, for the ranked tables ([`InstProfile::shown_at`]).
pub(crate) fn loc(i: &InstProfile) -> String {
    match i.shown_at() {
        Some((f, line, _)) => format!("{}:{line}", crate::model::basename(f)),
        None => format!("ptx:{}", i.ptx_line),
    }
}

pub(crate) fn ranked(
    profile: &Profile,
    keep: impl Fn(&Counters) -> bool,
    key: impl Fn(&Counters) -> u64,
) -> Vec<(&KernelProfile, &InstProfile)> {
    let mut v: Vec<(&KernelProfile, &InstProfile)> = profile
        .kernels
        .iter()
        .flat_map(|k| k.instructions.iter().map(move |i| (k, i)))
        .filter(|(_, i)| keep(&i.counters))
        .collect();
    v.sort_by_key(|x| std::cmp::Reverse(key(&x.1.counters)));
    v
}

/// Tables ranked by waste: divergent branches (by δ), global accesses (by excess sectors),
/// shared accesses (by excess wavefronts) and source lines (by idle lane slots); at most
/// `top` rows each. Ends with a per-kernel summary.
pub fn tables(profile: &Profile, top: usize) -> String {
    let mut out = String::new();
    let br = ranked(
        profile,
        |c| c.divergent_branches > 0,
        |c| c.divergent_branches,
    );
    if !br.is_empty() {
        let _ = writeln!(out, "Divergent branches (ranked by divergent visits δ)");
        let _ = writeln!(
            out,
            "  {:<24} {:<20} {:>10} {:>10} {:>7}  instruction",
            "where", "kernel", "δ", "τ", "δ/τ"
        );
        for (k, i) in br.iter().take(top) {
            let c = &i.counters;
            let _ = writeln!(
                out,
                "  {:<24} {:<20} {:>10} {:>10} {:>6.1}%  {}",
                loc(i),
                k.name,
                c.divergent_branches,
                c.branch_visits,
                100.0 * c.divergent_branches as f64 / c.branch_visits as f64,
                i.text
            );
        }
        out.push('\n');
    }
    let gl = ranked(
        profile,
        |c| c.global.excess_sectors() > 0,
        |c| c.global.excess_sectors(),
    );
    if !gl.is_empty() {
        let _ = writeln!(out, "Global accesses (ranked by excess 32-byte sectors)");
        let _ = writeln!(
            out,
            "  {:<24} {:<20} {:>9} {:>8} {:>6} {:>14} {:>8} {:>10}  cause",
            "where",
            "kernel",
            "requests",
            "sect/req",
            "ideal",
            "lines min/avg/max",
            "noalign",
            "excess"
        );
        for (k, i) in gl.iter().take(top) {
            let g = &i.counters.global;
            let cause = match (g.misaligned_sectors > 0, g.strided_sectors() > 0) {
                (true, false) => "misaligned",
                (true, true) if g.mostly_misaligned() => "misaligned (+stride)",
                (true, true) => "stride (+misaligned)",
                _ => "stride/scatter",
            };
            let _ = writeln!(
                out,
                "  {:<24} {:<20} {:>9} {:>8.2} {:>6.2} {:>4}/{:>5.2}/{:<4} {:>8.2} {:>10}  {:<20}  {}",
                loc(i),
                k.name,
                human(g.requests),
                g.per_request(g.sectors),
                g.per_request(g.ideal_sectors),
                g.lines_min,
                g.per_request(g.lines),
                g.lines_max,
                g.per_request(g.noalign_lines),
                human(g.excess_sectors()),
                cause,
                i.text
            );
        }
        out.push('\n');
    }
    let sh = ranked(
        profile,
        |c| c.shared.excess_wavefronts() > 0,
        |c| c.shared.excess_wavefronts(),
    );
    if !sh.is_empty() {
        let _ = writeln!(
            out,
            "Shared-memory bank conflicts (ranked by excess wavefronts)"
        );
        let _ = writeln!(
            out,
            "  {:<24} {:<20} {:>9} {:>8} {:>6} {:>6} {:>10}  instruction",
            "where", "kernel", "requests", "wf/req", "ideal", "ways", "excess"
        );
        for (k, i) in sh.iter().take(top) {
            let s = &i.counters.shared;
            let _ = writeln!(
                out,
                "  {:<24} {:<20} {:>9} {:>8.2} {:>6.2} {:>6} {:>10}  {}",
                loc(i),
                k.name,
                human(s.requests),
                s.wavefronts as f64 / s.requests as f64,
                s.ideal_wavefronts as f64 / s.requests as f64,
                s.ways_max,
                human(s.excess_wavefronts()),
                i.text
            );
        }
        out.push('\n');
    }
    // Lines by idle lane slots.
    let mut lines: Vec<(&KernelProfile, &crate::model::LineProfile)> = profile
        .kernels
        .iter()
        .flat_map(|k| k.lines.iter().map(move |l| (k, l)))
        .filter(|(_, l)| l.counters.idle_lanes() > 0)
        .collect();
    lines.sort_by_key(|x| std::cmp::Reverse(x.1.counters.idle_lanes()));
    if !lines.is_empty() {
        let _ = writeln!(
            out,
            "Idle lanes (ranked by idle lane slots: 32 x warp instructions - predicated-on lanes)"
        );
        let _ = writeln!(
            out,
            "  {:<24} {:<20} {:>10} {:>6} {:>10}",
            "where", "kernel", "warp-insts", "simt", "idle"
        );
        for (k, l) in lines.iter().take(top) {
            let w = match &l.file {
                Some(f) => format!("{}:{}", crate::model::basename(f), l.line),
                None => "(no line)".into(),
            };
            let _ = writeln!(
                out,
                "  {:<24} {:<20} {:>10} {:>5.1}% {:>10}",
                w,
                k.name,
                human(l.counters.instructions),
                100.0 * l.counters.simt_efficiency(),
                human(l.counters.idle_lanes())
            );
        }
        out.push('\n');
    }
    let _ = writeln!(out, "Kernels");
    let _ = writeln!(
        out,
        "  {:<20} {:>8} {:>10} {:>6} {:>12} {:>14} {:>14}",
        "kernel", "launches", "warp-insts", "simt", "divergent", "sectors/ideal", "wavefr/ideal"
    );
    for k in &profile.kernels {
        let t = &k.totals;
        let _ = writeln!(
            out,
            "  {:<20} {:>8} {:>10} {:>5.1}% {:>12} {:>14} {:>14}",
            k.name,
            k.launches,
            human(t.instructions),
            100.0 * t.simt_efficiency(),
            format!("{}/{}", human(t.divergent_branches), human(t.branch_visits)),
            format!(
                "{}/{}",
                human(t.global.sectors),
                human(t.global.ideal_sectors)
            ),
            format!(
                "{}/{}",
                human(t.shared.wavefronts),
                human(t.shared.ideal_wavefronts)
            ),
        );
    }
    out
}

/// The CSV columns, in order. The first thirteen are the ones issue 5 fixes; the rest add
/// the derived and GPUDrano measures.
pub const CSV_COLUMNS: &[&str] = &[
    "kernel",
    "file",
    "line",
    "instructions",
    "thread_instructions",
    "branch_visits",
    "divergent_branches",
    "global_requests",
    "global_sectors",
    "global_ideal_sectors",
    "shared_requests",
    "shared_wavefronts",
    "shared_ideal_wavefronts",
    "predicated_on_thread_instructions",
    "simt_efficiency",
    "global_excess_sectors",
    "global_misaligned_sectors",
    "global_lane_sectors",
    "global_used_sectors",
    "global_lines",
    "global_lines_min",
    "global_lines_max",
    "global_noalign_sectors",
    "global_noalign_lines",
    "shared_excess_wavefronts",
    "shared_conflict_ways_max",
    "shared_n_way",
    "local_requests",
];

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One row per (kernel, file, line), in kernel then file then line order; instructions
/// without a `.loc` line are grouped under an empty file and line 0.
pub fn csv(profile: &Profile) -> String {
    let mut out = CSV_COLUMNS.join(",");
    out.push('\n');
    for k in &profile.kernels {
        for l in &k.lines {
            let c = &l.counters;
            let g = &c.global;
            let s = &c.shared;
            let fields: Vec<String> = vec![
                csv_field(&k.name),
                csv_field(l.file.as_deref().unwrap_or("")),
                l.line.to_string(),
                c.instructions.to_string(),
                c.thread_instructions.to_string(),
                c.branch_visits.to_string(),
                c.divergent_branches.to_string(),
                g.requests.to_string(),
                g.sectors.to_string(),
                g.ideal_sectors.to_string(),
                s.requests.to_string(),
                s.wavefronts.to_string(),
                s.ideal_wavefronts.to_string(),
                c.predicated_on_thread_instructions.to_string(),
                format!("{:.4}", c.simt_efficiency()),
                g.excess_sectors().to_string(),
                g.misaligned_sectors.to_string(),
                g.lane_sectors.to_string(),
                g.used_sectors.to_string(),
                g.lines.to_string(),
                g.lines_min.to_string(),
                g.lines_max.to_string(),
                g.noalign_sectors.to_string(),
                g.noalign_lines.to_string(),
                s.excess_wavefronts().to_string(),
                s.ways_max.to_string(),
                format!("{:.4}", s.n_way()),
                c.local_requests.to_string(),
            ];
            out.push_str(&fields.join(","));
            out.push('\n');
        }
    }
    out
}

#[derive(Serialize)]
struct JsonEnvelope<'a> {
    format: &'static str,
    version: u32,
    tool: &'static str,
    tool_version: &'static str,
    profile: &'a Profile,
    report: &'a warpscope_report::Report,
}

/// Version of the profile JSON layout.
pub const JSON_VERSION: u32 = 1;

/// The profile and its findings as pretty-printed JSON
/// (`{format: "warpscope-profile", version, tool, tool_version, profile, report}`; `report`
/// is the report crate's [`Report`](warpscope_report::Report)).
pub fn json(profile: &Profile) -> String {
    let report = crate::findings::report(profile);
    let env = JsonEnvelope {
        format: "warpscope-profile",
        version: JSON_VERSION,
        tool: warpscope_report::TOOL_NAME,
        tool_version: warpscope_report::TOOL_VERSION,
        profile,
        report: &report,
    };
    let mut s =
        serde_json::to_string_pretty(&env).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    s.push('\n');
    s
}

/// Reads the profile back from [`json`] output.
pub fn parse_json(text: &str) -> Result<Profile, serde_json::Error> {
    #[derive(serde::Deserialize)]
    struct Owned {
        profile: Profile,
    }
    serde_json::from_str::<Owned>(text).map(|o| o.profile)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn humanised_counts() {
        assert_eq!(human(987), "987");
        assert_eq!(human(12_345), "12.3k");
        assert_eq!(human(4_560_000), "4.56M");
        assert_eq!(human(7_890_000_000), "7.89G");
    }

    #[test]
    fn csv_quotes() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("x\"y"), "\"x\"\"y\"");
        assert_eq!(csv_field("plain"), "plain");
    }
}
