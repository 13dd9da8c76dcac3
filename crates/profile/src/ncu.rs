//! Comparison with Nsight Compute's source counters (`warpscope profile --compare-ncu`).
//!
//! The source page (`ncu -i REPORT --page source --csv --print-source cuda,sass`) or its reduced
//! per-line table is read by `warpscope-ncu` ([`parse_source_csv`]): CUDA rows summed per (file
//! name, line) over every kernel and launch in the report, with the SASS rows that follow a
//! CUDA row (the correlated view) attributed to it, which tells whether the SASS of a line kept
//! a conditional branch.
//!
//! [`compare`] lines the result up with a [`Profile`] of the same launches, per source line:
//! global sectors and ideal sectors, shared wavefronts, ideal wavefronts and N-way conflicts
//! must be *equal*; divergence is compared with "Divergent Branches" where the SASS kept a
//! branch and with predicated-off thread instructions where ptxas if-converted it.

use std::collections::BTreeMap;
use std::fmt::Write as _;

pub use warpscope_ncu::{NcuLine, NcuSource, parse_source_csv};

use crate::model::{Access, Counters, Profile, basename};

/// How one line compares. Each check is `None` when Nsight Compute has no value for it.
#[derive(Clone, Debug, PartialEq)]
pub struct LineComparison {
    pub file: String,
    pub line: u32,
    pub source: String,
    pub ours: Counters,
    /// Our "L1 Conflicts Shared N-Way": wavefronts per request summed over the line's shared
    /// instructions.
    pub our_n_way: f64,
    pub ncu: NcuLine,
    /// Whether the report has the line at all.
    pub in_ncu: bool,
    /// For a line other code was inlined into (an `atomicAdd` call): whether the inlined
    /// instructions are counted on it (`Some(true)`, as Nsight Compute usually shows them) or
    /// not (`Some(false)`, where ptxas's line table keeps them on their own line only).
    pub inlined_code: Option<bool>,
    /// Some of our memory instructions on the line have no line in the PTX (`.loc F 0 0`)
    /// and were put on the previous line.
    pub line_inferred: bool,
    /// The line has atomic or reduction instructions.
    pub atomics: bool,
    /// Bytes per lane of our memory instructions on the line.
    pub access_sizes: std::collections::BTreeSet<u32>,
    /// Other lines of the same file whose differences cancel this line's exactly: the same
    /// accesses, attributed to different lines by the PTX's `.loc` and by ptxas.
    pub moved_with: Vec<u32>,
    pub sectors_equal: bool,
    /// Ideal sectors equal (`min(sectors, ⌈active lanes × size / 32⌉)` per request).
    pub ideal_equal: Option<bool>,
    pub wavefronts_equal: Option<bool>,
    pub ideal_wavefronts_equal: Option<bool>,
    pub n_way_equal: Option<bool>,
}

impl LineComparison {
    /// A line with memory traffic on either side.
    pub fn has_memory(&self) -> bool {
        self.ours.global.requests > 0
            || self.ours.shared.requests > 0
            || self.ncu.l2_sectors > 0.0
            || self.ncu.shared_wavefronts.is_some_and(|w| w > 0.0)
    }

    /// The report has the line, and the sectors, ideal sectors, wavefronts and ideal
    /// wavefronts both sides have agree. (The N-Way column is compared apart: Nsight Compute
    /// sums a per-SASS-instruction ratio over the line, which depends on how ptxas split the
    /// line into instructions, not only on the traffic.)
    pub fn exact(&self) -> bool {
        self.in_ncu
            && self.sectors_equal
            && self.ideal_equal != Some(false)
            && self.wavefronts_equal != Some(false)
            && self.ideal_wavefronts_equal != Some(false)
    }

