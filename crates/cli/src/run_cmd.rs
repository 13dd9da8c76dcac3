//! `warpscope run SPEC`: execute a launch spec on the emulator and write its saved buffers.

use crate::load::CompileArgs;
use clap::{Args, ValueEnum};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use warpscope_emu::{
    EmuError, ExecConfig, LaunchOutcome, LaunchSpec, NoObserver, RunOptions, SchedulerKind,
    load_spec_module, run_spec_module,
};

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The launch spec (TOML): module, buffers, launches. See docs/launch-spec.md.
    pub spec: PathBuf,
    /// Write saved buffers under DIR instead of next to the spec.
    #[arg(long, value_name = "DIR")]
    pub save_dir: Option<PathBuf>,
    /// Stop with an error after this many thread-instructions (all launches together).
    #[arg(long, value_name = "N", default_value_t = 10_000_000_000)]
    pub max_instructions: u64,
    #[command(flatten)]
    pub schedule: crate::schedule::ScheduleArgs,
    /// Number of SMs (132 as on an H100 SXM).
    #[arg(long, value_name = "N", default_value_t = 132)]
    pub sms: u32,
    /// Warp scheduler of each SM.
    #[arg(long, value_enum, default_value_t = Scheduler::Gto)]
    pub scheduler: Scheduler,
    /// Registers per thread for occupancy (default: estimated from the PTX).
    #[arg(long, value_name = "N")]
    pub regs_per_thread: Option<u32>,
    /// Cycles a warp waits after a global load (0: no latency model).
    #[arg(long, value_name = "CYCLES", default_value_t = 0)]
    pub memory_latency: u32,
    /// Also write each launch's counts and wall time to FILE as JSON.
    #[arg(long, value_name = "FILE")]
    pub timing: Option<PathBuf>,
    /// Print nothing but errors.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print one line per launch instead of one per kernel.
    #[arg(long, short)]
    pub verbose: bool,
    #[command(flatten)]
    pub compile: CompileArgs,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum Scheduler {
    /// Loose round robin: one instruction per warp in turn.
    Lrr,
    /// Greedy-then-oldest.
    Gto,
    /// Two-level: round robin over an active set of 8 warps.
    TwoLevel,
}

pub fn run(args: RunArgs) -> ExitCode {
    let spec = match LaunchSpec::load(&args.spec) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let exec = ExecConfig {
        num_sms: args.sms.max(1),
        scheduler: match args.scheduler {
            Scheduler::Lrr => SchedulerKind::Lrr,
            Scheduler::Gto => SchedulerKind::Gto,
            Scheduler::TwoLevel => SchedulerKind::TwoLevel,
        },
        threads: args.schedule.threads,
        schedule: args.schedule.schedule(),
        max_instructions: args.max_instructions,
        regs_per_thread: args.regs_per_thread,
        memory_latency: args.memory_latency,
        ..ExecConfig::default()
    };
    let (progress, watcher) = crate::progress::Watcher::start(!args.quiet);
    let exec = ExecConfig { progress, ..exec };
    let opts = RunOptions {
        exec,
        save_dir: args.save_dir.clone(),
        compile: args.compile.options(),
        echo_printf: true,
    };
    let loaded = match load_spec_module(&spec, &opts.compile) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let text = loaded.source.text.clone();
    let sources = loaded.source_map;
    let result = run_spec_module(&spec, loaded.module, Some(&text), &opts, &mut NoObserver);
    watcher.finish();
    match result {
        Ok(r) => {
            if !args.quiet {
                // Host times only for a person watching: captured output is reproducible.
                let timed = std::io::stdout().is_terminal();
                if args.verbose {
                    for l in &r.launches {
                        println!("{}", launch_line(l, timed));
                    }
                } else {
                    for k in kernel_summaries(&r.launches, timed) {
                        println!("{k}");
                    }
                }
                for p in &r.saved {
                    println!("wrote {}", p.display());
                }
            }
            if let Some(path) = &args.timing {
                let launches: Vec<String> = r
                    .launches
                    .iter()
                    .map(|l| {
                        format!(
                            "  {{\"kernel\": \"{}\", \"grid\": [{}, {}, {}], \"block\": [{}, {}, {}], \
                             \"warp_instructions\": {}, \"thread_instructions\": {}, \"ms\": {:.6}}}",
                            l.kernel,
                            l.grid[0],
                            l.grid[1],
                            l.grid[2],
                            l.block[0],
                            l.block[1],
                            l.block[2],
                            l.stats.warp_instructions,
                            l.stats.thread_instructions,
                            l.wall.as_secs_f64() * 1e3
                        )
                    })
                    .collect();
                let json = format!("{{\"launches\": [\n{}\n]}}\n", launches.join(",\n"));
                if let Err(e) = std::fs::write(path, json) {
                    eprintln!("error: cannot write {}: {e}", path.display());
                    return ExitCode::FAILURE;
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            if let EmuError::Fault(f) = &e
                && let Some(site) = &f.site
                && let Some((file, line)) = site.loc
                && let Some(text) = sources.line(file, line)
            {
                eprintln!("  {line:>5} | {}", text.trim_end());
            }
            ExitCode::FAILURE
        }
    }
}

fn display_name(ptx_name: &str) -> String {
    warpscope_ir::names::qualified_name(ptx_name).unwrap_or_else(|| ptx_name.to_string())
}

/// One launch: geometry, thread-instructions, occupancy; with `timed`, also the host time
/// it took (not reproducible, so only for output a person reads on a terminal).
pub fn launch_line(l: &LaunchOutcome, timed: bool) -> String {
    format!(
        "{} <<<({},{},{}), ({},{},{})>>>: {} thread-instructions{}, {} blocks/SM ({}-limited)",
        display_name(&l.kernel),
        l.grid[0],
        l.grid[1],
        l.grid[2],
        l.block[0],
        l.block[1],
        l.block[2],
        l.stats.thread_instructions,
        if timed {
            host_time(l.stats.thread_instructions, l.wall.as_secs_f64())
        } else {
            String::new()
        },
        l.occupancy.blocks_per_sm,
        l.occupancy.limiter
    )
}

/// " in 1.234 ms (5.6 M/s)": the host time of `ti` thread-instructions.
fn host_time(ti: u64, secs: f64) -> String {
    format!(
        " in {:.3} ms ({:.1} M/s)",
        secs * 1e3,
        ti as f64 / secs.max(1e-9) / 1e6
    )
}

/// One line per kernel, in order of first launch: launches, thread-instructions; with
/// `timed`, also their host time.
pub fn kernel_summaries(launches: &[LaunchOutcome], timed: bool) -> Vec<String> {
    let mut order: Vec<&str> = Vec::new();
    let mut totals: std::collections::HashMap<&str, (usize, u64, f64)> = Default::default();
    for l in launches {
        let t = totals.entry(&l.kernel).or_insert_with(|| {
            order.push(&l.kernel);
            (0, 0, 0.0)
        });
        t.0 += 1;
        t.1 += l.stats.thread_instructions;
        t.2 += l.wall.as_secs_f64();
    }
    order
        .into_iter()
        .map(|k| {
            let (n, ti, secs) = totals[k];
            format!(
                "{}: {n} launch{}, {ti} thread-instructions{}",
                display_name(k),
                if n == 1 { "" } else { "es" },
                if timed {
                    host_time(ti, secs)
                } else {
                    String::new()
                },
            )
        })
        .collect()
}
