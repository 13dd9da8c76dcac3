//! Comparison with Nsight Compute's source counters.
//!
//! [`parse_source_csv`] reads what `ncu -i REPORT --page source --csv --print-source cuda,sass`
//! prints: for each profiled kernel a `"Kernel Name",…` row, optional `"File Path"`/`"File
//! Name"` rows, a header row (`"Line No","Source",<metrics>…` for CUDA lines,
//! `"Address","Source",<metrics>…` for SASS), then one row per line or instruction. CUDA
//! rows are summed per (file name, line) over every kernel and launch in the report; SASS
//! rows that follow a CUDA row (the correlated view) are attributed to it, which tells
//! whether the SASS of a line kept a conditional branch.
//!
//! [`compare`] lines the result up with a [`Profile`] of the same launches, per source line:
//! global sectors and ideal sectors, shared wavefronts, ideal wavefronts and N-way conflicts
//! must be *equal*; divergence is compared with "Divergent Branches" where the SASS kept a
//! branch and with predicated-off thread instructions where ptxas if-converted it.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::model::{Access, Counters, Profile, basename};

/// Splits CSV text into rows of fields (RFC 4180 quoting; `""` inside quotes is a quote).
pub fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row: Vec<String> = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    let mut any = false;
    while let Some(c) = chars.next() {
        if quoted {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    field.push('"');
                    chars.next();
                } else {
                    quoted = false;
                }
            } else {
                field.push(c);
            }
            continue;
        }
        match c {
            '"' => {
                quoted = true;
                any = true;
            }
            ',' => {
                row.push(std::mem::take(&mut field));
                any = true;
            }
            '\r' => {}
            '\n' => {
                if any || !field.is_empty() {
                    row.push(std::mem::take(&mut field));
                    rows.push(std::mem::take(&mut row));
                }
                any = false;
            }
            _ => {
                field.push(c);
                any = true;
            }
        }
    }
    if any || !field.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

/// Nsight Compute's counters of one CUDA source line (summed over kernels and launches).
/// Metrics the report does not have (a missing column, `-` or an empty cell) are `None`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NcuLine {
    pub source: String,
    pub instructions: f64,
    pub thread_instructions: f64,
    pub predicated_on: f64,
    pub divergent_branches: Option<f64>,
    pub l2_sectors: f64,
    pub l2_ideal: Option<f64>,
    pub l2_excessive: Option<f64>,
    pub shared_wavefronts: Option<f64>,
    pub shared_ideal: Option<f64>,
    /// "L1 Conflicts Shared N-Way" of the line: Nsight Compute prints, per SASS instruction,
    /// its wavefronts per executed instruction, and sums those over the line's instructions.
    pub shared_n_way: Option<f64>,
    /// SASS instructions attributed to the line (deduplicated by address).
    pub sass: Vec<String>,
    /// Warp-level executions of the line's SASS instructions that access global or shared
    /// memory, leaving out instructions whose lanes were all predicated off (`None` where the
    /// report has no SASS rows): how many requests the hardware issued, to set against the
    /// PTX's.
    pub global_instructions: Option<f64>,
    pub shared_instructions: Option<f64>,
    /// Bytes per lane of the line's global and shared SASS accesses ("Access Size").
    pub access_sizes: std::collections::BTreeSet<u32>,
    /// Whether a predicated `BRA` (a conditional branch) is among them.
    pub sass_conditional_branch: bool,
}

/// Per (file name, line) counters of a report.
#[derive(Clone, Debug, Default)]
pub struct NcuSource {
    pub kernels: Vec<String>,
    pub lines: BTreeMap<(String, u32), NcuLine>,
}

/// A number, or `None` for `-`, `n/a` or an empty cell. Thousands separators are dropped.
fn num(s: &str) -> Option<f64> {
    let t: String = s
        .chars()
        .filter(|c| *c != ',' && !c.is_whitespace())
        .collect();
    t.parse::<f64>().ok()
}

fn add(acc: &mut Option<f64>, v: Option<f64>) {
    if let Some(v) = v {
        *acc = Some(acc.unwrap_or(0.0) + v);
    }
}

