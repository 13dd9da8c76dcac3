//! # warpscope-cache
//!
//! `warpscope cache SPEC`: GRAB (paper 001), the cache-interference debugger, on warpscope's
//! emulator. A launch spec runs with the [`CacheObserver`] attached; every global memory
//! request goes, in each SM's issue order, through
//!
//! * a **cache model** ([`sector_cache`]): a per-SM sectored L1 (128-byte lines of four
//!   32-byte sectors, LRU, loads allocate, stores write through without allocating, cache
//!   operators as the PTX ISA says, [`sites`]) and a shared L2, H100 SXM defaults with their
//!   sources in [`config`];
//! * **GRAB's analysis** ([`grab`]): the original trace (the shared L1) beside the golden
//!   trace (a private cache per thread, [`golden`]); each load miss classified `mh`, `m*h`
//!   or `mm`; each miss's root cause found by memoised eviction chains;
//!
//! and the results become a [`model::CacheReport`]: per fault type the count, the root
//! causes ranked by the misses they cause, their effects as (source line, block), a fix class
//! of GRAB's Table 2 and the misses it would remove; rendered as text, CSV and a sweep table
//! ([`render`]) or as [`warpscope_report::Finding`]s ([`findings`]).
//!
//! Entry point: [`analyze_spec`].

pub mod config;
pub mod findings;
pub mod golden;
pub mod grab;
pub mod model;
pub mod observer;
pub mod render;
pub mod sector_cache;
pub mod sites;

pub use config::{CacheConfig, ConfigError, Settings};
pub use model::CacheReport;
pub use observer::CacheObserver;

use std::sync::Arc;
use std::time::{Duration, Instant};
use warpscope_emu::{EmuError, LaunchSpec, RunOptions};
use warpscope_frontend::SourceMap;
use warpscope_ir::Module;

/// Everything a cache analysis produced.
pub struct CacheRun {
    pub report: CacheReport,
    pub module: Module,
    pub sources: SourceMap,
    /// Wall time of all runs.
    pub wall: Duration,
    /// Emulator runs (one per scheduler).
    pub runs: u32,
}

/// Why an analysis failed.
#[derive(Debug)]
pub enum CacheError {
    Config(ConfigError),
    Emu(EmuError),
}

impl std::fmt::Display for CacheError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CacheError::Config(e) => write!(f, "{e}"),
            CacheError::Emu(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CacheError {}

impl From<EmuError> for CacheError {
    fn from(e: EmuError) -> Self {
        CacheError::Emu(e)
    }
}

/// Runs `spec` once per scheduler of `settings` with the cache observer, analysing every
/// cache configuration of the sweep in the same run. `run` says how to emulate (SM count,
/// threads, budget, compile options); its scheduler and memory latency are replaced by the
/// settings'.
pub fn analyze_spec(
    spec: &LaunchSpec,
    settings: &Settings,
    run: &RunOptions,
) -> Result<CacheRun, CacheError> {
    let t0 = Instant::now();
    settings
        .validate(&|k| format!("cache setting `{k}`"))
        .map_err(CacheError::Config)?;
    let loaded = warpscope_emu::load_spec_module(spec, &run.compile)?;
    let module = loaded.module;
    let text = loaded.source.text;
    let table = Arc::new(sites::InstTable::new(&module, Some(&text)));
    let configs = settings.configs();
    let mut reports = Vec::new();
    let mut runs = 0;
    for &sched in &settings.schedulers {
        let mut opts = RunOptions {
            exec: run.exec.clone(),
            save_dir: run.save_dir.clone(),
            compile: run.compile.clone(),
            echo_printf: false,
        };
        opts.exec.scheduler = sched;
        opts.exec.memory_latency = settings.memory_latency;
        if let Some(n) = settings.sms {
            opts.exec.num_sms = n;
        }
        let mut obs = CacheObserver::new(table.clone(), configs.clone());
        warpscope_emu::run_spec_module(spec, module.clone(), Some(&text), &opts, &mut obs)?;
        runs += 1;
        reports.extend(model::build_configs(
            &table,
            &configs,
            sched,
            settings.memory_latency,
            &obs.launches,
        ));
    }
    Ok(CacheRun {
        report: CacheReport {
            spec: spec.path.display().to_string(),
            module: loaded.source.display_name,
            configs: reports,
        },
        module,
        sources: loaded.source_map,
        wall: t0.elapsed(),
        runs,
    })
}
