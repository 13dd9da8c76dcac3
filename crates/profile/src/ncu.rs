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

use crate::model::{Counters, Profile, basename};

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
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NcuLine {
    pub source: String,
    pub instructions: f64,
    pub thread_instructions: f64,
    pub predicated_on: f64,
    pub divergent_branches: f64,
    pub l2_sectors: f64,
    pub l2_ideal: f64,
    pub l2_excessive: f64,
    pub shared_wavefronts: f64,
    pub shared_ideal: f64,
    /// Largest per-row "L1 Conflicts Shared N-Way" seen on the line.
    pub shared_n_way: f64,
    /// SASS instructions attributed to the line.
    pub sass: Vec<String>,
    /// Whether a predicated `BRA` (conditional branch) is among them.
    pub sass_conditional_branch: bool,
}

/// Per (file name, line) counters of a report.
#[derive(Clone, Debug, Default)]
pub struct NcuSource {
    pub kernels: Vec<String>,
    pub lines: BTreeMap<(String, u32), NcuLine>,
}

fn num(s: &str) -> f64 {
    let t: String = s
        .chars()
        .filter(|c| *c != ',' && !c.is_whitespace())
        .collect();
    t.parse::<f64>().unwrap_or(0.0)
}

/// Parses `ncu --page source --csv` output (see the module docs).
pub fn parse_source_csv(text: &str) -> NcuSource {
    let mut out = NcuSource::default();
    let mut header: Option<Vec<String>> = None;
    let mut file = String::from("?");
    let mut cur: Option<(String, u32)> = None;
    for row in parse_csv(text) {
        let Some(first) = row.first().map(|s| s.trim()) else {
            continue;
        };
        match first {
            "Kernel Name" => {
                if let Some(n) = row.get(1) {
                    out.kernels.push(n.clone());
                }
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
        let is_data_line = !first.is_empty() && first.chars().all(|c| c.is_ascii_digit());
        let is_sass = first.starts_with("0x");
        if !is_data_line && !is_sass {
            if row.iter().any(|c| c == "Source") {
                header = Some(row.iter().map(|s| s.trim().to_string()).collect());
                cur = None;
            }
            continue;
        }
        let Some(h) = &header else { continue };
        let get = |name: &str| -> f64 {
            h.iter()
                .position(|c| c == name)
                .and_then(|i| row.get(i))
                .map(|v| num(v))
                .unwrap_or(0.0)
        };
        let src = h
            .iter()
            .position(|c| c == "Source")
            .and_then(|i| row.get(i))
            .cloned()
            .unwrap_or_default();
        if is_sass {
            if let Some(key) = &cur
                && let Some(l) = out.lines.get_mut(key)
            {
                let s = src.trim().to_string();
                let t = s.trim_start_matches(|c: char| c == '@' || c == '!' || c.is_alphanumeric());
                if s.starts_with('@') && t.trim_start().starts_with("BRA") {
                    l.sass_conditional_branch = true;
                }
                l.sass.push(s);
            }
            continue;
        }
        let line: u32 = first.parse().unwrap_or(0);
        let key = (file.clone(), line);
        let l = out.lines.entry(key.clone()).or_default();
        if l.source.is_empty() {
            l.source = src.trim().to_string();
        }
        l.instructions += get("Instructions Executed");
        l.thread_instructions += get("Thread Instructions Executed");
        l.predicated_on += get("Predicated-On Thread Instructions Executed");
        l.divergent_branches += get("Divergent Branches");
        l.l2_sectors += get("L2 Theoretical Sectors Global");
        l.l2_ideal += get("L2 Theoretical Sectors Global Ideal");
        l.l2_excessive += get("L2 Theoretical Sectors Global Excessive");
        l.shared_wavefronts += get("L1 Wavefronts Shared");
        l.shared_ideal += get("L1 Wavefronts Shared Ideal");
        l.shared_n_way = l.shared_n_way.max(get("L1 Conflicts Shared N-Way"));
        cur = Some(key);
    }
    out
}

/// How one line compares.
#[derive(Clone, Debug, PartialEq)]
pub struct LineComparison {
    pub file: String,
    pub line: u32,
    pub source: String,
    pub ours: Counters,
    pub ncu: NcuLine,
    /// Global sectors equal.
    pub sectors_equal: bool,
    /// Ideal sectors equal (`⌈active lanes × size / 32⌉` per request).
    pub ideal_equal: bool,
    /// ncu's ideal equals our used sectors (`⌈unique bytes / 32⌉`), the other reading.
    pub used_equal: bool,
    pub wavefronts_equal: bool,
    pub ideal_wavefronts_equal: bool,
    /// N-way conflict degree agrees (to 0.01).
    pub n_way_equal: bool,
}

impl LineComparison {
    /// A line with memory traffic on either side.
    pub fn has_memory(&self) -> bool {
        self.ours.global.requests > 0
            || self.ours.shared.requests > 0
            || self.ncu.l2_sectors > 0.0
            || self.ncu.shared_wavefronts > 0.0
    }

    /// All memory counters agree.
    pub fn exact(&self) -> bool {
        self.sectors_equal
            && self.ideal_equal
            && self.wavefronts_equal
            && self.ideal_wavefronts_equal
            && self.n_way_equal
    }
}

/// How a line's divergence compares.
#[derive(Clone, Debug, PartialEq)]
pub enum DivergenceAgreement {
    /// SASS kept a branch that diverged: our δ against ncu's "Divergent Branches".
    Branch { ours: u64, ncu: f64 },
    /// ptxas if-converted it: ncu shows predicated-off thread instructions instead.
    Predicated { ours: u64, ncu_predicated_off: f64 },
    /// We saw divergence, ncu saw neither a divergent branch nor predicated-off lanes.
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

    /// Whether ncu's ideal sectors agree better with the lane-count reading than with ours.
    pub fn used_fits_better(&self) -> bool {
        let a = self.memory_lines().filter(|l| l.ideal_equal).count();
        let b = self.memory_lines().filter(|l| l.used_equal).count();
        b > a
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.5
}

/// Compares `profile` with `ncu` per (file name, line).
pub fn compare(profile: &Profile, ncu: &NcuSource) -> Comparison {
    let mut ours: BTreeMap<(String, u32), Counters> = BTreeMap::new();
    for k in &profile.kernels {
        for l in &k.lines {
            let Some(f) = &l.file else { continue };
            ours.entry((basename(f).to_string(), l.line))
                .or_default()
                .merge(&l.counters);
        }
    }
    let mut keys: Vec<(String, u32)> = ours.keys().cloned().collect();
    keys.extend(ncu.lines.keys().cloned());
    keys.sort();
    keys.dedup();
    let mut out = Comparison::default();
    for key in keys {
        let o = ours.get(&key).copied().unwrap_or_default();
        let n = ncu.lines.get(&key).cloned().unwrap_or_default();
        let g = &o.global;
        let s = &o.shared;
        let our_n_way = s.n_way();
        let lc = LineComparison {
            file: key.0.clone(),
            line: key.1,
            source: n.source.clone(),
            ours: o,
            sectors_equal: close(g.sectors as f64, n.l2_sectors),
            used_equal: close(g.used_sectors as f64, n.l2_ideal),
            ideal_equal: close(g.ideal_sectors as f64, n.l2_ideal),
            wavefronts_equal: close(s.wavefronts as f64, n.shared_wavefronts),
            ideal_wavefronts_equal: close(s.ideal_wavefronts as f64, n.shared_ideal),
            n_way_equal: (s.requests == 0 && n.shared_wavefronts == 0.0)
                || n.shared_n_way == 0.0
                || (our_n_way - n.shared_n_way).abs() < 0.01
                || (f64::from(s.ways_max) - n.shared_n_way).abs() < 0.01,
            ncu: n.clone(),
        };
        let agreement = if o.divergent_branches > 0 {
            if n.divergent_branches > 0.0 {
                Some(DivergenceAgreement::Branch {
                    ours: o.divergent_branches,
                    ncu: n.divergent_branches,
                })
            } else if n.thread_instructions > n.predicated_on {
                Some(DivergenceAgreement::Predicated {
                    ours: o.divergent_branches,
                    ncu_predicated_off: n.thread_instructions - n.predicated_on,
                })
            } else {
                Some(DivergenceAgreement::Missing {
                    ours: o.divergent_branches,
                })
            }
        } else if n.divergent_branches > 0.0 {
            Some(DivergenceAgreement::HardwareOnly {
                ncu: n.divergent_branches,
            })
        } else {
            None
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
    out
}

fn short(s: &str, n: usize) -> String {
    let s = s.trim().replace('|', "\\|");
    if s.chars().count() <= n {
        s
    } else {
        let t: String = s.chars().take(n - 1).collect();
        format!("{t}…")
    }
}

/// Markdown: a summary line, then every line with memory traffic that differs, then the
/// divergence comparison.
pub fn render_markdown(name: &str, c: &Comparison) -> String {
    let mut out = String::new();
    let (total, exact) = c.memory_agreement();
    let _ = writeln!(
        out,
        "### {name}: {exact}/{total} lines with memory accesses agree exactly"
    );
    if c.used_fits_better() {
        let _ = writeln!(
            out,
            "\nncu's ideal sectors match ⌈unique bytes / 32⌉ better than ⌈active lanes × size / 32⌉ on this program."
        );
    }
    let diff: Vec<&LineComparison> = c.memory_lines().filter(|l| !l.exact()).collect();
    if !diff.is_empty() {
        let _ = writeln!(
            out,
            "\n| line | sectors (ours/ncu) | ideal (ours/used/ncu) | wavefronts (ours/ncu) | ideal wf (ours/ncu) | n-way (ours/ncu) | source |\n|---|---|---|---|---|---|---|"
        );
        for l in diff {
            let g = &l.ours.global;
            let s = &l.ours.shared;
            let _ = writeln!(
                out,
                "| {}:{} | {}/{} | {}/{}/{} | {}/{} | {}/{} | {:.2}/{:.2} | `{}` |",
                l.file,
                l.line,
                g.sectors,
                l.ncu.l2_sectors,
                g.ideal_sectors,
                g.used_sectors,
                l.ncu.l2_ideal,
                s.wavefronts,
                l.ncu.shared_wavefronts,
                s.ideal_wavefronts,
                l.ncu.shared_ideal,
                s.n_way(),
                l.ncu.shared_n_way,
                short(&l.source, 50)
            );
        }
    }
    if !c.divergence.is_empty() {
        let _ = writeln!(out, "\n| line | divergence | source |\n|---|---|---|");
        for d in &c.divergence {
            let what = match &d.agreement {
                DivergenceAgreement::Branch { ours, ncu } => format!(
                    "branch kept: δ {ours} vs Divergent Branches {ncu}{}",
                    if (*ours as f64 - ncu).abs() < 0.5 {
                        " (equal)"
                    } else {
                        ""
                    }
                ),
                DivergenceAgreement::Predicated {
                    ours,
                    ncu_predicated_off,
                } => format!(
                    "if-converted: δ {ours}; ncu shows {ncu_predicated_off} predicated-off thread instructions"
                ),
                DivergenceAgreement::Missing { ours } => {
                    format!("δ {ours}; ncu shows no divergence or predication")
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
        assert_eq!(num("1,024"), 1024.0);
        assert_eq!(num(" 3.5 "), 3.5);
        assert_eq!(num("-"), 0.0);
    }
}
