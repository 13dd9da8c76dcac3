//! `warpscope model SPEC`: the divergence performance model of Liang et al. (BBV-weighted and
//! BBV-weighted-scheduled estimates, divergence cost per branch, Sorting/Greedy/Greedy-Max
//! regrouping), and `--regroup ALG --emit DIR` to write a regrouped launch that `warpscope run`
//! runs.

use clap::Args;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use warpscope_model::{Algorithm, LatencyTable, ModelOptions, emit, fit, model_spec, render};
use warpscope_profile::load_spec;
use warpscope_report::page::Page;
use warpscope_report::text;

use crate::load::CompileArgs;

#[derive(Args, Debug)]
pub struct ModelArgs {
    /// Launch spec (TOML) naming the module, its buffers and its launches.
    #[arg(value_name = "SPEC")]
    pub spec: PathBuf,
    /// Output format: text, json, csv (one row per kernel) or html (a self-contained page; see
    /// docs/report.md).
    #[arg(long, default_value = "text")]
    pub format: String,
    /// Write the output here instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Regrouping to emit with --emit: sorting, greedy or greedy-max.
    #[arg(long, value_name = "ALG", requires = "emit")]
    pub regroup: Option<String>,
    /// Write the regrouped launch (spec.toml, permutation buffers, rewritten PTX) here.
    #[arg(long, value_name = "DIR", requires = "regroup")]
    pub emit: Option<PathBuf>,
    /// Threads per regrouping group (a multiple of 32).
    #[arg(long, default_value_t = 32, value_name = "N")]
    pub group_size: usize,
    /// Number of SMs (default 132, an H100 SXM).
    #[arg(long, default_value_t = warpscope_model::H100_SMS, value_name = "N")]
    pub sms: u32,
    /// Registers per thread for every kernel (default: ptxas -v, else an estimate).
    #[arg(long, value_name = "N")]
    pub regs: Option<u32>,
    /// Latency table (`class<TAB>cycles` lines) instead of the measured H100 one.
    #[arg(long, value_name = "FILE")]
    pub latency: Option<PathBuf>,
    /// Fit the per-block BBV model of equation (1) on these specs' profiles (repeatable) and
    /// predict SPEC's vectors from its inputs without running its kernel.
    #[arg(long, value_name = "SPEC", requires = "fit_input")]
    pub fit: Vec<PathBuf>,
    /// Input variables for --fit: `BUFFER` or `BUFFER*K` (K consecutive elements per thread,
    /// at K × global id), repeatable.
    #[arg(long, value_name = "BUFFER[*K]")]
    pub fit_input: Vec<String>,
    /// With --fit, also profile SPEC and report the prediction's error against its real vectors.
    #[arg(long, requires = "fit")]
    pub fit_check: bool,
    /// Kernel whose launches --fit models (default: the first profiled kernel).
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,
    /// Rows per ranked table in text output.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub top: usize,
    /// In text output, also list the findings.
    #[arg(long)]
    pub findings: bool,
    #[command(flatten)]
    pub schedule: crate::schedule::ScheduleArgs,
    #[command(flatten)]
    pub compile: CompileArgs,
}

