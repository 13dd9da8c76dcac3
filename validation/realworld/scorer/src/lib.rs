//! Scores `warpscope check` against what Nsight Compute measured on an H100 for the real-world
//! evaluation set under `validation/realworld/` (public CUDA applications nobody on this project
//! wrote; see that folder's README).
//!
//! Per CUDA source line the H100 ran (`truth/<app>.lines.tsv`):
//! - a line is truly *uncoalesced* when ncu counted excessive L2 sectors there
//!   ("L2 Theoretical Sectors Global Excessive" > 0); `check` predicts it with an
//!   `uncoalesced-access` or `misaligned-access` finding on the line;
//! - a line truly *diverges* when ncu counted a divergent branch there ("Divergent Branches" >
//!   0); `check` predicts it with a `divergent-branch` finding on the line.
//!
//! Findings on lines the H100 did not run (kernels or launches not profiled, dead code) are
//! counted apart, never as right or wrong. `check` runs as a separate process (the real
//! command a user types), one per PTX module, with a time limit.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;
use warpscope_ncu::SourcePage;

pub mod packed;

/// The rules scored, as rows of the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Measure {
    /// `uncoalesced-access` and `misaligned-access` against excessive L2 sectors.
    Memory,
    /// `divergent-branch` against divergent branches.
    Divergence,
}

impl Measure {
    pub const ALL: [Measure; 2] = [Measure::Memory, Measure::Divergence];

    pub fn name(self) -> &'static str {
        match self {
            Measure::Memory => "uncoalesced/misaligned",
            Measure::Divergence => "divergent-branch",
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Measure::Memory => "memory",
            Measure::Divergence => "divergence",
        }
    }

    fn predicts(self, rule: &str) -> bool {
        match self {
            Measure::Memory => rule == "uncoalesced-access" || rule == "misaligned-access",
            Measure::Divergence => rule == "divergent-branch",
        }
    }
}

/// How `check` is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `warpscope check --format json --no-host-source FILE`: the PTX alone, no host code read.
    PtxOnly,
    /// `warpscope check --format json FILE`: what a new user types, from the repository root,
    /// where the CUDA sources the PTX's `.file` lines name are found (the kernel's own `.cu`):
    /// their launch sites give geometry and constant arguments.
    Defaults,
    /// As defaults, plus `--host-source F` for every `.cu`/`.cuh` file of the application's
    /// folder: what a user with the sources passes.
    HostSource,
    /// As defaults, plus `--block K=X,Y,Z --grid K=X,Y,Z` for each kernel the H100 ran, with the
    /// geometry of its first profiled launch (`truth/launches.tsv`).
    Geometry,
    /// As defaults, plus `--sass on`: each branch's lowering read from the SASS ptxas compiles
    /// the module to (ptxas needed; every other mode passes `--sass off`, so its
    /// scores do not depend on which tools the machine has).
    Sass,
}

impl Mode {
    /// Every mode, in the order of the tables.
    pub const ALL: [Mode; 5] = [
        Mode::PtxOnly,
        Mode::Defaults,
        Mode::HostSource,
        Mode::Geometry,
        Mode::Sass,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Mode::PtxOnly => "PTX only",
            Mode::Defaults => "defaults",
            Mode::HostSource => "defaults + host source",
            Mode::Geometry => "geometry given",
            Mode::Sass => "defaults + SASS",
        }
    }

    /// The key of the mode in `floors.tsv`, `skip.tsv` and `--mode`.
    pub fn key(self) -> &'static str {
        match self {
            Mode::PtxOnly => "ptx-only",
            Mode::Defaults => "defaults",
            Mode::HostSource => "host",
            Mode::Geometry => "geometry",
            Mode::Sass => "sass",
        }
    }

    /// The modes `--mode NAME` selects: a key, `both` (defaults and geometry) or `all`.
    pub fn parse_list(name: &str) -> Option<Vec<Mode>> {
        match name {
            "both" => Some(vec![Mode::Defaults, Mode::Geometry]),
            "all" => Some(Mode::ALL.to_vec()),
            k => Mode::ALL.iter().find(|m| m.key() == k).map(|m| vec![*m]),
        }
    }
}

/// Grid and block of a launch.
pub type Geometry = ([u32; 3], [u32; 3]);

/// One application of `apps.tsv` with its modules and truth.
#[derive(Debug, Clone)]
pub struct App {
    pub name: String,
    /// PTX modules, repository-relative.
    pub modules: Vec<PathBuf>,
    /// (file, line) -> what the H100 saw there.
    pub lines: BTreeMap<(String, u32), TruthLine>,
    /// Mangled kernel name -> (grid, block) of its first profiled launch.
    pub launches: BTreeMap<String, Geometry>,
    /// Mangled names of the kernels the H100 ran (those with rows in the truth table).
    pub ran: BTreeSet<String>,
    /// The application's CUDA files (`.cu`, `.cuh`; repository-relative, sorted): the host
    /// code `--host-source` passes.
    pub host_sources: Vec<PathBuf>,
}

/// What the H100 counted on one CUDA line (summed over kernels and profiled launches).
#[derive(Debug, Clone, Copy, Default)]
pub struct TruthLine {
    pub divergent_branches: f64,
    pub l2_excess: f64,
}

impl TruthLine {
    pub fn positive(&self, m: Measure) -> bool {
        match m {
            Measure::Memory => self.l2_excess > 0.0,
            Measure::Divergence => self.divergent_branches > 0.0,
        }
    }
}

