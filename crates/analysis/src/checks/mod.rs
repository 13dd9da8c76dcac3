//! The precise engine's checks: every thread-dependent branch gets a divergence ratio range
//! and class, every thread-dependent access its sectors, lines and requests per warp (or its
//! bank conflicts, in shared memory), all evaluated for the 32 lanes of each warp of a block.
//!
//! Evaluation proceeds from cheap to exhaustive:
//!
//! 1. each warp once, with block indices, loop counters and unknown parameters symbolic: most
//!    questions are already decided (`tid % 2`, `in[2*i]`);
//! 2. when a branch condition still depends on block indices or loop iteration counts (a
//!    boundary check `i < n` with `n` assumed, a grid-stride loop), the condition's
//!    comparisons are re-evaluated by substituting block indices (all blocks of the grid, or
//!    the first and last 2048) and iteration counts (simulating the loop's continue condition
//!    lane by lane);
//! 3. when it depends on loop-carried values that are not affine (`j >>= 1` in a bitonic
//!    sort), the loop nest is simulated by evaluating its update expressions.
//!
//! What stays undecided depends on data (`possible`), or on a parameter whose value is not
//! assumed (a boundary check: at most a warp per block diverges, reported only on request).
//!
//! This module holds the [`Checker`], its budgets and the lane-by-lane evaluation both kinds
//! of site share (symbols, block and parameter sampling, loop simulation); `branches` holds
//! the branch verdicts, `accesses` the access measures and the padded reading of pitches.

use crate::acf::{AccessSite, Acf, BranchSite, Walk};
use crate::eval::{Env, Evaluator, Lanes, Sym, SymInfo, SymOracle, Symbols, WarpVal};
use crate::expr::{Atom, BinOp, Kind, Node, flags};
use crate::geometry::Geometry;
use crate::memory;
use cranelift_entity::EntityRef;
use rustc_hash::FxHashMap;
use warpscope_ir::{FuncId, Module};
use warpscope_ptx::{StateSpace, Type};

mod accesses;
mod branches;
mod stride_gaps;

pub use accesses::{PitchUse, pitch_params};

/// How a thread-dependent branch behaves over the warps examined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DivClass {
    /// No warp ever diverges.
    NonDivergent,
    /// Some warps definitely diverge, not all.
    Partial,
    /// Every warp diverges.
    Total,
    /// Depends on data.
    Unknown,
    /// A boundary check against an unknown bound: at most `ratio.1` of the warps diverge.
    Boundary,
}

impl DivClass {
    pub fn as_str(self) -> &'static str {
        match self {
            DivClass::NonDivergent => "non-divergent",
            DivClass::Partial => "partial",
            DivClass::Total => "total",
            DivClass::Unknown => "unknown",
            DivClass::Boundary => "boundary",
        }
    }
}

/// The verdict for one thread-dependent branch.
#[derive(Debug, Clone)]
pub struct BranchResult {
    pub site: BranchSite,
    pub class: DivClass,
    /// `[dmin, dmax]`: fraction of warps that definitely / possibly diverge.
    pub ratio: (f64, f64),
    pub divergent: u64,
    pub maybe: u64,
    pub total: u64,
    /// Whether undecided warps depend on data (else on unknown parameters).
    pub data_dependent: bool,
    /// Whether every warp counted as divergent diverges only for all values but one of a
    /// lane-uniform unknown joined to the condition (`tid & 1 || iters < 1`, `p != NULL &&
    /// tid == 0`): not proven (that value may be the one a launch passes), so `possible`.
    pub unless_uniform: bool,
    /// Set when the warps counted as divergent diverge only where the condition's checks
    /// against unknown bounds (parameters, the block index) let every lane through: a lane
    /// test on the thread index joined to boundary checks (`px < width - 1 && kx < 15`).
    pub guarded: Option<Guarded>,
    /// Whether the examination covered every block and iteration (no sampling caps hit).
    pub exhaustive: bool,
    /// Whether the evaluation budget ran out: the warps left were given their symbolic
    /// answer (undecided, counted in `maybe`).
    pub budget_spent: bool,
}

/// What kind of inefficiency an access shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemClass {
    Fine,
    Misaligned,
    Uncoalesced,
    BankConflict,
    /// A `ld.const` whose lanes read several addresses: one constant-cache pass each.
    DivergentConstant,
}

/// Cost ranges of one global access over warps (and alignments / samples).
#[derive(Debug, Clone, Default)]
pub struct GlobalCost {
    pub sectors: (u32, u32),
    pub ideal: (u32, u32),
    pub lines: (u32, u32),
    /// GPUCheck's Figure 10 requests per warp.
    pub requests: (u32, u32),
    /// Sectors if each dense run were aligned.
    pub runs_aligned: (u32, u32),
    /// Byte stride between consecutive lanes, when constant.
    pub stride: Option<i64>,
    /// Dense runs per request (rows of a 2-D block, or single lanes when strided).
    pub runs: (u32, u32),
    /// Offset of the first byte within its sector, when fixed.
    pub misalign: Option<i64>,
}

/// Shared-memory cost ranges.
#[derive(Debug, Clone, Default)]
pub struct SharedCost {
    pub ways: (u32, u32),
    pub wavefronts: (u32, u32),
    pub ideal: (u32, u32),
    pub stride: Option<i64>,
}

/// Constant-memory cost ranges: the constant cache serves one address per pass, so a warp
/// request whose active lanes read N distinct addresses takes N serialized passes.
#[derive(Debug, Clone, Default)]
pub struct ConstCost {
    /// Distinct addresses (passes) per warp request, over the warps examined.
    pub addresses: (u32, u32),
}

