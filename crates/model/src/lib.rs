//! # warpscope-model
//!
//! `warpscope model`: the divergence performance model and thread regrouping of Liang et al.
//! (paper 002, "An Accurate GPU Performance Model for Effective Control Flow Divergence
//! Optimization"), for an H100, on top of the per-thread basic-block vectors (BBVs) that
//! `warpscope profile` collects on the emulator.
//!
//! * [`latency`]: the H100 instruction latency table (measured with our `clock64`
//!   micro-benchmarks) and basic-block latency = the sum of its instructions' latencies;
//! * [`machine`]: SMs, per-SM limits and occupancy (registers from `ptxas -v` when found);
//! * [`estimate`]: BBV-weighted and BBV-weighted-scheduled, and the no-divergence estimate;
//! * [`throughput`]: warpscope's own H100 throughput estimate (an extension, not the paper's):
//!   latency, issue, unit, memory and launch bounds per block, with measured machine facts;
//! * [`attribution`]: the divergence cost assigned to branches, joined with the divergence map;
//! * [`regroup`]: Sorting, Greedy and Greedy-Max;
//! * [`emit`]: the regrouped launch (permutation buffer, launch spec, PTX rewritten to read
//!   `perm[global id]`, the paper's reference redirection);
//! * [`fit`]: BBV estimation from inputs (equation 1, least squares) with its error;
//! * [`render`]: text, JSON and CSV, and [`warpscope_report::Finding`]s;
//! * [`page`]: the model on an HTML report page.
//!
//! Entry point: [`model_spec`].

pub mod attribution;
pub mod emit;
pub mod estimate;
pub mod fit;
pub mod footprint;
pub mod latency;
pub mod machine;
pub mod page;
pub mod regroup;
pub mod render;
pub mod throughput;

use serde::Serialize;
use std::collections::HashMap;
use std::time::{Duration, Instant};
use warpscope_emu::{LaunchSpec, SmLimits};
use warpscope_ir::{FuncId, Module};
use warpscope_profile::bbv::LaunchBbv;
use warpscope_profile::{Profile, ProfileError, ProfileOptions, profile_spec};

pub use attribution::BranchCost;
pub use latency::LatencyTable;
pub use machine::{H100_SMS, Occupancy, RegSource};
pub use regroup::Algorithm;
pub use throughput::{H100Estimate, H100Machine};

/// Options of [`model_spec`].
pub struct ModelOptions {
    /// How to run the profile (BBVs are always recorded).
    pub profile: ProfileOptions,
    pub sms: u32,
    pub limits: SmLimits,
    /// Threads per regrouping group (a multiple of 32).
    pub group_size: usize,
    pub latency: LatencyTable,
    /// Registers per thread for every kernel instead of `ptxas -v`.
    pub regs: Option<u32>,
    /// Which regroupings to compute.
    pub algorithms: Vec<Algorithm>,
    /// Keep each launch's thread order per algorithm (for [`emit`]).
    pub keep_orders: bool,
    /// The machine facts of the H100 throughput estimate.
    pub machine: H100Machine,
}

impl Default for ModelOptions {
    fn default() -> Self {
        ModelOptions {
            profile: ProfileOptions::default(),
            sms: H100_SMS,
            limits: SmLimits::default(),
            group_size: 32,
            latency: LatencyTable::h100(),
            regs: None,
            algorithms: Algorithm::ALL.to_vec(),
            keep_orders: false,
            machine: H100Machine::h100(),
        }
    }
}

/// The estimates of one launch or kernel (cycles).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Estimates {
    pub bbv_weighted: f64,
    pub bbv_weighted_scheduled: f64,
    /// BBV-weighted-scheduled with every warp's threads following one path.
    pub no_divergence: f64,
    /// `bbv_weighted_scheduled − no_divergence`.
    pub divergence_cost: f64,
}

impl Estimates {
    fn add(&mut self, o: &Estimates) {
        self.bbv_weighted += o.bbv_weighted;
        self.bbv_weighted_scheduled += o.bbv_weighted_scheduled;
        self.no_divergence += o.no_divergence;
        self.divergence_cost += o.divergence_cost;
    }
}