/// One finding of `check`'s JSON report, as scored.
#[derive(Debug, Clone)]
pub struct Finding {
    pub rule: String,
    pub definite: bool,
    pub file: String,
    pub line: u32,
    /// A `divergent-branch` note tallied apart: a boundary check (`kind = "boundary"`: at most
    /// the last warp diverges, when the bound is not a multiple of the warp), or a branch that
    /// splits lanes but that ptxas lowers without a branch (`kind = "exit"`: a predicated
    /// exit; `kind = "predicated"`: an if-converted body), where Nsight Compute counts no
    /// divergent branch.
    pub boundary: bool,
    /// The PTX entry (mangled) the finding's instruction lies in, when it is in the kernel
    /// itself (not in a device function shared by several kernels); set by [`run_check`].
    pub entry: Option<String>,
    /// PTX line of the instruction (0 when the report has none).
    pub ptx_line: u32,
    /// Whether the finding is in a device function (`function` in the report).
    pub in_function: bool,
    /// The call sites the finding's code was inlined at (`location.inlined_at`, and those of
    /// the inlined copies folded into it, `related[].inlined_at`): Nsight Compute attributes
    /// some SASS of an inlined function to the line of its call, so a true line found there
    /// counts as found (recall); the finding itself is judged by its own line (precision).
    pub call_sites: Vec<(String, u32)>,
    /// A `possible` finding that rests only on a guess (`caveat` in the report): ranked
    /// after the others.
    pub caveat: bool,
    /// The finding's one-sentence summary (`message`): for `--possible-reasons`, which reads
    /// from it why a finding is `possible` ([`possible_reason`]).
    pub message: String,
}

/// Why a `possible` finding is not `definite`, read from its message (and whether it is a
/// caveat): a short class name for `--possible-reasons`. A scoring aid only: it changes no
/// verdict.
pub fn possible_reason(f: &Finding) -> &'static str {
    let m = f.message.as_str();
    let has = |s: &str| m.contains(s);
    if f.caveat {
        "caveat (a guess: padded pitch, block shape tried, lanes an unknown condition may switch off)"
    } else if has("depend on loaded data") || has("depends on loaded data") {
        "data-dependent"
    } else if has("stride between lanes depends on a parameter") {
        "unknown stride parameter"
    } else if has("cannot evaluate switches off") {
        "unknown condition may switch lanes off"
    } else if has("values the analysis cannot see") {
        "unknown values (not data)"
    } else if has("checks against unknown bounds") {
        "guarded by unknown bounds (interior/first block)"
    } else if has("for every run-time size tried") {
        "first block, every size tried"
    } else if has("computes that bound") {
        "computed bound"
    } else if has("boundary check") {
        "boundary check"
    } else if has("member mask") {
        "warp-sync mask"
    } else if has("may start mid-sector") || has("dense but") {
        "alignment (unknown residue or unknown grid)"
    } else if has("sectors where") || has("wavefronts where") {
        "measured excess, not proven (unknown residue, geometry, grid or budget)"
    } else if has("diverges in") {
        "measured divergence, not proven (a uniform unknown may hide it)"
    } else {
        "other"
    }
}

/// For `--possible-reasons`: per measure, the lines reported only `possible`, counted by
/// [`possible_reason`] (a line counts once per reason among its findings) as true (the H100
/// saw it) and false (it did not), then each true such line with its reasons.
pub fn possible_reasons_text(s: &Scores) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for meas in Measure::ALL {
        let reported = |v: &str| -> Vec<&(String, Measure, LineVerdict)> {
            s.lines
                .iter()
                .filter(|(_, m, l)| *m == meas && l.verdict == v)
                .collect()
        };
        let (tp, fp) = (reported("TP"), reported("FP"));
        let possible: Vec<_> = tp.iter().filter(|(_, _, l)| !l.definite).collect();
        let possible_fp: Vec<_> = fp.iter().filter(|(_, _, l)| !l.definite).collect();
        let mut counts: BTreeMap<&'static str, (u32, u32)> = BTreeMap::new();
        for (_, _, l) in &possible {
            for r in &l.reasons {
                counts.entry(r).or_default().0 += 1;
            }
        }
        for (_, _, l) in &possible_fp {
            for r in &l.reasons {
                counts.entry(r).or_default().1 += 1;
            }
        }
        let _ = writeln!(
            out,
            "{}: {} true lines reported, {} only `possible`; {} false lines reported, {} only `possible`; by reason (true, false):",
            meas.key(),
            tp.len(),
            possible.len(),
            fp.len(),
            possible_fp.len()
        );
        let mut v: Vec<_> = counts.into_iter().collect();
        v.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(b.0)));
        for (r, (t, f)) in v {
            let _ = writeln!(out, "  {t:5} {f:5}  {r}");
        }
        for (app, _, l) in &possible {
            let _ = writeln!(
                out,
                "POSSIBLE {app} {} {}:{} {}",
                meas.key(),
                l.file,
                l.line,
                l.reasons.join(" | ")
            );
        }
    }
    out
}

/// How one run of `check` on one module ended.
#[derive(Debug, Clone)]
pub enum Status {
    Ok,
    /// Killed after the time limit.
    Timeout,
    /// Non-zero exit without a report (an error, a panic or an abort), with stderr's last line.
    Failed(String),
}

/// One run of `check` on one module.
#[derive(Debug, Clone)]
pub struct Run {
    pub app: String,
    pub module: PathBuf,
    pub ptx_lines: usize,
    pub secs: f64,
    pub status: Status,
    pub findings: Vec<Finding>,
}

fn dim3(s: &str) -> Option<[u32; 3]> {
    let v: Vec<u32> = s
        .split(',')
        .map(|x| x.trim().parse().ok())
        .collect::<Option<_>>()?;
    (v.len() == 3).then(|| [v[0], v[1], v[2]])
}