/// The verdict for one thread-dependent access.
#[derive(Debug, Clone)]
pub struct AccessResult {
    pub site: AccessSite,
    pub global: Option<GlobalCost>,
    pub shared: Option<SharedCost>,
    /// For a `ld.const`: its distinct addresses per warp request.
    pub constant: Option<ConstCost>,
    /// Findings: class with whether it is proven.
    pub verdicts: Vec<(MemClass, bool)>,
    /// Lanes' addresses depend on data.
    pub data_dependent: bool,
    /// Lanes' addresses depend on an unknown parameter (stride unknown).
    pub param_dependent: bool,
    /// Whether an unknown integer parameter used as a pitch was read as a padded pitch
    /// (rows a multiple of 32 bytes apart) to measure the access: what only that reading
    /// shows is `possible`.
    pub pitch_read: bool,
    /// Whether the evaluation budget ran out: blocks, parameter values and iterations past it
    /// were not enumerated: the costs are the range over what was, and what was not rests on
    /// the symbolic answer (an unknown stride or offset makes a verdict `possible`).
    pub budget_spent: bool,
    /// Proven uncoalesced on the one assumption that the unknown the lanes' stride is a
    /// multiple of (`a[tid * n]`, `a[tid * (n + 1)]`) is none of these few small values, the
    /// only ones that would make the request dense (`unknown_stride_gaps`: 0 and ±1 for
    /// `a[tid * n]`).
    pub stride_exceptions: Option<Vec<i64>>,
    /// Proven uncoalesced on the assumption that at least this many lanes of a warp run it
    /// (0: no such assumption): a condition on loaded data decides which lanes do, and any
    /// this many of those that may touch more sectors than their bytes need.
    pub min_lanes: u32,
    /// Proven uncoalesced by one row of the warp alone (lanes one value of an unknown pitch
    /// apart from the others), whatever the pitch: the padded reading measured the costs, but
    /// the verdict does not rest on it.
    pub row_alone: bool,
}

/// Parameter facts for symbols.
pub struct Oracle<'a> {
    pub module: &'a Module,
    pub geometry: &'a Geometry,
    /// Alignment and range assumptions per (function, parameter index).
    pub params: &'a FxHashMap<(FuncId, u32), crate::geometry::ParamAssumption>,
}

impl SymOracle for Oracle<'_> {
    fn info(&self, s: Sym, acf: &Acf) -> SymInfo {
        match s {
            Sym::Atom(Atom::Param {
                func,
                index,
                offset,
            }) => {
                let a = self.params.get(&(func, index));
                let ty = self.module.funcs[func]
                    .params
                    .get(index as usize)
                    .map(|p| p.ty);
                let pointer = offset == 0 && matches!(ty, Some(Type::U64 | Type::B64 | Type::S64))
                    || acf.pointer_fields.contains(&Atom::Param {
                        func,
                        index,
                        offset,
                    });
                SymInfo {
                    align: a
                        .and_then(|a| a.align)
                        .unwrap_or(if pointer { 256 } else { 1 }),
                    range: a.and_then(|a| a.range),
                    data: false,
                }
            }
            Sym::Atom(Atom::Ctaid(d)) => SymInfo {
                align: 1,
                range: self.geometry.grid.map(|g| {
                    let i = match d {
                        warpscope_ptx::Dim::X => 0,
                        warpscope_ptx::Dim::Y => 1,
                        warpscope_ptx::Dim::Z => 2,
                    };
                    (0, i64::from(g[i].max(1)) - 1)
                }),
                data: false,
            },
            Sym::Atom(Atom::VarAddr(v)) => SymInfo {
                align: acf.vars[v as usize].align.max(4).next_power_of_two(),
                range: None,
                data: false,
            },
            Sym::Atom(Atom::Iter(_) | Atom::LoopVar(_)) => SymInfo {
                align: 0,
                range: None,
                data: false,
            },
            Sym::Atom(Atom::Load(_) | Atom::Uniform(_)) => SymInfo::DATA,
            _ => SymInfo::ANY,
        }
    }
}

/// Per-lane truth value of a condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Tri {
    T,
    F,
    /// Depends on data.
    U,
    /// Depends on an unknown uniform value (a parameter) in a lane-specific way.
    O,
    /// Unknown but the same for every lane.
    S,
}

/// Leaves of the boolean structure (`and`/`or`/`not`) under `n`: the comparisons and values
/// that are re-evaluated under block indices and iteration counts.
fn leaves(acf: &Acf, n: Node, out: &mut Vec<Node>, seen: &mut rustc_hash::FxHashSet<Node>) {
    let mut stack = vec![n];
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        match acf.kind(x) {
            Kind::Const(_) => {}
            Kind::And(a, b) | Kind::Or(a, b) => {
                stack.push(a);
                stack.push(b);
            }
            Kind::Not(a) => stack.push(a),
            _ => out.push(x),
        }
    }
}

/// Per-lane truth of the boolean structure at `n`, given the leaves' truths (memoised: the
/// structure is a DAG whose tree form can be exponential).
fn eval_bool(
    acf: &Acf,
    n: Node,
    vals: &FxHashMap<Node, [Tri; 32]>,
    memo: &mut FxHashMap<Node, [Tri; 32]>,
) -> [Tri; 32] {
    if let Some(v) = memo.get(&n) {
        return *v;
    }
    crate::stack::deep(|| eval_bool_step(acf, n, vals, memo))
}

fn eval_bool_step(
    acf: &Acf,
    n: Node,
    vals: &FxHashMap<Node, [Tri; 32]>,
    memo: &mut FxHashMap<Node, [Tri; 32]>,
) -> [Tri; 32] {
    let r = match acf.kind(n) {
        Kind::Const(c) => [if c != 0 { Tri::T } else { Tri::F }; 32],
        Kind::And(a, b) => {
            let (x, y) = (eval_bool(acf, a, vals, memo), eval_bool(acf, b, vals, memo));
            std::array::from_fn(|k| and3(x[k], y[k]))
        }
        Kind::Or(a, b) => {
            let (x, y) = (eval_bool(acf, a, vals, memo), eval_bool(acf, b, vals, memo));
            std::array::from_fn(|k| or3(x[k], y[k]))
        }
        Kind::Not(a) => {
            let x = eval_bool(acf, a, vals, memo);
            std::array::from_fn(|k| not3(x[k]))
        }
        _ => vals.get(&n).copied().unwrap_or([Tri::U; 32]),
    };
    memo.insert(n, r);
    r
}

