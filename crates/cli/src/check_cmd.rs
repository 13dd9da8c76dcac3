//! `warpscope check`: static analysis of divergence, coalescing, alignment and bank conflicts.
//!
//! Geometry comes from `--block`/`--grid` (for every kernel, or `KERNEL=X,Y,Z` for one), a
//! `warpscope.toml` (`--config`, else one in the current directory), `.reqntid`/`.maxntid`,
//! or GPUCheck's default of 256x1x1; the output says which. `--deny RULE` makes the exit code
//! 1 when a finding of that rule remains after `// warpscope: allow(RULE)` suppressions.

use crate::load::{CompileArgs, load_or_report};
use clap::Args;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use warpscope_analysis::{
    CheckOptions, Engine, GeometrySource, HostLaunch, Input, KernelGeometry, check, parse_dim3,
};
use warpscope_frontend::launch_sites_with;
use warpscope_report::{Report, Rule, text};

/// Arguments of `warpscope check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// .ptx files, or .cu files (compiled with nvcc first).
    #[arg(required = true, value_name = "FILE")]
    pub inputs: Vec<PathBuf>,
    /// Analysis engine: `acf` (GPUCheck-style, per-lane, the default) or `drano` (GPUDrano).
    #[arg(long, default_value = "acf")]
    pub engine: String,
    /// Only check these kernels (CUDA or PTX names; repeatable).
    #[arg(long, value_name = "NAME")]
    pub kernel: Vec<String>,
    /// Threads per block: `X[,Y[,Z]]` for every kernel, or `KERNEL=X,Y,Z` (repeatable).
    #[arg(long, value_name = "[KERNEL=]X,Y,Z")]
    pub block: Vec<String>,
    /// Blocks per grid: `X[,Y[,Z]]` or `KERNEL=X,Y,Z` (repeatable).
    #[arg(long, value_name = "[KERNEL=]X,Y,Z")]
    pub grid: Vec<String>,
    /// A parameter fact: `n=1000`, `n=0..4096`, `ptr:align=16`, or `KERNEL.n=1000`.
    #[arg(long, value_name = "NAME=VALUE")]
    pub assume: Vec<String>,
    /// Configuration file (default: ./warpscope.toml when present).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Output format: text, json, sarif or html (a self-contained page; see docs/report.md).
    #[arg(long, default_value = "text")]
    pub format: String,
    /// Write the output here instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Exit with status 1 when findings of this rule remain (repeatable; `all` for any).
    #[arg(long, value_name = "RULE")]
    pub deny: Vec<String>,
    /// Show the PTX instruction of each finding.
    #[arg(long)]
    pub show_ptx: bool,
    /// Host code to read kernel launches from (`kernel<<<grid, block>>>(args...)`): the block
    /// and grid, and integer arguments every launch passes as a compile-time constant
    /// (repeatable). The CUDA sources the PTX names are always read when found.
    #[arg(long, value_name = "FILE")]
    pub host_source: Vec<PathBuf>,
    /// Read no host code: no geometry or parameter values from launch sites.
    #[arg(long, conflicts_with = "host_source")]
    pub no_host_source: bool,
    /// Print the geometry and assumptions used for each kernel.
    #[arg(long, short)]
    pub verbose: bool,
    /// Also list boundary checks against unknown bounds and branches compiled without a
    /// divergent branch (predicated exits, if-converted bodies) in the text report, and let
    /// `--deny` count them.
    #[arg(long)]
    pub boundary: bool,
    /// Read how ptxas lowers each branch from the SASS it compiles the module to (for sm_90,
    /// with ptxas, whose cubin is read directly): `auto` when ptxas is found (the default; `$WARPSCOPE_SASS`
    /// sets it too), `on` to require them, `off` to go by the PTX alone.
    #[arg(long, value_name = "auto|on|off")]
    pub sass: Option<String>,
    /// Run this launch spec on the emulator and mark each finding confirmed, refuted or not
    /// executed by the run; also list what the run found that static analysis missed.
    #[arg(long, value_name = "SPEC")]
    pub confirm: Option<PathBuf>,
    #[command(flatten)]
    pub compile: CompileArgs,
}