/// Loads the evaluation set from `root` (the repository root).
pub fn load_apps(root: &Path) -> Result<Vec<App>, String> {
    let rw = root.join("validation/realworld");
    let read =
        |p: PathBuf| std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()));
    let mut launches: BTreeMap<String, BTreeMap<String, Geometry>> = BTreeMap::new();
    for (i, l) in read(rw.join("truth/launches.tsv"))?
        .lines()
        .enumerate()
        .skip(1)
    {
        let c: Vec<&str> = l.split('\t').collect();
        let (Some(g), Some(b)) = (
            c.get(3).and_then(|s| dim3(s)),
            c.get(4).and_then(|s| dim3(s)),
        ) else {
            return Err(format!("truth/launches.tsv:{}: bad row", i + 1));
        };
        launches
            .entry(c[0].to_string())
            .or_default()
            .entry(c[1].to_string())
            .or_insert((g, b));
    }
    let mut ptx: Vec<PathBuf> = std::fs::read_dir(packed::ptx_dir(root)?)
        .map_err(|e| format!("validation/realworld/ptx: {e}"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .collect();
    ptx.sort();
    let mut apps = Vec::new();
    for l in read(rw.join("apps.tsv"))?.lines() {
        let cols: Vec<&str> = l.split('\t').collect();
        let Some(name) = cols
            .first()
            .copied()
            .filter(|n| !n.is_empty() && !n.starts_with('#'))
        else {
            continue;
        };
        let mut host_sources = Vec::new();
        if let (Some(suite), Some(dir)) = (cols.get(1), cols.get(2)) {
            let d = rw.join("src").join(suite).join(dir);
            if let Ok(entries) = std::fs::read_dir(&d) {
                for e in entries.flatten() {
                    let p = e.path();
                    if p.extension().is_some_and(|x| x == "cu" || x == "cuh") {
                        host_sources.push(p.strip_prefix(root).unwrap_or(&p).to_path_buf());
                    }
                }
            }
            host_sources.sort();
        }
        let modules: Vec<PathBuf> = ptx
            .iter()
            .filter(|p| {
                let s = p.file_stem().unwrap_or_default().to_string_lossy();
                s == name || s.starts_with(&format!("{name}__"))
            })
            .map(|p| p.strip_prefix(root).unwrap_or(p).to_path_buf())
            .collect();
        let truth = rw.join(format!("truth/{name}.lines.tsv"));
        let (lines, ran) = match std::fs::read_to_string(&truth) {
            Ok(t) => truth_lines(&t).map_err(|e| format!("{}: {e}", truth.display()))?,
            Err(_) => Default::default(),
        };
        apps.push(App {
            name: name.to_string(),
            modules,
            lines,
            launches: launches.remove(name).unwrap_or_default(),
            ran,
            host_sources,
        });
    }
    Ok(apps)
}

/// The arguments `mode` adds for `module` of `app`.
pub fn mode_args(app: &App, module_text: &str, mode: Mode) -> Vec<String> {
    let mut a = Vec::new();
    a.push("--sass".into());
    a.push(if mode == Mode::Sass { "on" } else { "off" }.into());
    if mode == Mode::PtxOnly {
        a.push("--no-host-source".into());
    }
    if mode == Mode::HostSource {
        for f in &app.host_sources {
            a.push("--host-source".into());
            a.push(f.display().to_string());
        }
    }
    if mode == Mode::Geometry {
        for (k, (g, b)) in &app.launches {
            if module_text.contains(&format!(".entry {k}(")) {
                a.push("--block".into());
                a.push(format!("{k}={},{},{}", b[0], b[1], b[2]));
                a.push("--grid".into());
                a.push(format!("{k}={},{},{}", g[0], g[1], g[2]));
            }
        }
    }
    a
}

/// Parses the findings of a `--format json` report.
pub fn parse_findings(json: &str) -> Result<Vec<Finding>, String> {
    let v: Value = serde_json::from_str(json).map_err(|e| format!("bad JSON report: {e}"))?;
    let list = v
        .pointer("/report/findings")
        .and_then(Value::as_array)
        .ok_or("JSON report without report.findings")?;
    Ok(list
        .iter()
        .filter_map(|f| {
            // Header code that the report places at its call site is judged at its own
            // line (`location.origin`), where Nsight Compute attributes the instruction; the
            // call site counts as one more call site (recall only).
            let cuda = f.pointer("/location/cuda")?;
            let origin = f.pointer("/location/origin");
            let own = origin.unwrap_or(cuda);
            let mut call_sites = call_sites(f);
            if origin.is_some() {
                call_sites.push((
                    cuda.get("file")?.as_str()?.to_string(),
                    u32::try_from(cuda.get("line")?.as_u64()?).ok()?,
                ));
            }
            Some(Finding {
                rule: f.get("rule")?.as_str()?.to_string(),
                definite: f.get("certainty").and_then(Value::as_str) == Some("definite"),
                file: own.get("file")?.as_str()?.to_string(),
                line: u32::try_from(own.get("line")?.as_u64()?).ok()?,
                boundary: matches!(
                    f.get("kind").and_then(Value::as_str),
                    Some("boundary" | "exit" | "predicated")
                ),
                entry: None,
                ptx_line: f
                    .pointer("/location/ptx/line")
                    .and_then(Value::as_u64)
                    .and_then(|l| u32::try_from(l).ok())
                    .unwrap_or(0),
                in_function: f.get("function").is_some_and(|v| !v.is_null()),
                call_sites,
                caveat: f.get("caveat").is_some_and(|c| !c.is_null()),
                message: f
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
            })
        })
        .collect())
}

/// The call sites (file, line) a finding of the JSON report names in `location.inlined_at`
/// and `related[].inlined_at`.
fn call_sites(f: &Value) -> Vec<(String, u32)> {
    let mut locs: Vec<&Value> = vec![&f["location"]];
    if let Some(r) = f.get("related").and_then(Value::as_array) {
        locs.extend(r);
    }
    let mut out = Vec::new();
    for l in locs {
        for c in l
            .get("inlined_at")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let (Some(file), Some(line)) = (
                c.get("file").and_then(Value::as_str),
                c.get("line")
                    .and_then(Value::as_u64)
                    .and_then(|l| u32::try_from(l).ok()),
            ) && !out.iter().any(|(f, l)| f == file && *l == line)
            {
                out.push((file.to_string(), line));
            }
        }
    }
    out
}