/// A leaf evaluated once per warp: either fixed per lane, or a comparison `c[lane] + U <op> 0`
/// with a lane-uniform symbolic `U` to substitute.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
enum LeafVal {
    Fixed([Tri; 32]),
    Split {
        cmp: crate::expr::Cmp,
        c: Lanes,
        part: Vec<(u32, i64)>,
        /// Lanes whose value was decided without substitution.
        fixed: [Option<bool>; 32],
    },
}

fn tri_of(v: &WarpVal, valid: u32) -> [Tri; 32] {
    let mut out = [Tri::F; 32];
    let uniform = v.is_uniform(valid);
    for (k, o) in out.iter_mut().enumerate() {
        if valid & (1 << k) == 0 {
            continue;
        }
        *o = if v.unknown & (1 << k) != 0 {
            Tri::U
        } else if v.opaque & (1 << k) != 0 {
            Tri::O
        } else {
            match v.lane_const(k) {
                Some(0) => Tri::F,
                Some(_) => Tri::T,
                None if uniform => Tri::S,
                None => Tri::O,
            }
        };
    }
    out
}

fn not3(a: Tri) -> Tri {
    match a {
        Tri::T => Tri::F,
        Tri::F => Tri::T,
        x => x,
    }
}

fn and3(a: Tri, b: Tri) -> Tri {
    match (a, b) {
        (Tri::F, _) | (_, Tri::F) => Tri::F,
        (Tri::T, x) | (x, Tri::T) => x,
        (Tri::U, _) | (_, Tri::U) => Tri::U,
        (Tri::O, _) | (_, Tri::O) => Tri::O,
        _ => Tri::S,
    }
}

fn or3(a: Tri, b: Tri) -> Tri {
    not3(and3(not3(a), not3(b)))
}

/// Substitution values for the fast path.
#[derive(Debug, Clone, Default)]
struct Subst {
    ctaid: Option<[u32; 3]>,
    iters: Vec<(u32, i64)>,
    params: Vec<(Atom, i64)>,
}

/// Where a lane test joined to checks against unknown bounds splits warps
/// ([`BranchResult::guarded`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guarded {
    /// In every block the checks let through (the lane test reads the thread index alone).
    Interior,
    /// In the first block (the lane test joins the block index: `gx == 0`, `gx - 3 < 0`).
    FirstBlock,
    /// In the first block for every size tried ([`FIRST_BLOCK_SIZES`]): a test on a column
    /// of a flat index (`idx % w > 1`) splits its first warp whatever the row width `w`.
    AnySize,
    /// In every block, wherever a bound the kernel computes (`n / 2`, a rounding, a `min`
    /// with a loaded count) falls inside a warp: a test of the thread index within the block
    /// against it.
    ComputedBound,
}

/// The values an unknown integer size takes in turn when a branch is asked whether it splits
/// the first block whatever the size: multiples of the warp (where row tests on `idx / w`
/// are warp-uniform) and others, from one warp wide to large.
pub(crate) const FIRST_BLOCK_SIZES: [i64; 9] = [32, 33, 48, 64, 100, 128, 256, 1000, 4096];

/// What one warp did at a branch in one evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum WarpVerdict {
    Uniform,
    /// Undecided because of an unknown parameter.
    MaybeParam,
    /// Undecided because of data.
    MaybeData,
    /// Some lanes' outcome is fixed and the others' is one lane-uniform unknown (nvcc folds a
    /// loop's entry guard `iters < 1` into a thread-dependent branch with `or.pred`): the warp
    /// diverges for every value of that unknown but one.
    DivergentUnlessUniform,
    Divergent,
}

/// Checks of one kernel (and the device functions it calls, in context).
pub struct Checker<'a> {
    pub acf: &'a Acf,
    pub syms: Symbols,
    pub oracle: &'a Oracle<'a>,
    pub geometry: &'a Geometry,
    /// Bindings common to every environment (assumed parameter values).
    pub base_bind: FxHashMap<Atom, WarpVal>,
    /// Enclosing loops (ACF loop indices, outermost first) of each site's block.
    pub enclosing: &'a dyn Fn(usize, warpscope_ir::Block) -> Vec<u32>,
    /// Parameters assumed to take each value of a range (a kernel launched repeatedly):
    /// the values examined.
    pub param_ranges: Vec<(Atom, Vec<i64>)>,
    /// Parameters used as pitches, and how ([`pitch_params`]).
    pub pitches: FxHashMap<Atom, PitchUse>,
    pub(crate) sim_cache: FxHashMap<SimKey, std::rc::Rc<Vec<Sample>>>,
    /// Node values per environment, shared by the kernel's sites.
    pub(crate) memos: crate::eval::MemoCache,
    /// Warp verdicts by the leaves' per-lane values (cleared per branch).
    pub(crate) verdict_cache: std::cell::RefCell<VerdictCache>,
    /// Costs of global requests already counted ([`RequestCosts`]).
    pub(crate) request_costs: RequestCosts,
    /// The environment of each warp of the block (made on first use).
    pub(crate) warp_envs: std::cell::OnceCell<Vec<Env>>,
    /// Grid-stride trip counts ([`grid_quotients`]), found once per kernel.
    pub(crate) grid_quotients: std::cell::OnceCell<rustc_hash::FxHashSet<Node>>,
    /// Answers of the unknown-stride test ([`Checker::unknown_stride_gaps`]) by pattern.
    pub(crate) stride_gaps: FxHashMap<stride_gaps::StrideKey, Option<Vec<i64>>>,
    /// Work left for lane-by-lane evaluation.
    pub budget: Budget,
}

