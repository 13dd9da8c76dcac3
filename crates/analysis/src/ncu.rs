//! Reading Nsight Compute's per-source-line counters, to set static findings beside what an
//! H100 measured: the CSV of `ncu -i REPORT --page source --csv --print-source cuda,sass`
//! (SourceCounters section), and the reduced tables of `corpus/tools/ncu-lines.sh`
//! (`corpus/h100/*.tsv`) and of `scripts/h100/reduce_ncu.py` (`validation/h100/ncu/*.lines.tsv`,
//! per kernel). Used by the `h100_compare` example and its docs table.

use std::collections::BTreeMap;

/// Counters of one CUDA source line, summed over the kernels and launches in the input.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LineCounters {
    /// The kernel, when the input keeps kernels apart (its name as Nsight prints it).
    pub kernel: Option<String>,
    /// File name (last path component).
    pub file: String,
    pub line: u32,
    /// Column name → summed value (maximum for "N-Way" columns).
    pub values: BTreeMap<String, f64>,
}

impl LineCounters {
    /// The first column whose name contains `key` (case-insensitive).
    pub fn get(&self, key: &str) -> Option<f64> {
        let k = key.to_ascii_lowercase();
        self.values
            .iter()
            .find(|(n, _)| n.to_ascii_lowercase().contains(&k))
            .map(|(_, v)| *v)
    }

    /// "Divergent Branches".
    pub fn divergent_branches(&self) -> Option<f64> {
        self.get("divergent branches")
    }

    /// "L2 Theoretical Sectors Global Excessive".
    pub fn l2_excess(&self) -> Option<f64> {
        self.get("sectors global excessive")
            .or_else(|| self.values.get("l2_excess").copied())
    }

    /// "L1 Conflicts Shared N-Way".
    pub fn shared_nway(&self) -> Option<f64> {
        self.get("conflicts shared n-way")
            .or_else(|| self.values.get("shared_nway").copied())
    }

    /// Predicated-on thread instructions per executed warp instruction (below 32: lanes were
    /// predicated off, e.g. where ptxas if-converted a branch).
    pub fn active_lanes_per_instruction(&self) -> Option<f64> {
        let inst = self.instructions()?;
        let on = self
            .get("predicated-on thread instructions")
            .or_else(|| self.values.get("pred_on_thread_inst").copied())?;
        Some(on / inst)
    }

    /// Thread instructions (lanes active, predicated on or off) per executed warp
    /// instruction: the lanes that reached the line.
    pub fn lanes_per_instruction(&self) -> Option<f64> {
        let inst = self.instructions()?;
        let thr = self
            .values
            .get("Thread Instructions Executed")
            .or_else(|| self.values.get("thread_inst"))
            .copied()?;
        Some(thr / inst)
    }

    /// Executed warp instructions ("Instructions Executed"), when non-zero.
    pub fn instructions(&self) -> Option<f64> {
        self.values
            .get("Instructions Executed")
            .or_else(|| self.values.get("inst"))
            .copied()
            .filter(|&v| v > 0.0)
    }
}

/// Splits one CSV record (quotes, doubled quotes inside quotes).
fn csv_fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut cur)),
            (c, _) => cur.push(c),
        }
    }
    out.push(cur);
    out
}

fn number(s: &str) -> Option<f64> {
    let t: String = s
        .chars()
        .filter(|c| !matches!(c, ',' | ' ' | '%'))
        .collect();
    t.parse().ok()
}