impl CheckArgs {
    /// The arguments that check one module with every default (for `warpscope report`).
    pub fn for_module(input: PathBuf, compile: CompileArgs) -> CheckArgs {
        CheckArgs {
            inputs: vec![input],
            engine: "acf".into(),
            kernel: Vec::new(),
            block: Vec::new(),
            grid: Vec::new(),
            assume: Vec::new(),
            config: None,
            host_source: Vec::new(),
            no_host_source: false,
            format: "text".into(),
            output: None,
            deny: Vec::new(),
            show_ptx: false,
            verbose: false,
            boundary: false,
            sass: None,
            confirm: None,
            compile,
        }
    }
}

/// Settings read from `warpscope.toml` (`[check]` table).
#[derive(Debug, Default)]
struct Config {
    engine: Option<String>,
    block: Option<[u32; 3]>,
    grid: Option<[u32; 3]>,
    assume: Vec<String>,
    deny: Vec<String>,
    boundary: bool,
    kernels: BTreeMap<String, KernelConfig>,
}

/// A kernel's own block, grid and assumptions in the config file.
type KernelConfig = (Option<[u32; 3]>, Option<[u32; 3]>, Vec<String>);

fn dim3_of(v: &toml::Value) -> Result<[u32; 3], String> {
    match v {
        toml::Value::String(s) => parse_dim3(s),
        toml::Value::Array(a) => {
            let mut out = [1u32; 3];
            if a.is_empty() || a.len() > 3 {
                return Err("expected 1 to 3 dimensions".into());
            }
            for (i, x) in a.iter().enumerate() {
                let n = x
                    .as_integer()
                    .filter(|n| *n > 0)
                    .ok_or("dimensions must be positive integers")?;
                out[i] = n as u32;
            }
            Ok(out)
        }
        toml::Value::Integer(n) if *n > 0 => Ok([*n as u32, 1, 1]),
        _ => Err("expected \"X,Y,Z\" or [X, Y, Z]".into()),
    }
}

fn strings_of(v: &toml::Value) -> Result<Vec<String>, String> {
    match v {
        toml::Value::String(s) => Ok(vec![s.clone()]),
        toml::Value::Array(a) => a
            .iter()
            .map(|x| {
                x.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| "expected strings".to_string())
            })
            .collect(),
        // `assume = { n = 1000 }`
        toml::Value::Table(t) => Ok(t
            .iter()
            .map(|(k, v)| match v {
                toml::Value::String(s) => format!("{k}={s}"),
                other => format!("{k}={other}"),
            })
            .collect()),
        _ => Err("expected a string, an array of strings or a table".into()),
    }
}

fn read_config(path: &Path) -> Result<Config, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let value: toml::Table = text
        .parse()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut c = Config::default();
    let Some(check) = value.get("check").and_then(|v| v.as_table()) else {
        return Ok(c);
    };
    let err = |k: &str, e: String| format!("{}: [check] {k}: {e}", path.display());
    for (k, v) in check {
        match k.as_str() {
            "engine" => c.engine = v.as_str().map(str::to_string),
            "block" => c.block = Some(dim3_of(v).map_err(|e| err(k, e))?),
            "grid" => c.grid = Some(dim3_of(v).map_err(|e| err(k, e))?),
            "assume" => c.assume = strings_of(v).map_err(|e| err(k, e))?,
            "deny" => c.deny = strings_of(v).map_err(|e| err(k, e))?,
            "boundary" => c.boundary = v.as_bool().unwrap_or(false),
            "kernels" => {
                let t = v
                    .as_table()
                    .ok_or_else(|| err(k, "expected a table".into()))?;
                for (name, kv) in t {
                    let kt = kv
                        .as_table()
                        .ok_or_else(|| err(name, "expected a table".into()))?;
                    let block = kt
                        .get("block")
                        .map(dim3_of)
                        .transpose()
                        .map_err(|e| err(name, e))?;
                    let grid = kt
                        .get("grid")
                        .map(dim3_of)
                        .transpose()
                        .map_err(|e| err(name, e))?;
                    let assume = kt
                        .get("assume")
                        .map(strings_of)
                        .transpose()
                        .map_err(|e| err(name, e))?
                        .unwrap_or_default();
                    c.kernels.insert(name.clone(), (block, grid, assume));
                }
            }
            other => return Err(err(other, "unknown key".into())),
        }
    }
    Ok(c)
}

