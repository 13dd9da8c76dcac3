//! # warpscope-emu
//!
//! A PTX emulator that computes what the GPU computes, warp by warp, and tells observers how
//! it got there.
//!
//! * **Execution model.** Warps of 32 threads run in lock-step with active masks; divergent
//!   branches push entries on a SIMT stack and reconverge at the branch's immediate
//!   post-dominator; device-function calls push frames on top of it. Blocks are dispatched
//!   to SMs under sm_90 occupancy limits, and a pluggable warp scheduler (loose round robin,
//!   greedy-then-oldest, two-level) picks the warp that issues next on each SM.
//! * **Speed.** The IR is translated once per kernel into bytecode ([`program`]) whose
//!   operands are all register indices (immediates become pre-filled constant registers);
//!   registers are stored `[register][32 lanes]`, so each op is one tight loop over the
//!   lanes. SMs of kernels whose blocks do not communicate run in parallel on rayon
//!   threads; the others run on the emulated schedule ([`Schedule`]), so results never
//!   depend on the host's thread count or timing.
//! * **Observers.** An [`Observer`] receives basic blocks entered, instructions issued,
//!   branches with their taken masks, memory requests with the 32 lane addresses, barriers
//!   and warp exits; with [`NoObserver`] none of that costs anything.
//! * **Faults.** Out-of-bounds or misaligned accesses, divergent or deadlocked barriers,
//!   `trap`, failed `assert`s and the instruction budget stop the run with a [`Fault`]
//!   naming the kernel, block, thread, PTX line and CUDA line. Unsupported instructions are
//!   rejected before running ([`TranslateError`]).
//!
//! Entry points: [`run_spec`] runs a launch spec ([`LaunchSpec`]); [`Emulator`] runs
//! individual launches.

pub mod alu;
pub mod emulator;
pub mod exec;
pub mod fault;
pub mod float;
pub mod launch;
pub mod memory;
pub mod observer;
pub mod ordering;
pub mod program;
pub mod progress;
pub mod sched;
pub mod spec;
pub mod translate;

pub use emulator::{
    EmuError, Emulator, KernelArg, LaunchOutcome, RunOptions, RunReport, SpecRun, load_spec_module,
    run_spec, run_spec_module,
};
pub use fault::{Fault, FaultKind, FaultSite, TranslateError};
pub use launch::{ExecConfig, Occupancy, STEP, Schedule, SmLimits, occupancy};
pub use observer::{
    AccessKind, BarrierEvent, CountingObserver, LaunchInfo, LaunchStats, MemSpace, MemoryAccess,
    NoObserver, Observer, WarpInfo,
};
pub use ordering::{OrderDependence, order_dependence};
pub use progress::{Progress, ProgressSnapshot};
pub use sched::{SchedulerKind, WarpScheduler};
pub use spec::{ElemType, LaunchSpec, SpecError, SpecSetting};
