//! # warpscope-analysis
//!
//! `warpscope check`: finds divergent branches, uncoalesced and misaligned global accesses and
//! shared-memory bank conflicts in PTX without running it, and measures them.
//!
//! The pipeline, per kernel:
//!
//! 1. structural facts from the IR ([`warpscope_ir::FunctionAnalyses`]) and control
//!    dependence ([`control`]);
//! 2. thread dependence with provenance ([`uniformity`]), inter-procedural by summaries;
//! 3. the Arithmetic Control Form of every branch condition and address ([`acf`], over the
//!    node vocabulary of [`expr`]), with merges per GPUCheck's eq. 2 and call sites expanded
//!    in context (IACF);
//! 4. evaluation for the 32 lanes of each warp of the launch geometry ([`eval`], [`checks`]):
//!    divergence ratios and classes, sectors, lines and requests per warp request, bank
//!    conflicts ([`memory`]);
//! 5. [`warpscope_report::Finding`]s with locations, measures, provenance and fix hints
//!    ([`findings`]).
//!
//! [`drano`] is GPUDrano's abstract interpretation on the generic [`dataflow`] engine, the
//! alternative engine for comparisons. Entry point: [`check`].

// Lane loops index several per-lane arrays at once.
#![allow(clippy::needless_range_loop)]

pub mod acf;
pub mod block_shape;
pub mod checks;
pub mod dataflow;
pub mod drano;
pub mod eval;
pub mod expr;
pub mod findings;
pub mod geometry;
pub mod lowering;
pub mod memory;
pub mod names;
pub mod poly;
pub mod slow_path;
pub mod special_value;
mod stack;
pub mod symbols;
pub mod uniformity;
pub mod warp_sync;
pub mod warp_val;

pub use checks::{AccessResult, BranchResult, DivClass, GlobalCost, MemClass, SharedCost};
pub use geometry::{
    Assumptions, Geometry, GeometrySource, HostLaunch, ParamAssumption, parse_dim3,
};

use crate::acf::Builder;
use crate::uniformity::{CallArg, ModuleUniformity, call_args};
use cranelift_entity::SecondaryMap;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use warpscope_ir::control::ControlInfo;
use warpscope_ir::{FuncId, FunctionAnalyses, Inst, Module, Operand};
use warpscope_report::{KernelInfo, Report};

/// Which analysis engine produces findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Engine {
    /// GPUCheck-style Arithmetic Control Form evaluated per lane (precise).
    #[default]
    Acf,
    /// GPUDrano's abstract interpretation.
    Drano,
}

impl Engine {
    pub fn parse(s: &str) -> Option<Engine> {
        match s {
            "acf" | "gpucheck" | "precise" => Some(Engine::Acf),
            "drano" | "gpudrano" => Some(Engine::Drano),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Engine::Acf => "acf",
            Engine::Drano => "drano",
        }
    }
}

/// Geometry given for one kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelGeometry {
    pub block: Option<[u32; 3]>,
    pub grid: Option<[u32; 3]>,
    pub source: GeometrySource,
}

/// Everything `check` may be told.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    pub engine: Engine,
    /// Geometry for every kernel (from flags or a config file), with its source.
    pub geometry: Option<KernelGeometry>,
    /// Geometry per kernel (by CUDA base name or PTX name); wins over [`Self::geometry`].
    pub kernel_geometry: BTreeMap<String, KernelGeometry>,
    /// Geometry per kernel read from the host code's launch sites (by CUDA base name): used
    /// when neither the above nor `.reqntid`/`.maxntid` give the block.
    pub launch_geometry: BTreeMap<String, KernelGeometry>,
    /// Assumptions for every kernel.
    pub assumptions: Assumptions,
    /// Assumptions per kernel (by CUDA base name or PTX name); win over the global ones.
    pub kernel_assumptions: BTreeMap<String, Assumptions>,
    /// Only these kernels (CUDA base or PTX names); empty: all.
    pub kernels: Vec<String>,
    /// The launches of each kernel (by CUDA base name) read from host code: integer
    /// parameters that every launch passes as a compile-time constant are bound to it (a
    /// range when the launches differ), below `--assume` and the configuration file.
    pub launches: BTreeMap<String, Vec<HostLaunch>>,
    /// What ptxas compiled the module to, when the command line asked it (`--sass`): where a
    /// branch's line has SASS, whether a lane-splitting branch is there decides whether the
    /// branch is reported as one or as a note of kind `predicated` (see [`lowering`]).
    pub sass: Option<warpscope_sass::SassHandle>,
}

