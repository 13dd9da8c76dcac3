//! The rows of a source page or of a reduced per-line table, one [`LineCounters`] per CUDA line
//! row, in input order.

use std::collections::{BTreeMap, BTreeSet};

use crate::csv::{number, records};

/// The last path component of a file name (`/` or `\` separated).
pub fn basename(p: &str) -> &str {
    p.rsplit(['/', '\\']).next().unwrap_or(p)
}

/// One SASS instruction row of the source page, under the CUDA line it belongs to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SassRow {
    pub address: String,
    /// The instruction (the page's last "Source" column).
    pub source: String,
    /// "Address Space" (`Global`, `Shared`, …; empty where the page has none).
    pub space: String,
    /// Numeric columns by name.
    pub values: BTreeMap<String, f64>,
}

/// The counters of one CUDA source line in one row of the input.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LineCounters {
    /// The kernel (its name as Nsight Compute prints it), where the input keeps kernels apart.
    pub kernel: Option<String>,
    /// File name (last path component).
    pub file: String,
    /// The file as the input names it: the source page's path, or the reduced table's
    /// (repository-relative) `file` column.
    pub path: String,
    pub line: u32,
    /// The line's source text, where the input has it.
    pub source: String,
    /// Column name → value, for every numeric column.
    pub values: BTreeMap<String, f64>,
    /// The SASS rows that follow the line on the page (the correlated view), each instruction
    /// once per kernel: the page lists a line's SASS more than once.
    pub sass: Vec<SassRow>,
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

    /// "Divergent Branches" (the reduced tables' `divergent_branches`).
    pub fn divergent_branches(&self) -> Option<f64> {
        self.get("divergent branches")
            .or_else(|| self.values.get("divergent_branches").copied())
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

/// The CUDA line rows of one input, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourcePage {
    /// Kernel names in order of appearance (on the source page, one per profiled result).
    pub kernels: Vec<String>,
    pub lines: Vec<LineCounters>,
}

impl SourcePage {
    /// Reads a source-page CSV export (one or several results concatenated) or a reduced
    /// per-line table (recognised by a tab-separated header with `file` and `line` columns).
    pub fn parse(text: &str) -> SourcePage {
        let header = text.lines().next().unwrap_or("");
        let cols: Vec<&str> = header.split('\t').collect();
        if cols.contains(&"file") && cols.contains(&"line") {
            parse_lines_tsv(text)
        } else {
            parse_csv_page(text)
        }
    }
}