/// One regrouping's estimates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Regrouped {
    pub algorithm: Algorithm,
    pub bbv_weighted: f64,
    pub bbv_weighted_scheduled: f64,
    /// Estimated speedup: BBV-weighted-scheduled before / after.
    pub speedup: f64,
    /// warpscope's H100 throughput estimate of the launch in the regrouped order (cycles), with
    /// the original run's sectors per request: a regrouping that changes coalescing is seen only
    /// by modelling its emitted spec.
    pub h100: f64,
    pub divergent_warps: u64,
    /// Wall time of the algorithm and its evaluation.
    #[serde(skip)]
    pub wall: Duration,
}

/// The model of one launch.
#[derive(Clone, Debug, Serialize)]
pub struct LaunchModel {
    pub launch: u32,
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub threads: usize,
    pub warps: u64,
    pub divergent_warps: u64,
    pub distinct_vectors: usize,
    pub occupancy: Occupancy,
    pub estimates: Estimates,
    /// warpscope's H100 throughput estimate (not the paper's), with its parts.
    pub h100: H100Estimate,
    pub regrouped: Vec<Regrouped>,
    /// Thread order per algorithm (`order[slot] = thread`), when kept.
    #[serde(skip)]
    pub orders: Vec<(Algorithm, Vec<u32>)>,
}

/// The model of one kernel, over its profiled launches.
#[derive(Clone, Debug, Serialize)]
pub struct KernelModel {
    /// Display name.
    pub name: String,
    pub ptx_name: String,
    pub launches: u32,
    pub threads: usize,
    pub estimates: Estimates,
    /// warpscope's H100 throughput estimate (not the paper's), summed over launches (cycles).
    pub h100: f64,
    /// What bounds the H100 estimate of the kernel's longest launch.
    pub h100_bound: throughput::Bound,
    /// BBV-weighted-scheduled after each regrouping, summed over launches.
    pub regrouped: Vec<(Algorithm, f64)>,
    /// The H100 throughput estimate after each regrouping (original sectors), summed over
    /// launches.
    pub regrouped_h100: Vec<(Algorithm, f64)>,
    /// Branches by descending divergence cost.
    pub branches: Vec<BranchCost>,
    /// Divergence cost that depends on no conditional branch (callee entries, exits).
    pub unattributed_cost: f64,
    /// Why the kernel looks memory-bound (the model's estimate does not cover it), if it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_bound: Option<String>,
}

/// Everything `warpscope model` computed.
#[derive(Clone, Debug, Serialize)]
pub struct ModelReport {
    pub spec: String,
    pub module: String,
    pub sms: u32,
    pub group_size: usize,
    pub latency_table: String,
    /// Where the H100 estimate's instruction counts come from: ptxas's SASS per PTX block, or
    /// the PTX lowering table when ptxas is not at hand.
    pub instruction_counts: String,
    /// SM clock of the latency table's device (MHz), to turn cycles into time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock_mhz: Option<f64>,
    pub kernels: Vec<KernelModel>,
    pub launches: Vec<LaunchModel>,
}

/// A finished model run.
pub struct ModelRun {
    pub report: ModelReport,
    pub profile: Profile,
    pub module: Module,
    pub sources: warpscope_frontend::SourceMap,
    /// Wall time of the profile (emulation with observers).
    pub profile_wall: Duration,
    /// Wall time of the model and the regroupings.
    pub model_wall: Duration,
}

/// Per-thread latency of each BBV column.
pub fn column_latencies(module: &Module, l: &LaunchBbv, table: &LatencyTable) -> Vec<f64> {
    l.columns
        .iter()
        .map(|&(f, b, _)| table.block(&module.funcs[f], b))
        .collect()
}

/// SM clock (MHz) used for the H100 estimate's measured microseconds when the latency table
/// records none: the clock the committed table was measured at.
pub const H100_CLOCK_MHZ: f64 = 1979.5;

