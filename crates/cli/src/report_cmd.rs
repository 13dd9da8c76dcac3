//! `warpscope report SPEC`: one self-contained HTML page for a launch spec: the profile of a
//! run (heat map, PTX per line, cards, ranked tables, charts, CFGs) and the static check of the
//! same module with the launches' geometry, each static finding marked confirmed, refuted or
//! not executed by the run, and what the run found that the check missed.
//!
//! Extension point: the cache simulation (`warpscope cache`) and the performance model
//! (`warpscope model`) add their cards, charts (sweep curves, estimate vs measured) and
//! heat-map columns to the same [`Page`] here once they exist.

use crate::check_cmd::{Analysed, CheckArgs, analyse};
use crate::load::CompileArgs;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use warpscope_analysis::{CheckOptions, GeometrySource, KernelGeometry};
use warpscope_profile::{ProfileOptions, confirm, load_spec, profile_spec};
use warpscope_report::page::Page;

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
    // The dynamic part: one profiled run.
    let mut opts = ProfileOptions::default();
    opts.run.compile = args.compile.options();
    opts.run.exec.schedule = args.schedule.schedule();
    opts.run.exec.threads = args.schedule.threads;
    let scratch = std::env::temp_dir().join(format!("warpscope-report-{}", std::process::id()));
    opts.run.save_dir = Some(scratch.clone());
    let (progress, watcher) = crate::progress::Watcher::start(true);
    opts.run.exec.progress = progress;
    let run = profile_spec(&spec, &opts);
    watcher.finish();
    let _ = std::fs::remove_dir_all(&scratch);
    let run = match run {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
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
    add_extensions(&mut page);
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

/// Where the cache and model sections go once `warpscope cache` and `warpscope model` exist:
/// until then the page says they are not part of it.
fn add_extensions(page: &mut Page) {
    page.notes.push(
        "not in this report yet: cache simulation (sweep curves, hit rates) and the performance \
         model (estimate vs measured, estimated divergence cost); they join the page when \
         `warpscope cache` and `warpscope model` land"
            .into(),
    );
}