    /// Why a line that is not [`exact`](Self::exact) differs, as far as the two reports
    /// show it (`None` for an exact line).
    pub fn reason(&self) -> Option<String> {
        if self.exact() {
            return None;
        }
        if !self.moved_with.is_empty() {
            let others: Vec<String> = self.moved_with.iter().map(|l| l.to_string()).collect();
            return Some(format!(
                "moved: with line{} {} the totals agree; ptxas put some of these accesses on \
                 another line than the PTX's .loc{}",
                if others.len() > 1 { "s" } else { "" },
                others.join(", "),
                if self.line_inferred {
                    " (here one the PTX leaves without a line, .loc 0)"
                } else {
                    ""
                }
            ));
        }
        if !self.in_ncu {
            return Some("the report has no such line: ptxas attributed its code elsewhere".into());
        }
        let g = &self.ours.global;
        let s = &self.ours.shared;
        let mut why = Vec::new();
        let atomics = self.atomics;
        let count = |ours: u64, hw: Option<f64>, space: &str, why: &mut Vec<String>| {
            if let Some(hw) = hw.or(Some(0.0)).filter(|hw| !close(ours as f64, *hw)) {
                if atomics {
                    why.push(format!(
                        "the H100 executes the line's {space} instructions {hw} times, the \
                         emulator {ours}: an atomic retry loop runs as often as other warps \
                         change the value between its read and its atomic, which takes memory \
                         latency the emulator does not model"
                    ));
                    return;
                }
                why.push(format!(
                    "SASS issues {hw} {space} instructions where the PTX issues {ours} requests \
                     (ptxas {} the line's accesses)",
                    if hw < ours as f64 {
                        "merged, vectorized or moved"
                    } else {
                        "split, unrolled or re-predicated"
                    }
                ));
            }
        };
        let wider: Vec<String> = self
            .ncu
            .access_sizes
            .iter()
            .filter(|b| self.access_sizes.last().is_some_and(|m| *b > m))
            .map(|b| b.to_string())
            .collect();
        if !wider.is_empty() {
            why.push(format!(
                "SASS accesses {} bytes per lane where the PTX accesses at most {}: ptxas \
                 vectorised adjacent accesses into wider ones",
                wider.join(" and "),
                self.access_sizes.last().copied().unwrap_or(0)
            ));
        }
        let global_differs = !self.sectors_equal || self.ideal_equal == Some(false);
        let shared_differs =
            self.wavefronts_equal == Some(false) || self.ideal_wavefronts_equal == Some(false);
        if global_differs && self.ncu.global_instructions.is_some() {
            count(g.requests, self.ncu.global_instructions, "global", &mut why);
        }
        if shared_differs && self.ncu.shared_instructions.is_some() {
            count(s.requests, self.ncu.shared_instructions, "shared", &mut why);
        }
        if self.line_inferred {
            why.push(
                "the PTX gives an access no line (.loc 0): warpscope puts it on the previous \
                 line, ptxas on another"
                    .into(),
            );
        }
        if why.is_empty() {
            let known = (!global_differs || self.ncu.global_instructions.is_some())
                && (!shared_differs || self.ncu.shared_instructions.is_some());
            why.push(if known {
                "as many requests on both sides, touching different addresses: the \
                 addresses or the lanes grouped into each request differ between the runs"
                    .into()
            } else {
                "the report has no SASS rows to compare requests with".into()
            });
        }
        Some(why.join("; "))
    }

    /// Lanes doing work per warp instruction, ours (active lanes: the PTX branches around
    /// code) and ncu's (predicated-on lanes: SASS often predicates the same code instead), or
    /// `None` without instructions. This is the SIMT efficiency × 32 of the line, comparable
    /// whether ptxas kept a branch or if-converted it.
    pub fn useful_lanes(&self) -> Option<(f64, f64)> {
        (self.ours.instructions > 0 && self.ncu.instructions > 0.0).then(|| {
            (
                self.ours.thread_instructions as f64 / self.ours.instructions as f64,
                self.ncu.predicated_on / self.ncu.instructions,
            )
        })
    }