/// The first line (1-based) of every `.entry` and `.func` of a PTX module, in order, with the
/// entry's name (`None` for a `.func`): an instruction belongs to the last one that starts
/// before it.
pub fn entry_spans(ptx: &str) -> Vec<(u32, Option<String>)> {
    let mut out = Vec::new();
    for (i, l) in ptx.lines().enumerate() {
        let t = l.trim_start();
        let t = t.strip_prefix(".visible ").unwrap_or(t);
        let t = t.strip_prefix(".weak ").unwrap_or(t);
        let entry = t.starts_with(".entry ");
        if let Some(rest) = t
            .strip_prefix(".entry ")
            .or_else(|| t.strip_prefix(".func "))
        {
            let rest = rest.trim_start();
            // `.func (.param ...) name(`: skip the return parameter list.
            let rest = if rest.starts_with('(') {
                rest.split_once(')').map_or("", |(_, r)| r.trim_start())
            } else {
                rest
            };
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$' || *c == '.')
                .collect();
            if !name.is_empty() {
                out.push((i as u32 + 1, entry.then_some(name)));
            }
        }
    }
    out
}

/// Runs `bin check --format json` on `module` (cwd `root`) with a time limit.
pub fn run_check(
    bin: &Path,
    root: &Path,
    app: &App,
    module: &Path,
    mode: Mode,
    limit: Duration,
) -> Run {
    let text = std::fs::read_to_string(root.join(module)).unwrap_or_default();
    let mut cmd = Command::new(bin);
    cmd.current_dir(root)
        .arg("check")
        .arg("--format")
        .arg("json")
        .args(mode_args(app, &text, mode))
        .arg(module)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let mut run = Run {
        app: app.name.clone(),
        module: module.to_path_buf(),
        ptx_lines: text.lines().count(),
        secs: 0.0,
        status: Status::Ok,
        findings: Vec::new(),
    };
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            run.status = Status::Failed(format!("cannot start {}: {e}", bin.display()));
            return run;
        }
    };
    // Drain the pipes on threads so a large report cannot block the child.
    let mut out = child.stdout.take();
    let mut err = child.stderr.take();
    let t_out = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(o) = out.as_mut() {
            let _ = std::io::Read::read_to_string(o, &mut s);
        }
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(o) = err.as_mut() {
            let _ = std::io::Read::read_to_string(o, &mut s);
        }
        s
    });
    let status = match child.wait_timeout(limit) {
        Ok(Some(s)) => Some(s),
        _ => {
            let _ = child.kill();
            let _ = child.wait();
            None
        }
    };
    run.secs = start.elapsed().as_secs_f64();
    let stdout = t_out.join().unwrap_or_default();
    let stderr = t_err.join().unwrap_or_default();
    match status {
        None => run.status = Status::Timeout,
        // 0: no finding denied; 1: findings denied (not used here). Both carry a report.
        Some(s) if matches!(s.code(), Some(0 | 1)) => match parse_findings(&stdout) {
            Ok(mut f) => {
                let entries = entry_spans(&text);
                for x in f.iter_mut().filter(|x| !x.in_function && x.ptx_line > 0) {
                    x.entry = entries
                        .iter()
                        .rev()
                        .find(|(start, _)| *start <= x.ptx_line)
                        .and_then(|(_, name)| name.clone());
                }
                run.findings = f
            }
            Err(e) => run.status = Status::Failed(e),
        },
        Some(s) => {
            let last = stderr.lines().last().unwrap_or("").trim().to_string();
            run.status = Status::Failed(format!("exit {s}: {last}"));
        }
    }
    run
}

/// Right and wrong lines of one measure.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tally {
    /// Lines the H100 saw, that `check` reports.
    pub tp: u32,
    /// Lines `check` reports, that the H100 ran without seeing it.
    pub fp: u32,
    /// Lines the H100 saw, that `check` does not report.
    pub fn_: u32,
    /// Lines the H100 saw that `check` names only as the call site of an inlined function
    /// with a finding ("inlined at"): found (recall), not reported lines (precision).
    pub call_site: u32,
    /// Reported lines with a `definite` finding, that the H100 saw / did not see.
    pub definite_tp: u32,
    pub definite_fp: u32,
    /// Reported lines the H100 did not run (not scored).
    pub unscored: u32,
    /// Lines the H100 ran with only notes (`kind` = `boundary`, `exit` or `predicated`), and
    /// those of them the H100 saw. Not in the counts above: a boundary note says the branch
    /// diverges in at most one warp and only when the bound is not a multiple of the warp
    /// size, which the PTX does not tell; an exit or predicated note says no divergent branch
    /// executes. A true line with only notes counts as missed.
    pub boundary: u32,
    pub boundary_true: u32,
    /// Reported lines whose every finding is a caveat (ranked last), and those of them the
    /// H100 saw. Counted in `tp`/`fp` too.
    pub caveat: u32,
    pub caveat_true: u32,
}

fn ratio(a: u32, b: u32) -> Option<f64> {
    (b > 0).then(|| f64::from(a) / f64::from(b))
}

impl Tally {
    pub fn add(&mut self, o: &Tally) {
        self.tp += o.tp;
        self.fp += o.fp;
        self.fn_ += o.fn_;
        self.call_site += o.call_site;
        self.definite_tp += o.definite_tp;
        self.definite_fp += o.definite_fp;
        self.unscored += o.unscored;
        self.boundary += o.boundary;
        self.boundary_true += o.boundary_true;
        self.caveat += o.caveat;
        self.caveat_true += o.caveat_true;
    }
    /// True lines: reported, found at a call site, or missed.
    pub fn true_lines(&self) -> u32 {
        self.tp + self.call_site + self.fn_
    }
    /// True lines found (reported, or named as the call site of an inlined finding).
    pub fn found(&self) -> u32 {
        self.tp + self.call_site
    }
    pub fn recall(&self) -> Option<f64> {
        ratio(self.found(), self.true_lines())
    }
    pub fn precision(&self) -> Option<f64> {
        ratio(self.tp, self.tp + self.fp)
    }
    pub fn definite_precision(&self) -> Option<f64> {
        ratio(self.definite_tp, self.definite_tp + self.definite_fp)
    }
    /// Share of the true lines that `check` reports as `definite`.
    pub fn definite_recall(&self) -> Option<f64> {
        ratio(self.definite_tp, self.true_lines())
    }
}

