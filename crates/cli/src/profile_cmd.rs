//! `warpscope profile SPEC`: run a launch spec on the emulator with the profile observers and
//! show, per CUDA line, what SIMT execution wasted: divergent branch visits, idle lanes,
//! excess global sectors and shared-memory bank conflicts.

use clap::Args;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use warpscope_profile::{
    LaunchPass, LaunchWindow, ProfileOptions, bbv, findings, load_spec, ncu, profile_spec, render,
};
use warpscope_report::text;

use crate::load::CompileArgs;
use crate::run_cmd::{kernel_summaries, launch_line};

#[derive(Args, Debug)]
pub struct ProfileArgs {
    /// Launch spec (TOML) naming the module, its buffers and its launches.
    #[arg(value_name = "SPEC")]
    pub spec: PathBuf,
    /// Output format: text (annotated source and ranked tables), json, sarif, csv or html (a
    /// self-contained page; see docs/report.md).
    #[arg(long, default_value = "text")]
    pub format: String,
    /// Write the output here instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Run but do not count the first N launches (like `ncu --launch-skip`).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub launch_skip: u32,
    /// Count only N launches after the skipped ones (like `ncu --launch-count`).
    #[arg(long, value_name = "N")]
    pub launch_count: Option<u32>,
    /// Count only launches of this kernel (repeatable; like `ncu -k`); --launch-skip and
    /// --launch-count then count its launches only.
    #[arg(long, value_name = "NAME")]
    pub kernel: Vec<String>,
    /// A selection written as ncu filter arguments, e.g. `-k fan2 --launch-skip 4
    /// --launch-count 6` (repeatable: launches any of them selects are counted, like the
    /// passes of a merged ncu report).
    #[arg(long, value_name = "ARGS", allow_hyphen_values = true)]
    pub ncu_filter: Vec<String>,
    /// Write per-thread basic-block vectors (binary, see docs/profile.md) here, and their
    /// JSON summary to FILE.json.
    #[arg(long, value_name = "FILE")]
    pub bbv: Option<PathBuf>,
    /// Stream every warp memory request (binary, see docs/profile.md) to this file.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Rows per ranked table in text output.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub top: usize,
    /// In text output, also list the findings (rustc-style, as `check` prints them).
    #[arg(long)]
    pub findings: bool,
    /// Compare with Nsight Compute's source counters (`ncu -i REP --page source --csv
    /// --print-source cuda,sass` output) and print the per-line agreement as markdown.
    #[arg(long, value_name = "CSV")]
    pub compare_ncu: Option<PathBuf>,
    /// Write the buffers the spec saves (`save = ...`) into this directory; by default they
    /// are not kept.
    #[arg(long, value_name = "DIR")]
    pub save_dir: Option<PathBuf>,
    /// In text output, one line per launch instead of one per kernel.
    #[arg(long, short)]
    pub verbose: bool,
    #[command(flatten)]
    pub schedule: crate::schedule::ScheduleArgs,
    /// Number of SMs to model (default 132, an H100 SXM).
    #[arg(long, value_name = "N")]
    pub sms: Option<u32>,
    #[command(flatten)]
    pub compile: CompileArgs,
}