    /// Active lanes per warp instruction, ours and ncu's (`None` without instructions).
    pub fn active_lanes(&self) -> Option<(f64, f64)> {
        (self.ours.instructions > 0 && self.ncu.instructions > 0.0).then(|| {
            (
                self.ours.thread_instructions as f64 / self.ours.instructions as f64,
                self.ncu.thread_instructions / self.ncu.instructions,
            )
        })
    }
}

/// How a line's divergence compares.
#[derive(Clone, Debug, PartialEq)]
pub enum DivergenceAgreement {
    /// SASS kept a conditional branch on the line. `ncu` is its "Divergent Branches" when the
    /// report has the column.
    Branch { ours: u64, ncu: Option<f64> },
    /// No conditional branch left in the line's SASS: ptxas if-converted it, and ncu shows
    /// `ncu_predicated_off` predicated-off thread instructions instead.
    /// `lanes`: lanes doing work per warp instruction on the line, ours (active) and ncu's
    /// (predicated-on), when both executed it.
    Predicated {
        ours: u64,
        ncu_predicated_off: f64,
        lanes: Option<(f64, f64)>,
    },
    /// We saw divergence; ncu shows neither a conditional branch nor predicated-off lanes
    /// on the line (ptxas moved or merged it).
    Missing { ours: u64 },
    /// ncu saw divergent branches where our PTX branches never diverged.
    HardwareOnly { ncu: f64 },
}

/// Divergence on one line.
#[derive(Clone, Debug, PartialEq)]
pub struct DivergenceComparison {
    pub file: String,
    pub line: u32,
    pub source: String,
    pub agreement: DivergenceAgreement,
}

/// A profile against a report, line by line.
#[derive(Clone, Debug, Default)]
pub struct Comparison {
    pub lines: Vec<LineComparison>,
    pub divergence: Vec<DivergenceComparison>,
}

impl Comparison {
    /// Lines with memory traffic on either side.
    pub fn memory_lines(&self) -> impl Iterator<Item = &LineComparison> {
        self.lines.iter().filter(|l| l.has_memory())
    }

    /// (lines with memory, of which exactly equal).
    pub fn memory_agreement(&self) -> (usize, usize) {
        let total = self.memory_lines().count();
        let exact = self.memory_lines().filter(|l| l.exact()).count();
        (total, exact)
    }

    /// (lines with shared requests and an N-Way value on both sides, of which it agrees).
    pub fn n_way_agreement(&self) -> (usize, usize) {
        let v: Vec<bool> = self
            .lines
            .iter()
            .filter(|l| l.ours.shared.requests > 0)
            .filter_map(|l| l.n_way_equal)
            .collect();
        (v.len(), v.iter().filter(|x| **x).count())
    }