/// What global requests cost, by their lanes' offsets relative to the first active lane and
/// where that lane falls in a 128-byte line: sectors, lines and runs do not change when every
/// address moves by a multiple of 128 bytes. The warps of a block, the blocks enumerated and
/// the residues of unknown offsets mostly repeat the same offsets at a few positions, so a
/// kernel's accesses count each shape once (the counting sorts 32 lanes; it was about a
/// quarter of `check` on the median real-world modules).
#[derive(Debug, Default)]
pub(crate) struct RequestCosts {
    /// Interned offset patterns (relative to the first active lane).
    patterns: FxHashMap<smallvec::SmallVec<[i64; 32]>, u32>,
    /// Cost by (pattern, position of the first lane within a line, access size).
    costs: FxHashMap<(u32, u8, u32), warpscope_cost::GlobalCost>,
    /// GPUCheck's request count by pattern.
    requests: FxHashMap<u32, (u32, u32)>,
}

/// Patterns a [`RequestCosts`] keeps before it starts over (a bound on its memory).
const REQUEST_PATTERNS: usize = 4096;

impl RequestCosts {
    /// The id of the offsets `diffs` (relative to the first active lane).
    pub(crate) fn pattern(&mut self, diffs: &[i64]) -> u32 {
        if let Some(&id) = self.patterns.get(diffs) {
            return id;
        }
        if self.patterns.len() >= REQUEST_PATTERNS {
            self.patterns.clear();
            self.costs.clear();
            self.requests.clear();
        }
        let id = self.patterns.len() as u32;
        self.patterns
            .insert(smallvec::SmallVec::from_slice(diffs), id);
        id
    }

    /// The cost of lanes at `at + diffs[k]` (`id` = `self.pattern(diffs)`).
    pub(crate) fn global(
        &mut self,
        id: u32,
        diffs: &[i64],
        at: i64,
        size: u32,
    ) -> warpscope_cost::GlobalCost {
        let pos = at.rem_euclid(128);
        *self.costs.entry((id, pos as u8, size)).or_insert_with(|| {
            let shifted: smallvec::SmallVec<[i64; 32]> = diffs.iter().map(|d| d + pos).collect();
            crate::memory::global_cost(&shifted, size)
        })
    }

    /// GPUCheck's requests for the offsets of pattern `id`.
    pub(crate) fn gpucheck(&mut self, id: u32, diffs: &[i64]) -> (u32, u32) {
        *self
            .requests
            .entry(id)
            .or_insert_with(|| crate::memory::gpucheck_requests(diffs, 0))
    }
}

/// The divisions of `acf` that count a grid-stride loop's iterations: a thread-dependent
/// dividend (the distance from the thread's global index to a bound) over a lane-uniform
/// divisor that involves the grid's size (`(n - i - 1) / (ntid.x * nctaid.x)`, what nvcc
/// computes to unroll `for (i = gid; i < n; i += stride)` with a remainder loop). The global
/// indices of a warp's lanes are consecutive, so the quotient is the same in every lane but
/// in the one warp of the grid where a multiple of the stride falls among them: like a
/// boundary check, it is read as one value shared by the warp (the interior warps' answer).
pub(crate) fn grid_quotients(acf: &Acf) -> rustc_hash::FxHashSet<Node> {
    let mut out = rustc_hash::FxHashSet::default();
    for k in 0..acf.len() {
        let n = Node::new(k);
        let Kind::Bin(BinOp::Div { .. }, a, b) = acf.kind(n) else {
            continue;
        };
        let fa = acf.flags(a);
        if !acf.is_td(a) || acf.is_td(b) || fa & flags::TID == 0 || fa & flags::CTAID == 0 {
            continue;
        }
        // The divisor involves the grid's size.
        let grid = acf.walk(b, |k| match k {
            Kind::Atom(Atom::Nctaid(_)) => Walk::Stop,
            _ => Walk::Into,
        });
        if grid {
            out.insert(n);
        }
    }
    out
}

/// Bounds on lane-by-lane evaluation (issue 10: budgets, not hangs), counted in ACF nodes
/// evaluated for one warp. Every site first gets its symbolic answer (each warp once, with
/// block indices, parameters and loop counters left symbolic); enumerating blocks, parameter
/// values and loop iterations then spends the budget. When the site's or the kernel's budget
/// is spent, the rest stays symbolic: a range, reported as `possible`, and the result says so
/// ([`BranchResult::budget_spent`], [`AccessResult::budget_spent`]).
///
/// Past the budget each site still gets its symbolic answer, which costs one evaluation of a
/// few warps; a kernel with thousands of sites, or with huge expressions, would spend seconds
/// on those alone. So a second, hard limit counts everything evaluated, weighted by the terms
/// computed ([`crate::eval::Evaluator::cost`]): once it is reached, the kernel's remaining
/// sites are not measured at all, and the kernel's notes say how many.
#[derive(Debug)]
pub struct Budget {
    per_site: u64,
    per_kernel: u64,
    hard: u64,
    site: std::cell::Cell<u64>,
    kernel: std::cell::Cell<u64>,
    cost: std::cell::Cell<u64>,
}

/// Node evaluations one branch or access may spend on enumeration.
pub const SITE_BUDGET: u64 = 250_000;
/// Node evaluations one kernel's sites may spend together.
pub const KERNEL_BUDGET: u64 = 1_000_000;
/// The hard limit of one module's evaluation ([`Budget`]), in lookups plus three per value
/// term computed (a term takes about three lookups' time; weights from timing HeCBench's
/// costliest modules, docs/performance.md "HeCBench sweep"): 1–2 s on one core at the slowest
/// rate measured, 0.5 s or less at the common one. Lower, it cut the measurement of large
/// kernels short that take a fraction of a second (`hb_bh`'s tree summarization at 3 M lost
/// 200 accesses and 30 of its true uncoalesced lines). The kernels share it in proportion to
/// their code.
pub const MODULE_HARD_BUDGET: u64 = 12_000_000;
/// The hard limit no kernel is cut below, however many kernels share the module's (modules
/// of many template instances: each is small).
pub const KERNEL_HARD_FLOOR: u64 = 300_000;

impl Default for Budget {
    fn default() -> Self {
        Budget::new(SITE_BUDGET, KERNEL_BUDGET)
    }
}