/// Parses an `ncu --page source --csv --print-source cuda,sass` export (one or several results
/// concatenated). CUDA-source rows (first field a line number) are summed per (file, line);
/// SASS rows (first field an address) are skipped.
pub fn parse_source_csv(text: &str) -> Vec<LineCounters> {
    let mut acc: BTreeMap<(String, u32), LineCounters> = BTreeMap::new();
    let mut header: Option<Vec<String>> = None;
    let mut file = String::from("?");
    for raw in text.lines() {
        let f = csv_fields(raw.trim_end_matches('\r'));
        let Some(first) = f.first() else { continue };
        match first.as_str() {
            "File Path" | "File Name" | "File" => {
                if let Some(p) = f.get(1) {
                    file = p.rsplit(['/', '\\']).next().unwrap_or(p).to_string();
                }
                continue;
            }
            "Line No" | "Line" | "#" => {
                header = Some(f.clone());
                continue;
            }
            _ => {}
        }
        let Some(h) = &header else { continue };
        let Ok(line) = first.trim().parse::<u32>() else {
            continue;
        };
        let entry = acc
            .entry((file.clone(), line))
            .or_insert_with(|| LineCounters {
                kernel: None,
                file: file.clone(),
                line,
                values: BTreeMap::new(),
            });
        for (name, v) in h.iter().zip(f.iter()).skip(2) {
            if let Some(x) = number(v) {
                let e = entry.values.entry(name.clone()).or_insert(0.0);
                if name.to_ascii_lowercase().contains("n-way") {
                    *e = e.max(x);
                } else {
                    *e += x;
                }
            }
        }
    }
    acc.into_values().collect()
}

/// Parses a reduced table, tab separated with a header: `corpus/tools/ncu-lines.sh`'s
/// (`file line inst l2_sectors l2_ideal l2_excess shared_nway source`) or
/// `scripts/h100/reduce_ncu.py`'s (`kernel file line inst thread_inst pred_on_thread_inst
/// l2_sectors l2_ideal l2_excess … shared_nway …`). Columns are found by name; numeric ones
/// become values.
pub fn parse_lines_tsv(text: &str) -> Vec<LineCounters> {
    let mut lines = text.lines();
    let Some(h) = lines.next() else {
        return Vec::new();
    };
    let header: Vec<&str> = h.split('\t').collect();
    let col = |name: &str| header.iter().position(|c| *c == name);
    let (Some(fc), Some(lc)) = (col("file"), col("line")) else {
        return Vec::new();
    };
    let kc = col("kernel");
    let mut out = Vec::new();
    for l in lines {
        let f: Vec<&str> = l.split('\t').collect();
        let (Some(file), Some(line)) = (f.get(fc), f.get(lc).and_then(|x| x.parse().ok())) else {
            continue;
        };
        let mut values = BTreeMap::new();
        for (i, (name, v)) in header.iter().zip(f.iter()).enumerate() {
            if i == fc || i == lc || Some(i) == kc {
                continue;
            }
            if let Some(x) = number(v) {
                values.insert(name.to_string(), x);
            }
        }
        out.push(LineCounters {
            kernel: kc.and_then(|k| f.get(k)).map(|k| k.to_string()),
            file: file.rsplit(['/', '\\']).next().unwrap_or(file).to_string(),
            line,
            values,
        });
    }
    out
}