impl CheckOptions {
    /// Takes the launches read from host code: each kernel's geometry from the first launch
    /// whose block resolved ([`Self::launch_geometry`]), and its launch arguments
    /// ([`Self::launches`]).
    pub fn add_launches(&mut self, launches: impl IntoIterator<Item = HostLaunch>) {
        for l in launches {
            self.launches.entry(l.kernel.clone()).or_default().push(l);
        }
        for (kernel, all) in &self.launches {
            let Some(first) = all.iter().find(|l| l.block.is_some()) else {
                continue;
            };
            self.launch_geometry.insert(
                kernel.clone(),
                KernelGeometry {
                    block: first.block,
                    grid: first.grid,
                    source: GeometrySource::LaunchSite {
                        file: first.file.clone(),
                        line: first.line,
                        sites: all.len(),
                    },
                },
            );
        }
    }
}

/// The module to check, with what is needed to point into its texts.
pub struct Input<'a> {
    pub module: &'a Module,
    /// Name of the PTX file, for PTX locations.
    pub ptx_name: &'a str,
    /// PTX text (spans index into it).
    pub ptx_text: &'a str,
    /// CUDA source text by `.file` index, when available (quoting, parameter names,
    /// suppression comments).
    pub source: &'a (dyn Fn(u32) -> Option<String> + Sync),
}

/// Results for one kernel.
#[derive(Debug, Clone)]
pub struct KernelAnalysis {
    pub name: String,
    pub ptx_name: String,
    pub func: FuncId,
    pub geometry: Geometry,
    pub branches: Vec<BranchResult>,
    pub accesses: Vec<AccessResult>,
    /// GPUDrano's verdicts with the context (function) they are in.
    pub drano: Vec<(usize, drano::DranoVerdict)>,
    /// IEEE-rounded divisions, square roots and reciprocals whose slow path (added by ptxas)
    /// may diverge, with their context.
    pub slow_paths: Vec<(usize, slow_path::SlowPath)>,
    /// `redux.sync`s whose member mask may differ between lanes (serialised by ptxas), with
    /// their context.
    pub split_reduxes: Vec<(usize, warp_sync::SplitRedux)>,
    /// Floating-point shared-memory atomics that ptxas lowers into a compare-and-swap retry
    /// loop, run by more than one lane of a warp, with their context.
    pub atomic_retries: Vec<(usize, warpscope_ir::Inst)>,
    /// Calling contexts sites refer to (`site.ctx`): function and thread-dependent-parameter
    /// mask; context 0 is the kernel.
    pub contexts: Vec<(FuncId, u64)>,
    pub notes: Vec<String>,
    /// The kernel's Arithmetic Control Form (the `acf` engine), which the sites' nodes
    /// (`site.addr`, `site.active`, `site.cond`) index; [`KernelAnalysis::expr`] renders them.
    pub acf: Option<std::sync::Arc<acf::Acf>>,
    /// What [`KernelAnalysis::expr`] rendered, shared by the copies made for each block shape.
    renders: std::sync::Arc<std::sync::Mutex<acf::RenderCache>>,
    /// Parameters bound from the host code's launches: index and `NAME = VALUE (from the
    /// launch at FILE:LINE)`, repeated on the findings whose expressions read them.
    pub launch_bound: Vec<(u32, String)>,
}

impl KernelAnalysis {
    /// Node `n` of the kernel's ACF in canonical form as text (rendered on demand, once per
    /// node: most sites never need it, and rendering builds polynomials). Empty without an
    /// ACF.
    pub fn expr(&self, n: expr::Node) -> String {
        let Some(acf) = &self.acf else {
            return String::new();
        };
        match self.renders.lock() {
            Ok(mut cache) => acf.display_cached(n, &mut cache),
            Err(_) => acf.display(n),
        }
    }
}

/// Time spent per phase (for `docs/performance.md`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Timings {
    pub structure: Duration,
    pub uniformity: Duration,
    pub acf: Duration,
    pub evaluation: Duration,
    pub findings: Duration,
}

