//! What divergence costs, branch by branch: the gap between the estimate as run and the
//! no-divergence estimate, split over basic blocks by `lat[b] × (max − mean)` (summed over
//! warps, see [`crate::estimate`]) and assigned to the conditional branches each block is
//! control dependent on (Ferrante et al., from `warpscope-ir`; a block depending on several
//! branches splits its share evenly), then joined with the profile's divergence map (δ and τ
//! of each branch) and its source location.

use cranelift_entity::EntityRef;
use serde::Serialize;
use std::collections::HashMap;
use warpscope_ir::control::ControlInfo;
use warpscope_ir::{Block, FuncId, FunctionAnalyses, Module};
use warpscope_profile::{KernelProfile, Profile};
use warpscope_report::Location;

/// The divergence cost assigned to one conditional branch.
#[derive(Clone, Debug, Serialize)]
pub struct BranchCost {
    /// PTX name of the function holding the branch.
    pub function: String,
    /// Instruction index of the branch in its function.
    pub inst: u32,
    pub location: Location,
    /// Cycles of the kernel's BBV-weighted-scheduled estimate attributed to this branch.
    pub cost_cycles: f64,
    /// Share of the kernel's BBV-weighted-scheduled estimate.
    pub share: f64,
    /// Divergence map: warp visits (τ) and divergent visits (δ) on the profiled run.
    pub visits: u64,
    pub divergent_visits: u64,
}

/// Blocks of each function that the branches ending `deps` blocks control.
pub struct ControlDeps {
    per_func: HashMap<FuncId, ControlInfo>,
}

impl ControlDeps {
    pub fn new(module: &Module, funcs: &[FuncId]) -> ControlDeps {
        let per_func = funcs
            .iter()
            .filter(|&&f| !module.funcs[f].is_declaration)
            .map(|&f| {
                let func = &module.funcs[f];
                let fa = FunctionAnalyses::compute(func);
                (f, ControlInfo::compute(func, &fa))
            })
            .collect();
        ControlDeps { per_func }
    }

    /// The branch blocks `b` of `f` is control dependent on.
    pub fn of(&self, f: FuncId, b: Block) -> &[Block] {
        self.per_func
            .get(&f)
            .map(|c| c.deps[b].as_slice())
            .unwrap_or(&[])
    }
}

/// The profile columns of a kernel (function, block, column) with each column's excess cycles
/// (as run minus no divergence), summed over the kernel's launches.
pub type ColumnExcess = (Vec<(FuncId, Block, u32)>, Vec<f64>);

/// Splits `total` cycles over branches in proportion to the per-column excess.
/// Returns the branches by descending cost and the cycles no branch explains (blocks that
/// depend on no conditional branch of their function, e.g. callee entry blocks).
pub fn attribute(
    module: &Module,
    profile: &Profile,
    kernel: &KernelProfile,
    (columns, column_excess): &ColumnExcess,
    deps: &ControlDeps,
    total: f64,
    kernel_estimate: f64,
) -> (Vec<BranchCost>, f64) {
    let sum: f64 = column_excess.iter().sum();
    if sum <= 0.0 || total <= 0.0 {
        return (Vec::new(), 0.0);
    }
    let scale = total / sum;
    let mut by_branch: HashMap<(FuncId, Block), f64> = HashMap::new();
    let mut unattributed = 0.0;
    for (&(f, b, _), &x) in columns.iter().zip(column_excess) {
        if x <= 0.0 {
            continue;
        }
        let d = deps.of(f, b);
        if d.is_empty() {
            unattributed += x * scale;
            continue;
        }
        let each = x * scale / d.len() as f64;
        for &a in d {
            *by_branch.entry((f, a)).or_default() += each;
        }
    }
    let mut out: Vec<BranchCost> = by_branch
        .into_iter()
        .filter_map(|((f, a), cost)| {
            let func = &module.funcs[f];
            let inst = func.last_inst(a)?.index() as u32;
            let ip = kernel
                .instructions
                .iter()
                .find(|i| i.function == func.name && i.inst == inst);
            let (location, visits, divergent_visits) = match ip {
                Some(ip) => (
                    warpscope_profile::findings::location(profile, ip),
                    ip.counters.branch_visits,
                    ip.counters.divergent_branches,
                ),
                None => (Location::default(), 0, 0),
            };
            Some(BranchCost {
                function: func.name.clone(),
                inst,
                location,
                cost_cycles: cost,
                share: if kernel_estimate > 0.0 {
                    cost / kernel_estimate
                } else {
                    0.0
                },
                visits,
                divergent_visits,
            })
        })
        .collect();
    out.sort_by(|a, b| {
        b.cost_cycles
            .total_cmp(&a.cost_cycles)
            .then_with(|| a.function.cmp(&b.function))
            .then(a.inst.cmp(&b.inst))
    });
    (out, unattributed)
}