/// Parses `scripts/h100/reduce_ncu.py`'s kernel-level table (`kernel launch metric value`,
/// tab separated with a header): kernel → metric → value summed over launches.
pub fn parse_kernel_metrics_tsv(text: &str) -> BTreeMap<String, BTreeMap<String, f64>> {
    let mut out: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
    for l in text.lines().skip(1) {
        let f: Vec<&str> = l.split('\t').collect();
        if let [kernel, _launch, metric, value] = f[..]
            && let Some(v) = number(value)
        {
            *out.entry(kernel.to_string())
                .or_default()
                .entry(metric.to_string())
                .or_insert(0.0) += v;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-written export in the layout Nsight Compute 2025 writes for the source page: a
    /// file row, the CUDA view's header and rows, then SASS rows that must be ignored.
    const SAMPLE: &str = "\"File Path\",\"/home/u/corpus/strided.cu\"\n\
\"Line No\",\"Source\",\"Warp Stall Sampling (All Samples)\",\"Instructions Executed\",\"Thread Instructions Executed\",\"Predicated-On Thread Instructions Executed\",\"Divergent Branches\",\"L2 Theoretical Sectors Global\",\"L2 Theoretical Sectors Global Ideal\",\"L2 Theoretical Sectors Global Excessive\",\"L1 Conflicts Shared N-Way\"\n\
\"32\",\"    int i = blockIdx.x * blockDim.x + threadIdx.x;\",\"12\",\"4,096\",\"131,072\",\"131,072\",\"0\",\"0\",\"0\",\"0\",\"0\"\n\
\"33\",\"    out[i] = in[2 * i] + 1.0f; // expect: uncoalesced-access definite\",\"40\",\"8,192\",\"262,144\",\"262,144\",\"0\",\"12,288\",\"8,192\",\"4,096\",\"0\"\n\
\"34\",\"    if (x) { \"\"quoted\"\" }\",\"1\",\"100\",\"1,600\",\"1,600\",\"7\",\"0\",\"0\",\"0\",\"2\"\n\
\"Address\",\"Source\",\"Instructions Executed\"\n\
\"0x7f00\",\"LDG.E R2, desc[UR4][R2.64]\",\"4,096\"\n";

    #[test]
    fn parses_an_ncu_source_page_export() {
        let rows = parse_source_csv(SAMPLE);
        assert_eq!(rows.len(), 3);
        let r33 = rows.iter().find(|r| r.line == 33).unwrap();
        assert_eq!(r33.file, "strided.cu");
        assert_eq!(r33.l2_excess(), Some(4096.0));
        assert_eq!(r33.get("L2 Theoretical Sectors Global Ideal"), Some(8192.0));
        let r34 = rows.iter().find(|r| r.line == 34).unwrap();
        assert_eq!(r34.divergent_branches(), Some(7.0));
        assert_eq!(r34.shared_nway(), Some(2.0));
        assert_eq!(r34.active_lanes_per_instruction(), Some(16.0));
    }

    #[test]
    fn sums_concatenated_results() {
        let twice = format!("{SAMPLE}{SAMPLE}");
        let rows = parse_source_csv(&twice);
        let r33 = rows.iter().find(|r| r.line == 33).unwrap();
        assert_eq!(r33.l2_excess(), Some(8192.0));
        // N-way is a maximum, not a sum.
        let r34 = rows.iter().find(|r| r.line == 34).unwrap();
        assert_eq!(r34.shared_nway(), Some(2.0));
    }

    #[test]
    fn parses_reduced_tables() {
        let t = "file\tline\tinst\tl2_sectors\tl2_ideal\tl2_excess\tshared_nway\tsource\n\
bounds.cu\t74\t3150\t3200\t2500\t700\t0\tout[y * w + x] = ...\n";
        let rows = parse_lines_tsv(t);
        assert_eq!(rows[0].line, 74);
        assert_eq!(rows[0].l2_excess(), Some(700.0));
        assert_eq!(rows[0].shared_nway(), Some(0.0));
        assert_eq!(rows[0].kernel, None);
    }

    #[test]
    fn parses_per_kernel_tables() {
        let t = "kernel\tfile\tline\tinst\tthread_inst\tpred_on_thread_inst\tl2_sectors\tl2_ideal\tl2_excess\tl1_global_requests\tshared_nway\tspaces\tops\tsizes\n\
first_half_warp(const float *, float *, float *)\tcorpus/branch_tid.cu\t49\t10240\t327680\t20480\t0\t0\t0\t0\t0\t-\t-\t-\n";
        let rows = parse_lines_tsv(t);
        assert_eq!(rows.len(), 1);
        let r = &rows[0];
        assert_eq!(
            r.kernel.as_deref(),
            Some("first_half_warp(const float *, float *, float *)")
        );
        assert_eq!((r.file.as_str(), r.line), ("branch_tid.cu", 49));
        assert_eq!(r.lanes_per_instruction(), Some(32.0));
        assert_eq!(r.active_lanes_per_instruction(), Some(2.0));
        assert_eq!(r.l2_excess(), Some(0.0));
        assert!(!r.values.contains_key("spaces"));
    }

    #[test]
    fn parses_kernel_metric_tables() {
        let t = "kernel\tlaunch\tmetric\tvalue\n\
k(float *)\t0\tl1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\t2,048\n\
k(float *)\t3\tl1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\t2048\n\
j(float *)\t1\tsmsp__sass_inst_executed_op_shared_st.sum\t7\n";
        let m = parse_kernel_metrics_tsv(t);
        assert_eq!(
            m["k(float *)"]["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"],
            4096.0
        );
        assert_eq!(
            m["j(float *)"]["smsp__sass_inst_executed_op_shared_st.sum"],
            7.0
        );
    }
}
