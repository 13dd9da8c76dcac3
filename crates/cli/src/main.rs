//! The `warpscope` command line. Each subcommand lives in its own module; `main` only
//! parses arguments and dispatches.

mod allocator;
mod cache_cmd;
mod cache_page;
mod check_cmd;
mod html_page;
mod load;
mod model_cmd;
mod output;
mod profile_cmd;
mod progress;
mod ptx_cmd;
mod report_cmd;
mod run_cmd;
mod sass;
mod schedule;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Find, measure and explain SIMT performance bugs in CUDA kernels.
#[derive(Parser, Debug)]
#[command(name = "warpscope", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Parse a .ptx (or compile a .cu) file and print a summary, the IR, or the CFG.
    Ptx(ptx_cmd::PtxArgs),
    /// Find divergent branches, uncoalesced and misaligned accesses and bank conflicts
    /// statically (GPUCheck/GPUDrano-style analysis of the PTX).
    Check(check_cmd::CheckArgs),
    /// Run a launch spec on the emulator and profile it: divergence map, SIMT efficiency,
    /// coalescing and bank conflicts per CUDA line; basic-block vectors and memory traces.
    Profile(profile_cmd::ProfileArgs),
    /// One self-contained HTML report of a launch spec: the profile of a run and the static
    /// check of its module, findings confirmed or refuted by the run, charts and CFGs.
    Report(report_cmd::ReportArgs),
    /// Find cache interference among threads (GRAB): run a launch spec through an L1/L2
    /// model, classify every L1 miss, trace eviction chains to their root causes; sweeps.
    Cache(cache_cmd::CacheArgs),
    /// Execute a launch spec on the emulator (warp by warp, as the GPU would) and write
    /// the buffers it saves.
    Run(run_cmd::RunArgs),
    /// Estimate what divergence costs (Liang et al.'s BBV-weighted metrics on H100 latencies),
    /// rank the branches that cause it, and regroup threads (Sorting, Greedy, Greedy-Max),
    /// optionally writing a regrouped launch that `run` runs.
    Model(model_cmd::ModelArgs),
}

/// mimalloc instead of the system allocator: the analyses allocate many short-lived values of
/// a few hundred bytes (per-lane vectors), which glibc's allocator served slowly, growing and
/// trimming its heap (docs/performance.md, "Real-world modules"); see [`allocator`] for how it is
/// called.
#[global_allocator]
static GLOBAL: allocator::Mi = allocator::Mi;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Ptx(args) => ptx_cmd::run(args),
        Command::Check(args) => check_cmd::run(args),
        Command::Profile(args) => profile_cmd::run(args),
        Command::Run(args) => run_cmd::run(args),
        Command::Report(args) => report_cmd::run(args),
        Command::Model(args) => model_cmd::run(args),
        Command::Cache(args) => cache_cmd::run(args),
    }
}