pub fn run(args: ModelArgs) -> ExitCode {
    match run_inner(args) {
        Ok(c) => c,
        Err((code, msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(code)
        }
    }
}

fn run_inner(args: ModelArgs) -> Result<ExitCode, (u8, String)> {
    let format = args.format.as_str();
    if !matches!(format, "text" | "json" | "csv" | "html") {
        return Err((
            2,
            format!("unknown format `{format}` (expected text, json, csv or html)"),
        ));
    }
    if format == "html" && !args.fit.is_empty() {
        return Err((2, "--fit writes text, json or csv, not html".into()));
    }
    if args.group_size == 0 || !args.group_size.is_multiple_of(32) {
        return Err((
            2,
            format!(
                "--group-size {} is not a positive multiple of the warp size (32)",
                args.group_size
            ),
        ));
    }
    if args.sms == 0 {
        return Err((2, "--sms must be at least 1".into()));
    }
    let alg = match &args.regroup {
        Some(a) => Some(Algorithm::parse(a).ok_or_else(|| {
            (
                2,
                format!("unknown regrouping `{a}` (expected sorting, greedy or greedy-max)"),
            )
        })?),
        None => None,
    };
    let latency = match &args.latency {
        Some(p) => {
            let t = std::fs::read_to_string(p)
                .map_err(|e| (2, format!("cannot read {}: {e}", p.display())))?;
            LatencyTable::parse(&t).map_err(|e| (2, format!("{}: {e}", p.display())))?
        }
        None => LatencyTable::h100(),
    };
    let spec = load_spec(&args.spec).map_err(|e| (2, e.to_string()))?;
    let scratch = std::env::temp_dir().join(format!("warpscope-model-{}", std::process::id()));
    let mut opts = ModelOptions {
        sms: args.sms,
        group_size: args.group_size,
        latency,
        regs: args.regs,
        keep_orders: alg.is_some(),
        ..ModelOptions::default()
    };
    opts.profile.run.compile = args.compile.options();
    opts.profile.run.save_dir = Some(scratch.clone());
    opts.profile.run.exec.schedule = args.schedule.schedule();
    opts.profile.run.exec.threads = args.schedule.threads;
    opts.profile.run.exec.num_sms = args.sms;
    let compile = opts.profile.run.compile.clone();
    let latency = opts.latency.clone();
    if !args.fit.is_empty() {
        let r = fit::fit_and_predict(
            &spec,
            &args.fit,
            &args.fit_input,
            args.kernel.as_deref(),
            args.fit_check,
            opts,
        );
        let _ = std::fs::remove_dir_all(&scratch);
        let r = r.map_err(|e| (1, e))?;
        let out = match format {
            "json" => serde_json::to_string_pretty(&r).unwrap_or_default() + "\n",
            "csv" => fit::csv(&r),
            _ => fit::text(&r),
        };
        crate::output::write(&args.output, &out).map_err(|e| (1, e))?;
        return Ok(ExitCode::SUCCESS);
    }
    let run = model_spec(&spec, opts);
    let _ = std::fs::remove_dir_all(&scratch);
    let run = run.map_err(|e| (1, e.to_string()))?;
    let m = &run.report;
    let mut notes = String::new();
    if let (Some(alg), Some(dir)) = (alg, &args.emit) {
        let loaded =
            warpscope_emu::load_spec_module(&spec, &compile).map_err(|e| (1, e.to_string()))?;
        let r = emit::emit(
            &spec,
            &loaded.source.text,
            &run.module,
            &m.launches,
            alg,
            dir,
        )
        .map_err(|e| (1, e))?;
        notes.push_str(&format!(
            "regrouped ({}) launch written to {} ({} kernel{} rewritten",
            alg.name(),
            r.spec.display(),
            r.rewritten.len(),
            if r.rewritten.len() == 1 { "" } else { "s" }
        ));
        if !r.rewritten.is_empty() {
            notes.push_str(&format!(": {}", r.rewritten.join(", ")));
        }
        notes.push_str(")\n");
        for (k, why) in &r.skipped {
            notes.push_str(&format!("not regrouped: {k}: {why}\n"));
        }
    }
    let out = match format {
        "json" => render::json(m),
        "csv" => render::csv(m),
        "html" => {
            let texts = crate::html_page::source_texts(&run.module, &run.sources);
            let mut page = Page {
                title: format!("warpscope model {}", args.spec.display()),
                // No host time on the page (the same on every run); it goes to stderr.
                subtitle: vec![format!(
                    "module {}; {} SMs, regrouping groups of {} threads",
                    m.module, m.sms, m.group_size
                )],
                ..Page::default()
            };
            let source = |name: &str| texts.get(name).cloned();
            warpscope_model::page::fill_line_cycles(
                &mut page,
                &run.module,
                &run.profile,
                &latency,
                &source,
            );
            warpscope_model::page::fill(&mut page, m, &source, args.top);
            page.findings = render::report(m).findings;
            page.graphs = crate::html_page::cfg_graphs_profile(&run.module, &run.profile);
            eprintln!(
                "profiled in {:.2}s, modelled and regrouped in {:.2}s",
                run.profile_wall.as_secs_f64(),
                run.model_wall.as_secs_f64()
            );
            warpscope_report::html::render(&page)
        }
        _ => {
            let mut s = render::text(m, args.top);
            let report = render::report(m);
            if args.findings {
                let mut sources = text::Sources::new();
                for (i, name) in &run.module.files {
                    if let Some(t) = run.sources.file(*i).and_then(|f| f.text()) {
                        sources.insert(name.clone(), t.to_string());
                    }
                }
                s.push('\n');
                s.push_str(&text::render(
                    &report,
                    &sources,
                    &text::TextOptions {
                        show_ptx: true,
                        show_kernels: false,
                    },
                ));
            } else {
                let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
                for f in &report.findings {
                    *counts.entry(f.rule.id()).or_default() += 1;
                }
                let parts: Vec<String> = counts.iter().map(|(r, n)| format!("{n} {r}")).collect();
                s.push_str(&format!(
                    "\n{} finding(s){}{}; --findings lists them, --format json exports them\n",
                    report.findings.len(),
                    if parts.is_empty() { "" } else { ": " },
                    parts.join(", ")
                ));
            }
            s.push_str(&format!(
                "profiled in {:.2}s, modelled and regrouped in {:.2}s\n",
                run.profile_wall.as_secs_f64(),
                run.model_wall.as_secs_f64()
            ));
            s
        }
    };
    crate::output::write(&args.output, &out).map_err(|e| (1, e))?;
    if !notes.is_empty() {
        eprint!("{notes}");
    }
    Ok(ExitCode::SUCCESS)
}
