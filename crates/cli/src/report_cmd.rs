//! `warpscope report SPEC`: one self-contained HTML page for a launch spec: the profile of a
//! run (heat map, PTX per line, cards, ranked tables, charts, CFGs), the divergence model of the
//! same run (its basic-block vectors are recorded by the profile: one emulation serves both),
//! the cache debugger (a second emulation, with its own warp scheduler and memory latency, over
//! an L1 size sweep unless the spec's `[cache]` table says otherwise) and the static check of
//! the same module with the launches' geometry, each static finding marked confirmed, refuted
//! or not executed by the run, and what the run found that the check missed.

use crate::check_cmd::{Analysed, CheckArgs, analyse};
use crate::load::CompileArgs;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use warpscope_analysis::{CheckOptions, GeometrySource, KernelGeometry};
use warpscope_cache::Settings;
use warpscope_emu::RunOptions;
use warpscope_model::ModelOptions;
use warpscope_profile::{confirm, load_spec, profile_spec};

/// The L1 sizes the page's cache sweep covers when the spec's `[cache]` table names none:
/// the H100's (256 KiB less the shared-memory carve-out) first, whose lines, cards and root
/// causes the page shows, then smaller ones for the sweep curve (all in one emulation).
const L1_SWEEP: &str = "auto,16K,32K,64K,128K";

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Launch spec (TOML) naming the module, its buffers and its launches.
    #[arg(value_name = "SPEC")]
    pub spec: PathBuf,
    /// Write the page here (default: standard output).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Output format: html, or json (the page's data, see docs/report.md).
    #[arg(long, default_value = "html")]
    pub format: String,
    /// Rows per ranked table and branches in the divergence chart.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub top: usize,
    #[command(flatten)]
    pub schedule: crate::schedule::ScheduleArgs,
    #[command(flatten)]
    pub compile: CompileArgs,
}

pub fn run(args: ReportArgs) -> ExitCode {
    if !matches!(args.format.as_str(), "html" | "json") {
        eprintln!(
            "error: unknown format `{}` (expected html or json)",
            args.format
        );
        return ExitCode::from(2);
    }
    let spec = match load_spec(&args.spec) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let scratch = std::env::temp_dir().join(format!("warpscope-report-{}", std::process::id()));
    // The dynamic part: one profiled run, with basic-block vectors for the model.
    let mut mopts = ModelOptions::default();
    let opts = &mut mopts.profile;
    opts.bbv = true;
    opts.run.compile = args.compile.options();
    opts.run.exec.schedule = args.schedule.schedule();
    opts.run.exec.threads = args.schedule.threads;
    opts.run.save_dir = Some(scratch.clone());
    let (progress, watcher) = crate::progress::Watcher::start(true);
    opts.run.exec.progress = progress;
    let run = profile_spec(&spec, opts);
    watcher.finish();
    let run = match run {
        Ok(r) => r,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&scratch);
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let t_model = std::time::Instant::now();
    let model = warpscope_model::model_profiled(&spec, &run, &mopts);
    let t_model = t_model.elapsed();
    // The cache debugger: its own run (its scheduler and memory latency decide the order of
    // the requests the caches see).
    let mut settings = Settings::default();
    if let Err(e) = settings.apply_spec(&spec) {
        let _ = std::fs::remove_dir_all(&scratch);
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    if settings.l1 == Settings::default().l1 {
        settings.l1 = warpscope_cache::config::parse_l1_list(L1_SWEEP).unwrap_or_default();
    }
    let mut copts = RunOptions {
        compile: args.compile.options(),
        save_dir: Some(scratch.clone()),
        ..RunOptions::default()
    };
    copts.exec.schedule = args.schedule.schedule();
    copts.exec.threads = args.schedule.threads;
    let (progress, watcher) = crate::progress::Watcher::start(true);
    copts.exec.progress = progress;
    let cache = warpscope_cache::analyze_spec(&spec, &settings, &copts);
    watcher.finish();
    // Host times go to standard error: the page is the same on every run.
    eprintln!(
        "profiled in {:.2}s, modelled in {:.2}s, cache analysed in {}",
        run.wall.as_secs_f64(),
        t_model.as_secs_f64(),
        cache
            .as_ref()
            .map_or("-".into(), |c| format!("{:.2}s", c.wall.as_secs_f64()))
    );
    let _ = std::fs::remove_dir_all(&scratch);
    // The static part: the same module, each kernel with the block and grid of its first
    // launch in the spec.
    let mut check_opts = CheckOptions::default();
    for l in &spec.launches {
        check_opts
            .kernel_geometry
            .entry(l.kernel.clone())
            .or_insert(KernelGeometry {
                block: Some(l.block),
                grid: Some(l.grid),
                source: GeometrySource::Flags,
            });
    }
    let check_args = CheckArgs::for_module(spec.module.clone(), args.compile.clone());
    let Analysed {
        report, sources, ..
    } = analyse(&check_args, &check_opts);
    let c = confirm::confirm(&report.findings, &run.profile);
    let title = format!("warpscope report {}", args.spec.display());
    let (mut page, texts) = crate::html_page::profile_page(title, &run, args.top);
    let source = |name: &str| {
        sources
            .get(name)
            .map(str::to_string)
            .or_else(|| texts.get(name).cloned())
    };
    page.subtitle.push(format!(
        "static check of the same module: {} kernels, each with the block and grid of its \
         first launch in the spec",
        report.kernels.len()
    ));
    crate::html_page::add_static_findings(&mut page, &c.findings, &source);
    page.findings.extend(c.missed.iter().cloned());
    let n =
        |v: warpscope_report::Verdict| c.findings.iter().filter(|f| f.verdict == Some(v)).count();
    page.notes.push(format!(
        "static check: {} findings, {} confirmed, {} refuted, {} not executed by the run; {} \
         found by the run only (matched by PTX line: the run executes the checked module)",
        c.findings.len(),
        n(warpscope_report::Verdict::Confirmed),
        n(warpscope_report::Verdict::Refuted),
        n(warpscope_report::Verdict::NotExecuted),
        c.missed.len()
    ));
    // The model, on the same run.
    warpscope_model::page::fill_line_cycles(
        &mut page,
        &run.module,
        &run.profile,
        &mopts.latency,
        &source,
    );
    warpscope_model::page::fill(&mut page, &model, &source, args.top);
    // The cache; a failure (a feature its observer refuses) leaves the rest of the page.
    match &cache {
        Ok(c) => {
            page.subtitle.push(format!(
                "cache debugger: {} configuration{} (L1 {}), {} emulator run{}",
                c.report.configs.len(),
                if c.report.configs.len() == 1 { "" } else { "s" },
                c.report
                    .configs
                    .iter()
                    .map(|x| x.l1.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                c.runs,
                if c.runs == 1 { "" } else { "s" }
            ));
            crate::cache_page::fill(&mut page, &c.report, &source, args.top);
            page.findings
                .extend(warpscope_cache::findings::report(&c.report).findings);
        }
        Err(e) => page.notes.push(format!("cache: not analysed ({e})")),
    }
    let out = if args.format == "json" {
        serde_json::to_string_pretty(&page).unwrap_or_default() + "\n"
    } else {
        warpscope_report::html::render(&page)
    };
    match crate::output::write(&args.output, &out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