impl Budget {
    pub fn new(per_site: u64, per_kernel: u64) -> Self {
        Budget {
            per_site,
            per_kernel,
            hard: MODULE_HARD_BUDGET,
            site: Default::default(),
            kernel: Default::default(),
            cost: Default::default(),
        }
    }

    /// The budget of a kernel that holds `share` of its module's code (its instructions over
    /// those of every kernel checked, callees not counted), analysed under `shapes` block
    /// shapes: the module's hard limit shared in proportion to code, not below
    /// [`KERNEL_HARD_FLOOR`], so that analysing kernels in parallel decides nothing and a
    /// large kernel among small ones is not starved.
    pub fn for_share(share: f64, shapes: usize) -> Self {
        let hard =
            (MODULE_HARD_BUDGET as f64 * share.clamp(0.0, 1.0)) as u64 / shapes.max(1) as u64;
        Budget {
            hard: hard.max(KERNEL_HARD_FLOOR),
            ..Budget::default()
        }
    }

    /// Charges an evaluation's cost ([`crate::eval::Evaluator::cost`]) to the hard limit.
    fn charge(&self, cost: u64) {
        self.cost.set(self.cost.get().saturating_add(cost));
    }

    /// The hard limit.
    pub fn hard(&self) -> u64 {
        self.hard
    }

    /// The cost charged to the hard limit so far.
    pub fn cost_used(&self) -> u64 {
        self.cost.get()
    }

    /// Whether the hard limit is reached: sites not yet measured are left unmeasured.
    pub fn exhausted(&self) -> bool {
        self.cost.get() >= self.hard
    }

    /// Starts a new site's account.
    fn start_site(&self) {
        self.site.set(0);
    }

    fn spend(&self, n: u64) {
        self.site.set(self.site.get().saturating_add(n));
        self.kernel.set(self.kernel.get().saturating_add(n));
    }

    /// Whether the site's or the kernel's budget is spent.
    pub fn spent(&self) -> bool {
        self.site.get() >= self.per_site || self.kernel.get() >= self.per_kernel || self.exhausted()
    }

    /// Node evaluations spent by the current site.
    pub fn site_used(&self) -> u64 {
        self.site.get()
    }

    /// Node evaluations spent by the kernel so far.
    pub fn kernel_used(&self) -> u64 {
        self.kernel.get()
    }
}

/// Blocks examined when a condition depends on the block index.
const MAX_BLOCKS: u64 = 4096;
/// Iterations simulated per loop.
const MAX_ITERS: i64 = 64;
/// The value an unassumed integer parameter takes when it is read as a padded row pitch.
const PADDED_PITCH: i64 = 4096;
/// Samples (iteration combinations) per warp and block.
const MAX_SAMPLES: usize = 512;

#[derive(Clone)]
pub(crate) struct Sample {
    env: Env,
    active: u32,
    exact: bool,
}

fn env_warp(e: &Env) -> u32 {
    e.lanes.iter().flatten().next().map_or(0, |l| l.linear / 32)
}

/// Warp verdicts keyed by the leaves' per-lane values and the lanes still in the loops.
pub(crate) type VerdictCache = FxHashMap<(Vec<(Node, u128)>, u32), WarpVerdict>;

impl Tri {
    /// The 32 lanes' values in one word (three bits a lane): a cache key hashed in one step
    /// rather than lane by lane (hashing the arrays was a tenth of a large module's time).
    pub(crate) fn pack(lanes: &[Tri; 32]) -> u128 {
        lanes
            .iter()
            .enumerate()
            .fold(0u128, |w, (k, t)| w | ((*t as u128) << (3 * k)))
    }
}

/// Simulations are shared by the sites of one loop nest: keyed by loops, warp, block and
/// parameter values.
pub(crate) type SimKey = (Vec<u32>, u32, Option<[u32; 3]>, Vec<(Atom, i64)>);

impl<'a> Checker<'a> {
    fn env(&self, w: u32) -> Env {
        let make = |w: u32| {
            let mut e = Env::warp(self.geometry, w);
            e.bind = self.base_bind.clone();
            e
        };
        let envs = self
            .warp_envs
            .get_or_init(|| (0..self.geometry.warps()).map(make).collect());
        envs.get(w as usize).cloned().unwrap_or_else(|| make(w))
    }