/// Scores the findings of all runs of `app` (whatever their status: a module that failed
/// reports nothing, so its true lines count as misses).
pub fn score_app(app: &App, runs: &[&Run], m: Measure) -> Tally {
    score_app_lines(app, runs, m).0
}

/// How one scored line came out: `"FN"` (true, missed), `"FP"` (reported, not true) or
/// `"TP"`, with the line and whether the report there is `definite`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineVerdict {
    pub verdict: &'static str,
    pub file: String,
    pub line: u32,
    pub definite: bool,
    /// For a true line reported only `possible`: why, per finding there ([`possible_reason`]).
    pub reasons: Vec<&'static str>,
}

/// [`score_app`] with the verdict of every scored line (for `--lines`).
pub fn score_app_lines(app: &App, runs: &[&Run], m: Measure) -> (Tally, Vec<LineVerdict>) {
    let mut lines = Vec::new();
    let mut reported: BTreeMap<(String, u32), bool> = BTreeMap::new();
    // Lines with a finding that is not a caveat.
    let mut weighty: BTreeSet<(String, u32)> = BTreeSet::new();
    let mut boundary: BTreeSet<(String, u32)> = BTreeSet::new();
    let mut not_launched: BTreeSet<(String, u32)> = BTreeSet::new();
    let mut call_sites: BTreeSet<(String, u32)> = BTreeSet::new();
    let mut reasons: BTreeMap<(String, u32), BTreeSet<&'static str>> = BTreeMap::new();
    for f in runs.iter().flat_map(|r| &r.findings) {
        if m.predicts(&f.rule) {
            // A kernel the program never launched (another template instance of a kernel it
            // did launch, say): the H100 says nothing about it.
            if let Some(e) = &f.entry
                && !app.ran.is_empty()
                && !app.ran.contains(e)
            {
                not_launched.insert((f.file.clone(), f.line));
                continue;
            }
            if f.boundary {
                boundary.insert((f.file.clone(), f.line));
                continue;
            }
            let d = reported.entry((f.file.clone(), f.line)).or_default();
            *d |= f.definite;
            if !f.definite {
                reasons
                    .entry((f.file.clone(), f.line))
                    .or_default()
                    .insert(possible_reason(f));
            }
            if !f.caveat {
                weighty.insert((f.file.clone(), f.line));
            }
            call_sites.extend(f.call_sites.iter().cloned());
        }
    }
    let mut t = Tally::default();
    t.unscored += not_launched
        .iter()
        .filter(|k| !reported.contains_key(*k))
        .count() as u32;
    for key in boundary.iter().filter(|k| !reported.contains_key(*k)) {
        if let Some(l) = app.lines.get(key) {
            t.boundary += 1;
            t.boundary_true += u32::from(l.positive(m));
        }
    }
    for (key, definite) in &reported {
        let caveat = u32::from(!weighty.contains(key));
        let verdict = |v: &'static str| LineVerdict {
            verdict: v,
            file: key.0.clone(),
            line: key.1,
            definite: *definite,
            reasons: if *definite {
                Vec::new()
            } else {
                reasons
                    .get(key)
                    .map(|r| r.iter().copied().collect())
                    .unwrap_or_default()
            },
        };
        match app.lines.get(key) {
            None => t.unscored += 1,
            Some(l) if l.positive(m) => {
                lines.push(verdict("TP"));
                t.tp += 1;
                t.definite_tp += u32::from(*definite);
                t.caveat += caveat;
                t.caveat_true += caveat;
            }
            Some(_) => {
                lines.push(verdict("FP"));
                t.fp += 1;
                t.definite_fp += u32::from(*definite);
                t.caveat += caveat;
            }
        }
    }
    for (k, l) in &app.lines {
        if l.positive(m) && !reported.contains_key(k) {
            if call_sites.contains(k) {
                t.call_site += 1;
            } else {
                lines.push(LineVerdict {
                    verdict: "FN",
                    file: k.0.clone(),
                    line: k.1,
                    definite: false,
                    reasons: Vec::new(),
                });
                t.fn_ += 1;
            }
        }
    }
    (t, lines)
}

/// The scores of one mode over the set.
#[derive(Debug, Clone, Default)]
pub struct Scores {
    pub per_app: BTreeMap<String, BTreeMap<Measure, Tally>>,
    pub total: BTreeMap<Measure, Tally>,
    pub runs: Vec<Run>,
    /// Every scored line (found, missed, falsely reported): application, measure, verdict.
    pub lines: Vec<(String, Measure, LineVerdict)>,
}

impl Scores {
    pub fn finished(&self) -> usize {
        self.runs
            .iter()
            .filter(|r| matches!(r.status, Status::Ok))
            .count()
    }
    /// Median and maximum seconds per module (over all runs, a timeout counting its limit).
    pub fn time_stats(&self) -> (f64, f64) {
        let mut t: Vec<f64> = self.runs.iter().map(|r| r.secs).collect();
        t.sort_by(f64::total_cmp);
        if t.is_empty() {
            return (0.0, 0.0);
        }
        (t[t.len() / 2], t[t.len() - 1])
    }
}

/// The lines of a truth table (`truth/<app>.lines.tsv`) that ran, summed over kernels, and
/// the kernels profiled. A line with SASS that executed nothing (no instruction, no thread
/// instruction, no branch, no sector: a path the input never took) did not run: it is left
/// out, so findings there are not judged.
pub type TruthLines = BTreeMap<(String, u32), TruthLine>;

