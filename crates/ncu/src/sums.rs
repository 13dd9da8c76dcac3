//! Per (file, line) sums of a source page: the counters `warpscope profile --compare-ncu` sets
//! beside a profile's.

use std::collections::{BTreeMap, BTreeSet};

use crate::page::{LineCounters, SourcePage};

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
    pub access_sizes: BTreeSet<u32>,
    /// Whether a predicated `BRA` (a conditional branch) is among them.
    pub sass_conditional_branch: bool,
}

/// Per (file name, line) counters of a report.
#[derive(Clone, Debug, Default)]
pub struct NcuSource {
    pub kernels: Vec<String>,
    pub lines: BTreeMap<(String, u32), NcuLine>,
}

fn add(acc: &mut Option<f64>, v: Option<f64>) {
    if let Some(v) = v {
        *acc = Some(acc.unwrap_or(0.0) + v);
    }
}

/// The first of `names` the row has: the source page's column, then the reduced table's.
fn value(r: &LineCounters, names: &[&str]) -> Option<f64> {
    names.iter().find_map(|n| r.values.get(*n).copied())
}

impl NcuSource {
    /// Sums the rows of `page` per (file, line). The SASS rows under a line tell how many of
    /// its instructions accessed global or shared memory, with which sizes, and whether a
    /// conditional branch survived ptxas.
    pub fn from_page(page: &SourcePage) -> NcuSource {
        let mut out = NcuSource {
            kernels: page.kernels.clone(),
            lines: BTreeMap::new(),
        };
        // N-Way is a per-instruction average: average it over the launches of one kernel,
        // then sum over kernels. (kernel, file, line) -> (sum, rows).
        let mut n_way: BTreeMap<(String, String, u32), (f64, u32)> = BTreeMap::new();
        for r in &page.lines {
            let get = |names: &[&str]| value(r, names);
            let key = (r.file.clone(), r.line);
            let l = out.lines.entry(key.clone()).or_default();
            if l.source.is_empty() {
                l.source = r.source.clone();
            }
            l.instructions += get(&["Instructions Executed", "inst"]).unwrap_or(0.0);
            l.thread_instructions +=
                get(&["Thread Instructions Executed", "thread_inst"]).unwrap_or(0.0);
            l.predicated_on += get(&[
                "Predicated-On Thread Instructions Executed",
                "pred_on_thread_inst",
            ])
            .unwrap_or(0.0);
            add(
                &mut l.divergent_branches,
                get(&["Divergent Branches", "divergent_branches"]),
            );
            l.l2_sectors += get(&["L2 Theoretical Sectors Global", "l2_sectors"]).unwrap_or(0.0);
            add(
                &mut l.l2_ideal,
                get(&["L2 Theoretical Sectors Global Ideal", "l2_ideal"]),
            );
            add(
                &mut l.l2_excessive,
                get(&["L2 Theoretical Sectors Global Excessive", "l2_excess"]),
            );
            add(&mut l.shared_wavefronts, get(&["L1 Wavefronts Shared"]));
            add(&mut l.shared_ideal, get(&["L1 Wavefronts Shared Ideal"]));
            if let Some(v) = get(&["L1 Conflicts Shared N-Way", "shared_nway"]) {
                let e = n_way
                    .entry((r.kernel.clone().unwrap_or_default(), key.0, key.1))
                    .or_default();
                e.0 += v;
                e.1 += 1;
            }
            for s in &r.sass {
                l.global_instructions.get_or_insert(0.0);
                l.shared_instructions.get_or_insert(0.0);
                let sv = |name: &str| s.values.get(name).copied();
                // An instruction whose lanes were all predicated off touched no memory.
                let executed = if sv("Predicated-On Thread Instructions Executed") == Some(0.0) {
                    0.0
                } else {
                    sv("Instructions Executed").unwrap_or(0.0)
                };
                let space = s.space.as_str();
                if (space.starts_with("Global") || space.starts_with("Shared"))
                    && let Some(bits) = sv("Access Size").filter(|b| *b >= 8.0)
                {
                    l.access_sizes.insert(bits as u32 / 8);
                }
                if space.starts_with("Global") {
                    add(&mut l.global_instructions, Some(executed));
                } else if space.starts_with("Shared") {
                    add(&mut l.shared_instructions, Some(executed));
                }
                let op = s.source.trim_start_matches(['@', '!']);
                let op = op.split_whitespace().nth(1).unwrap_or("");
                if s.source.starts_with('@') && op.starts_with("BRA") {
                    l.sass_conditional_branch = true;
                }
                l.sass.push(s.source.clone());
            }
        }
        for ((_, file, line), (sum, rows)) in n_way {
            if let Some(l) = out.lines.get_mut(&(file, line)) {
                add(&mut l.shared_n_way, Some(sum / f64::from(rows.max(1))));
            }
        }
        out
    }
}