    /// (lines executed on both sides, of which the active lanes per warp instruction agree
    /// to half a lane).
    pub fn active_lane_agreement(&self) -> (usize, usize) {
        let both: Vec<(f64, f64)> = self.lines.iter().filter_map(|l| l.active_lanes()).collect();
        let agree = both.iter().filter(|(a, b)| (a - b).abs() <= 0.5).count();
        (both.len(), agree)
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.5
}

/// Compares `profile` with `ncu` per (file name, line).
pub fn compare(profile: &Profile, ncu: &NcuSource) -> Comparison {
    // Per (file, line): the line's own instructions, and the code inlined into it.
    type Side = BTreeMap<(String, u32), (Counters, f64)>;
    fn add_to(side: &mut Side, key: (String, u32), c: &Counters) {
        let e = side.entry(key).or_default();
        e.0.merge(c);
        if c.shared.requests > 0 {
            e.1 += c.shared.wavefronts as f64 / c.shared.requests as f64;
        }
    }
    let mut own: Side = BTreeMap::new();
    let mut inlined: Side = BTreeMap::new();
    let mut inferred = std::collections::BTreeSet::new();
    let mut atomic = std::collections::BTreeSet::new();
    let mut sizes: BTreeMap<(String, u32), std::collections::BTreeSet<u32>> = BTreeMap::new();
    for k in &profile.kernels {
        for i in &k.instructions {
            let Some(f) = &i.file else { continue };
            let key = (basename(f).to_string(), i.line);
            let site = i
                .inlined_at
                .as_ref()
                .and_then(|c| Some((basename(c.file.as_deref()?).to_string(), c.line)))
                .filter(|c| *c != key);
            let c = &i.counters;
            if i.line_inferred && (c.global.requests > 0 || c.shared.requests > 0) {
                inferred.insert(key.clone());
            }
            if c.global.requests > 0 || c.shared.requests > 0 {
                sizes.entry(key.clone()).or_default().insert(i.access_size);
            }
            if matches!(i.access, Some(Access::Atomic | Access::Reduction)) {
                atomic.insert(key.clone());
                if let Some(site) = &site {
                    atomic.insert(site.clone());
                }
            }
            add_to(&mut own, key, c);
            if let Some(site) = site {
                add_to(&mut inlined, site, &i.counters);
            }
        }
    }
    let mut keys: Vec<(String, u32)> = own.keys().chain(inlined.keys()).cloned().collect();
    keys.extend(ncu.lines.keys().cloned());
    keys.sort();
    keys.dedup();
    let mut out = Comparison::default();
    for key in keys {
        let in_ncu = ncu.lines.contains_key(&key);
        let n = ncu.lines.get(&key).cloned().unwrap_or_default();
        let line = |(o, our_n_way): (Counters, f64), call_site: Option<bool>| {
            let g = &o.global;
            let s = &o.shared;
            LineComparison {
                file: key.0.clone(),
                line: key.1,
                source: n.source.clone(),
                ours: o,
                our_n_way,
                in_ncu,
                inlined_code: call_site,
                line_inferred: inferred.contains(&key),
                atomics: atomic.contains(&key),
                access_sizes: sizes.get(&key).cloned().unwrap_or_default(),
                moved_with: Vec::new(),
                sectors_equal: close(g.sectors as f64, n.l2_sectors),
                ideal_equal: n.l2_ideal.map(|v| close(g.ideal_sectors as f64, v)),
                wavefronts_equal: n.shared_wavefronts.map(|v| close(s.wavefronts as f64, v)),
                ideal_wavefronts_equal: n.shared_ideal.map(|v| close(s.ideal_wavefronts as f64, v)),
                n_way_equal: n
                    .shared_n_way
                    .filter(|_| n.shared_wavefronts.is_some())
                    .map(|v| (our_n_way - v).abs() <= 0.01 * v.max(1.0)),
                ncu: n.clone(),
            }
        };
        let mine = own.get(&key).copied().unwrap_or_default();
        // Whether Nsight Compute shows inlined code on its call site's line depends on the
        // SASS line table ptxas wrote, which the PTX does not show: it does for some
        // instructions and not for others. Both attributions are tried; the one that agrees
        // (or, failing both, the one with the inlined code) is kept and marked.
        let lc = match inlined.get(&key) {
            None => line(mine, None),
            Some(&(c, w)) => {
                let mut with = mine;
                with.0.merge(&c);
                with.1 += w;
                let with = line(with, Some(true));
                let without = line(mine, Some(false));
                if !with.exact() && without.exact() {
                    without
                } else {
                    with
                }
            }
        };
        let o = lc.ours;
        let pred_off = n.thread_instructions - n.predicated_on;
        let agreement = if o.divergent_branches > 0 {
            if n.sass_conditional_branch || n.divergent_branches.is_some_and(|d| d > 0.0) {
                Some(DivergenceAgreement::Branch {
                    ours: o.divergent_branches,
                    ncu: n.divergent_branches,
                })
            } else if pred_off > 0.0 {
                Some(DivergenceAgreement::Predicated {
                    ours: o.divergent_branches,
                    ncu_predicated_off: pred_off,
                    lanes: lc.useful_lanes(),
                })
            } else {
                Some(DivergenceAgreement::Missing {
                    ours: o.divergent_branches,
                })
            }
        } else {
            n.divergent_branches
                .filter(|d| *d > 0.0)
                .map(|d| DivergenceAgreement::HardwareOnly { ncu: d })
        };
        if let Some(agreement) = agreement {
            out.divergence.push(DivergenceComparison {
                file: key.0.clone(),
                line: key.1,
                source: n.source.clone(),
                agreement,
            });
        }
        out.lines.push(lc);
    }
    mark_moved(&mut out.lines);
    out
}

/// Finds differing lines of one file whose differences cancel: pairs first, then the
/// file's whole set of differing lines.
fn mark_moved(lines: &mut [LineComparison]) {
    fn delta(l: &LineComparison) -> [f64; 4] {
        let g = &l.ours.global;
        let s = &l.ours.shared;
        [
            g.sectors as f64 - l.ncu.l2_sectors,
            g.ideal_sectors as f64 - l.ncu.l2_ideal.unwrap_or(g.ideal_sectors as f64),
            s.wavefronts as f64 - l.ncu.shared_wavefronts.unwrap_or(s.wavefronts as f64),
            s.ideal_wavefronts as f64 - l.ncu.shared_ideal.unwrap_or(s.ideal_wavefronts as f64),
        ]
    }
    let cancels = |set: &[usize], d: &[[f64; 4]]| {
        (0..4).all(|k| set.iter().map(|&i| d[i][k]).sum::<f64>().abs() < 0.5)
    };
    let differing: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].has_memory() && !lines[i].exact())
        .collect();
    let d: Vec<[f64; 4]> = lines.iter().map(delta).collect();
    let mut files: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for &i in &differing {
        files.entry(lines[i].file.as_str()).or_default().push(i);
    }
    let mut marks: Vec<(usize, Vec<u32>)> = Vec::new();
    for group in files.values() {
        let mut used = vec![false; group.len()];
        for a in 0..group.len() {
            for b in a + 1..group.len() {
                if !used[a] && !used[b] && cancels(&[group[a], group[b]], &d) {
                    used[a] = true;
                    used[b] = true;
                    marks.push((group[a], vec![lines[group[b]].line]));
                    marks.push((group[b], vec![lines[group[a]].line]));
                }
            }
        }
        let rest: Vec<usize> = (0..group.len())
            .filter(|&k| !used[k])
            .map(|k| group[k])
            .collect();
        if rest.len() > 2 && cancels(&rest, &d) {
            for &i in &rest {
                let others = rest
                    .iter()
                    .filter(|&&j| j != i)
                    .map(|&j| lines[j].line)
                    .collect();
                marks.push((i, others));
            }
        }
    }
    for (i, others) in marks {
        lines[i].moved_with = others;
    }
}