/// Splits `KERNEL=X,Y,Z` from `X,Y,Z`.
fn scoped(v: &str) -> (Option<&str>, &str) {
    match v.split_once('=') {
        Some((k, d)) => (Some(k.trim()), d.trim()),
        None => (None, v.trim()),
    }
}

/// What `options` resolves: the analysis options, the denied rules, whether all are denied,
/// and whether boundary checks are listed in the text output.
type Resolved = (CheckOptions, Vec<Rule>, bool, bool);

fn options(args: &CheckArgs) -> Result<Resolved, String> {
    let config_path = args.config.clone().or_else(|| {
        let p = PathBuf::from("warpscope.toml");
        p.is_file().then_some(p)
    });
    let config = match &config_path {
        Some(p) => read_config(p)?,
        None => Config::default(),
    };
    let engine_name = if args.engine != "acf" {
        args.engine.clone()
    } else {
        config.engine.clone().unwrap_or_else(|| args.engine.clone())
    };
    let engine = Engine::parse(&engine_name)
        .ok_or_else(|| format!("unknown engine `{engine_name}` (expected acf or drano)"))?;
    let mut opts = CheckOptions {
        engine,
        kernels: args.kernel.clone(),
        ..CheckOptions::default()
    };
    // Config first, flags over it.
    if config.block.is_some() || config.grid.is_some() {
        opts.geometry = Some(KernelGeometry {
            block: config.block,
            grid: config.grid,
            source: GeometrySource::Config,
        });
    }
    for (name, (block, grid, assume)) in &config.kernels {
        opts.kernel_geometry.insert(
            name.clone(),
            KernelGeometry {
                block: *block,
                grid: *grid,
                source: GeometrySource::Config,
            },
        );
        let a = opts.kernel_assumptions.entry(name.clone()).or_default();
        for item in assume {
            a.add(item)?;
        }
    }
    for item in &config.assume {
        opts.assumptions.add(item)?;
    }
    let mut set = |values: &[String], is_block: bool| -> Result<(), String> {
        for v in values {
            let (kernel, dims) = scoped(v);
            let d = parse_dim3(dims)?;
            let target = match kernel {
                Some(k) => opts
                    .kernel_geometry
                    .entry(k.to_string())
                    .or_insert(KernelGeometry {
                        block: None,
                        grid: None,
                        source: GeometrySource::Flags,
                    }),
                None => opts.geometry.get_or_insert(KernelGeometry {
                    block: None,
                    grid: None,
                    source: GeometrySource::Flags,
                }),
            };
            target.source = GeometrySource::Flags;
            if is_block {
                target.block = Some(d);
            } else {
                target.grid = Some(d);
            }
        }
        Ok(())
    };
    set(&args.block, true)?;
    set(&args.grid, false)?;
    // `--kernel NAME` with plain `--block` scopes the geometry to that kernel.
    for item in &args.assume {
        // KERNEL.NAME=VALUE scopes an assumption.
        let (lhs, _) = item.split_once('=').unwrap_or((item, ""));
        match lhs.split_once('.') {
            Some((k, _)) if !k.is_empty() && !lhs.contains(':') => {
                let rest = &item[k.len() + 1..];
                opts.kernel_assumptions
                    .entry(k.to_string())
                    .or_default()
                    .add(rest)?;
            }
            _ => opts.assumptions.add(item)?,
        }
    }
    let mut deny = Vec::new();
    let mut deny_all = false;
    for d in args.deny.iter().chain(config.deny.iter()) {
        if d == "all" {
            deny_all = true;
        } else {
            deny.push(Rule::from_id(d).ok_or_else(|| {
                format!(
                    "unknown rule `{d}` (expected one of: {}, all)",
                    Rule::ALL.map(|r| r.id()).join(", ")
                )
            })?);
        }
    }
    Ok((opts, deny, deny_all, args.boundary || config.boundary))
}

/// What the static analysis of the inputs produced.
pub struct Analysed {
    pub report: Report,
    /// The CUDA sources the inputs name, by `.file` name.
    pub sources: text::Sources,
    /// The modules that loaded (for control-flow graphs and PTX lines).
    pub modules: Vec<warpscope_frontend::LoadedModule>,
    /// Findings silenced by `// warpscope: allow(...)`.
    pub suppressed: usize,
    /// Some input could not be loaded or analysed (reported on stderr).
    pub failed: bool,
    /// How branches' lowering was read: the tools whose SASS was used, and the modules whose
    /// SASS could not be had, with the reason.
    pub sass_used: Option<String>,
    pub sass_failed: Vec<String>,
}