    /// Runs `f` with an evaluator of `env` on the kernel's memos, then charges its work to
    /// the budget and the values it computed to the memo cache.
    fn evaluating<R>(&mut self, env: &Env, f: impl FnOnce(&mut Evaluator<'_>) -> R) -> R {
        self.evaluating_in(env, None, f)
    }

    /// Runs `f` on an evaluator of `env` with the memos of `sample` (the key of a simulated
    /// loop's sample, [`crate::eval::MemoCache::sample_memos`]) or else of the environment, and
    /// charges the work to the budget.
    fn evaluating_in<R>(
        &mut self,
        env: &Env,
        sample: Option<usize>,
        f: impl FnOnce(&mut Evaluator<'_>) -> R,
    ) -> R {
        let memos = match sample {
            Some(key) => self.memos.sample_memos(key, &env.uniform_nodes),
            None => self.memos.memos(env),
        };
        let mut ev = Evaluator::new(self.acf, &mut self.syms, self.oracle, env, memos);
        let r = f(&mut ev);
        let (work, computed) = (ev.work(), ev.computed());
        self.budget.spend(work);
        self.budget.charge(ev.cost());
        match sample {
            Some(_) => self.memos.added_to_sample(computed),
            None => self.memos.added(computed),
        }
        r
    }

    /// Evaluates two nodes in a sample of a simulated loop (from [`Self::samples`]), in its
    /// environment with `uniform` as the nodes read as shared, with the memos kept for that
    /// sample.
    fn eval2_sample(
        &mut self,
        a: Node,
        b: Node,
        sample: &Sample,
        uniform: crate::eval::SharedNodes,
    ) -> (std::rc::Rc<WarpVal>, std::rc::Rc<WarpVal>) {
        let key = sample as *const Sample as usize;
        let with_uniform;
        let env = if uniform == sample.env.uniform_nodes {
            &sample.env
        } else {
            let mut e = sample.env.clone();
            e.uniform_nodes = uniform;
            with_uniform = e;
            &with_uniform
        };
        self.evaluating_in(env, Some(key), |ev| (ev.eval_rc(a), ev.eval_rc(b)))
    }

    fn eval(&mut self, n: Node, env: &Env) -> WarpVal {
        self.evaluating(env, |ev| ev.eval(n))
    }

    fn leaf_val(&mut self, n: Node, env: &Env) -> LeafVal {
        let valid = env.valid;
        let kind = self.acf.kind(n);
        let (whole, diff) = self.evaluating(env, |ev| {
            let whole = ev.eval(n);
            let diff = match kind {
                Kind::Cmp(c, a, b) if !c.float => Some((c, ev.eval(a).sub(&ev.eval(b)))),
                _ => None,
            };
            (whole, diff)
        });
        if let Some((c, d)) = diff
            && let Some((cl, part)) = d.split(valid)
        {
            let mut fixed = [None; 32];
            for (k, f) in fixed.iter_mut().enumerate() {
                if let Some(v) = whole.lane_const(k) {
                    *f = Some(v != 0);
                }
            }
            return LeafVal::Split {
                cmp: c,
                c: cl,
                part,
                fixed,
            };
        }
        LeafVal::Fixed(tri_of(&whole, valid))
    }

    fn sym_value(
        &self,
        id: u32,
        sub: &Subst,
        env: &Env,
        memo: &mut FxHashMap<Node, Option<i64>>,
    ) -> Option<i64> {
        match self.syms.symbol(id) {
            Sym::Atom(Atom::Ctaid(d)) => sub.ctaid.map(|c| {
                i64::from(
                    c[match d {
                        warpscope_ptx::Dim::X => 0,
                        warpscope_ptx::Dim::Y => 1,
                        warpscope_ptx::Dim::Z => 2,
                    }],
                )
            }),
            Sym::Atom(Atom::Iter(l)) => sub.iters.iter().find(|(x, _)| *x == l).map(|(_, k)| *k),
            Sym::Atom(a @ Atom::Param { .. }) => {
                sub.params.iter().find(|(x, _)| *x == a).map(|(_, v)| *v)
            }
            Sym::Atom(Atom::Nctaid(d)) => env.grid.map(|g| {
                i64::from(
                    g[match d {
                        warpscope_ptx::Dim::X => 0,
                        warpscope_ptx::Dim::Y => 1,
                        warpscope_ptx::Dim::Z => 2,
                    }],
                )
            }),
            // A shared result (e.g. `min(8*ctaid.x + w, 127)`): recompute it from its inputs.
            Sym::Node(n) => self.scalar(n, sub, env, memo, 0),
            _ => None,
        }
    }

    /// The value of a lane-uniform node under `sub`, when its inputs are all known there.
    fn scalar(
        &self,
        n: Node,
        sub: &Subst,
        env: &Env,
        memo: &mut FxHashMap<Node, Option<i64>>,
        depth: u32,
    ) -> Option<i64> {
        if depth > 48 {
            return None;
        }
        if let Some(v) = memo.get(&n) {
            return *v;
        }
        let dim = |d: warpscope_ptx::Dim| match d {
            warpscope_ptx::Dim::X => 0,
            warpscope_ptx::Dim::Y => 1,
            warpscope_ptx::Dim::Z => 2,
        };
        let rec = |x: Node, memo: &mut FxHashMap<Node, Option<i64>>| {
            self.scalar(x, sub, env, memo, depth + 1)
        };
        let v = match self.acf.kind(n) {
            Kind::Const(c) => Some(c),
            Kind::Atom(a) => match a {
                Atom::Ctaid(d) => sub.ctaid.map(|c| i64::from(c[dim(d)])),
                Atom::Ntid(d) => Some(i64::from(env.block[dim(d)])),
                Atom::Nctaid(d) => env.grid.map(|g| i64::from(g[dim(d)])),
                Atom::Iter(l) => sub.iters.iter().find(|(x, _)| *x == l).map(|(_, k)| *k),
                Atom::Param { .. } => sub
                    .params
                    .iter()
                    .find(|(x, _)| *x == a)
                    .map(|(_, v)| *v)
                    .or_else(|| {
                        env.bind.get(&a).and_then(|w| {
                            let first = (0..32).find(|k| env.valid & (1 << k) != 0)?;
                            w.lane_const(first)
                        })
                    }),
                Atom::LoopVar(v) => match self.acf.loopvars[v as usize].closed {
                    Some(c) => rec(c, memo),
                    None => None,
                },
                _ => None,
            },
            Kind::Add(a, b) => rec(a, memo)
                .zip(rec(b, memo))
                .map(|(x, y)| x.wrapping_add(y)),
            Kind::Mul(a, b) => rec(a, memo)
                .zip(rec(b, memo))
                .map(|(x, y)| x.wrapping_mul(y)),
            Kind::Neg(a) => rec(a, memo).map(i64::wrapping_neg),
            Kind::Ext(e, a) => rec(a, memo).map(|x| crate::expr::ext_concrete(e, x)),
            Kind::Bin(op, a, b) => rec(a, memo)
                .zip(rec(b, memo))
                .and_then(|(x, y)| crate::expr::bin_concrete(op, x, y)),
            Kind::Cmp(c, a, b) if !c.float => rec(a, memo)
                .zip(rec(b, memo))
                .map(|(x, y)| i64::from(crate::expr::cmp_concrete(c, x, y))),
            Kind::And(a, b) => rec(a, memo)
                .zip(rec(b, memo))
                .map(|(x, y)| i64::from(x != 0 && y != 0)),
            Kind::Or(a, b) => rec(a, memo)
                .zip(rec(b, memo))
                .map(|(x, y)| i64::from(x != 0 || y != 0)),
            Kind::Not(a) => rec(a, memo).map(|x| i64::from(x == 0)),
            Kind::Select(p, a, b) => match rec(p, memo) {
                Some(0) => rec(b, memo),
                Some(_) => rec(a, memo),
                None => None,
            },
            _ => None,
        };
        memo.insert(n, v);
        v
    }

    fn leaf_tri(
        &self,
        lv: &LeafVal,
        sub: &Subst,
        env: &Env,
        memo: &mut FxHashMap<Node, Option<i64>>,
    ) -> [Tri; 32] {
        match lv {
            LeafVal::Fixed(t) => *t,
            LeafVal::Split {
                cmp,
                c,
                part,
                fixed,
            } => {
                let mut u: Option<i64> = Some(0);
                // An unbound symbol that is not a parameter or block index (a vote result, a
                // loaded value, an unknown trip count): the lanes' outcome depends on data.
                let mut data = false;
                for &(m, co) in part {
                    let mut v = co;
                    for &s in self.syms.factors(m) {
                        match self.sym_value(s, sub, env, memo) {
                            Some(x) => v = v.wrapping_mul(x),
                            None => {
                                data |= self.syms.info(s).data;
                                u = None;
                            }
                        }
                    }
                    u = u.map(|x| x.wrapping_add(v));
                }
                // Every lane compares the same value: unknown, but uniform.
                let first = (0..32).find(|k| env.valid & (1 << k) != 0).unwrap_or(0);
                let same = (0..32).all(|k| env.valid & (1 << k) == 0 || c[k] == c[first]);
                let mut out = [Tri::F; 32];
                for k in 0..32 {
                    if env.valid & (1 << k) == 0 {
                        continue;
                    }
                    out[k] = match (fixed[k], u) {
                        (Some(b), _) => {
                            if b {
                                Tri::T
                            } else {
                                Tri::F
                            }
                        }
                        (None, Some(u)) => {
                            let d = c[k].wrapping_add(u);
                            let r = crate::expr::cmp_concrete(
                                crate::expr::Cmp {
                                    signed: true,
                                    bits: 64,
                                    ..*cmp
                                },
                                d,
                                0,
                            );
                            if r { Tri::T } else { Tri::F }
                        }
                        (None, None) => {
                            if same {
                                Tri::S
                            } else if data {
                                Tri::U
                            } else {
                                Tri::O
                            }
                        }
                    };
                }
                out
            }
        }
    }

    /// The warp's verdict from per-lane activity and condition.
    fn verdict(act: &[Tri; 32], cond: &[Tri; 32], valid: u32, loop_active: u32) -> WarpVerdict {
        let mut t = false;
        let mut f = false;
        let mut maybe_data = false;
        let mut maybe_param = false;
        let mut any_t = false;
        let mut any_f = false;
        let mut same = false;
        // A branch that at most one lane of the warp can reach (`if (lane == 0) { if (x) … }`)
        // cannot diverge, whatever its condition.
        let reachable = (0..32)
            .filter(|&k| valid & loop_active & (1 << k) != 0 && act[k] != Tri::F)
            .count();
        if reachable <= 1 {
            return WarpVerdict::Uniform;
        }
        for k in 0..32 {
            if valid & loop_active & (1 << k) == 0 {
                continue;
            }
            // Unknown parameters and uniform unknowns in the activity: assume the code runs.
            let a = match act[k] {
                Tri::O | Tri::S => Tri::T,
                x => x,
            };
            match (a, cond[k]) {
                (Tri::F, _) => {}
                (Tri::T, Tri::T) => t = true,
                (Tri::T, Tri::F) => f = true,
                (Tri::U, Tri::T) => any_t = true,
                (Tri::U, Tri::F) => any_f = true,
                (_, Tri::U) => maybe_data = true,
                (_, Tri::O) => maybe_param = true,
                (Tri::T, Tri::S) => same = true,
                _ => {}
            }
        }
        if t && f {
            WarpVerdict::Divergent
        } else if (t || f) && same {
            WarpVerdict::DivergentUnlessUniform
        } else if maybe_data || ((t || any_t) && any_f) || (any_t && (f || any_f)) {
            WarpVerdict::MaybeData
        } else if maybe_param {
            WarpVerdict::MaybeParam
        } else {
            WarpVerdict::Uniform
        }
    }

    fn site_loops(&self, ctx: usize, b: warpscope_ir::Block) -> Vec<u32> {
        (self.enclosing)(ctx, b)
    }

    fn blocks_to_examine(&self) -> (Vec<[u32; 3]>, bool) {
        let Some(n) = self.geometry.blocks() else {
            return (Vec::new(), false);
        };
        if n <= MAX_BLOCKS {
            ((0..n).map(|i| self.geometry.block_coord(i)).collect(), true)
        } else {
            let half = MAX_BLOCKS / 2;
            let v = (0..half)
                .chain(n - half..n)
                .map(|i| self.geometry.block_coord(i))
                .collect();
            (v, false)
        }
    }

    /// Combinations of ranged parameter values (at most 256).
    fn param_combos(&self) -> Vec<Vec<(Atom, i64)>> {
        let mut out: Vec<Vec<(Atom, i64)>> = vec![Vec::new()];
        for (a, vals) in &self.param_ranges {
            let mut next = Vec::new();
            for c in &out {
                for &v in vals {
                    if next.len() >= 256 {
                        break;
                    }
                    let mut c = c.clone();
                    c.push((*a, v));
                    next.push(c);
                }
            }
            out = next;
        }
        out
    }

    /// A few blocks per grid dimension (the first ones, the middle, the last ones) for
    /// questions that depend on the block index non-linearly (clamps at the edges).
    fn representative_blocks(&self) -> Vec<[u32; 3]> {
        let Some(g) = self.geometry.grid else {
            return Vec::new();
        };
        let pick = |n: u32, short: bool| -> Vec<u32> {
            let mut v: Vec<u32> = if short {
                vec![0, 1, n / 2, n.saturating_sub(1)]
            } else {
                vec![
                    0,
                    1,
                    2,
                    3,
                    n / 2,
                    n / 2 + 1,
                    n.saturating_sub(2),
                    n.saturating_sub(1),
                ]
            };
            v.retain(|&x| x < n.max(1));
            v.sort_unstable();
            v.dedup();
            v
        };
        for short in [true] {
            let d: Vec<Vec<u32>> = g.iter().map(|&n| pick(n, short)).collect();
            let total = d[0].len() * d[1].len() * d[2].len();
            if total <= 128 || short {
                let mut out = Vec::with_capacity(total);
                for &z in &d[2] {
                    for &y in &d[1] {
                        for &x in &d[0] {
                            out.push([x, y, z]);
                        }
                    }
                }
                return out;
            }
        }
        Vec::new()
    }

    /// [`Self::simulate`] from the start of the nest, cached per warp, block and parameters.
    fn samples(
        &mut self,
        loops: &[u32],
        env: &Env,
        w: u32,
        params: &[(Atom, i64)],
    ) -> std::rc::Rc<Vec<Sample>> {
        let key: SimKey = (loops.to_vec(), w, env.ctaid, params.to_vec());
        if let Some(s) = self.sim_cache.get(&key) {
            return s.clone();
        }
        let mut out = Vec::new();
        self.simulate(loops, env, u32::MAX, true, &mut out);
        let rc = std::rc::Rc::new(out);
        self.sim_cache.insert(key, rc.clone());
        rc
    }

    /// Evaluates two nodes in one environment (sharing the memo).
    fn eval2(
        &mut self,
        a: Node,
        b: Node,
        env: &Env,
    ) -> (std::rc::Rc<WarpVal>, std::rc::Rc<WarpVal>) {
        self.evaluating(env, |ev| (ev.eval_rc(a), ev.eval_rc(b)))
    }

    /// Simulates the loops `loops` (outermost first) by evaluating their variables' update
    /// expressions, from `env`.
    fn simulate(
        &mut self,
        loops: &[u32],
        env: &Env,
        active: u32,
        exact: bool,
        out: &mut Vec<Sample>,
    ) {
        if out.len() >= MAX_SAMPLES || !out.is_empty() && self.budget.spent() {
            return;
        }
        let Some((&l, rest)) = loops.split_first() else {
            out.push(Sample {
                env: env.clone(),
                active,
                exact,
            });
            return;
        };
        let info = self.acf.loops[l as usize].clone();
        // Only values that can matter: no closed form, not floating point (those stay
        // unknown whatever we do).
        let vars: Vec<u32> = info
            .vars
            .iter()
            .copied()
            .filter(|v| {
                let lv = &self.acf.loopvars[*v as usize];
                lv.closed.is_none() && self.acf.flags(lv.update) & flags::FLOAT == 0
            })
            .collect();
        let mut vals: Vec<WarpVal> = vars
            .iter()
            .map(|v| {
                let init = self.acf.loopvars[*v as usize].init;
                self.eval(init, env)
            })
            .collect();
        let mut act = active;
        let mut exact = exact;
        for k in 0..MAX_ITERS {
            let mut e = env.clone();
            e.bind.insert(Atom::Iter(l), WarpVal::konst(k));
            for (v, val) in vars.iter().zip(&vals) {
                e.bind.insert(Atom::LoopVar(*v), val.clone());
            }
            crate::stack::deep(|| self.simulate(rest, &e, act, exact, out));
            if out.len() >= MAX_SAMPLES || self.budget.spent() {
                return;
            }
            let c = self.eval(info.cont, &e);
            let mut cont = 0u32;
            let mut unk = 0u32;
            for lane in 0..32 {
                if act & e.valid & (1 << lane) == 0 {
                    continue;
                }
                match c.lane_const(lane) {
                    Some(0) => {}
                    Some(_) => cont |= 1 << lane,
                    None => unk |= 1 << lane,
                }
            }
            if unk != 0 {
                if !exact {
                    // Unknown trip count (data or an unknown bound): two samples of the
                    // unknown part are enough to see what an iteration does.
                    break;
                }
                exact = false;
            }
            act = cont | unk;
            if act == 0 {
                break;
            }
            vals = vars
                .iter()
                .map(|v| {
                    let upd = self.acf.loopvars[*v as usize].update;
                    self.eval(upd, &e)
                })
                .collect();
        }
    }
}

/// Whether an access in `space` is measured by the checks (global, shared and constant
/// memory; constant loads only for how many addresses a warp's lanes read).
pub fn measured(space: StateSpace) -> bool {
    matches!(
        space,
        StateSpace::Global
            | StateSpace::Generic
            | StateSpace::Shared
            | StateSpace::SharedCta
            | StateSpace::Const
    )
}

#[cfg(test)]
mod tests {
    use super::{Budget, Tri};

    /// A site's enumeration asks [`Budget::spent`] between the environments it evaluates:
    /// once the hard limit is reached, that ends it as the site's or the kernel's budget
    /// would, instead of letting the site run on to its own budget past the limit.
    #[test]
    fn the_hard_limit_ends_an_enumeration_under_way() {
        let b = Budget::for_share(0.0, 1);
        b.start_site();
        b.spend(10);
        assert!(!b.spent());
        b.charge(b.hard());
        assert!(b.exhausted());
        assert!(
            b.spent(),
            "a site past the hard limit should stop enumerating"
        );
    }

    /// The packed key tells apart arrays that differ in any one lane's value.
    #[test]
    fn packed_lanes_differ_where_lanes_differ() {
        let all = [Tri::T, Tri::F, Tri::U, Tri::O, Tri::S];
        let base = [Tri::T; 32];
        let mut keys = std::collections::HashSet::new();
        keys.insert(Tri::pack(&base));
        for k in 0..32 {
            for t in &all[1..] {
                let mut a = base;
                a[k] = *t;
                assert!(keys.insert(Tri::pack(&a)), "lane {k} set to {t:?} collides");
            }
        }
        assert_eq!(keys.len(), 1 + 32 * 4);
    }
}