/// What `check` returns.
#[derive(Debug, Clone, Default)]
pub struct CheckResult {
    pub kernels: Vec<KernelAnalysis>,
    pub report: Report,
    /// Findings dropped by `// warpscope: allow(...)` comments.
    pub suppressed: usize,
    pub timings: Timings,
}

fn matches_kernel(names: &[&str], key: &str) -> bool {
    names.contains(&key)
}

/// Resolves the geometry of a kernel.
pub fn kernel_geometry(module: &Module, f: FuncId, opts: &CheckOptions) -> Geometry {
    let func = &module.funcs[f];
    let base = names::base_name(&func.name);
    let keys = [base.as_str(), func.name.as_str()];
    let per = opts
        .kernel_geometry
        .iter()
        .find(|(k, _)| matches_kernel(&keys, k))
        .map(|(_, v)| v);
    let mut g = Geometry::default();
    let mut block_set = false;
    for src in [per, opts.geometry.as_ref()].into_iter().flatten() {
        if !block_set && let Some(b) = src.block {
            g.block = b;
            g.block_source = src.source.clone();
            block_set = true;
        }
        if g.grid.is_none()
            && let Some(gr) = src.grid
        {
            g.grid = Some(gr);
            g.grid_source = Some(src.source.clone());
        }
    }
    if !block_set {
        if let Some(r) = func.attrs.reqntid {
            g.block = r.map(|v| v.max(1));
            g.block_source = GeometrySource::Reqntid;
            block_set = true;
        } else if let Some(r) = func.attrs.maxntid {
            g.block = r.map(|v| v.max(1));
            g.block_source = GeometrySource::Maxntid;
            block_set = true;
        }
    }
    if let Some(l) = opts
        .launch_geometry
        .iter()
        .find(|(k, _)| matches_kernel(&keys, k))
        .map(|(_, v)| v)
    {
        if !block_set && let Some(b) = l.block {
            g.block = b;
            g.block_source = l.source.clone();
        }
        if g.grid.is_none()
            && let Some(gr) = l.grid
        {
            g.grid = Some(gr);
            g.grid_source = Some(l.source.clone());
        }
    }
    g
}

/// Assumptions by (function, parameter index).
type ParamTable = FxHashMap<(FuncId, u32), ParamAssumption>;

/// A kernel's parameter assumptions by index, its parameters' CUDA names, the parameters
/// bound from host launches (index, description) and notes on those that could not be.
struct KernelParams {
    table: ParamTable,
    cuda: Vec<Option<String>>,
    launch_bound: Vec<(u32, String)>,
    notes: Vec<String>,
}