pub fn truth_lines(t: &str) -> Result<(TruthLines, BTreeSet<String>), String> {
    let mut lines = TruthLines::new();
    let mut ran = BTreeSet::new();
    let hdr: Vec<&str> = t.lines().next().unwrap_or("").split('\t').collect();
    for n in ["file", "line", "divergent_branches", "l2_excess"] {
        if !hdr.contains(&n) {
            return Err(format!("no column {n}"));
        }
    }
    // The reduced table of scripts/realworld/reduce.py, read by the one Nsight Compute reader.
    for r in SourcePage::parse(t).lines {
        ran.extend(r.kernel.clone());
        let counted = |v: Option<f64>| v.is_some_and(|v| v > 0.0);
        if r.instructions().is_none()
            && !counted(r.get("thread_inst"))
            && !counted(r.divergent_branches())
            && !counted(r.get("l2_sectors"))
        {
            continue;
        }
        let e = lines.entry((r.path.clone(), r.line)).or_default();
        e.divergent_branches += r.divergent_branches().unwrap_or(0.0);
        e.l2_excess += r.l2_excess().unwrap_or(0.0);
    }
    Ok((lines, ran))
}

/// Runs `check` on every module of `apps` on `jobs` threads (`skip`: module stems not run,
/// counted as failed) and scores it.
pub fn score_all(
    bin: &Path,
    root: &Path,
    apps: &[App],
    mode: Mode,
    limit: Duration,
    skip: &BTreeSet<String>,
    jobs: usize,
) -> Scores {
    let work: Vec<(usize, &PathBuf)> = apps
        .iter()
        .enumerate()
        .flat_map(|(i, a)| a.modules.iter().map(move |m| (i, m)))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new(vec![None; work.len()]);
    std::thread::scope(|sc| {
        for _ in 0..jobs.max(1) {
            sc.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&(a, m)) = work.get(i) else { break };
                    let app = &apps[a];
                    let stem = m
                        .file_stem()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned();
                    let r = if skip.contains(&stem) {
                        Run {
                            app: app.name.clone(),
                            module: m.clone(),
                            ptx_lines: 0,
                            secs: 0.0,
                            status: Status::Failed("skipped (skip list)".into()),
                            findings: Vec::new(),
                        }
                    } else {
                        run_check(bin, root, app, m, mode, limit)
                    };
                    done.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                }
            });
        }
    });
    let runs: Vec<Run> = done
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect();
    let mut s = Scores::default();
    for app in apps {
        let refs: Vec<&Run> = runs.iter().filter(|r| r.app == app.name).collect();
        for meas in Measure::ALL {
            let (t, lines) = score_app_lines(app, &refs, meas);
            s.lines
                .extend(lines.into_iter().map(|l| (app.name.clone(), meas, l)));
            s.total.entry(meas).or_default().add(&t);
            s.per_app
                .entry(app.name.clone())
                .or_default()
                .insert(meas, t);
        }
    }
    s.runs = runs;
    s
}

/// The skip list (`skip.tsv`: mode key, module stem, reason): modules not run in a mode.
pub fn parse_skip(text: &str, mode_key: &str) -> BTreeSet<String> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut c = l.split('\t');
            let (m, stem) = (c.next()?, c.next()?);
            (m == mode_key || m == "all").then(|| stem.trim().to_string())
        })
        .collect()
}

fn pct(x: Option<f64>) -> String {
    x.map_or("–".into(), |v| format!("{:.0}%", v * 100.0))
}

/// The summary table (markdown) of one mode.
pub fn summary_markdown(mode: Mode, s: &Scores) -> String {
    let mut o = String::new();
    let (median, max) = s.time_stats();
    let _ = writeln!(
        o,
        "**{}**: {} of {} modules finish; time per module median {:.3} s, max {:.3} s\n",
        mode.name(),
        s.finished(),
        s.runs.len(),
        median,
        max
    );
    let _ = writeln!(
        o,
        "| rule | true lines | reported (scored) | recall | precision | `definite` precision | true lines `definite` | caveats only (true) | reported on lines not run | notes: boundary, exit, predicated (H100 saw) |"
    );
    let _ = writeln!(o, "|---|---|---|---|---|---|---|---|---|---|");
    for m in Measure::ALL {
        let t = s.total.get(&m).copied().unwrap_or_default();
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} ({}/{}) | {} ({}/{}) | {} ({}/{}) | {} | {} ({}) | {} | {} ({}) |",
            m.name(),
            t.true_lines(),
            t.tp + t.fp,
            pct(t.recall()),
            t.found(),
            t.true_lines(),
            pct(t.precision()),
            t.tp,
            t.tp + t.fp,
            pct(t.definite_precision()),
            t.definite_tp,
            t.definite_tp + t.definite_fp,
            pct(t.definite_recall()),
            t.caveat,
            t.caveat_true,
            t.unscored,
            t.boundary,
            t.boundary_true
        );
    }
    o
}

/// Per-module rows (markdown): status, PTX lines, seconds, findings, per-app tallies.
pub fn modules_markdown(s: &Scores) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "| module | PTX lines | status | seconds | findings | memory TP/FP/FN | divergence TP/FP/FN |"
    );
    let _ = writeln!(o, "|---|---|---|---|---|---|---|");
    let mut last_app = String::new();
    for r in &s.runs {
        let first = r.app != last_app;
        last_app = r.app.clone();
        let tallies = |m: Measure| {
            if !first {
                return "(above)".to_string();
            }
            let t = s.per_app[&r.app][&m];
            format!("{}/{}/{}", t.tp, t.fp, t.fn_)
        };
        let status = match &r.status {
            Status::Ok => "ok".to_string(),
            Status::Timeout => "TIMEOUT".to_string(),
            Status::Failed(e) => format!("FAILED: {}", e.replace('|', "\\|")),
        };
        let _ = writeln!(
            o,
            "| {} | {} | {} | {:.3} | {} | {} | {} |",
            r.module.file_name().unwrap_or_default().to_string_lossy(),
            r.ptx_lines,
            status,
            r.secs,
            r.findings.len(),
            tallies(Measure::Memory),
            tallies(Measure::Divergence),
        );
    }
    o
}