fn short(s: &str, n: usize) -> String {
    let s = s.trim().replace('|', "\\|").replace('`', "'");
    if s.chars().count() <= n {
        s
    } else {
        let t: String = s.chars().take(n - 1).collect();
        format!("{t}…")
    }
}

fn opt(v: Option<f64>) -> String {
    match v {
        Some(v) if v.fract() == 0.0 => format!("{}", v as i64),
        Some(v) => format!("{v:.2}"),
        None => "–".into(),
    }
}

/// Markdown: a summary line, then every line with memory traffic that differs, then the
/// divergence comparison.
pub fn render_markdown(name: &str, c: &Comparison) -> String {
    let mut out = String::new();
    let (total, exact) = c.memory_agreement();
    let (exec, lanes_ok) = c.active_lane_agreement();
    let (nw_total, nw_ok) = c.n_way_agreement();
    let _ = writeln!(
        out,
        "### {name}: {exact}/{total} lines with memory accesses agree exactly; active lanes per warp instruction agree on {lanes_ok}/{exec} executed lines; N-Way agrees on {nw_ok}/{nw_total} shared lines"
    );
    let diff: Vec<&LineComparison> = c
        .memory_lines()
        .filter(|l| !l.exact() || l.n_way_equal == Some(false))
        .collect();
    if !diff.is_empty() {
        let _ = writeln!(
            out,
            "\n| line | requests (ours/SASS) | sectors (ours/ncu) | ideal (ours/ncu) | wavefronts (ours/ncu) | ideal wf (ours/ncu) | n-way (ours/ncu) | why | source |\n|---|---|---|---|---|---|---|---|---|"
        );
        for l in diff {
            let g = &l.ours.global;
            let s = &l.ours.shared;
            let requests = match (g.requests > 0, s.requests > 0) {
                (_, false) => format!("{}/{}", g.requests, opt(l.ncu.global_instructions)),
                (false, true) => format!("{}/{}", s.requests, opt(l.ncu.shared_instructions)),
                (true, true) => format!(
                    "{}/{} global, {}/{} shared",
                    g.requests,
                    opt(l.ncu.global_instructions),
                    s.requests,
                    opt(l.ncu.shared_instructions)
                ),
            };
            let why = l.reason().unwrap_or_else(|| {
                "N-Way only (a per-SASS-instruction ratio, compared apart)".into()
            });
            let _ = writeln!(
                out,
                "| {}:{}{}{} | {} | {}/{} | {}/{} | {}/{} | {}/{} | {:.2}/{} | {} | `{}` |",
                l.file,
                l.line,
                if l.in_ncu {
                    ""
                } else {
                    " (not in the ncu report)"
                },
                match l.inlined_code {
                    Some(true) => " (with inlined code)",
                    Some(false) => " (inlined code not shown here)",
                    None => "",
                },
                requests,
                g.sectors,
                l.ncu.l2_sectors,
                g.ideal_sectors,
                opt(l.ncu.l2_ideal),
                s.wavefronts,
                opt(l.ncu.shared_wavefronts),
                s.ideal_wavefronts,
                opt(l.ncu.shared_ideal),
                l.our_n_way,
                opt(l.ncu.shared_n_way),
                why,
                short(&l.source, 50)
            );
        }
    }
    if !c.divergence.is_empty() {
        let _ = writeln!(out, "\n| line | divergence | source |\n|---|---|---|");
        for d in &c.divergence {
            let what = match &d.agreement {
                DivergenceAgreement::Branch { ours, ncu } => match ncu {
                    Some(n) => format!(
                        "branch kept: δ {ours} vs Divergent Branches {n}{}",
                        if (*ours as f64 - n).abs() < 0.5 {
                            " (equal)"
                        } else {
                            ""
                        }
                    ),
                    None => format!("branch kept in SASS: δ {ours}"),
                },
                DivergenceAgreement::Predicated {
                    ours,
                    ncu_predicated_off,
                    lanes,
                } => format!(
                    "if-converted: δ {ours}; ncu shows {ncu_predicated_off} predicated-off thread instructions{}",
                    match lanes {
                        Some((a, b)) => format!(
                            "; lanes doing work per warp instruction: {a:.1} (active) vs {b:.1} (predicated-on){}",
                            if (a - b).abs() <= 0.5 { " (agree)" } else { "" }
                        ),
                        None => String::new(),
                    }
                ),
                DivergenceAgreement::Missing { ours } => {
                    format!("δ {ours}; no conditional branch or predication on this line in SASS")
                }
                DivergenceAgreement::HardwareOnly { ncu } => {
                    format!("ncu only: {ncu} divergent branches, PTX branches never diverged")
                }
            };
            let _ = writeln!(
                out,
                "| {}:{} | {} | `{}` |",
                d.file,
                d.line,
                what,
                short(&d.source, 50)
            );
        }
    }
    out
}