/// Resolves parameter assumptions of a kernel to parameter indices: CUDA names (from the
/// kernel's signature in the source), `#N`, or PTX parameter names; then binds the integer
/// parameters that the host code's launches pass as compile-time constants.
fn kernel_params(input: &Input<'_>, f: FuncId, opts: &CheckOptions) -> KernelParams {
    let module = input.module;
    let func = &module.funcs[f];
    let base = names::base_name(&func.name);
    let mut a = opts.assumptions.clone();
    for (k, v) in &opts.kernel_assumptions {
        if *k == base || k == &func.name {
            a.extend(v);
        }
    }
    // CUDA parameter declarations from the source around the kernel's first line.
    // The kernel's own first line (inlined code carries `inlined_at`).
    let first = func
        .insts_in_order()
        .filter_map(|(_, i)| func.insts[i].loc)
        .find(|l| l.line > 0 && l.inlined_at.is_none());
    let decls: Vec<Option<String>> = match first
        .and_then(|l| (input.source)(l.file).map(|t| (t, l.line)))
        .and_then(|(t, line)| names::cuda_param_decls(&t, &base, line))
    {
        Some(v) if v.len() == func.params.len() => v.into_iter().map(Some).collect(),
        _ => vec![None; func.params.len()],
    };
    let cuda: Vec<Option<String>> = decls
        .iter()
        .map(|d| d.as_deref().map(names::decl_name))
        .collect();
    let mut table = FxHashMap::default();
    for (i, p) in func.params.iter().enumerate() {
        let idx = format!("#{i}");
        let mut keys: Vec<&str> = vec![idx.as_str(), p.name.as_str()];
        if let Some(Some(n)) = cuda.get(i) {
            keys.push(n.as_str());
        }
        if let Some(pa) = a.get(&keys) {
            table.insert((f, i as u32), pa.clone());
        }
    }
    let mut out = KernelParams {
        table,
        cuda,
        launch_bound: Vec::new(),
        notes: Vec::new(),
    };
    let launches: Vec<&HostLaunch> = [base.as_str(), func.name.as_str()]
        .iter()
        .filter_map(|k| opts.launches.get(*k))
        .flatten()
        .filter(|l| l.args.len() == func.params.len())
        .collect();
    if launches.is_empty() {
        return out;
    }
    for (i, p) in func.params.iter().enumerate() {
        if out.table.contains_key(&(f, i as u32))
            || !names::integer_param(p.ty, decls[i].as_deref())
        {
            continue;
        }
        let name = out.cuda[i].clone().unwrap_or_else(|| format!("#{i}"));
        let at = |ls: &[&HostLaunch]| {
            let mut s: Vec<String> = ls
                .iter()
                .map(|l| format!("{}:{}", l.file, l.line))
                .collect();
            if s.len() > 3 {
                let more = s.len() - 3;
                s.truncate(3);
                s.push(format!("{more} more"));
            }
            s.join(", ")
        };
        if let Some(l) = launches.iter().find(|l| l.args[i].1.is_none()) {
            // Bind nothing unless every launch says; say why when others did.
            if launches.iter().any(|l| l.args[i].1.is_some()) {
                out.notes.push(format!(
                    "{name} not bound from the host code: the launch at {}:{} passes `{}`, \
                     not a compile-time constant",
                    l.file, l.line, l.args[i].0
                ));
            }
            continue;
        }
        let vals: Vec<i64> = launches.iter().filter_map(|l| l.args[i].1).collect();
        let (lo, hi) = (
            vals.iter().copied().min().unwrap_or(0),
            vals.iter().copied().max().unwrap_or(0),
        );
        if !names::fits(p.ty, lo) || !names::fits(p.ty, hi) {
            continue;
        }
        let pa = if lo == hi {
            ParamAssumption {
                value: Some(lo),
                source: Some(if launches.len() == 1 {
                    format!("from the launch at {}", at(&launches))
                } else {
                    format!("from the {} launches at {}", launches.len(), at(&launches))
                }),
                ..ParamAssumption::default()
            }
        } else {
            let mut distinct = vals.clone();
            distinct.sort_unstable();
            distinct.dedup();
            ParamAssumption {
                range: Some((lo, hi)),
                values: Some(distinct),
                source: Some(format!(
                    "the {} launches at {} pass different constants: each is examined",
                    launches.len(),
                    at(&launches),
                )),
                ..ParamAssumption::default()
            }
        };
        out.launch_bound.push((i as u32, pa.describe(&name)));
        out.table.insert((f, i as u32), pa);
    }
    out
}

/// Runs `check` on every kernel of the input.
pub fn check(input: &Input<'_>, opts: &CheckOptions) -> CheckResult {
    let module = input.module;
    let mut timings = Timings::default();
    let t0 = Instant::now();
    let mut analyses: SecondaryMap<FuncId, FunctionAnalyses> = SecondaryMap::new();
    let mut controls: SecondaryMap<FuncId, ControlInfo> = SecondaryMap::new();
    for (fid, f) in module.funcs.iter() {
        if f.is_declaration {
            continue;
        }
        let fa = FunctionAnalyses::compute(f);
        controls[fid] = ControlInfo::compute(f, &fa);
        analyses[fid] = fa;
    }
    timings.structure = t0.elapsed();
    let t1 = Instant::now();
    let uni = ModuleUniformity::compute(module, &analyses);
    timings.uniformity = t1.elapsed();

    let mut result = CheckResult::default();
    let mut report = Report {
        inputs: vec![input.ptx_name.to_string()],
        ..Report::default()
    };
    let kernels: Vec<FuncId> = module
        .kernels()
        .filter(|(_, func)| {
            let base = names::base_name(&func.name);
            opts.kernels.is_empty() || opts.kernels.iter().any(|k| *k == base || k == &func.name)
        })
        .map(|(f, _)| f)
        .collect();
    // Kernels are independent: analyse them in parallel, keep their order.
    let ptx = warpscope_ptx::source::Source::new(input.ptx_name, input.ptx_text);
    let shared = ModuleShared {
        input,
        ptx: &ptx,
        opts,
        analyses: &analyses,
        controls: &controls,
        uni: &uni,
        code: kernels
            .iter()
            .map(|&f| module.funcs[f].insts.len())
            .sum::<usize>()
            .max(1),
    };
    let one = |&fid: &FuncId| check_kernel(&shared, fid);
    let per_kernel: Vec<KernelOutcome> = if kernels.len() <= 1 || rayon::current_num_threads() <= 1
    {
        // One kernel (or none), or a pool of one thread: on this thread, without starting the
        // pool (a thread and the fresh allocator pages it touches cost more than a small
        // module's analysis).
        kernels.iter().map(one).collect()
    } else {
        kernels.par_iter().map(one).collect()
    };
    for (ka, mut fs, suppressed, t) in per_kernel {
        result.suppressed += suppressed;
        report.findings.append(&mut fs);
        report.kernels.push(KernelInfo {
            name: ka.name.clone(),
            ptx_name: ka.ptx_name.clone(),
            geometry: ka.geometry.to_string(),
            notes: ka.notes.clone(),
        });
        timings.acf += t.acf;
        timings.evaluation += t.evaluation;
        timings.findings += t.findings;
        result.kernels.push(ka);
    }
    report.sort();
    result.report = report;
    result.timings = timings;
    result
}

