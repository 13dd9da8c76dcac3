//! `warpscope cache SPEC`: GRAB's cache-interference debugger. Runs a launch spec on the
//! emulator through an L1/L2 cache model, classifies every L1 load miss (`mh`, `m*h`, `mm`),
//! finds each miss's root cause by following eviction chains and says what to change; sweeps
//! L1 sizes, associativities, line sizes and warp schedulers.

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use warpscope_cache::config::{
    ConfigError, parse_capacity, parse_count, parse_l1_list, parse_line, parse_list,
    parse_scheduler, parse_size, parse_ways_list,
};
use warpscope_cache::{Settings, analyze_spec, findings, render};
use warpscope_emu::{LaunchSpec, RunOptions};
use warpscope_report::page::Page;
use warpscope_report::{json, sarif, text};

use crate::load::CompileArgs;
use crate::output::write as write_out;

#[derive(Args, Debug)]
pub struct CacheArgs {
    /// Launch spec (TOML) naming the module, its buffers and its launches; its `[cache]`
    /// table may set any of the options below (the command line wins).
    #[arg(value_name = "SPEC")]
    pub spec: PathBuf,
    /// L1 size per SM, or a comma-separated sweep (e.g. 16K,32K,64K,128K,256K); `auto` is
    /// 256 KiB minus the shared-memory carve-out of each launch (the default).
    #[arg(long, value_name = "SIZE[,SIZE…]")]
    pub l1: Option<String>,
    /// L1 ways per set, or a sweep (e.g. 1,2,4,8); `auto` makes 4 sets (the default).
    #[arg(long, value_name = "N[,N…]")]
    pub l1_assoc: Option<String>,
    /// Line size in bytes (32 to 256, a power of two; sectors stay 32 B), or a sweep.
    #[arg(long, value_name = "BYTES[,BYTES…]")]
    pub line_size: Option<String>,
    /// Warp scheduler(s): lrr, gto, tl (two-level); a list runs each.
    #[arg(long, value_name = "lrr|gto|tl[,…]")]
    pub scheduler: Option<String>,
    /// L2 size (default 50M, an H100 SXM's).
    #[arg(long, value_name = "SIZE")]
    pub l2: Option<String>,
    /// L2 ways per set (default 16).
    #[arg(long, value_name = "N")]
    pub l2_assoc: Option<String>,
    /// When a miss counts as `miss*` (capacity): when the whole L1 is full (`cache`, the
    /// paper's rule) or when the accessed set is (`set`).
    #[arg(long, value_name = "cache|set")]
    pub capacity: Option<String>,
    /// Cycles a warp waits after a global load before it may issue again (default 300; 0
    /// lets a warp run until a barrier).
    #[arg(long, value_name = "CYCLES")]
    pub memory_latency: Option<u32>,
    /// Output format: text, json, sarif, csv or html (a self-contained page; see
    /// docs/report.md).
    #[arg(long, default_value = "text")]
    pub format: String,
    /// Print only the sweep table (per configuration and kernel: hits and misses by fault
    /// type), in the chosen format (text, json or csv).
    #[arg(long)]
    pub table: bool,
    /// Root causes and effects shown per fault type in text output (rows per ranked table in
    /// html).
    #[arg(long, default_value_t = 5, value_name = "N")]
    pub top: usize,
    /// Write the output here instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Number of SMs to model (default 132, an H100 SXM).
    #[arg(long, value_name = "N")]
    pub sms: Option<u32>,
    #[command(flatten)]
    pub schedule: crate::schedule::ScheduleArgs,
    #[command(flatten)]
    pub compile: CompileArgs,
}

/// Applies the command-line options over the spec's.
fn apply_flags(args: &CacheArgs, s: &mut Settings) -> Result<(), ConfigError> {
    let flag = |name: &str, r: Result<(), String>| r.map_err(|m| ConfigError::new(name, m));
    if let Some(v) = &args.l1 {
        flag("--l1", parse_l1_list(v).map(|x| s.l1 = x))?;
    }
    if let Some(v) = &args.l1_assoc {
        flag("--l1-assoc", parse_ways_list(v).map(|x| s.l1_ways = x))?;
    }
    if let Some(v) = &args.line_size {
        flag("--line-size", parse_list(v, parse_line).map(|x| s.line = x))?;
    }
    if let Some(v) = &args.scheduler {
        flag(
            "--scheduler",
            parse_list(v, parse_scheduler).map(|x| s.schedulers = x),
        )?;
    }
    if let Some(v) = &args.l2 {
        flag("--l2", parse_size(v).map(|x| s.l2_bytes = x))?;
    }
    if let Some(v) = &args.l2_assoc {
        flag("--l2-assoc", parse_count(v).map(|x| s.l2_ways = x))?;
    }
    if let Some(v) = &args.capacity {
        flag("--capacity", parse_capacity(v).map(|x| s.capacity = x))?;
    }
    if let Some(n) = args.memory_latency {
        s.memory_latency = n;
    }
    let names = |k: &str| {
        match k {
            "l1" => "--l1",
            "l1_assoc" => "--l1-assoc",
            "line" => "--line-size",
            "l2" => "--l2 / --l2-assoc",
            _ => "--scheduler",
        }
        .to_string()
    };
    s.validate(&names)
}