/// Loads and checks every input of `args` with `opts`.
pub fn analyse(args: &CheckArgs, opts: &CheckOptions) -> Analysed {
    let mut all = Report::default();
    let mut sources = text::Sources::new();
    let mut failed = false;
    let mut host_sources = Vec::new();
    for p in &args.host_source {
        match warpscope_frontend::source_map::read_text(p) {
            Ok(t) => host_sources.push((p.display().to_string(), p.clone(), t)),
            Err(e) => {
                eprintln!("error: --host-source {}: {e}", p.display());
                failed = true;
            }
        }
    }
    let host_sources = &host_sources;
    let sass = match crate::sass::SassMode::resolve(args.sass.as_deref())
        .and_then(|m| Ok(crate::sass::tools(m)?.map(|s| (s, m))))
    {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return Analysed {
                report: all,
                sources,
                modules: Vec::new(),
                suppressed: 0,
                failed: true,
                sass_used: None,
                sass_failed: Vec::new(),
            };
        }
    };
    let mut sass_used = None;
    let mut sass_failed = Vec::new();
    let mut suppressed = 0usize;
    let mut loaded_modules = Vec::new();
    let trace = std::env::var_os("WARPSCOPE_TRACE").is_some();
    for path in &args.inputs {
        let t_load = std::time::Instant::now();
        let Some(loaded) = load_or_report(path, &args.compile) else {
            failed = true;
            continue;
        };
        let sm = &loaded.source_map;
        for (i, name) in &loaded.module.files {
            if let Some(t) = sm.file(*i).and_then(|f| f.text()) {
                sources.insert(name.clone(), t.to_string());
            }
        }
        let source = |i: u32| sm.file(i).and_then(|f| f.text()).map(str::to_string);
        let mut opts = opts.clone();
        if !args.no_host_source {
            opts.add_launches(host_launches(&loaded.module, sm, host_sources));
        }
        if let Some(sass) = sass {
            opts.sass = Some(crate::sass::start(
                sass.0,
                loaded.source.text.clone(),
                sass.1,
            ));
        }
        let opts = &opts;
        let load_time = t_load.elapsed();
        let input = Input {
            module: &loaded.module,
            ptx_name: &loaded.source.display_name,
            ptx_text: &loaded.source.text,
            source: &source,
        };
        // On this thread: the analysis's recursive walks continue on fresh stack segments
        // when the stack runs low (`warpscope_analysis`'s `stack` module; its tests run a
        // dependence chain as long as the input on a 1 MiB stack), and a thread of its own
        // cost a small module about a tenth of its time (its allocator pages start fresh).
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&input, opts)));
        let result = match result {
            Ok(r) => r,
            Err(_) => {
                eprintln!("error: the analysis of {} panicked", path.display());
                failed = true;
                continue;
            }
        };
        if trace {
            let t = &result.timings;
            eprintln!(
                "[trace] {}: load {:?}, structure {:?}, uniformity {:?}, acf {:?}, evaluation {:?}, findings {:?}",
                path.display(),
                load_time,
                t.structure,
                t.uniformity,
                t.acf,
                t.evaluation,
                t.findings
            );
        }
        suppressed += result.suppressed;
        let mut kernels = result.report.kernels;
        if let Some(h) = &opts.sass {
            let note = match h.wait() {
                Ok(t) => {
                    sass_used = Some(t.produced_by.clone());
                    format!("branch lowering: read from the SASS of {}", t.produced_by)
                }
                Err(e) => {
                    sass_failed.push(format!("{}: {e}", path.display()));
                    format!("branch lowering: expected from the PTX (no SASS: {e})")
                }
            };
            for k in &mut kernels {
                k.notes.push(note.clone());
            }
        }
        all.inputs.extend(result.report.inputs);
        all.kernels.extend(kernels);
        all.findings.extend(result.report.findings);
        loaded_modules.push(loaded);
    }
    Analysed {
        report: all,
        sources,
        modules: loaded_modules,
        suppressed,
        failed,
        sass_used,
        sass_failed,
    }
}