/// The source page: CUDA rows start with a line number, SASS rows with an address (first
/// field or "Address" column); `"Kernel Name"`, `"File Path"` and header rows set the context.
fn parse_csv_page(text: &str) -> SourcePage {
    let mut out = SourcePage::default();
    let mut header: Option<Vec<String>> = None;
    let mut file = String::from("?");
    let mut path = String::from("?");
    let mut kernel: Option<String> = None;
    // The row the SASS rows that follow belong to.
    let mut cur: Option<usize> = None;
    // The page lists each line's SASS twice; a launch's block lists it once more.
    let mut seen_sass: BTreeSet<(usize, String, u32, String)> = BTreeSet::new();
    let mut block = 0usize;
    for row in records(text) {
        let Some(first) = row.first().map(|s| s.trim().to_string()) else {
            continue;
        };
        let first = first.as_str();
        match first {
            "Kernel Name" | "Function Name" => {
                if let Some(n) = row.get(1) {
                    out.kernels.push(n.clone());
                    kernel = Some(n.clone());
                }
                block += 1;
                cur = None;
                continue;
            }
            "File Path" | "File Name" | "File" => {
                if let Some(n) = row.get(1) {
                    path = n.trim().to_string();
                    file = basename(&path).to_string();
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
        let addr = col("Address")
            .and_then(|i| row.get(i))
            .map(|a| a.trim().to_string());
        let addr = addr.as_deref();
        let is_sass =
            !is_line && (first.starts_with("0x") || addr.is_some_and(|a| a.starts_with("0x")));
        if !is_line && !is_sass {
            if row.iter().any(|c| c == "Source") {
                header = Some(row.iter().map(|s| s.trim().to_string()).collect());
                cur = None;
            }
            continue;
        }
        // Nsight Compute does not double the quotes inside a line's text, so a line such as
        // `printf("[%d, %d]", ...)` splits into more fields than the header has: the counters
        // are the last fields, the text is what lies between (its inner quotes are lost).
        let at = if is_line {
            col("Source")
        } else {
            h.iter().rposition(|c| c == "Source")
        };
        let row = match at {
            Some(at) if row.len() > h.len() && at < h.len() => {
                let extra = row.len() - h.len();
                let mut row = row;
                let text = row[at..=at + extra].join(",");
                row.splice(at..=at + extra, [text]);
                row
            }
            _ => row,
        };
        // Numeric columns, the first of each name (the line number, the source and the
        // address are not counters).
        let mut values = BTreeMap::new();
        for (i, (name, cell)) in h.iter().zip(&row).enumerate() {
            if i == 0 || name == "Source" || name == "Address" {
                continue;
            }
            if let Some(v) = number(cell) {
                values.entry(name.clone()).or_insert(v);
            }
        }
        if is_sass {
            let address = addr.unwrap_or(first).to_string();
            if let Some(i) = cur {
                let l = &mut out.lines[i];
                if seen_sass.insert((block, l.file.clone(), l.line, address.clone())) {
                    l.sass.push(SassRow {
                        address,
                        source: h
                            .iter()
                            .rposition(|c| c == "Source")
                            .and_then(|i| row.get(i))
                            .map(|s| s.trim().to_string())
                            .unwrap_or_default(),
                        space: col("Address Space")
                            .and_then(|i| row.get(i))
                            .map(|v| v.trim().to_string())
                            .unwrap_or_default(),
                        values,
                    });
                }
            }
            continue;
        }
        out.lines.push(LineCounters {
            kernel: kernel.clone(),
            file: file.clone(),
            path: path.clone(),
            line: first.parse().unwrap_or(0),
            source: col("Source")
                .and_then(|i| row.get(i))
                .map(|s| s.trim().to_string())
                .unwrap_or_default(),
            values,
            sass: Vec::new(),
        });
        cur = Some(out.lines.len() - 1);
    }
    out
}

/// A reduced per-line table: columns are found by name; numeric ones become values.
fn parse_lines_tsv(text: &str) -> SourcePage {
    let mut out = SourcePage::default();
    let mut lines = text.lines();
    let Some(h) = lines.next() else {
        return out;
    };
    let header: Vec<&str> = h.split('\t').collect();
    let col = |name: &str| header.iter().position(|c| *c == name);
    let (Some(fc), Some(lc)) = (col("file"), col("line")) else {
        return out;
    };
    let kc = col("kernel");
    let sc = col("source");
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
        let kernel = kc.and_then(|k| f.get(k)).map(|k| k.to_string());
        if let Some(k) = &kernel
            && out.kernels.last() != Some(k)
        {
            out.kernels.push(k.clone());
        }
        out.lines.push(LineCounters {
            kernel,
            file: basename(file).to_string(),
            path: file.to_string(),
            line,
            source: sc
                .and_then(|i| f.get(i))
                .map(|s| s.trim().to_string())
                .unwrap_or_default(),
            values,
            sass: Vec::new(),
        });
    }
    out
}

/// Reads `scripts/h100/reduce_ncu.py`'s kernel-level table (`kernel launch metric value`, tab
/// separated with a header): kernel → metric → value summed over launches.
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
pub(crate) mod tests {
    use super::*;

    /// A hand-written export in the layout Nsight Compute 2025 writes for the source page: a
    /// file row, the CUDA view's header and rows, then SASS rows that must be ignored.
    pub(crate) const SAMPLE: &str = "\"File Path\",\"/home/u/corpus/strided.cu\"\n\
\"Line No\",\"Source\",\"Warp Stall Sampling (All Samples)\",\"Instructions Executed\",\"Thread Instructions Executed\",\"Predicated-On Thread Instructions Executed\",\"Divergent Branches\",\"L2 Theoretical Sectors Global\",\"L2 Theoretical Sectors Global Ideal\",\"L2 Theoretical Sectors Global Excessive\",\"L1 Conflicts Shared N-Way\"\n\
\"32\",\"    int i = blockIdx.x * blockDim.x + threadIdx.x;\",\"12\",\"4,096\",\"131,072\",\"131,072\",\"0\",\"0\",\"0\",\"0\",\"0\"\n\
\"33\",\"    out[i] = in[2 * i] + 1.0f; // expect: uncoalesced-access definite\",\"40\",\"8,192\",\"262,144\",\"262,144\",\"0\",\"12,288\",\"8,192\",\"4,096\",\"0\"\n\
\"34\",\"    if (x) { \"\"quoted\"\" }\",\"1\",\"100\",\"1,600\",\"1,600\",\"7\",\"0\",\"0\",\"0\",\"2\"\n\
\"Address\",\"Source\",\"Instructions Executed\"\n\
\"0x7f00\",\"LDG.E R2, desc[UR4][R2.64]\",\"4,096\"\n";

    #[test]
    fn parses_an_ncu_source_page_export() {
        let rows = SourcePage::parse(SAMPLE).lines;
        assert_eq!(rows.len(), 3);
        let r33 = rows.iter().find(|r| r.line == 33).unwrap();
        assert_eq!(r33.file, "strided.cu");
        assert_eq!(r33.path, "/home/u/corpus/strided.cu");
        assert_eq!(r33.l2_excess(), Some(4096.0));
        assert_eq!(r33.get("L2 Theoretical Sectors Global Ideal"), Some(8192.0));
        let r34 = rows.iter().find(|r| r.line == 34).unwrap();
        assert_eq!(r34.source, "if (x) { \"quoted\" }");
        assert_eq!(r34.divergent_branches(), Some(7.0));
        assert_eq!(r34.shared_nway(), Some(2.0));
        assert_eq!(r34.active_lanes_per_instruction(), Some(16.0));
        // The SASS row after a new header belongs to no CUDA line.
        assert!(rows.iter().all(|r| r.sass.is_empty()));
    }

    /// Nsight Compute does not double the quotes inside a line's CUDA text (`printf("...")`,
    /// inline `asm("..." : "=r"(x))`), so a comma between inner quotes splits the row into
    /// more fields than the header has (scripts/realworld/reduce.py read such rows' counters
    /// from the wrong columns until 58250cf): the counters must still be read from their
    /// columns.
    #[test]
    fn unescaped_quotes_in_cuda_text_keep_the_counters_in_their_columns() {
        let page = r#""Line No","Source","Instructions Executed","Divergent Branches"
"45","    printf("[%d, %d]:\t\tValue is:%d\n", blockIdx.y, threadIdx.x, val);","64","0"
"46","    asm("shfl.sync.idx.b32 %0, %1, %2, %3;" : "=r"(v) : "r"(x), "r"(l), "r"(c));","32","5"
"#;
        let rows = SourcePage::parse(page).lines;
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].get("Instructions Executed"), Some(64.0));
        assert_eq!(rows[0].divergent_branches(), Some(0.0));
        assert_eq!(rows[1].get("Instructions Executed"), Some(32.0));
        assert_eq!(rows[1].divergent_branches(), Some(5.0));
    }

    /// The correlated view: SASS rows follow their CUDA line, once per kernel however often
    /// the page repeats them.
    #[test]
    fn attaches_sass_rows_to_their_line_once_per_kernel() {
        let page = "\"Kernel Name\",\"k(float *)\"\n\"File Path\",\"a/b.cu\"\n\
\"Line No\",\"Source\",\"Address\",\"Source\",\"Instructions Executed\",\"Address Space\"\n\
\"5\",\"x[i] = 0;\",\"\",\"\",\"8\",\"\"\n\
\"\",\"\",\"0x10\",\"@P0 STG.E [R2], RZ\",\"8\",\"Global\"\n\
\"5\",\"x[i] = 0;\",\"\",\"\",\"8\",\"\"\n\
\"\",\"\",\"0x10\",\"@P0 STG.E [R2], RZ\",\"8\",\"Global\"\n\
\"Kernel Name\",\"k(float *)\"\n\
\"5\",\"x[i] = 0;\",\"\",\"\",\"8\",\"\"\n\
\"\",\"\",\"0x10\",\"@P0 STG.E [R2], RZ\",\"8\",\"Global\"\n";
        let p = SourcePage::parse(page);
        assert_eq!(p.kernels, ["k(float *)", "k(float *)"]);
        let n: Vec<usize> = p.lines.iter().map(|l| l.sass.len()).collect();
        assert_eq!(n, [1, 0, 1]);
        let s = &p.lines[0].sass[0];
        assert_eq!((s.address.as_str(), s.space.as_str()), ("0x10", "Global"));
        assert_eq!(s.source, "@P0 STG.E [R2], RZ");
        assert_eq!(s.values["Instructions Executed"], 8.0);
        assert_eq!(p.lines[2].kernel.as_deref(), Some("k(float *)"));
        assert_eq!(p.lines[2].file, "b.cu");
    }

    #[test]
    fn parses_reduced_tables() {
        let t = "file\tline\tinst\tl2_sectors\tl2_ideal\tl2_excess\tshared_nway\tsource\n\
bounds.cu\t74\t3150\t3200\t2500\t700\t0\tout[y * w + x] = ...\n";
        let rows = SourcePage::parse(t).lines;
        assert_eq!(rows[0].line, 74);
        assert_eq!(rows[0].l2_excess(), Some(700.0));
        assert_eq!(rows[0].shared_nway(), Some(0.0));
        assert_eq!(rows[0].kernel, None);
        assert_eq!(rows[0].source, "out[y * w + x] = ...");
        let t = "kernel\tfile\tline\tdivergent_branches\tl2_excess\nk\tsrc/a.cu\t9\t3\t0\n";
        let r = &SourcePage::parse(t).lines[0];
        assert_eq!(
            (r.path.as_str(), r.divergent_branches()),
            ("src/a.cu", Some(3.0))
        );
    }

    #[test]
    fn parses_per_kernel_tables() {
        let t = "kernel\tfile\tline\tinst\tthread_inst\tpred_on_thread_inst\tl2_sectors\tl2_ideal\tl2_excess\tl1_global_requests\tshared_nway\tspaces\tops\tsizes\n\
first_half_warp(const float *, float *, float *)\tcorpus/branch_tid.cu\t49\t10240\t327680\t20480\t0\t0\t0\t0\t0\t-\t-\t-\n";
        let p = SourcePage::parse(t);
        assert_eq!(
            p.kernels,
            ["first_half_warp(const float *, float *, float *)"]
        );
        let r = &p.lines[0];
        assert_eq!(
            r.kernel.as_deref(),
            Some("first_half_warp(const float *, float *, float *)")
        );
        assert_eq!((r.file.as_str(), r.line), ("branch_tid.cu", 49));
        assert_eq!(r.path, "corpus/branch_tid.cu");
        assert_eq!(r.divergent_branches(), None);
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

    #[test]
    fn bad_input_reads_as_nothing() {
        for t in [
            "",
            "\n\n",
            "\"Line No\"",
            "file\tline\nx\tnot-a-number\n",
            "\u{0}\u{ffff},\"\n",
        ] {
            assert!(SourcePage::parse(t).lines.is_empty(), "{t:?}");
        }
    }
}