pub fn run(args: CacheArgs) -> ExitCode {
    let format = args.format.as_str();
    if !matches!(format, "text" | "json" | "sarif" | "csv" | "html") {
        eprintln!("error: unknown format `{format}` (expected text, json, sarif, csv or html)");
        return ExitCode::from(2);
    }
    if args.table && matches!(format, "sarif" | "html") {
        eprintln!("error: --table prints text, json or csv, not {format}");
        return ExitCode::from(2);
    }
    let spec = match LaunchSpec::load(&args.spec) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut settings = Settings::default();
    if let Err(e) = settings.apply_spec(&spec) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    if let Err(e) = apply_flags(&args, &mut settings) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let scratch = std::env::temp_dir().join(format!("warpscope-cache-{}", std::process::id()));
    let mut opts = RunOptions {
        compile: args.compile.options(),
        save_dir: Some(scratch.clone()),
        ..RunOptions::default()
    };
    opts.exec.schedule = args.schedule.schedule();
    opts.exec.threads = args.schedule.threads;
    if let Some(n) = args.sms {
        settings.sms = Some(n.max(1));
    }
    let run = analyze_spec(&spec, &settings, &opts);
    let _ = std::fs::remove_dir_all(&scratch);
    let run = match run {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let r = &run.report;
    let out = if args.table {
        match format {
            "json" => render::table_json(r),
            "csv" => render::table_csv(r),
            _ => render::table_text(r),
        }
    } else {
        match format {
            "json" => {
                let mut v = serde_json::to_value(r).unwrap_or_default();
                if let Some(o) = v.as_object_mut() {
                    o.insert(
                        "table".into(),
                        serde_json::to_value(render::table_rows(r)).unwrap_or_default(),
                    );
                    o.insert(
                        "findings".into(),
                        serde_json::from_str(&json::render(&findings::report(r)))
                            .unwrap_or_default(),
                    );
                }
                serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
            }
            "sarif" => sarif::render(&findings::report(r)),
            "html" => {
                let texts = crate::html_page::source_texts(&run.module, &run.sources);
                let mut page = Page {
                    title: format!("warpscope cache {}", args.spec.display()),
                    subtitle: vec![format!(
                        "module {}; {} configuration{}, {} emulator run{}",
                        r.module,
                        r.configs.len(),
                        if r.configs.len() == 1 { "" } else { "s" },
                        run.runs,
                        if run.runs == 1 { "" } else { "s" }
                    )],
                    ..Page::default()
                };
                let source = |name: &str| texts.get(name).cloned();
                crate::cache_page::fill(&mut page, r, &source, args.top);
                page.findings = findings::report(r).findings;
                warpscope_report::html::render(&page)
            }
            "csv" => render::csv(r),
            _ => {
                let mut s = render::text(r, args.top);
                let rep = findings::report(r);
                let mut sources = text::Sources::new();
                for (i, name) in &run.module.files {
                    if let Some(t) = run.sources.file(*i).and_then(|f| f.text()) {
                        sources.insert(name.clone(), t.to_string());
                    }
                }
                let top: Vec<_> = {
                    let mut f = rep.findings.clone();
                    f.sort_by(|a, b| {
                        let m = |x: &warpscope_report::Finding| {
                            x.measures.get("misses_caused").map_or(0.0, |m| m.max)
                        };
                        m(b).total_cmp(&m(a))
                    });
                    f.truncate(args.top.min(3));
                    f
                };
                if !top.is_empty() {
                    s.push_str("\ntop root causes:\n\n");
                    let shown = warpscope_report::Report {
                        findings: top,
                        ..rep.clone()
                    };
                    s.push_str(&text::render(
                        &shown,
                        &sources,
                        &text::TextOptions {
                            show_ptx: false,
                            show_kernels: false,
                        },
                    ));
                }
                s.push_str(&format!(
                    "\n{} finding(s); --format sarif|json exports them\n",
                    rep.findings.len()
                ));
                s
            }
        }
    };
    // The wall time goes to standard error, so the report itself is deterministic.
    eprintln!(
        "analysed in {:.2}s ({} emulator run{})",
        run.wall.as_secs_f64(),
        run.runs,
        if run.runs == 1 { "" } else { "s" }
    );
    match write_out(&args.output, &out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