/// Runs `warpscope check`.
pub fn run(args: CheckArgs) -> ExitCode {
    let (opts, deny, deny_all, report_boundary) = match options(&args) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let format = args.format.as_str();
    if !matches!(format, "text" | "json" | "sarif" | "html") {
        eprintln!("error: unknown format `{format}` (expected text, json, sarif or html)");
        return ExitCode::from(2);
    }
    let Analysed {
        report: mut all,
        sources,
        modules,
        suppressed,
        failed,
        sass_used,
        sass_failed,
    } = analyse(&args, &opts);
    if failed && all.findings.is_empty() {
        return ExitCode::from(2);
    }
    let mut missed = Vec::new();
    let mut confirm_note = String::new();
    if let Some(spec_path) = &args.confirm {
        match confirm_with_run(spec_path, &args, &all.findings) {
            Ok((c, note)) => {
                all.findings = c.findings;
                missed = c.missed;
                confirm_note = note;
            }
            Err(e) => {
                eprintln!("error: --confirm {}: {e}", spec_path.display());
                return ExitCode::from(2);
            }
        }
    }
    if format != "text" {
        // The run's own findings that no static one covers travel with the report; they
        // are marked as coming from the run.
        all.findings.extend(missed.iter().cloned());
    }
    let out = match format {
        "json" => warpscope_report::json::render(&all),
        "sarif" => warpscope_report::sarif::render(&all),
        "html" => html_page(&args, &all, &sources, &modules, &confirm_note),
        _ => {
            let opts = text::TextOptions {
                show_ptx: args.show_ptx,
                show_kernels: args.verbose,
            };
            // Boundary checks are counted, not listed, unless `--boundary` asks for them.
            let mut shown = all.clone();
            let mut boundary = 0usize;
            let mut lowered = 0usize;
            if !report_boundary {
                boundary = all.findings.iter().filter(|f| f.is_boundary()).count();
                shown.findings.retain(|f| !f.is_tallied());
                lowered = all.findings.len() - shown.findings.len() - boundary;
            }
            let mut s = text::render(&shown, &sources, &opts);
            if boundary > 0 {
                s.push_str(&format!(
                    "{boundary} boundary check(s) diverge in at most one warp; `--boundary` lists them\n"
                ));
            }
            if lowered > 0 {
                s.push_str(&format!(
                    "{lowered} branch(es) split lanes but compile to a predicated exit or predicated code, not a divergent branch; `--boundary` lists them\n"
                ));
            }
            // Kernels whose evaluation budget ran out before every site was measured: the
            // report is incomplete there, which the user must see without `--verbose`.
            let mut cut: Vec<&str> = Vec::new();
            for k in all.kernels.iter().filter(|k| {
                k.notes
                    .iter()
                    .any(|n| n.starts_with(warpscope_analysis::UNMEASURED_NOTE))
            }) {
                // Template instances share their name: list it once.
                if !cut.contains(&k.name.as_str()) {
                    cut.push(&k.name);
                }
            }
            if !cut.is_empty() {
                s.push_str(&format!(
                    "sites left unmeasured when the evaluation budget ran out, in {}; `--verbose` says how many, `--kernel NAME` gives one kernel the whole budget\n",
                    cut.join(", ")
                ));
            }
            if args.confirm.is_some() {
                s.push_str(&confirm_summary(&shown.findings, &missed, &confirm_note));
                if !missed.is_empty() {
                    let extra = Report {
                        inputs: Vec::new(),
                        kernels: Vec::new(),
                        findings: missed.clone(),
                    };
                    s.push_str(&text::render(&extra, &sources, &opts));
                }
            }
            if suppressed > 0 {
                s.push_str(&format!(
                    "{suppressed} finding(s) suppressed by allow comments\n"
                ));
            }
            if let Some(by) = &sass_used {
                s.push_str(&format!("branch lowering read from the SASS of {by}\n"));
            }
            for f in &sass_failed {
                s.push_str(&format!(
                    "no SASS for {f}; branch lowering expected from the PTX there\n"
                ));
            }
            s
        }
    };
    if let Err(e) = crate::output::write(&args.output, &out) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    if failed {
        return ExitCode::from(2);
    }
    let denied = all
        .findings
        .iter()
        .filter(|f| report_boundary || !f.is_tallied())
        .any(|f| deny_all || deny.contains(&f.rule));
    if denied {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The `--format html` page of a check: annotated sources with the findings (and their
/// `--confirm` verdicts), per-line static columns, and each kernel's CFG with the branches
/// found divergent marked.
fn html_page(
    args: &CheckArgs,
    all: &Report,
    sources: &text::Sources,
    modules: &[warpscope_frontend::LoadedModule],
    confirm_note: &str,
) -> String {
    use warpscope_report::page::Page;
    let mut page = Page {
        title: format!(
            "warpscope check {}",
            args.inputs
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ),
        ..Page::default()
    };
    for k in &all.kernels {
        page.subtitle.push(format!("{}: {}", k.name, k.geometry));
    }
    if !confirm_note.is_empty() {
        page.subtitle.push(confirm_note.to_string());
    }
    let source = |name: &str| sources.get(name).map(str::to_string);
    crate::html_page::add_static_findings(&mut page, &all.findings, &source);
    for m in modules {
        page.graphs
            .extend(crate::html_page::cfg_graphs_static(m, &all.findings));
    }
    warpscope_report::html::render(&page)
}

/// The launches (`kernel<<<grid, block>>>(args...)`) in the host code behind the module:
/// the CUDA sources its `.file` lines name (the `.cu` given, or those a `.ptx` names, when
/// found), the `.cu` files beside them that include one of them ([`includers`]) and the
/// `--host-source` files, each with the headers it includes with `#include "..."` (looked up
/// beside the including file).
fn host_launches(
    module: &warpscope_ir::Module,
    sm: &warpscope_frontend::SourceMap,
    extra: &[(String, PathBuf, String)],
) -> Vec<HostLaunch> {
    let mut texts: Vec<(String, Option<PathBuf>, String)> = Vec::new();
    for (i, name) in &module.files {
        if warpscope_report::is_system_file(name) {
            continue;
        }
        let Some(f) = sm.file(*i) else { continue };
        let Some(text) = f.text() else { continue };
        texts.push((name.clone(), f.path.clone(), text.to_string()));
    }
    for (name, path, text) in includers(&texts) {
        texts.push((name, Some(path), text));
    }
    for (name, path, text) in extra {
        let same = |p: &Option<PathBuf>| {
            p.as_ref()
                .and_then(|p| p.canonicalize().ok())
                .is_some_and(|p| path.canonicalize().is_ok_and(|q| p == q))
        };
        if !texts.iter().any(|(_, p, _)| same(p)) {
            texts.push((name.clone(), Some(path.clone()), text.clone()));
        }
    }
    let mut out = Vec::new();
    for (name, path, text) in &texts {
        let dir = path
            .as_ref()
            .and_then(|p| p.parent())
            .map(Path::to_path_buf);
        // Headers are looked up beside the file that includes them.
        let include = |inc: &str, from: &str| {
            let base = if from.is_empty() {
                dir.clone()?
            } else {
                Path::new(from).parent()?.to_path_buf()
            };
            let p = base.join(inc);
            let t = warpscope_frontend::source_map::read_text(&p).ok()?;
            Some((p.display().to_string(), t))
        };
        for site in launch_sites_with(text, &include) {
            out.push(HostLaunch {
                kernel: site.kernel,
                file: name.clone(),
                line: site.line,
                grid: site.grid,
                block: site.block,
                args: site.args.into_iter().map(|a| (a.text, a.value)).collect(),
            });
        }
    }
    out
}

/// Most translation units [`includers`] reads per module.
const MAX_INCLUDERS: usize = 16;

/// The `.cu` files beside the module's CUDA sources that `#include "..."` one of them by its
/// file name, not themselves named by the module: when a module's kernels all live in a header,
/// its `.file` lines name only the header, and the translation unit that includes it (and
/// holds the launches) has no line of device code in the PTX.
fn includers(texts: &[(String, Option<PathBuf>, String)]) -> Vec<(String, PathBuf, String)> {
    let mut out: Vec<(String, PathBuf, String)> = Vec::new();
    let canon = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let known: Vec<PathBuf> = texts
        .iter()
        .filter_map(|(_, p, _)| p.as_deref().map(canon))
        .collect();
    let mut dirs: Vec<(PathBuf, PathBuf)> = Vec::new();
    for (name, path, _) in texts {
        let (Some(path), Some(dir_name)) = (path, Path::new(name).parent()) else {
            continue;
        };
        if let Some(dir) = path.parent()
            && !dirs.iter().any(|(d, _)| d == dir)
        {
            dirs.push((dir.to_path_buf(), dir_name.to_path_buf()));
        }
    }
    for (dir, dir_name) in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "cu"))
            .collect();
        files.sort();
        for f in files {
            if out.len() >= MAX_INCLUDERS || known.contains(&canon(&f)) {
                continue;
            }
            let Ok(text) = warpscope_frontend::source_map::read_text(&f) else {
                continue;
            };
            let includes_one = texts.iter().any(|(_, p, _)| {
                p.as_deref()
                    .and_then(Path::file_name)
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| includes(&text, n))
            });
            if includes_one && let Some(file_name) = f.file_name() {
                let name = dir_name.join(file_name).display().to_string();
                out.push((name, f, text));
            }
        }
    }
    out
}