/// Parses `ncu --page source --csv --print-source cuda,sass` output, or the reduced
/// `<name>.lines.tsv` tables of `validation/h100/ncu` (see the module docs).
pub fn parse_source_csv(text: &str) -> NcuSource {
    if text.starts_with("kernel\tfile\tline") {
        return parse_lines_tsv(text);
    }
    let mut out = NcuSource::default();
    let mut header: Option<Vec<String>> = None;
    let mut file = String::from("?");
    let mut cur: Option<(String, u32)> = None;
    // The page lists each line's SASS twice; a launch's block lists it once more.
    let mut seen_sass: std::collections::BTreeSet<(usize, String, u32, String)> =
        Default::default();
    let mut block = 0usize;
    // N-Way is a per-instruction average: average it over the launches of one kernel, then
    // sum over kernels. (kernel, file, line) -> (sum, rows).
    let mut n_way: BTreeMap<(String, String, u32), (f64, u32)> = BTreeMap::new();
    let mut kernel = String::new();
    for row in parse_csv(text) {
        let Some(first) = row.first().map(|s| s.trim()) else {
            continue;
        };
        match first {
            "Kernel Name" | "Function Name" => {
                if let Some(n) = row.get(1) {
                    out.kernels.push(n.clone());
                    kernel = n.clone();
                }
                block += 1;
                cur = None;
                continue;
            }
            "File Path" | "File Name" | "File" => {
                if let Some(n) = row.get(1) {
                    file = basename(n.trim()).to_string();
                }
                cur = None;
                continue;
            }
            _ => {}
        }
        let is_line = !first.is_empty() && first.chars().all(|c| c.is_ascii_digit());
        let Some(h) = &header else {
            if row.iter().any(|c| c == "Source") {
                header = Some(row.iter().map(|s| s.trim().to_string()).collect());
            }
            continue;
        };
        let col = |name: &str| h.iter().position(|c| c == name);
        let addr = col("Address").and_then(|i| row.get(i)).map(|a| a.trim());
        let is_sass =
            !is_line && (first.starts_with("0x") || addr.is_some_and(|a| a.starts_with("0x")));
        if !is_line && !is_sass {
            if row.iter().any(|c| c == "Source") {
                header = Some(row.iter().map(|s| s.trim().to_string()).collect());
                cur = None;
            }
            continue;
        }
        let get = |name: &str| col(name).and_then(|i| row.get(i)).and_then(|v| num(v));
        if is_sass {
            // The SASS text is the last "Source" column.
            let src = h
                .iter()
                .rposition(|c| c == "Source")
                .and_then(|i| row.get(i))
                .map(|s| s.trim().to_string())
                .unwrap_or_default();
            let a = addr.unwrap_or(first).to_string();
            if let Some(key) = &cur
                && seen_sass.insert((block, key.0.clone(), key.1, a))
                && let Some(l) = out.lines.get_mut(key)
            {
                l.global_instructions.get_or_insert(0.0);
                l.shared_instructions.get_or_insert(0.0);
                let space = col("Address Space")
                    .and_then(|i| row.get(i))
                    .map(|v| v.trim())
                    .unwrap_or("");
                // An instruction whose lanes were all predicated off touched no memory.
                let executed = if get("Predicated-On Thread Instructions Executed") == Some(0.0) {
                    0.0
                } else {
                    get("Instructions Executed").unwrap_or(0.0)
                };
                if (space.starts_with("Global") || space.starts_with("Shared"))
                    && let Some(bits) = get("Access Size").filter(|b| *b >= 8.0)
                {
                    l.access_sizes.insert(bits as u32 / 8);
                }
                if space.starts_with("Global") {
                    add(&mut l.global_instructions, Some(executed));
                } else if space.starts_with("Shared") {
                    add(&mut l.shared_instructions, Some(executed));
                }
                let op = src.trim_start_matches(['@', '!']);
                let op = op.split_whitespace().nth(1).unwrap_or("");
                if src.starts_with('@') && op.starts_with("BRA") {
                    l.sass_conditional_branch = true;
                }
                l.sass.push(src);
            }
            continue;
        }
        let src = col("Source")
            .and_then(|i| row.get(i))
            .cloned()
            .unwrap_or_default();
        let line: u32 = first.parse().unwrap_or(0);
        let key = (file.clone(), line);
        let l = out.lines.entry(key.clone()).or_default();
        if l.source.is_empty() {
            l.source = src.trim().to_string();
        }
        l.instructions += get("Instructions Executed").unwrap_or(0.0);
        l.thread_instructions += get("Thread Instructions Executed").unwrap_or(0.0);
        l.predicated_on += get("Predicated-On Thread Instructions Executed").unwrap_or(0.0);
        add(&mut l.divergent_branches, get("Divergent Branches"));
        l.l2_sectors += get("L2 Theoretical Sectors Global").unwrap_or(0.0);
        add(&mut l.l2_ideal, get("L2 Theoretical Sectors Global Ideal"));
        add(
            &mut l.l2_excessive,
            get("L2 Theoretical Sectors Global Excessive"),
        );
        add(&mut l.shared_wavefronts, get("L1 Wavefronts Shared"));
        add(&mut l.shared_ideal, get("L1 Wavefronts Shared Ideal"));
        if let Some(v) = get("L1 Conflicts Shared N-Way") {
            let e = n_way
                .entry((kernel.clone(), key.0.clone(), key.1))
                .or_default();
            e.0 += v;
            e.1 += 1;
        }
        cur = Some(key);
    }
    for ((_, file, line), (sum, rows)) in n_way {
        if let Some(l) = out.lines.get_mut(&(file, line)) {
            add(&mut l.shared_n_way, Some(sum / f64::from(rows.max(1))));
        }
    }
    out
}