/// One kernel's analysis, findings, number of suppressed findings and timings.
type KernelOutcome = (
    KernelAnalysis,
    Vec<warpscope_report::Finding>,
    usize,
    Timings,
);

/// How the kernel note that says how many sites the hard evaluation limit left unmeasured
/// begins (reports look for it).
pub const UNMEASURED_NOTE: &str = "evaluation budget exhausted";

/// What the kernels of one module share while they are analysed (in parallel).
struct ModuleShared<'a> {
    input: &'a Input<'a>,
    ptx: &'a warpscope_ptx::source::Source<'a>,
    opts: &'a CheckOptions,
    analyses: &'a SecondaryMap<FuncId, FunctionAnalyses>,
    controls: &'a SecondaryMap<FuncId, ControlInfo>,
    uni: &'a ModuleUniformity,
    /// Instructions of the kernels analysed: they share the module's evaluation budget in
    /// proportion to their own.
    code: usize,
}

/// Analyses one kernel: its geometry and assumptions, the chosen engine, then its findings.
fn check_kernel(shared: &ModuleShared<'_>, fid: FuncId) -> KernelOutcome {
    let ModuleShared {
        input,
        ptx,
        opts,
        analyses,
        controls,
        uni,
        code,
    } = *shared;
    let module = input.module;
    let func = &module.funcs[fid];
    let share = func.insts.len() as f64 / code as f64;
    let base = names::base_name(&func.name);
    let mut timings = Timings::default();
    let geometry = kernel_geometry(module, fid, opts);
    let KernelParams {
        table: params,
        cuda: cuda_names,
        launch_bound,
        notes: param_notes,
    } = kernel_params(input, fid, opts);
    let mut ka = KernelAnalysis {
        name: base.to_string(),
        ptx_name: func.name.clone(),
        func: fid,
        geometry: geometry.clone(),
        branches: Vec::new(),
        accesses: Vec::new(),
        drano: Vec::new(),
        slow_paths: Vec::new(),
        split_reduxes: Vec::new(),
        atomic_retries: Vec::new(),
        contexts: vec![(fid, 0)],
        notes: param_notes,
        launch_bound,
        acf: None,
        renders: Default::default(),
    };
    for ((_, i), pa) in &params {
        let name = cuda_names
            .get(*i as usize)
            .cloned()
            .flatten()
            .unwrap_or_else(|| format!("#{i}"));
        ka.notes.push(format!("assuming {}", pa.describe(&name)));
    }
    ka.notes.sort();
    match opts.engine {
        Engine::Acf => {
            let t = Instant::now();
            let built = build_acf(module, analyses, controls, uni, fid);
            ka.acf = Some(built.acf.clone());
            timings.acf += t.elapsed();
            let t = Instant::now();
            let shapes =
                block_shape::candidates(&geometry, &built.acf, &built.branches, &built.accesses);
            if shapes.len() > 1 {
                // No block given and the kernel is 2-D: every common shape, each verdict
                // saying which shapes it needs.
                let mut per_shape = Vec::new();
                for g in &shapes {
                    let mut k = ka.clone();
                    k.geometry = g.clone();
                    let budget = checks::Budget::for_share(share, shapes.len());
                    evaluate(module, analyses, uni, &built, g, &params, budget, &mut k);
                    let (fs, sup) =
                        findings::kernel_findings(input, ptx, analyses, uni, &k, sass_of(opts));
                    per_shape.push((k, fs, sup));
                }
                timings.evaluation += t.elapsed();
                let fs = block_shape::merge_findings(&per_shape);
                let suppressed = per_shape.iter().map(|p| p.2).max().unwrap_or(0);
                let mut first = per_shape.swap_remove(0).0;
                first.notes.push(block_shape::shapes_note(&shapes));
                return (first, fs, suppressed, timings);
            }
            ka.geometry = shapes.into_iter().next().unwrap_or(geometry);
            evaluate(
                module,
                analyses,
                uni,
                &built,
                &ka.geometry.clone(),
                &params,
                checks::Budget::for_share(share, 1),
                &mut ka,
            );
            timings.evaluation += t.elapsed();
        }
        Engine::Drano => {
            let t = Instant::now();
            let cg = warpscope_ir::CallGraph::with_module(module);
            let mut funcs = vec![fid];
            let mut k = 0;
            while k < funcs.len() {
                for site in cg.calls_from(funcs[k]) {
                    if let Some(c) = site.callee
                        && !funcs.contains(&c)
                        && !module.funcs[c].is_declaration
                    {
                        funcs.push(c);
                    }
                }
                k += 1;
            }
            for f in funcs {
                let ctx = ka
                    .contexts
                    .iter()
                    .position(|c| c.0 == f)
                    .unwrap_or_else(|| {
                        ka.contexts.push((f, 0));
                        ka.contexts.len() - 1
                    });
                for v in drano::analyze(&module.funcs[f], &analyses[f], geometry.block) {
                    ka.drano.push((ctx, v));
                }
            }
            timings.evaluation += t.elapsed();
        }
    }
    let t = Instant::now();
    let (fs, suppressed) = findings::kernel_findings(input, ptx, analyses, uni, &ka, sass_of(opts));
    timings.findings += t.elapsed();
    (ka, fs, suppressed, timings)
}

