//! The flags that say how SMs map onto host threads, shared by the commands that emulate.

use clap::Args;
use warpscope_emu::Schedule;

/// Host threads and reproducibility (see docs/reliability.md).
#[derive(Args, Debug, Clone, Default)]
pub struct ScheduleArgs {
    /// Host threads for launches whose SMs run in parallel (default: all cores). Outputs do
    /// not depend on it.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Run every launch on the emulated schedule, on one host thread. Outputs are
    /// reproducible without it; this also covers kernels whose blocks race through plain
    /// loads and stores (a data race, which warpscope does not detect).
    #[arg(long, conflicts_with = "fast_nondeterministic")]
    pub deterministic: bool,
    /// Run every launch's SMs in parallel, even kernels whose blocks communicate through
    /// atomics: faster on several cores, but their results (and the counts that depend on
    /// them) may change from run to run.
    #[arg(long)]
    pub fast_nondeterministic: bool,
}

impl ScheduleArgs {
    pub fn schedule(&self) -> Schedule {
        if self.deterministic {
            Schedule::Emulated
        } else if self.fast_nondeterministic {
            Schedule::Parallel
        } else {
            Schedule::Auto
        }
    }
}