/// The reduced per-line tables (`kernel file line inst thread_inst pred_on_thread_inst
/// l2_sectors l2_ideal l2_excess l1_global_requests shared_nway …`, tab-separated).
fn parse_lines_tsv(text: &str) -> NcuSource {
    let mut out = NcuSource::default();
    let mut lines = text.lines();
    let Some(h) = lines.next() else { return out };
    let h: Vec<&str> = h.split('\t').collect();
    let col = |name: &str| h.iter().position(|c| *c == name);
    for row in lines {
        let f: Vec<&str> = row.split('\t').collect();
        let get = |name: &str| col(name).and_then(|i| f.get(i)).and_then(|v| num(v));
        let (Some(file), Some(line)) = (col("file").and_then(|i| f.get(i)), get("line")) else {
            continue;
        };
        if let Some(k) = col("kernel").and_then(|i| f.get(i))
            && out.kernels.last().map(String::as_str) != Some(*k)
        {
            out.kernels.push(k.to_string());
        }
        let l = out
            .lines
            .entry((basename(file).to_string(), line as u32))
            .or_default();
        l.instructions += get("inst").unwrap_or(0.0);
        l.thread_instructions += get("thread_inst").unwrap_or(0.0);
        l.predicated_on += get("pred_on_thread_inst").unwrap_or(0.0);
        l.l2_sectors += get("l2_sectors").unwrap_or(0.0);
        add(&mut l.l2_ideal, get("l2_ideal"));
        add(&mut l.l2_excessive, get("l2_excess"));
        add(&mut l.shared_n_way, get("shared_nway"));
    }
    out
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_rows_and_quotes() {
        let rows = parse_csv("a,\"b,c\",\"d\"\"e\"\n\n1,2\r\n");
        assert_eq!(
            rows,
            vec![
                vec!["a".to_string(), "b,c".into(), "d\"e".into()],
                vec!["1".to_string(), "2".into()]
            ]
        );
    }

    #[test]
    fn numbers_with_thousands_separators() {
        assert_eq!(num("1,024"), Some(1024.0));
        assert_eq!(num(" 3.5 "), Some(3.5));
        assert_eq!(num("-"), None);
        assert_eq!(num(""), None);
    }
}