/// The SASS line table, once ptxas is done and its cubin read (none when it was not asked or
/// failed: the branch verdicts then rest on [`lowering`]'s expectations alone).
fn sass_of(opts: &CheckOptions) -> Option<&warpscope_sass::LineBranches> {
    opts.sass.as_ref().and_then(|h| h.wait().as_ref().ok())
}

/// A kernel's Arithmetic Control Form with the sites to evaluate: what does not depend on
/// the launch geometry.
struct BuiltAcf {
    acf: std::sync::Arc<acf::Acf>,
    ctxs: Vec<acf::Ctx>,
    branches: Vec<acf::BranchSite>,
    accesses: Vec<acf::AccessSite>,
}

fn build_acf(
    module: &Module,
    analyses: &SecondaryMap<FuncId, FunctionAnalyses>,
    controls: &SecondaryMap<FuncId, ControlInfo>,
    uni: &ModuleUniformity,
    fid: FuncId,
) -> BuiltAcf {
    let td_args = |b: &Builder<'_>, ctx: usize, call: Inst| -> u64 {
        let c = &b.ctxs[ctx];
        let Some(u) = uni.get(c.func, c.td_mask) else {
            return 0;
        };
        let func = &module.funcs[c.func];
        let fa = &analyses[c.func];
        let (_, args) = call_args(func, call);
        let mut mask = 0u64;
        for (i, a) in args.iter().enumerate() {
            let td = match a {
                CallArg::Reg(r) => u.use_cause(fa, call, *r).is_some(),
                CallArg::Stored {
                    store,
                    value: Operand::Reg(r),
                } => u.use_cause(fa, *store, *r).is_some(),
                _ => false,
            };
            if td {
                mask |= 1 << i.min(63);
            }
        }
        mask
    };
    let mut b = Builder::new(module, analyses, controls, &td_args);
    let one = b.acf.konst(1);
    let ctx0 = b.context(fid, Vec::new(), None, 0, one);
    let mut branches = Vec::new();
    let mut accesses = Vec::new();
    b.collect(ctx0, &mut branches, &mut accesses);
    b.finish();
    b.acf.finalize();
    for site in &mut branches {
        if let Some(a) = b.acf.lane_varying_part(site.active) {
            site.active = a;
        }
    }
    b.resolve_generic_spaces(&mut accesses);
    BuiltAcf {
        ctxs: b.ctxs.clone(),
        acf: std::sync::Arc::new(b.acf),
        branches,
        accesses,
    }
}