/// Floors (`floors.tsv`: mode, measure, metric, minimum) that the scores must reach.
#[derive(Debug, Clone)]
pub struct Floor {
    pub mode: String,
    pub measure: String,
    pub metric: String,
    pub min: f64,
}

pub fn parse_floors(text: &str) -> Result<Vec<Floor>, String> {
    let mut v = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let l = l.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let c: Vec<&str> = l.split('\t').collect();
        let [mode, measure, metric, min] = c[..] else {
            return Err(format!(
                "floors line {}: want 4 tab-separated fields",
                i + 1
            ));
        };
        v.push(Floor {
            mode: mode.into(),
            measure: measure.into(),
            metric: metric.into(),
            min: min
                .parse()
                .map_err(|_| format!("floors line {}: bad number {min}", i + 1))?,
        });
    }
    Ok(v)
}

/// The value of `metric` (recall, precision, definite_precision, finished) of `measure` in `s`.
pub fn metric(s: &Scores, measure: &str, metric: &str) -> Option<f64> {
    if metric == "finished" {
        return Some(s.finished() as f64);
    }
    let m = Measure::ALL.into_iter().find(|m| m.key() == measure)?;
    let t = s.total.get(&m).copied().unwrap_or_default();
    match metric {
        "recall" => t.recall(),
        "precision" => t.precision(),
        "definite_precision" => t.definite_precision(),
        "definite_recall" => t.definite_recall(),
        _ => None,
    }
}

