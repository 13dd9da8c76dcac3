//! # warpscope-profile
//!
//! `warpscope profile`: runs a launch spec on the emulator with observers attached and says,
//! per PTX instruction and per CUDA source line, where SIMT execution wastes work.
//!
//! * **Divergence map** (Coutinho et al., paper 004): per conditional branch, the warp
//!   visits τ and the divergent visits δ ([`DivergenceMap`]).
//! * **SIMT efficiency**: predicated-on lanes over `32 ×` issued warp instructions, so lanes
//!   idled by divergence, partial warps, exited threads *and* if-converted (predicated) code
//!   all show ([`SimtEfficiency`]).
//! * **Coalescing** (GPUDrano's dynamic analysis, paper 003, on the hardware's sector
//!   model): per global request, 32-byte sectors, ideal sectors, 128-byte lines (min/avg/max
//!   per request) and the NoAlign variant that separates misalignment from stride; per shared
//!   request, wavefronts, ideal wavefronts and N-way bank conflicts ([`Coalescing`]). Costs
//!   come from `warpscope-cost`, the same model `warpscope check` uses.
//! * **Basic-block vectors** (paper 002) per thread, exported in a compact binary form with
//!   a JSON summary ([`bbv`]), and a streamed binary **trace of memory requests** for the
//!   GRAB cache debugger (paper 001, [`trace`]).
//!
//! Results are a [`Profile`] (serialisable), rendered as annotated source and ranked tables
//! ([`render`]), CSV with Nsight Compute-named columns, and [`warpscope_report::Finding`]s
//! ([`findings`]) for the report crate's text, JSON and SARIF renderers. [`confirm`] marks
//! static findings confirmed / refuted / not executed, and [`ncu`] compares a profile with
//! Nsight Compute's per-line source counters.
//!
//! Entry point: [`profile_spec`].

pub mod bbv;
pub mod build;
pub mod confirm;
pub mod findings;
pub mod model;
pub mod ncu;
pub mod observe;
pub mod page;
pub mod render;
pub mod trace;
mod varint;

pub use build::build_profile;
pub use model::{
    Access, CallSite, Counters, GlobalCounters, InstProfile, KernelProfile, LaunchRecord,
    LineProfile, Profile, SharedCounters,
};
pub use observe::{
    Both, Coalescing, DivergenceMap, InstIndex, KernelInsts, LaunchPass, LaunchWindow, Profiler,
    SimtEfficiency,
};

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use warpscope_emu::{EmuError, LaunchSpec, Observer, RunOptions, RunReport};
use warpscope_frontend::SourceMap;
use warpscope_ir::Module;

use crate::bbv::{BasicBlockVectors, BlockColumns, LaunchBbv};
use crate::trace::{MemoryTrace, TraceInstruction, TraceStats};

/// Options of [`profile_spec`].
#[derive(Default)]
pub struct ProfileOptions {
    /// How to run (SM count, scheduler, threads, budget, compile options).
    pub run: RunOptions,
    /// Which launches to count (all by default).
    pub window: LaunchWindow,
    /// Record per-thread basic-block vectors.
    pub bbv: bool,
    /// Stream memory requests here.
    pub trace: Option<PathBuf>,
}

/// Everything a profiled run produced.
pub struct ProfileRun {
    pub profile: Profile,
    /// Basic-block vectors (when asked for).
    pub bbv: Option<Vec<LaunchBbv>>,
    pub trace: Option<TraceStats>,
    /// The module that ran (for exports that name functions and blocks).
    pub module: Module,
    /// The CUDA sources named by the module, where found.
    pub sources: SourceMap,
    /// The emulator's own report (outputs, launches, wall time).
    pub report: RunReport,
    /// Wall time of the whole profile, building included.
    pub wall: Duration,
}

/// Why a profile failed.
#[derive(Debug)]
pub enum ProfileError {
    Emu(EmuError),
    Io(String),
}