/// Evaluates the built sites of a kernel in one launch geometry.
#[allow(clippy::too_many_arguments)]
fn evaluate(
    module: &Module,
    analyses: &SecondaryMap<FuncId, FunctionAnalyses>,
    uni: &ModuleUniformity,
    built: &BuiltAcf,
    geometry: &Geometry,
    params: &FxHashMap<(FuncId, u32), ParamAssumption>,
    budget: checks::Budget,
    ka: &mut KernelAnalysis,
) {
    let ctxs = &built.ctxs;
    let acf = &built.acf;
    let (branches, accesses) = (&built.branches, &built.accesses);
    let oracle = checks::Oracle {
        module,
        geometry,
        params,
    };
    let mut base_bind = FxHashMap::default();
    for ((f, i), pa) in params {
        if let Some(v) = pa.value {
            base_bind.insert(
                expr::Atom::Param {
                    func: *f,
                    index: *i,
                    offset: 0,
                },
                eval::WarpVal::konst(v),
            );
        }
    }
    let loop_index: FxHashMap<(usize, warpscope_ir::Block), u32> = acf
        .loops
        .iter()
        .enumerate()
        .map(|(i, l)| ((l.ctx, l.header), i as u32))
        .collect();
    let enclosing = |ctx: usize, blk: warpscope_ir::Block| -> Vec<u32> {
        let fa = &analyses[ctxs[ctx].func];
        warpscope_ir::control::loop_nest(fa, blk)
            .into_iter()
            .filter_map(|l| loop_index.get(&(ctx, fa.loops.get(l).header)).copied())
            .collect()
    };
    let mut param_ranges = Vec::new();
    for ((f, i), pa) in params {
        if pa.value.is_none()
            && let Some((lo, hi)) = pa.range
        {
            let n = (hi - lo + 1).max(1);
            let vals: Vec<i64> = if let Some(v) = &pa.values {
                v.clone()
            } else if n <= 64 {
                (lo..=hi).collect()
            } else {
                (0..64).map(|k| lo + (hi - lo) * k / 63).collect()
            };
            param_ranges.push((
                expr::Atom::Param {
                    func: *f,
                    index: *i,
                    offset: 0,
                },
                vals,
            ));
        }
    }
    param_ranges.sort_by_key(|(a, _)| format!("{a:?}"));
    let mut checker = checks::Checker {
        acf,
        syms: eval::Symbols::default(),
        oracle: &oracle,
        geometry,
        base_bind,
        enclosing: &enclosing,
        param_ranges,
        pitches: checks::pitch_params(acf),
        sim_cache: FxHashMap::default(),
        memos: Default::default(),
        verdict_cache: Default::default(),
        request_costs: Default::default(),
        warp_envs: Default::default(),
        grid_quotients: Default::default(),
        stride_gaps: Default::default(),
        budget,
    };
    // Sites left unmeasured once the hard limit of the budget is reached.
    let (mut skipped_branches, mut skipped_accesses) = (0usize, 0usize);
    // Per-site timings on stderr, for performance work: WARPSCOPE_TRACE=1.
    let trace = std::env::var_os("WARPSCOPE_TRACE").is_some();
    for site in branches {
        let c = &ctxs[site.ctx];
        let Some(u) = uni.get(c.func, c.td_mask) else {
            continue;
        };
        if u.branch_cause(site.inst).is_none() {
            continue;
        }
        if checker.budget.exhausted() {
            skipped_branches += 1;
            continue;
        }
        let t = Instant::now();
        let r = checker.branch(site);
        if trace {
            let line = module.funcs[c.func].insts[site.inst]
                .loc
                .map_or(0, |l| l.line);
            eprintln!(
                "[trace] {} branch {:?} (line {}): {:?}, {} node evaluations, {:?} {:?} maybe {} of {}",
                ka.name,
                site.inst,
                line,
                t.elapsed(),
                checker.budget.site_used(),
                r.class,
                r.ratio,
                r.maybe,
                r.total
            );
            if std::env::var_os("WARPSCOPE_TRACE_ACF").is_some() {
                eprintln!("    cond {}", acf.display(site.cond));
                eprintln!("    active {}", acf.display(site.active));
            }
        }
        ka.branches.push(r);
    }
    // Constant loads last: what they spend of the budget never leaves a global or shared
    // access unmeasured.
    let (global_sites, const_sites): (Vec<&acf::AccessSite>, Vec<_>) = accesses
        .iter()
        .partition(|s| s.space != warpscope_ptx::StateSpace::Const);
    for site in global_sites.into_iter().chain(const_sites) {
        let c = &ctxs[site.ctx];
        let Some(u) = uni.get(c.func, c.td_mask) else {
            continue;
        };
        if !checks::measured(site.space) {
            continue;
        }
        let func = &module.funcs[c.func];
        if u.address_cause(func, &analyses[c.func], site.inst)
            .is_none()
        {
            continue;
        }
        if checker.budget.exhausted() {
            skipped_accesses += 1;
            continue;
        }
        let t = Instant::now();
        ka.accesses.push(checker.access(site));
        if trace {
            eprintln!(
                "[trace] {} access {:?}: {:?}, {} node evaluations",
                ka.name,
                site.inst,
                t.elapsed(),
                checker.budget.site_used()
            );
        }
    }
    if trace {
        eprintln!(
            "[trace] {}: cost {} of {}, {skipped_branches} branches and {skipped_accesses} accesses not measured",
            ka.name,
            checker.budget.cost_used(),
            checker.budget.hard()
        );
    }
    if skipped_branches + skipped_accesses > 0 {
        ka.notes.push(format!(
            "{UNMEASURED_NOTE}: {skipped_branches} thread-dependent branch(es) and \
             {skipped_accesses} access(es) were not measured and have no finding (the sites \
             before them were; `--kernel` analyses one kernel with the whole module's budget)"
        ));
    }
    // Remember the context of each site for provenance.
    ka.notes
        .extend(ctxs.iter().skip(1).filter(|c| c.parent.is_some()).map(|c| {
            format!(
                "analysed `{}` in a calling context (IACF)",
                names::base_name(&module.funcs[c.func].name)
            )
        }));
    ka.notes.dedup();
    ka.contexts = ctxs.iter().map(|c| (c.func, c.td_mask)).collect();
    // Which lanes reach each block, from the sites found in it.
    let mut block_active: FxHashMap<(usize, warpscope_ir::Block), expr::Node> =
        FxHashMap::default();
    for b in branches.iter() {
        block_active.entry((b.ctx, b.block)).or_insert(b.active);
    }
    for a in accesses.iter() {
        block_active.entry((a.ctx, a.block)).or_insert(a.active);
    }
    for (k, c) in ctxs.iter().enumerate() {
        if let Some(u) = uni.get(c.func, c.td_mask) {
            let func = &module.funcs[c.func];
            let fa = &analyses[c.func];
            ka.slow_paths.extend(
                slow_path::slow_paths(func, fa, u)
                    .into_iter()
                    // A slow path only one lane of a warp can run (`if (rank == 0)
                    // out = sqrt(sum)`) cannot split the warp.
                    .filter(|s| {
                        let b = func.inst_block[s.inst];
                        !block_active
                            .get(&(k, b))
                            .is_some_and(|&act| checker.at_most_one_lane(act))
                    })
                    .map(|s| (k, s)),
            );
            // Only lanes that collide retry: one lane per warp never splits it.
            ka.atomic_retries.extend(
                slow_path::atomic_retries(func)
                    .into_iter()
                    .filter(|&i| {
                        let b = func.inst_block[i];
                        !block_active
                            .get(&(k, b))
                            .is_some_and(|&act| checker.at_most_one_lane(act))
                    })
                    .map(|i| (k, i)),
            );
            ka.split_reduxes.extend(
                warp_sync::split_reduxes(func, &analyses[c.func], u)
                    .into_iter()
                    .map(|s| (k, s)),
            );
        }
    }
}