/// Floors of `mode_key` that `s` does not reach, as messages.
pub fn check_floors(s: &Scores, mode_key: &str, floors: &[Floor]) -> Vec<String> {
    floors
        .iter()
        .filter(|f| f.mode == mode_key)
        .filter_map(|f| {
            let v = metric(s, &f.measure, &f.metric);
            match v {
                Some(v) if v + 1e-9 >= f.min => None,
                Some(v) => Some(format!(
                    "{mode_key} {} {}: {v:.3} is below the floor {:.3}",
                    f.measure, f.metric, f.min
                )),
                None => Some(format!(
                    "{mode_key} {} {}: no value (nothing to score?)",
                    f.measure, f.metric
                )),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app() -> App {
        let mut lines = BTreeMap::new();
        lines.insert(
            ("a.cu".to_string(), 10),
            TruthLine {
                divergent_branches: 4.0,
                l2_excess: 0.0,
            },
        );
        lines.insert(
            ("a.cu".to_string(), 11),
            TruthLine {
                divergent_branches: 0.0,
                l2_excess: 8.0,
            },
        );
        lines.insert(("a.cu".to_string(), 12), TruthLine::default());
        App {
            name: "a".into(),
            modules: vec![],
            lines,
            launches: BTreeMap::new(),
            ran: ["_Z1kv".to_string()].into(),
            host_sources: Vec::new(),
        }
    }

    fn run(findings: Vec<Finding>) -> Run {
        Run {
            app: "a".into(),
            module: "a.ptx".into(),
            ptx_lines: 0,
            secs: 0.0,
            status: Status::Ok,
            findings,
        }
    }

    fn f(rule: &str, line: u32, definite: bool) -> Finding {
        Finding {
            rule: rule.into(),
            definite,
            file: "a.cu".into(),
            line,
            boundary: false,
            entry: None,
            ptx_line: 0,
            in_function: false,
            call_sites: vec![],
            caveat: false,
            message: String::new(),
        }
    }

    #[test]
    fn findings_of_kernels_never_launched_are_not_scored() {
        let ptx = ".visible .entry _Z1kv(\n)\n{\nret;\n}\n.func (.param .b32 r) f(\n)\n{\nret;\n}\n.entry _Z1jv()\n{\nret;\n}\n";
        let spans = entry_spans(ptx);
        assert_eq!(
            spans,
            vec![
                (1, Some("_Z1kv".to_string())),
                (6, None),
                (11, Some("_Z1jv".to_string()))
            ]
        );
        // Line 12 ran without excess: reported by the launched kernel it is a false alarm,
        // by another template instance the program never launched it is not scored.
        let other = Finding {
            entry: Some("_Z1jv".into()),
            ..f("misaligned-access", 12, true)
        };
        let m = score_app(&app(), &[&run(vec![other.clone()])], Measure::Memory);
        assert_eq!((m.fp, m.definite_fp, m.unscored, m.fn_), (0, 0, 1, 1));
        let ran = Finding {
            entry: Some("_Z1kv".into()),
            ..other
        };
        let m = score_app(&app(), &[&run(vec![ran])], Measure::Memory);
        assert_eq!((m.fp, m.definite_fp, m.unscored), (1, 1, 0));
    }

    #[test]
    fn tallies_right_wrong_and_unscored_lines() {
        let r = run(vec![
            f("divergent-branch", 10, true),
            f("divergent-branch", 12, false),
            f("divergent-branch", 99, true),
            f("misaligned-access", 11, false),
            f("uncoalesced-access", 11, true),
        ]);
        let d = score_app(&app(), &[&r], Measure::Divergence);
        assert_eq!((d.tp, d.fp, d.fn_, d.unscored), (1, 1, 0, 1));
        assert_eq!((d.definite_tp, d.definite_fp), (1, 0));
        assert_eq!(d.precision(), Some(0.5));
        let m = score_app(&app(), &[&r], Measure::Memory);
        assert_eq!((m.tp, m.fp, m.fn_, m.definite_tp), (1, 0, 0, 1));
        let none = score_app(&app(), &[&run(vec![])], Measure::Memory);
        assert_eq!((none.tp, none.fn_), (0, 1));
        assert_eq!(none.recall(), Some(0.0));
        assert_eq!(none.precision(), None);
    }

    #[test]
    fn boundary_notes_are_tallied_apart() {
        let note = |line| Finding {
            boundary: true,
            ..f("divergent-branch", line, false)
        };
        // A true line with only a boundary note is a miss; a false one is no false alarm;
        // a line with a finding besides its note is scored as usual.
        let r = run(vec![
            note(10),
            note(12),
            note(11),
            f("divergent-branch", 11, false),
        ]);
        let d = score_app(&app(), &[&r], Measure::Divergence);
        assert_eq!((d.tp, d.fp, d.fn_), (0, 1, 1));
        assert_eq!((d.boundary, d.boundary_true), (2, 1));
        let j = r#"{"report":{"findings":[{"rule":"divergent-branch","certainty":"possible",
            "kind":"boundary","location":{"cuda":{"file":"x.cu","line":7,"col":1}}}]}}"#;
        assert!(parse_findings(j).unwrap()[0].boundary);
    }

    #[test]
    fn a_true_call_site_of_an_inlined_finding_is_found_not_reported() {
        // The finding's own line (12) ran without divergence; its call site (10) diverged.
        let inl = Finding {
            call_sites: vec![("a.cu".into(), 10)],
            ..f("divergent-branch", 12, false)
        };
        let d = score_app(&app(), &[&run(vec![inl.clone()])], Measure::Divergence);
        assert_eq!((d.tp, d.fp, d.fn_, d.call_site), (0, 1, 0, 1));
        assert_eq!((d.recall(), d.precision()), (Some(1.0), Some(0.0)));
        // A note names no call site.
        let note = Finding {
            boundary: true,
            ..inl
        };
        let d = score_app(&app(), &[&run(vec![note])], Measure::Divergence);
        assert_eq!((d.call_site, d.fn_), (0, 1));
        let j = r#"{"report":{"findings":[{"rule":"divergent-branch","certainty":"possible",
            "location":{"cuda":{"file":"x.cu","line":7,"col":1},
                        "inlined_at":[{"file":"x.cu","line":20,"col":5}]},
            "related":[{"cuda":{"file":"x.cu","line":7,"col":1},
                        "inlined_at":[{"file":"x.cu","line":30,"col":5}]},
                       {"cuda":{"file":"x.cu","line":7,"col":1},
                        "inlined_at":[{"file":"x.cu","line":20,"col":5}]}]}]}}"#;
        let v = parse_findings(j).unwrap();
        assert_eq!(
            v[0].call_sites,
            vec![("x.cu".to_string(), 20), ("x.cu".to_string(), 30)]
        );
    }

    #[test]
    fn lines_that_executed_nothing_did_not_run() {
        let t = "kernel\tfile\tline\tlaunches\tinst\tthread_inst\tpred_on_thread_inst\tdivergent_branches\tl2_sectors\tl2_ideal\tl2_excess\n\
                 _Z1kv\ta.cu\t10\t2\t64\t2048\t2048\t3\t0\t0\t0\n\
                 _Z1kv\ta.cu\t11\t2\t0\t0\t0\t0\t0\t0\t0\n\
                 _Z1jv\ta.cu\t11\t2\t8\t256\t256\t0\t4\t4\t0\n\
                 _Z1jv\ta.cu\t12\t2\t0\t0\t0\t0\t0\t0\t0\n\
                 _Z1jv\ta.cu\t13\t1\t0\t40\t320\t5\t0\t0\t0\n";
        let (lines, ran) = truth_lines(t).unwrap();
        let keys: Vec<u32> = lines.keys().map(|k| k.1).collect();
        // Line 11 ran in one kernel; line 12 in none; line 13's warp-instruction count is 0
        // in the export but its threads ran and it branched.
        assert_eq!(keys, vec![10, 11, 13]);
        assert_eq!(lines[&("a.cu".to_string(), 10)].divergent_branches, 3.0);
        assert_eq!(ran.len(), 2);
        assert!(truth_lines("kernel\tfile\n").is_err());
    }

    #[test]
    fn parses_the_json_report() {
        let j = r#"{"report":{"findings":[{"rule":"divergent-branch","certainty":"definite",
            "location":{"cuda":{"file":"x.cu","line":7,"col":1}}},
            {"rule":"bank-conflict","certainty":"possible","location":{"ptx":{}}}]}}"#;
        let v = parse_findings(j).unwrap();
        assert_eq!(v.len(), 1);
        assert!(v[0].definite && v[0].line == 7 && v[0].file == "x.cu");
        assert!(parse_findings("{}").is_err());
        // Header code placed at its call: judged at its own line, the call a call site.
        let j = r#"{"report":{"findings":[{"rule":"divergent-branch","certainty":"possible",
            "location":{"cuda":{"file":"x.cu","line":7,"col":1},
                        "origin":{"file":"<cuda>/include/h.h","line":70,"col":1}}}]}}"#;
        let v = parse_findings(j).unwrap();
        assert_eq!((v[0].file.as_str(), v[0].line), ("<cuda>/include/h.h", 70));
        assert!(v[0].call_sites.contains(&("x.cu".to_string(), 7)));
    }

    #[test]
    fn floors_fail_below_and_pass_at_the_floor() {
        let mut s = Scores::default();
        s.total.insert(
            Measure::Memory,
            Tally {
                tp: 9,
                fn_: 1,
                ..Tally::default()
            },
        );
        let fl =
            parse_floors("defaults\tmemory\trecall\t0.9\n# c\ndefaults\tmemory\trecall\t0.95\n")
                .unwrap();
        let bad = check_floors(&s, "defaults", &fl);
        assert_eq!(bad.len(), 1, "{bad:?}");
        assert!(bad[0].contains("0.950"));
        assert!(parse_floors("x\ty\n").is_err());
    }
}