impl std::fmt::Display for ProfileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProfileError::Emu(e) => write!(f, "{e}"),
            ProfileError::Io(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ProfileError {}

impl From<EmuError> for ProfileError {
    fn from(e: EmuError) -> Self {
        ProfileError::Emu(e)
    }
}

/// Runs `spec` with the profile observers and builds its [`Profile`].
pub fn profile_spec(spec: &LaunchSpec, opts: &ProfileOptions) -> Result<ProfileRun, ProfileError> {
    let t0 = Instant::now();
    let loaded = warpscope_emu::load_spec_module(spec, &opts.run.compile)?;
    let module = loaded.module;
    let ptx_text = loaded.source.text;
    let module_name = loaded.source.display_name;
    let index = Arc::new(InstIndex::new(&module));
    let profiler = Profiler::new(index.clone(), opts.window.clone());
    let trace = match &opts.trace {
        Some(p) => {
            let f = std::fs::File::create(p)
                .map_err(|e| ProfileError::Io(format!("cannot create {}: {e}", p.display())))?;
            let w = Box::new(std::io::BufWriter::with_capacity(1 << 20, f));
            Some(
                MemoryTrace::new(w, opts.window.clone())
                    .map_err(|e| ProfileError::Io(format!("cannot write {}: {e}", p.display())))?,
            )
        }
        None => None,
    };
    let bbv = opts
        .bbv
        .then(|| BasicBlockVectors::new(Arc::new(BlockColumns::new(&module)), opts.window.clone()));
    let m = module.clone();
    let text = Some(ptx_text.as_str());
    let (report, profiler, bbv, trace) = match (bbv, trace) {
        (None, None) => {
            let mut o = profiler;
            let r = warpscope_emu::run_spec_module(spec, m, text, &opts.run, &mut o)?;
            (r, o, None, None)
        }
        (Some(b), None) => {
            let mut o = Both(profiler, b);
            let r = warpscope_emu::run_spec_module(spec, m, text, &opts.run, &mut o)?;
            (r, o.0, Some(o.1), None)
        }
        (None, Some(t)) => {
            let mut o = Both(profiler, t);
            let r = warpscope_emu::run_spec_module(spec, m, text, &opts.run, &mut o)?;
            (r, o.0, None, Some(o.1))
        }
        (Some(b), Some(t)) => {
            let mut o = Both(profiler, Both(b, t));
            let r = warpscope_emu::run_spec_module(spec, m, text, &opts.run, &mut o)?;
            (r, o.0, Some(o.1.0), Some(o.1.1))
        }
    };
    let profile = build_profile(
        &module,
        &index,
        Some(&ptx_text),
        profiler,
        &spec.path.display().to_string(),
        &module_name,
    );
    let trace = match trace {
        Some(t) => {
            write_trace_instructions(&t, &profile, &module);
            Some(
                t.finish()
                    .map_err(|e| ProfileError::Io(format!("writing the trace: {e}")))?,
            )
        }
        None => None,
    };
    Ok(ProfileRun {
        profile,
        bbv: bbv.map(|b| b.launches),
        trace,
        module,
        sources: loaded.source_map,
        report,
        wall: t0.elapsed(),
    })
}

/// Names, in the trace, every memory instruction of the profile.
fn write_trace_instructions(t: &MemoryTrace, profile: &Profile, module: &Module) {
    let mut seen = std::collections::BTreeSet::new();
    for k in &profile.kernels {
        for i in &k.instructions {
            if i.access.is_none() {
                continue;
            }
            let Some(f) = module.func_by_name(&i.function) else {
                continue;
            };
            use cranelift_entity::EntityRef;
            if !seen.insert((f.index(), i.inst)) {
                continue;
            }
            t.write_instruction(&TraceInstruction {
                function: f.index() as u32,
                inst: i.inst,
                function_name: i.function.clone(),
                ptx_line: i.ptx_line,
                file: i.file.clone(),
                line: i.line,
                text: i.text.clone(),
            });
        }
    }
}

/// Runs any observer over a spec (for benchmarks and tools that compose their own).
pub fn run_observed<O: Observer>(
    spec: &LaunchSpec,
    module: Module,
    ptx_text: Option<&str>,
    opts: &RunOptions,
    obs: &mut O,
) -> Result<RunReport, EmuError> {
    warpscope_emu::run_spec_module(spec, module, ptx_text, opts, obs)
}

/// Loads a launch spec from disk.
pub fn load_spec(path: &Path) -> Result<LaunchSpec, ProfileError> {
    LaunchSpec::load(path).map_err(|e| ProfileError::Emu(EmuError::Spec(e)))
}