/// Whether `text` has a line `#include "NAME"` (or `"dir/NAME"`).
fn includes(text: &str, name: &str) -> bool {
    warpscope_frontend::launch_sites::includes_of(text)
        .iter()
        .any(|inc| inc == name || inc.ends_with(&format!("/{name}")))
}

/// Runs `spec_path` under the profiler and marks `findings` against it. The note says how
/// places were matched.
fn confirm_with_run(
    spec_path: &Path,
    args: &CheckArgs,
    findings: &[warpscope_report::Finding],
) -> Result<(warpscope_profile::confirm::Confirmation, String), String> {
    use warpscope_profile::{ProfileOptions, confirm, load_spec, profile_spec};
    let spec = load_spec(spec_path).map_err(|e| e.to_string())?;
    let mut opts = ProfileOptions::default();
    opts.run.compile = args.compile.options();
    let scratch = std::env::temp_dir().join(format!("warpscope-confirm-{}", std::process::id()));
    opts.run.save_dir = Some(scratch.clone());
    let run = profile_spec(&spec, &opts);
    let _ = std::fs::remove_dir_all(&scratch);
    let run = run.map_err(|e| e.to_string())?;
    // PTX lines only mean the same thing when the spec runs the very file that was checked.
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    };
    let same_ptx = args.inputs.len() == 1 && same(&args.inputs[0], &spec.module);
    let c = if same_ptx {
        confirm::confirm(findings, &run.profile)
    } else {
        confirm::confirm_by_cuda_line(findings, &run.profile)
    };
    let how = if same_ptx {
        "matched by PTX line"
    } else {
        "matched by CUDA line (the spec runs other PTX than the checked file)"
    };
    let note = format!(
        "run: {} ({} launches, {} warp instructions); {how}",
        spec_path.display(),
        run.report.launches.len(),
        run.profile
            .kernels
            .iter()
            .map(|k| k.totals.instructions)
            .sum::<u64>(),
    );
    Ok((c, note))
}