pub fn run(args: ProfileArgs) -> ExitCode {
    let format = args.format.as_str();
    if !matches!(format, "text" | "json" | "sarif" | "csv" | "html") {
        eprintln!("error: unknown format `{format}` (expected text, json, sarif, csv or html)");
        return ExitCode::from(2);
    }
    let spec = match load_spec(&args.spec) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let window = if args.ncu_filter.is_empty() {
        if args.kernel.is_empty() {
            LaunchWindow::skip_count(args.launch_skip, args.launch_count)
        } else {
            LaunchWindow::from_passes(vec![LaunchPass {
                kernels: args.kernel.clone(),
                skip: args.launch_skip,
                count: args.launch_count,
            }])
        }
    } else {
        let mut passes = Vec::new();
        for f in &args.ncu_filter {
            match LaunchWindow::parse_ncu_pass(f) {
                Ok(p) => passes.push(p),
                Err(e) => {
                    eprintln!("error: --ncu-filter `{f}`: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        LaunchWindow::from_passes(passes)
    };
    let mut opts = ProfileOptions {
        window,
        bbv: args.bbv.is_some(),
        trace: args.trace.clone(),
        ..ProfileOptions::default()
    };
    opts.run.compile = args.compile.options();
    let scratch = std::env::temp_dir().join(format!("warpscope-profile-{}", std::process::id()));
    opts.run.save_dir = Some(args.save_dir.clone().unwrap_or_else(|| scratch.clone()));
    opts.run.exec.schedule = args.schedule.schedule();
    opts.run.exec.threads = args.schedule.threads;
    if let Some(n) = args.sms {
        opts.run.exec.num_sms = n.max(1);
    }
    let (progress, watcher) = crate::progress::Watcher::start(true);
    opts.run.exec.progress = progress;
    let run = profile_spec(&spec, &opts);
    watcher.finish();
    if args.save_dir.is_none() {
        let _ = std::fs::remove_dir_all(&scratch);
    }
    let run = match run {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let profile = &run.profile;
    if let (Some(path), Some(launches)) = (&args.bbv, &run.bbv) {
        let bytes = bbv::encode(&run.module, launches);
        if let Err(e) = std::fs::write(path, bytes) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        let summary = bbv::summary(&run.module, launches);
        let json = serde_json::to_string_pretty(&summary).unwrap_or_default();
        let mut jpath = path.clone().into_os_string();
        jpath.push(".json");
        if let Err(e) = std::fs::write(&jpath, json + "\n") {
            eprintln!(
                "error: cannot write {}: {e}",
                PathBuf::from(jpath).display()
            );
            return ExitCode::FAILURE;
        }
    }
    if let Some(csv_path) = &args.compare_ncu {
        let text = match std::fs::read_to_string(csv_path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", csv_path.display());
                return ExitCode::from(2);
            }
        };
        let n = ncu::parse_source_csv(&text);
        let cmp = ncu::compare(profile, &n);
        let name = args
            .spec
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        return match crate::output::write(&args.output, &ncu::render_markdown(&name, &cmp)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let out = match format {
        "json" => render::json(profile),
        "sarif" => warpscope_report::sarif::render(&findings::report(profile)),
        "csv" => render::csv(profile),
        "html" => {
            let title = format!("warpscope profile {}", args.spec.display());
            let (mut page, _) = crate::html_page::profile_page(title, &run, args.top);
            page.findings = findings::report(profile).findings;
            warpscope_report::html::render(&page)
        }
        _ => {
            let mut texts: BTreeMap<String, String> = BTreeMap::new();
            let mut sources = text::Sources::new();
            for (i, name) in &run.module.files {
                if let Some(t) = run.sources.file(*i).and_then(|f| f.text()) {
                    texts.insert(name.clone(), t.to_string());
                    sources.insert(name.clone(), t.to_string());
                }
            }
            let mut s = render::annotate(profile, &texts);
            s.push_str(&render::tables(profile, args.top));
            let report = findings::report(profile);
            if args.findings {
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
                    "\n{} finding(s){}{}; --findings lists them, --format sarif|json exports them\n",
                    report.findings.len(),
                    if parts.is_empty() { "" } else { ": " },
                    parts.join(", ")
                ));
            }
            if let Some(t) = &run.trace {
                s.push_str(&format!(
                    "trace: {} requests, {} bytes\n",
                    t.requests, t.bytes
                ));
            }
            // Host times only for a person watching: a captured report is reproducible.
            let timed = args.output.is_none() && std::io::stdout().is_terminal();
            s.push_str(&format!(
                "emulated {} launches, {} warp instructions{}\n",
                run.report.launches.len(),
                run.report.total.warp_instructions,
                if timed {
                    format!(" in {:.2}s", run.wall.as_secs_f64())
                } else {
                    String::new()
                }
            ));
            let lines = if args.verbose {
                run.report
                    .launches
                    .iter()
                    .map(|l| launch_line(l, timed))
                    .collect()
            } else {
                kernel_summaries(&run.report.launches, timed)
            };
            for l in lines {
                s.push_str(&format!("  {l}\n"));
            }
            s
        }
    };
    match crate::output::write(&args.output, &out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