/// Reads a source-page export or a reduced per-line table (see [`SourcePage::parse`]) and
/// sums it per (file, line).
pub fn parse_source_csv(text: &str) -> NcuSource {
    NcuSource::from_page(&SourcePage::parse(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "\"Kernel Name\",\"k(float *)\"\n\"File Path\",\"a/b.cu\"\n\
\"Line No\",\"Source\",\"Address\",\"Source\",\"Instructions Executed\",\"Thread Instructions Executed\",\"Predicated-On Thread Instructions Executed\",\"Address Space\",\"Access Size\",\"L2 Theoretical Sectors Global\",\"L1 Conflicts Shared N-Way\"\n\
\"5\",\" if (t & 1) x[i] = 0;\",\"\",\"\",\"8\",\"256\",\"128\",\"\",\"\",\"32\",\"1\"\n\
\"\",\"\",\"0x10\",\"@P0 BRA 0x40\",\"8\",\"256\",\"256\",\"-\",\"\",\"\",\"\"\n\
\"\",\"\",\"0x20\",\"@!P1 STG.E [R2], RZ\",\"8\",\"256\",\"128\",\"Global\",\"32\",\"32\",\"\"\n\
\"\",\"\",\"0x30\",\"@P2 STS [R3], RZ\",\"4\",\"128\",\"0\",\"Shared\",\"32\",\"\",\"\"\n\
\"Kernel Name\",\"k(float *)\"\n\
\"5\",\" if (t & 1) x[i] = 0;\",\"\",\"\",\"8\",\"256\",\"128\",\"\",\"\",\"32\",\"3\"\n\
\"\",\"\",\"0x20\",\"@!P1 STG.E [R2], RZ\",\"8\",\"256\",\"128\",\"Global\",\"32\",\"32\",\"\"\n";

    #[test]
    fn sums_lines_over_launches_with_their_sass() {
        let s = parse_source_csv(PAGE);
        assert_eq!(s.kernels.len(), 2);
        let l = &s.lines[&("b.cu".to_string(), 5)];
        assert_eq!(l.source, "if (t & 1) x[i] = 0;");
        assert_eq!(
            (l.instructions, l.thread_instructions, l.predicated_on),
            (16.0, 512.0, 256.0)
        );
        assert_eq!(l.l2_sectors, 64.0);
        // N-Way: averaged over the launches of one kernel.
        assert_eq!(l.shared_n_way, Some(2.0));
        // The STS ran with every lane predicated off: no shared request.
        assert_eq!(
            (l.global_instructions, l.shared_instructions),
            (Some(16.0), Some(0.0))
        );
        assert_eq!(l.access_sizes, BTreeSet::from([4]));
        assert!(l.sass_conditional_branch);
        assert_eq!(l.sass.len(), 4);
        assert_eq!(l.divergent_branches, None);
    }

    #[test]
    fn sums_concatenated_results_and_reduced_tables() {
        let one = crate::page::tests::SAMPLE;
        let s = parse_source_csv(&format!("{one}{one}"));
        let l = &s.lines[&("strided.cu".to_string(), 33)];
        assert_eq!(l.l2_excessive, Some(8192.0));
        let l = &s.lines[&("strided.cu".to_string(), 34)];
        assert_eq!(l.divergent_branches, Some(14.0));
        // N-Way is an average, not a sum.
        assert_eq!(l.shared_n_way, Some(2.0));
        let t = "kernel\tfile\tline\tinst\tthread_inst\tpred_on_thread_inst\tl2_sectors\tl2_ideal\tl2_excess\tshared_nway\n\
a(int)\tx/k.cu\t7\t10\t320\t160\t40\t20\t20\t1.5\n\
b(int)\tx/k.cu\t7\t10\t320\t320\t8\t8\t0\t2\n";
        let s = parse_source_csv(t);
        assert_eq!(s.kernels, ["a(int)", "b(int)"]);
        let l = &s.lines[&("k.cu".to_string(), 7)];
        assert_eq!((l.instructions, l.predicated_on), (20.0, 480.0));
        assert_eq!((l.l2_sectors, l.l2_excessive), (48.0, Some(20.0)));
        assert_eq!(l.shared_n_way, Some(3.5));
        assert_eq!(l.global_instructions, None);
    }
}