/// The `--confirm` tally, for text output.
fn confirm_summary(
    findings: &[warpscope_report::Finding],
    missed: &[warpscope_report::Finding],
    note: &str,
) -> String {
    use warpscope_report::Verdict;
    let n = |v: Verdict| findings.iter().filter(|f| f.verdict == Some(v)).count();
    let mut s = format!(
        "\nconfirm: {} confirmed, {} refuted, {} not executed by the run; {} found by the run \
         only{}\n  {note}\n",
        n(Verdict::Confirmed),
        n(Verdict::Refuted),
        n(Verdict::NotExecuted),
        missed.len(),
        if missed.is_empty() { "" } else { ":" }
    );
    if !missed.is_empty() {
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_file_parses() {
        let dir = std::env::temp_dir().join(format!("ws-check-cfg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("warpscope.toml");
        std::fs::write(
            &p,
            "[check]\nblock = [16, 16]\ndeny = [\"bank-conflict\"]\nassume = { n = 1000 }\n[check.kernels.k]\ngrid = \"4,1,1\"\nassume = [\"w=7\"]\n",
        )
        .unwrap();
        let c = read_config(&p).unwrap();
        assert_eq!(c.block, Some([16, 16, 1]));
        assert_eq!(c.deny, vec!["bank-conflict"]);
        assert_eq!(c.assume, vec!["n=1000"]);
        assert_eq!(c.kernels["k"].1, Some([4, 1, 1]));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn scoped_values() {
        assert_eq!(scoped("k=1,2,3"), (Some("k"), "1,2,3"));
        assert_eq!(scoped("8,32"), (None, "8,32"));
    }
}