/// Bytes of the buffers launch entry `entry` of `spec` is given.
fn launch_buffer_bytes(spec: &LaunchSpec, entry: Option<usize>) -> f64 {
    let Some(e) = entry.and_then(|e| spec.launches.get(e)) else {
        return 0.0;
    };
    let mut names: Vec<&str> = e
        .args
        .iter()
        .filter_map(|a| match a {
            warpscope_emu::spec::Arg::Buffer { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    names
        .iter()
        .filter_map(|n| spec.buffers.iter().find(|b| b.name == *n))
        .map(|b| b.bytes() as f64)
        .sum()
}

/// Bytes of the buffer each parameter of launch entry `entry` points into (from the
/// argument's offset to the buffer's end), `None` for scalars.
fn launch_param_bytes(spec: &LaunchSpec, entry: Option<usize>) -> Vec<Option<f64>> {
    let Some(e) = entry.and_then(|e| spec.launches.get(e)) else {
        return Vec::new();
    };
    e.args
        .iter()
        .map(|a| match a {
            warpscope_emu::spec::Arg::Buffer { name, offset } => spec
                .buffers
                .iter()
                .find(|b| b.name == *name)
                .map(|b| b.bytes().saturating_sub(*offset) as f64),
            _ => None,
        })
        .collect()
}

/// Profiles `spec` and models every profiled launch.
pub fn model_spec(spec: &LaunchSpec, mut opts: ModelOptions) -> Result<ModelRun, ProfileError> {
    opts.profile.bbv = true;
    // ptxas (and nvdisasm, which spends about 0.6 s starting) on the module while the emulator
    // profiles it: they do not depend on each other
    let (run, ptxas) = std::thread::scope(|s| {
        let sass = s.spawn(|| ptxas_for(spec, &opts));
        let run = profile_spec(spec, &opts.profile);
        (run, sass.join().ok().flatten())
    });
    let run = run?;
    let t0 = Instant::now();
    let bbvs = run.bbv.as_deref().unwrap_or_default();
    let report = model_launches(&run.module, &run.profile, bbvs, ptxas.as_ref(), spec, &opts);
    Ok(ModelRun {
        report,
        profile: run.profile,
        module: run.module,
        sources: run.sources,
        profile_wall: run.wall,
        model_wall: t0.elapsed(),
    })
}

/// Models the launches of a profile that recorded BBVs (`ProfileOptions::bbv`; without them
/// nothing is modelled), so a caller that needs the profile too (`warpscope report`) runs the
/// emulator once.
pub fn model_profiled(
    spec: &LaunchSpec,
    run: &warpscope_profile::ProfileRun,
    opts: &ModelOptions,
) -> ModelReport {
    let bbvs = run.bbv.as_deref().unwrap_or_default();
    let ptxas = ptxas_for(spec, opts);
    model_launches(&run.module, &run.profile, bbvs, ptxas.as_ref(), spec, opts)
}

/// ptxas's registers, stack frames and SASS for the module of `spec`
/// ([`machine::ptxas_info_with_sass`]); `None` without ptxas.
fn ptxas_for(spec: &LaunchSpec, opts: &ModelOptions) -> Option<machine::PtxasInfo> {
    warpscope_emu::load_spec_module(spec, &opts.profile.run.compile)
        .ok()
        .and_then(|m| {
            let nvcc = opts.profile.run.compile.compiler.as_deref();
            machine::ptxas_info_with_sass(&m.source.text, &m.module, nvcc)
        })
}

/// Models launches whose BBVs are already known.
pub fn model_launches(
    module: &Module,
    profile: &Profile,
    bbvs: &[LaunchBbv],
    ptxas: Option<&machine::PtxasInfo>,
    spec: &LaunchSpec,
    opts: &ModelOptions,
) -> ModelReport {
    let entries = emit::launch_entries(spec);
    let mut launches = Vec::new();
    let mut kernels: Vec<KernelModel> = Vec::new();
    let mut excess: HashMap<String, attribution::ColumnExcess> = HashMap::new();
    let mut longest_h100: HashMap<String, f64> = HashMap::new();
    // each launch's classes, and per kernel `Σ_w n_w[b]` over its launches (the profile's
    // warp-level counts are summed over them too)
    let prepared: Vec<(Vec<f64>, estimate::Classes)> = bbvs
        .iter()
        .map(|l| {
            let lat = column_latencies(module, l, &opts.latency);
            let classes = estimate::Classes::new(&l.counts, l.columns.len(), &lat);
            (lat, classes)
        })
        .collect();
    let mut max_exec: HashMap<FuncId, Vec<f64>> = HashMap::new();
    for (l, (_, classes)) in bbvs.iter().zip(&prepared) {
        let m = throughput::max_executions(classes, l.block.iter().product());
        let acc = max_exec
            .entry(l.kernel)
            .or_insert_with(|| vec![0.0; m.len()]);
        if acc.len() == m.len() {
            acc.iter_mut().zip(&m).for_each(|(a, x)| *a += x);
        }
    }
    for (l, (lat, classes)) in bbvs.iter().zip(prepared) {
        let func = &module.funcs[l.kernel];
        let tpb: u32 = l.block.iter().product();
        let (regs, regs_from) = match (opts.regs, ptxas.and_then(|m| m.registers.get(&func.name))) {
            (Some(r), _) => (r, RegSource::Given),
            (None, Some(&r)) => (r, RegSource::Ptxas),
            (None, None) => (
                machine::estimated_registers(module, l.kernel),
                RegSource::Estimate,
            ),
        };
        let dyn_shared = entries
            .get(l.launch as usize)
            .and_then(|&e| spec.launches.get(e))
            .map(|e| e.shared_bytes)
            .unwrap_or(0);
        let shared = machine::static_shared(module, l.kernel).saturating_add(dyn_shared);
        let (per_sm, limiter) = machine::blocks_per_sm(&opts.limits, tpb, regs, shared);
        let occupancy = Occupancy {
            blocks_per_sm: per_sm,
            regs_per_thread: regs,
            regs_from,
            shared_per_block: shared,
            limiter,
        };
        let t = estimate::block_times(&classes, &lat, tpb as usize, None, true);
        let sched = estimate::bbv_weighted_scheduled(&t.as_run, opts.sms, per_sm);
        let nd = estimate::bbv_weighted_scheduled(&t.no_divergence, opts.sms, per_sm);
        let est = Estimates {
            bbv_weighted: estimate::bbv_weighted(&t.as_run, opts.sms),
            bbv_weighted_scheduled: sched,
            no_divergence: nd,
            divergence_cost: (sched - nd).max(0.0),
        };
        let buffer_bytes = launch_buffer_bytes(spec, entries.get(l.launch as usize).copied());
        // a global load in a dependent chain waits for the L2 (back-to-back launches keep
        // data that fit there), or for DRAM when the launch's buffers do not fit
        let global_load = opts.latency.get(if buffer_bytes > opts.machine.l2_bytes {
            "ld_global_dram"
        } else {
            "ld_global_l2"
        });
        // ptxas kept the kernel's `.local` arrays in registers (no stack frame): its local
        // accesses are register reads and writes, not local-memory traffic
        let promoted = ptxas.and_then(|p| p.stack_frame.get(&func.name)) == Some(&0);
        let local_per_thread = if promoted {
            0.0
        } else {
            machine::local_bytes(module, l.kernel) as f64
        };
        // the L1 the SM's resident blocks leave to global data, and the loads it serves
        let nblocks = classes.threads().div_ceil(tpb.max(1) as usize) as u64;
        let sharing = u64::from(per_sm).min(nblocks.div_ceil(u64::from(opts.sms.max(1))).max(1));
        let free_l1 = opts.machine.l1_bytes
            - sharing as f64 * (f64::from(shared) + f64::from(tpb) * local_per_thread);
        let param_bytes = launch_param_bytes(spec, entries.get(l.launch as usize).copied());
        let (l1_loads, l1_bytes) =
            footprint::l1_resident_loads(module, l.kernel, &param_bytes, free_l1);
        let mut cost = throughput::column_costs(
            module,
            l,
            profile.kernel(&func.name),
            &opts.latency,
            global_load,
            &l1_loads,
            &opts.machine,
        );
        if let Some(s) = ptxas.and_then(|p| p.sass.as_ref()) {
            // the PTX path's latency of an instruction, for SASS without a measured one
            let ptx_latency = |f: warpscope_ir::FuncId, i: warpscope_ir::Inst| {
                let inst = &module.funcs[f].insts[i];
                let class = latency::class_of(inst);
                if throughput::lowered(inst).0 == 0.0 {
                    return (0.0, class);
                }
                let lat = match class {
                    "ld_global" if l1_loads.has(f, i) => opts.latency.get("ld_global"),
                    "ld_global" => global_load,
                    c => opts.latency.get(c),
                };
                (lat, class)
            };
            throughput::sass_counts::apply(module, l, s, &mut cost, &ptx_latency);
        }
        if promoted {
            cost.iter_mut().for_each(|c| c.local_sectors = 0.0);
        }
        if let Some(mx) = max_exec.get(&l.kernel) {
            let sass = ptxas.and_then(|p| p.sass.as_ref());
            let kept_in_sass = |f: warpscope_ir::FuncId, b: warpscope_ir::Block| {
                use cranelift_entity::EntityRef;
                let name = &module.funcs[f].name;
                sass.filter(|s| s.has_function(name))
                    .and_then(|s| s.block(name, b.index() as u32))
                    .and_then(|s| s.branch)
            };
            throughput::simt_refine(
                module,
                l,
                profile.kernel(&func.name),
                mx,
                &opts.machine,
                &kept_in_sass,
                &mut cost,
            );
        }
        let h100_input = throughput::LaunchInput {
            classes: &classes,
            cost: &cost,
            threads_per_block: tpb,
            order: None,
            sms: opts.sms,
            blocks_per_sm: per_sm,
            buffer_bytes,
            local_bytes_per_thread: local_per_thread,
            l1_cold_sectors: nblocks.min(u64::from(opts.sms)) as f64 * l1_bytes / 32.0,
            clock_mhz: opts.latency.clock_mhz().unwrap_or(H100_CLOCK_MHZ),
        };
        let h100 = throughput::estimate(&h100_input, &opts.machine);
        // The regroupings are independent of each other: run them side by side (rayon keeps
        // the algorithms' order in what it collects, so the output does not depend on it).
        let runs: Vec<(Regrouped, Vec<u32>)> = {
            use rayon::prelude::*;
            opts.algorithms
                .par_iter()
                .map(|&alg| {
                    let t1 = Instant::now();
                    let order = regroup::regroup(alg, &classes, &lat, opts.group_size);
                    let rt =
                        estimate::block_times(&classes, &lat, tpb as usize, Some(&order), false);
                    let s = estimate::bbv_weighted_scheduled(&rt.as_run, opts.sms, per_sm);
                    let h = throughput::estimate(
                        &throughput::LaunchInput {
                            order: Some(&order),
                            ..h100_input
                        },
                        &opts.machine,
                    );
                    let r = Regrouped {
                        algorithm: alg,
                        bbv_weighted: estimate::bbv_weighted(&rt.as_run, opts.sms),
                        bbv_weighted_scheduled: s,
                        speedup: if s > 0.0 { sched / s } else { 1.0 },
                        h100: h.cycles,
                        divergent_warps: rt.divergent_warps,
                        wall: t1.elapsed(),
                    };
                    (r, order)
                })
                .collect()
        };
        let mut regrouped = Vec::with_capacity(runs.len());
        let mut orders = Vec::new();
        for (r, order) in runs {
            if opts.keep_orders {
                orders.push((r.algorithm, order));
            }
            regrouped.push(r);
        }
        let display = warpscope_profile::model::display_name(&func.name);
        let km = match kernels.iter_mut().find(|k| k.ptx_name == func.name) {
            Some(k) => k,
            None => {
                kernels.push(KernelModel {
                    name: display.clone(),
                    ptx_name: func.name.clone(),
                    launches: 0,
                    threads: 0,
                    estimates: Estimates::default(),
                    h100: 0.0,
                    h100_bound: h100.bound,
                    regrouped: opts.algorithms.iter().map(|&a| (a, 0.0)).collect(),
                    regrouped_h100: opts.algorithms.iter().map(|&a| (a, 0.0)).collect(),
                    branches: Vec::new(),
                    unattributed_cost: 0.0,
                    memory_bound: None,
                });
                kernels.last_mut().expect("just pushed")
            }
        };
        km.launches += 1;
        km.threads += classes.threads();
        km.estimates.add(&est);
        let longest = longest_h100.entry(func.name.clone()).or_insert(0.0);
        if h100.cycles >= *longest {
            *longest = h100.cycles;
            km.h100_bound = h100.bound;
        }
        km.h100 += h100.cycles;
        for (slot, r) in km.regrouped.iter_mut().zip(&regrouped) {
            slot.1 += r.bbv_weighted_scheduled;
        }
        for (slot, r) in km.regrouped_h100.iter_mut().zip(&regrouped) {
            slot.1 += r.h100;
        }
        // per-column excess, scaled per launch to its scheduled divergence cost
        let e = excess
            .entry(func.name.clone())
            .or_insert_with(|| (l.columns.clone(), vec![0.0; l.columns.len()]));
        let sum: f64 = t.column_excess.iter().sum();
        if sum > 0.0 && e.1.len() == t.column_excess.len() {
            for (acc, x) in e.1.iter_mut().zip(&t.column_excess) {
                *acc += x / sum * est.divergence_cost;
            }
        }
        launches.push(LaunchModel {
            launch: l.launch,
            kernel: display,
            grid: l.grid,
            block: l.block,
            threads: classes.threads(),
            warps: t.warps,
            divergent_warps: t.divergent_warps,
            distinct_vectors: classes.len(),
            occupancy,
            estimates: est,
            h100,
            regrouped,
            orders,
        });
    }
    for k in &mut kernels {
        let Some(kid) = module.func_by_name(&k.ptx_name) else {
            continue;
        };
        if let (Some(ex), Some(kp)) = (excess.get(&k.ptx_name), profile.kernel(&k.ptx_name)) {
            let funcs = machine::kernel_functions(module, kid);
            let deps = attribution::ControlDeps::new(module, &funcs);
            let (branches, un) = attribution::attribute(
                module,
                profile,
                kp,
                ex,
                &deps,
                k.estimates.divergence_cost,
                k.estimates.bbv_weighted_scheduled,
            );
            k.branches = branches;
            k.unattributed_cost = un;
            k.memory_bound = memory_bound(kp);
        }
    }
    ModelReport {
        spec: spec.path.display().to_string(),
        module: profile.module.clone(),
        sms: opts.sms,
        group_size: opts.group_size,
        latency_table: opts.latency.source.clone(),
        instruction_counts: machine::PtxasInfo::instruction_counts(ptxas),
        clock_mhz: opts.latency.clock_mhz(),
        kernels,
        launches,
    }
}

/// Thread instructions per byte of global traffic below which a kernel looks memory-bound on
/// an H100: 132 SMs × 128 lanes × 1.98 GHz ≈ 33.5 T thread instructions/s against
/// 3.35 TB/s of HBM3 is 10 instructions per byte.
pub const MEMORY_BOUND_INSTRUCTIONS_PER_BYTE: f64 = 10.0;

/// Why a kernel looks memory-bound, if it does: its thread instructions per byte of global
/// traffic (sectors × 32) fall below [`MEMORY_BOUND_INSTRUCTIONS_PER_BYTE`].
pub fn memory_bound(k: &warpscope_profile::KernelProfile) -> Option<String> {
    let bytes = k.totals.global.sectors as f64 * 32.0;
    if bytes <= 0.0 {
        return None;
    }
    let ipb = k.totals.thread_instructions as f64 / bytes;
    (ipb < MEMORY_BOUND_INSTRUCTIONS_PER_BYTE).then(|| {
        format!(
            "{ipb:.1} thread instructions per byte of global traffic (< {MEMORY_BOUND_INSTRUCTIONS_PER_BYTE} on an H100): \
             likely memory-bound, which the model (compute latencies only) does not estimate"
        )
    })
}
