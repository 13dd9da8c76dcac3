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

use crate::acf::{AccessSite, Acf, BranchSite};
use crate::eval::{Env, Evaluator, Lanes, Sym, SymInfo, SymOracle, Symbols, WarpVal};
use crate::expr::{Atom, Kind, Node, flags};
use crate::geometry::Geometry;
use crate::memory;
use cranelift_entity::EntityRef;
use rustc_hash::FxHashMap;
use warpscope_ir::{FuncId, Module};
use warpscope_ptx::{StateSpace, Type};

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
    /// Whether the examination covered every block and iteration (no sampling caps hit).
    pub exhaustive: bool,
    /// Whether the evaluation budget ran out: the warps left were given their symbolic
    /// answer (undecided, counted in `maybe`).
    pub budget_spent: bool,
    /// The condition in canonical ACF form.
    pub condition: String,
}

/// What kind of inefficiency an access shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemClass {
    Fine,
    Misaligned,
    Uncoalesced,
    BankConflict,
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

/// The verdict for one thread-dependent access.
#[derive(Debug, Clone)]
pub struct AccessResult {
    pub site: AccessSite,
    pub global: Option<GlobalCost>,
    pub shared: Option<SharedCost>,
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
    pub address: String,
    /// The condition under which lanes run the access (canonical ACF form).
    pub active: String,
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
                let pointer = offset == 0 && matches!(ty, Some(Type::U64 | Type::B64 | Type::S64));
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
    /// Warp verdicts by the leaves' per-lane values (cleared per branch).
    pub(crate) verdict_cache: std::cell::RefCell<VerdictCache>,
    /// Work left for lane-by-lane evaluation.
    pub budget: Budget,
}

/// Bounds on lane-by-lane evaluation (issue 10: budgets, not hangs), counted in ACF nodes
/// evaluated for one warp. Every site first gets its symbolic answer (each warp once, with
/// block indices, parameters and loop counters left symbolic); enumerating blocks, parameter
/// values and loop iterations then spends the budget. When the site's or the kernel's budget
/// is spent, the rest stays symbolic: a range, reported as `possible`, and the result says so
/// ([`BranchResult::budget_spent`], [`AccessResult::budget_spent`]).
#[derive(Debug)]
pub struct Budget {
    per_site: u64,
    per_kernel: u64,
    site: std::cell::Cell<u64>,
    kernel: std::cell::Cell<u64>,
}

/// Node evaluations one branch or access may spend on enumeration.
pub const SITE_BUDGET: u64 = 250_000;
/// Node evaluations one kernel's sites may spend together.
pub const KERNEL_BUDGET: u64 = 2_500_000;

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
            site: Default::default(),
            kernel: Default::default(),
        }
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
        self.site.get() >= self.per_site || self.kernel.get() >= self.per_kernel
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
pub(crate) type VerdictCache = FxHashMap<(Vec<(Node, [Tri; 32])>, u32), WarpVerdict>;

/// Simulations are shared by the sites of one loop nest: keyed by loops, warp, block and
/// parameter values.
pub(crate) type SimKey = (Vec<u32>, u32, Option<[u32; 3]>, Vec<(Atom, i64)>);

impl<'a> Checker<'a> {
    fn env(&self, w: u32) -> Env {
        let mut e = Env::warp(self.geometry, w);
        e.bind = self.base_bind.clone();
        e
    }

    fn eval(&mut self, n: Node, env: &Env) -> WarpVal {
        let mut ev = Evaluator::new(self.acf, &mut self.syms, self.oracle, env);
        let v = ev.eval(n);
        self.budget.spend(ev.computed());
        v
    }

    fn leaf_val(&mut self, n: Node, env: &Env) -> LeafVal {
        let valid = env.valid;
        let mut ev = Evaluator::new(self.acf, &mut self.syms, self.oracle, env);
        let whole = ev.eval(n);
        self.budget.spend(ev.computed());
        if let Kind::Cmp(c, a, b) = self.acf.kind(n)
            && !c.float
        {
            let d = ev.eval(a).sub(&ev.eval(b));
            if let Some((cl, part)) = d.split(valid) {
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
    fn eval2(&mut self, a: Node, b: Node, env: &Env) -> (WarpVal, WarpVal) {
        let mut ev = Evaluator::new(self.acf, &mut self.syms, self.oracle, env);
        let r = (ev.eval(a), ev.eval(b));
        self.budget.spend(ev.computed());
        r
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

    /// Classifies a thread-dependent branch.
    pub fn branch(&mut self, site: &BranchSite) -> BranchResult {
        self.verdict_cache.borrow_mut().clear();
        self.budget.start_site();
        let mut budget_spent = false;
        let fc = site.cond;
        let fa = site.active;
        let loops = self.site_loops(site.ctx, site.block);
        let mut nodes = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        leaves(self.acf, fc, &mut nodes, &mut seen);
        leaves(self.acf, fa, &mut nodes, &mut seen);
        let conts: Vec<(u32, Node)> = loops
            .iter()
            .map(|&l| (l, self.acf.loops[l as usize].cont))
            .collect();
        for (_, f) in &conts {
            leaves(self.acf, *f, &mut nodes, &mut seen);
        }
        let cond_flags = self.acf.flags(site.cond) | self.acf.flags(site.active);
        let mut undecided_flags: u16 = 0;
        let mut counts = [0u64; 5];
        let mut exhaustive = true;
        // 1. Each warp symbolically.
        let mut pending: Vec<(u32, Env, FxHashMap<Node, LeafVal>)> = Vec::new();
        let mut decided: Vec<WarpVerdict> = Vec::new();
        for w in 0..self.geometry.warps() {
            let env = self.env(w);
            let mut vals: FxHashMap<Node, LeafVal> = FxHashMap::default();
            for &n in &nodes {
                let v = self.leaf_val(n, &env);
                vals.insert(n, v);
            }
            let sub0 = Subst::default();
            let tri0: FxHashMap<Node, [Tri; 32]> = vals
                .iter()
                .map(|(n, v)| (*n, self.leaf_tri(v, &sub0, &env, &mut FxHashMap::default())))
                .collect();
            let (act, cond) = self.lanes_of(fa, fc, &tri0);
            let v0 = Self::verdict(&act, &cond, env.valid, u32::MAX);
            if v0 == WarpVerdict::MaybeParam {
                // Do the undecided leaves depend on the block index?
                for (n, t) in &tri0 {
                    if t.contains(&Tri::O) {
                        undecided_flags |= self.acf.flags(*n);
                    }
                }
                pending.push((w, env, vals));
            } else {
                decided.push(v0);
            }
        }
        // 2./3. Enumerate blocks and iterations for the undecided warps.
        let per_block = undecided_flags & flags::CTAID != 0;
        let (blocks, all) = if pending.is_empty() {
            (vec![[0, 0, 0]], true)
        } else if per_block {
            self.blocks_to_examine()
        } else {
            (vec![[0, 0, 0]], true)
        };
        exhaustive &= all;
        let cont_flags = conts.iter().fold(0u16, |f, (_, c)| f | self.acf.flags(*c));
        let slow = (cond_flags | cont_flags) & flags::NONAFFINE != 0;
        let combos = if cond_flags & flags::PARAM != 0 && !pending.is_empty() {
            self.param_combos()
        } else {
            vec![Vec::new()]
        };
        let weight = if per_block && !pending.is_empty() {
            blocks.len().max(1) as u64
        } else {
            1
        };
        for v in decided {
            counts[v as usize] += weight;
        }
        for (_, env, vals) in pending {
            if blocks.is_empty() {
                // Grid unknown: the block index stays symbolic.
                counts[WarpVerdict::MaybeParam as usize] += weight;
                exhaustive = false;
                continue;
            }
            // Blocks that give every block-dependent symbol the same values behave alike
            // (e.g. `min(8*ctaid.x + w, 127)` past the diagonal): evaluate one of them.
            let mut key_syms: Vec<u32> = Vec::new();
            let mut dedupe = !slow;
            for v in vals.values() {
                if let LeafVal::Split { part, .. } = v {
                    for (m, _) in part {
                        for &sy in self.syms.factors(*m) {
                            match self.syms.symbol(sy) {
                                Sym::Atom(Atom::Iter(_)) => {}
                                Sym::Node(n) if self.acf.flags(n) & flags::LOOP != 0 => {
                                    dedupe = false
                                }
                                Sym::Atom(Atom::LoopVar(_)) => dedupe = false,
                                _ => {
                                    if !key_syms.contains(&sy) {
                                        key_syms.push(sy);
                                    }
                                }
                            }
                        }
                    }
                }
            }
            let mut seen: FxHashMap<Vec<Option<i64>>, WarpVerdict> = FxHashMap::default();
            for (bi, blk) in blocks.iter().enumerate() {
                if self.budget.spent() {
                    // The blocks left keep the symbolic answer: undecided.
                    budget_spent = true;
                    exhaustive = false;
                    counts[WarpVerdict::MaybeParam as usize] += (blocks.len() - bi) as u64;
                    break;
                }
                let mut best = WarpVerdict::Uniform;
                for pc in &combos {
                    let key: Option<Vec<Option<i64>>> = dedupe.then(|| {
                        let sub = Subst {
                            ctaid: per_block.then_some(*blk),
                            iters: Vec::new(),
                            params: pc.clone(),
                        };
                        let mut memo = FxHashMap::default();
                        key_syms
                            .iter()
                            .map(|&sy| self.sym_value(sy, &sub, &env, &mut memo))
                            .collect()
                    });
                    if let Some(k) = &key
                        && let Some(v) = seen.get(k)
                    {
                        best = best.max(*v);
                        continue;
                    }
                    let mut v = WarpVerdict::MaybeParam;
                    if !slow {
                        let base = Subst {
                            ctaid: per_block.then_some(*blk),
                            iters: Vec::new(),
                            params: pc.clone(),
                        };
                        let (fv, ex) =
                            self.fast_iterate(&conts, 0, base, u32::MAX, &vals, &env, fa, fc);
                        exhaustive &= ex;
                        v = fv;
                    }
                    if v == WarpVerdict::MaybeParam {
                        // Non-linear in the block index or parameters (clamps, `min`): evaluate
                        // everything again with them bound, simulating the loops.
                        if bi >= 64 {
                            exhaustive = false;
                        } else {
                            let mut e = env.clone();
                            if per_block {
                                e.ctaid = Some(*blk);
                            }
                            for (a, x) in pc {
                                e.bind.insert(*a, WarpVal::konst(*x));
                            }
                            let samples = self.samples(&loops, &e, env_warp(&env), pc);
                            v = WarpVerdict::Uniform;
                            for s in samples.iter() {
                                let (c, a) = self.eval2(site.cond, site.active, &s.env);
                                let mut sv = Self::verdict(
                                    &tri_of(&a, s.env.valid),
                                    &tri_of(&c, s.env.valid),
                                    s.env.valid,
                                    s.active,
                                );
                                if !s.exact && sv >= WarpVerdict::DivergentUnlessUniform {
                                    sv = WarpVerdict::MaybeData;
                                }
                                v = v.max(sv);
                            }
                        }
                    }
                    if let Some(k) = key {
                        seen.insert(k, v);
                    }
                    best = best.max(v);
                }
                counts[best as usize] += 1;
            }
        }
        let total: u64 = counts.iter().sum();
        let unless = counts[WarpVerdict::DivergentUnlessUniform as usize];
        let div = counts[WarpVerdict::Divergent as usize] + unless;
        let maybe_data = counts[WarpVerdict::MaybeData as usize];
        let maybe_param = counts[WarpVerdict::MaybeParam as usize];
        let maybe = maybe_data + maybe_param;
        let t = total.max(1) as f64;
        let class = if div == total && total > 0 {
            DivClass::Total
        } else if div > 0 {
            DivClass::Partial
        } else if maybe_data > 0 {
            DivClass::Unknown
        } else if maybe_param > 0 {
            DivClass::Boundary
        } else {
            DivClass::NonDivergent
        };
        let mut ratio = (div as f64 / t, (div + maybe) as f64 / t);
        if class == DivClass::Boundary {
            ratio.1 = ratio.1.min(self.boundary_bound(site));
        }
        BranchResult {
            site: *site,
            class,
            ratio,
            divergent: div,
            maybe,
            total,
            data_dependent: maybe_data > 0,
            unless_uniform: unless > 0 && unless == div,
            exhaustive,
            budget_spent,
            condition: self.acf.display(site.cond),
        }
    }

    fn lanes_of(
        &self,
        fa: Node,
        fc: Node,
        tri: &FxHashMap<Node, [Tri; 32]>,
    ) -> ([Tri; 32], [Tri; 32]) {
        let mut memo = FxHashMap::default();
        let act = eval_bool(self.acf, fa, tri, &mut memo);
        let cond = eval_bool(self.acf, fc, tri, &mut memo);
        (act, cond)
    }

    /// Fast path: iterate the enclosing loops' counters from `depth` on, substituting into
    /// the precomputed leaves. Returns the worst verdict and whether no cap was hit.
    #[allow(clippy::too_many_arguments)]
    fn fast_iterate(
        &self,
        conts: &[(u32, Node)],
        depth: usize,
        sub: Subst,
        loop_active: u32,
        vals: &FxHashMap<Node, LeafVal>,
        env: &Env,
        fa: Node,
        fc: Node,
    ) -> (WarpVerdict, bool) {
        let tri_at = |sub: &Subst| -> FxHashMap<Node, [Tri; 32]> {
            self.budget.spend(vals.len() as u64);
            let mut memo = FxHashMap::default();
            vals.iter()
                .map(|(n, v)| (*n, self.leaf_tri(v, sub, env, &mut memo)))
                .collect()
        };
        let Some((l, cf)) = conts.get(depth) else {
            let tri = tri_at(&sub);
            let mut key: Vec<(Node, [Tri; 32])> = tri.iter().map(|(n, t)| (*n, *t)).collect();
            key.sort_by_key(|(n, _)| *n);
            if let Some(v) = self.verdict_cache.borrow().get(&(key.clone(), loop_active)) {
                return (*v, true);
            }
            let (act, cond) = self.lanes_of(fa, fc, &tri);
            let v = Self::verdict(&act, &cond, env.valid, loop_active);
            self.verdict_cache
                .borrow_mut()
                .insert((key, loop_active), v);
            return (v, true);
        };
        let mut best = WarpVerdict::Uniform;
        let mut act = loop_active;
        for k in 0..MAX_ITERS {
            if self.budget.spent() {
                return (best.max(WarpVerdict::MaybeParam), false);
            }
            let mut s = sub.clone();
            s.iters.push((*l, k));
            let (v, ex) = crate::stack::deep(|| {
                self.fast_iterate(conts, depth + 1, s.clone(), act, vals, env, fa, fc)
            });
            best = best.max(v);
            if !ex {
                return (best, false);
            }
            // Who continues?
            let tri = tri_at(&s);
            let contv = eval_bool(self.acf, *cf, &tri, &mut FxHashMap::default());
            let mut next = 0u32;
            let mut undecided = false;
            for lane in 0..32 {
                if act & env.valid & (1 << lane) == 0 {
                    continue;
                }
                match contv[lane] {
                    Tri::F => {}
                    Tri::T => next |= 1 << lane,
                    _ => {
                        undecided = true;
                        next |= 1 << lane;
                    }
                }
            }
            if undecided {
                // Without knowing who continues, stop sampling this loop here.
                if best == WarpVerdict::Uniform {
                    best = WarpVerdict::MaybeParam;
                }
                return (best, true);
            }
            act = next;
            if act == 0 {
                return (best, true);
            }
        }
        (best, false)
    }

    /// For a boundary check against an unknown bound: the largest fraction of a block's
    /// warps one threshold can split (1 of 8 for a 1-D block of 256).
    fn boundary_bound(&mut self, site: &BranchSite) -> f64 {
        let Kind::Cmp(_, a, b) = self.acf.kind(match self.acf.kind(site.cond) {
            Kind::Not(x) => x,
            _ => site.cond,
        }) else {
            return 1.0;
        };
        let warps = self.geometry.warps();
        let mut intervals: Vec<(i64, i64)> = Vec::new();
        for w in 0..warps {
            let env = self.env(w);
            let d = self.eval(a, &env).sub(&self.eval(b, &env));
            let Some((c, _)) = d.split(env.valid) else {
                return 1.0;
            };
            let vals: Vec<i64> = (0..32)
                .filter(|k| env.valid & (1 << k) != 0)
                .map(|k| c[k])
                .collect();
            let lo = vals.iter().copied().min().unwrap_or(0);
            let hi = vals.iter().copied().max().unwrap_or(0);
            intervals.push((lo, hi));
        }
        // Max number of intervals strictly straddling one threshold.
        let mut best = 0usize;
        for &(lo, _) in &intervals {
            for t in [lo, lo + 1] {
                let n = intervals.iter().filter(|(l, h)| *l < t && t <= *h).count();
                best = best.max(n);
            }
        }
        best as f64 / f64::from(warps.max(1))
    }

    /// Measures a thread-dependent access.
    pub fn access(&mut self, site: &AccessSite) -> AccessResult {
        self.budget.start_site();
        let mut budget_spent = false;
        let shared = site.space.is_shared();
        let loops = self.site_loops(site.ctx, site.block);
        let mut g = GlobalCost {
            sectors: (u32::MAX, 0),
            ideal: (u32::MAX, 0),
            lines: (u32::MAX, 0),
            requests: (u32::MAX, 0),
            runs_aligned: (u32::MAX, 0),
            runs: (u32::MAX, 0),
            ..Default::default()
        };
        let mut sh = SharedCost {
            ways: (u32::MAX, 0),
            wavefronts: (u32::MAX, 0),
            ideal: (u32::MAX, 0),
            stride: None,
        };
        let mut data = false;
        let mut param = false;
        // Whether an unknown pitch was read as padded for some verdict.
        let mut pitch_read = false;
        let mut unc_def = false;
        let mut unc_pos = false;
        let mut mis_def = false;
        let mut mis_pos = false;
        let mut bank_def = false;
        let mut bank_pos = false;
        let mut strides: Vec<Option<i64>> = Vec::new();
        let mut misaligns: Vec<Option<i64>> = Vec::new();
        let addr_flags = self.acf.flags(site.addr) | self.acf.flags(site.active);
        // Ranged parameters this access depends on, and whether its loops need simulating.
        let mut site_params = self.acf.params_under(site.addr);
        site_params.extend(self.acf.params_under(site.active));
        let ranged: Vec<(Atom, Vec<i64>)> = self
            .param_ranges
            .iter()
            .filter(|(a, _)| site_params.contains(a))
            .cloned()
            .collect();
        let nonaffine = addr_flags & flags::NONAFFINE != 0;
        let td_loop = loops
            .iter()
            .any(|&l| self.acf.is_td(self.acf.loops[l as usize].cont));
        let mut combos: Vec<Vec<(Atom, i64)>> = vec![Vec::new()];
        for (a, vals) in &ranged {
            // A sample of the range: its first values (every residue of small strides) and a
            // few more spread over it.
            let mut vals: Vec<i64> = if vals.len() <= 8 {
                vals.clone()
            } else {
                let n = vals.len();
                [0, 1, 2, 3, n / 3, n / 2, 2 * n / 3, n - 1]
                    .iter()
                    .map(|&i| vals[i])
                    .collect()
            };
            vals.dedup();
            let mut next = Vec::new();
            for c in &combos {
                for &v in &vals {
                    if next.len() < 64 {
                        let mut c = c.clone();
                        c.push((*a, v));
                        next.push(c);
                    }
                }
            }
            combos = next;
        }
        // Boundary checks among the conditions that guard the access: inequalities against a
        // block- or parameter-dependent bound. Their lanes' values are read as one unknown
        // shared by the warp: edge warps are not what the access costs.
        let boundary = {
            let env0 = self.env(0);
            let mut ls = Vec::new();
            leaves(
                self.acf,
                site.active,
                &mut ls,
                &mut rustc_hash::FxHashSet::default(),
            );
            let mut set = rustc_hash::FxHashSet::default();
            for n in ls {
                if let Kind::Cmp(c, a, b) = self.acf.kind(n)
                    && !c.float
                    && !matches!(c.op, warpscope_ptx::CmpOp::Eq | warpscope_ptx::CmpOp::Ne)
                {
                    let (x, y) = self.eval2(a, b, &env0);
                    if let Some((_, part)) = x.sub(&y).split(env0.valid)
                        && !part.is_empty()
                        && part.iter().all(|(m, _)| {
                            self.syms.factors(*m).iter().all(|s| {
                                matches!(
                                    self.syms.symbol(*s),
                                    Sym::Atom(
                                        Atom::Param { .. } | Atom::Ctaid(_) | Atom::Nctaid(_)
                                    )
                                )
                            })
                        })
                    {
                        set.insert(n);
                    }
                }
            }
            (!set.is_empty()).then(|| std::rc::Rc::new(set))
        };
        for w in 0..self.geometry.warps() {
            let mut env = self.env(w);
            env.uniform_nodes = boundary.clone();
            let undecided = |a: &WarpVal, e: &Env| {
                a.opaque & e.valid != 0 || a.split(e.valid & !a.unknown).is_none()
            };
            let mut envs: Vec<(Env, Vec<(Atom, i64)>)> = combos
                .iter()
                .map(|c| {
                    let mut e = env.clone();
                    for (a, v) in c {
                        e.bind.insert(*a, WarpVal::konst(*v));
                    }
                    (e, c.clone())
                })
                .collect();
            // Budget spent: this warp gets its symbolic answer only (one environment, no
            // blocks enumerated, no loops simulated).
            let lean = self.budget.spent();
            if lean {
                budget_spent = true;
                envs.truncate(1);
            }
            let mut first: Vec<(WarpVal, WarpVal)> = Vec::new();
            let mut need_blocks = false;
            for (e, _) in &envs {
                let (a, act) = self.eval2(site.addr, site.active, e);
                need_blocks |= undecided(&a, e) || act.opaque & e.valid != 0;
                first.push((a, act));
            }
            if need_blocks && addr_flags & flags::CTAID != 0 && !lean {
                // Clamps at the edge of the grid and the like: examine representative blocks.
                let blocks = self.representative_blocks();
                if !blocks.is_empty() {
                    // At most 64 environments per warp: fewer parameter samples when blocks
                    // multiply them (the first values keep every small residue).
                    if envs.len() * blocks.len() > 64 {
                        let keep = (64 / blocks.len()).max(1);
                        envs.truncate(keep);
                    }
                    envs = envs
                        .iter()
                        .flat_map(|(e, c)| {
                            blocks.iter().map(move |b| {
                                let mut e = e.clone();
                                e.ctaid = Some(*b);
                                (e, c.clone())
                            })
                        })
                        .take(512)
                        .collect();
                    first.clear();
                }
            }
            let simulate = !lean
                && !loops.is_empty()
                && (td_loop
                    || nonaffine
                        && first
                            .iter()
                            .chain([].iter())
                            .any(|(a, _)| undecided(a, &env))
                    || nonaffine && first.is_empty());
            let mut samples: Vec<(WarpVal, WarpVal, u32, bool)> = Vec::new();
            for (k, (e, c)) in envs.iter().enumerate() {
                if k > 0 && (simulate || first.get(k).is_none()) && self.budget.spent() {
                    budget_spent = true;
                    break;
                }
                if simulate {
                    let ss = self.samples(&loops, e, w, c);
                    for s in ss.iter() {
                        let mut se = s.env.clone();
                        se.uniform_nodes = e.uniform_nodes.clone();
                        let (a, act) = self.eval2(site.addr, site.active, &se);
                        samples.push((a, act, s.active, s.exact));
                    }
                } else if let Some((a, act)) = first.get(k) {
                    samples.push((a.clone(), act.clone(), u32::MAX, true));
                } else {
                    let (a, act) = self.eval2(site.addr, site.active, e);
                    samples.push((a, act, u32::MAX, true));
                }
            }
            for (addr, act, loop_active, exact) in samples {
                // Active lanes: not known to be off.
                let mut lanes_on = 0u32;
                let mut maybe_on = false;
                for k in 0..32 {
                    if env.valid & loop_active & (1 << k) == 0 {
                        continue;
                    }
                    match act.lane_const(k) {
                        Some(0) => {}
                        Some(_) => lanes_on |= 1 << k,
                        None => {
                            lanes_on |= 1 << k;
                            if act.unknown & (1 << k) != 0 {
                                maybe_on = true;
                            }
                        }
                    }
                }
                if lanes_on == 0 {
                    continue;
                }
                let exact = exact && !maybe_on;
                // Lanes whose offsets an unknown parameter scrambles (`pos & (stride - 1)`):
                // measured with the pitch parameters read as padded, when that reading
                // decides them.
                let mut padded_first = false;
                let addr = if !shared
                    && addr.unknown & lanes_on == 0
                    && addr.opaque & lanes_on != 0
                    && let Some(a) = self.padded_pitch_addr(site, &env, lanes_on)
                {
                    padded_first = true;
                    a
                } else {
                    addr
                };
                if addr.unknown & lanes_on != 0 || addr.opaque & lanes_on != 0 {
                    if addr.unknown & lanes_on != 0 {
                        data = true;
                    } else {
                        param = true;
                    }
                    if lanes_on.count_ones() > 1 {
                        if shared {
                            bank_pos = true;
                        } else {
                            unc_pos = true;
                        }
                    }
                    let n = lanes_on.count_ones();
                    let c: Vec<i64> = Vec::new();
                    let req = memory::gpucheck_requests(&c, n);
                    g.requests = (g.requests.0.min(1), g.requests.1.max(req.1));
                    continue;
                }
                // A lane-varying symbolic stride is an unknown parameter. When it is a row
                // pitch (rows of a 2-D block) it is measured as a padded pitch, which real
                // code uses; otherwise the cost depends on it.
                // That reading is a guess: what it alone shows is `possible`.
                let (split, padded) = match addr.split(lanes_on) {
                    Some(s) => (Some(s), padded_first),
                    None if !shared => (
                        self.padded_pitch_addr(site, &env, lanes_on)
                            .and_then(|a| a.split(lanes_on)),
                        true,
                    ),
                    None => (None, false),
                };
                if padded && split.is_some() {
                    pitch_read = true;
                }
                let exact = exact && !padded;
                let Some((c, part)) = split else {
                    param = true;
                    if lanes_on.count_ones() > 1 {
                        if shared {
                            bank_pos = true;
                        } else {
                            unc_pos = true;
                        }
                    }
                    continue;
                };
                let offs: Vec<(u32, i64)> = (0..32u32)
                    .filter(|k| lanes_on & (1 << k) != 0)
                    .map(|k| (k, c[k as usize]))
                    .collect();
                let plain: Vec<i64> = offs.iter().map(|x| x.1).collect();
                strides.push(constant_stride(&offs));
                if shared {
                    let cost = memory::bank_cost(&offs, site.size);
                    sh.ways = (sh.ways.0.min(cost.ways), sh.ways.1.max(cost.ways));
                    sh.wavefronts = (
                        sh.wavefronts.0.min(cost.wavefronts),
                        sh.wavefronts.1.max(cost.wavefronts),
                    );
                    sh.ideal = (sh.ideal.0.min(cost.ideal), sh.ideal.1.max(cost.ideal));
                    if cost.ways > 1 {
                        if exact {
                            bank_def = true;
                        } else {
                            bank_pos = true;
                        }
                    }
                    continue;
                }
                // Residues of the uniform part modulo 128: those every block takes in turn
                // (block indices: each value runs) and those nobody knows (parameters, data).
                // The unknown residues come in two readings: with unknown pitches padded
                // (`res_unk`, the measured costs) and with them left unknown (`res_strict`,
                // only when they differ): a definite verdict must hold in both.
                let (res_run, res_unk, res_strict) = self.residues(&part);
                if res_strict.is_some() {
                    pitch_read = true;
                }
                let base0 = plain.first().copied().unwrap_or(0);
                let ideal = memory::ideal_sectors(offs.len() as u32, site.size);
                let plain_cost = memory::global_cost(&plain, site.size);
                let ra = plain_cost.aligned_run_sectors;
                let nruns = plain_cost.runs;
                let need = ra.max(ideal);
                let mut smin = u32::MAX;
                let mut smax = 0;
                let mut lmin = u32::MAX;
                let mut lmax = 0;
                // Some block is certainly misaligned with the pitches read as padded; some
                // block is certainly misaligned / has excess sectors whatever they are.
                let mut mis_some_block = false;
                let mut mis_proven = false;
                let mut exc_proven = false;
                let mut mis_offset: Option<i64> = None;
                for &rr in &res_run {
                    let mut bmin = u32::MAX;
                    for &ru in &res_unk {
                        let r = rr + ru;
                        let shifted: Vec<i64> = plain.iter().map(|o| o + r).collect();
                        let cost = memory::global_cost(&shifted, site.size);
                        let (sc, l) = (cost.sectors, cost.lines);
                        smin = smin.min(sc);
                        smax = smax.max(sc);
                        lmin = lmin.min(l);
                        lmax = lmax.max(l);
                        bmin = bmin.min(sc);
                    }
                    let strict_min = match &res_strict {
                        None => bmin,
                        Some(rs) => rs
                            .iter()
                            .map(|ru| {
                                let shifted: Vec<i64> = plain.iter().map(|o| o + rr + ru).collect();
                                memory::global_cost(&shifted, site.size).sectors
                            })
                            .min()
                            .unwrap_or(bmin),
                    };
                    if bmin > need {
                        mis_some_block = true;
                        mis_proven |= strict_min > need;
                        if res_unk.len() == 1 && mis_offset.is_none() {
                            let m = plain.iter().map(|o| o + rr + res_unk[0]).min().unwrap_or(0);
                            mis_offset = Some(m.rem_euclid(32));
                        }
                    }
                    if bmin > ideal {
                        exc_proven |= strict_min > ideal;
                    }
                }
                let diffs: Vec<i64> = plain.iter().map(|o| o - base0).collect();
                let req = memory::gpucheck_requests(&diffs, 0);
                g.sectors = (g.sectors.0.min(smin), g.sectors.1.max(smax));
                g.lines = (g.lines.0.min(lmin), g.lines.1.max(lmax));
                g.ideal = (g.ideal.0.min(ideal), g.ideal.1.max(ideal));
                g.runs_aligned = (g.runs_aligned.0.min(ra), g.runs_aligned.1.max(ra));
                g.runs = (g.runs.0.min(nruns), g.runs.1.max(nruns));
                g.requests = (g.requests.0.min(req.0), g.requests.1.max(req.1));
                // Gaps: more sectors than ideal even with every dense run aligned.
                if ra > ideal && smax > ideal {
                    if exact && exc_proven {
                        unc_def = true;
                    } else {
                        unc_pos = true;
                    }
                }
                // Misalignment: more sectors than the runs need and than ideal.
                if mis_some_block {
                    if exact && mis_proven {
                        mis_def = true;
                    } else {
                        mis_pos = true;
                    }
                    misaligns.push(mis_offset);
                } else if smax > need {
                    mis_pos = true;
                    misaligns.push(None);
                }
                // A data-dependent mask may leave holes in a request spanning several sectors.
                if maybe_on && smax > 1 {
                    unc_pos = true;
                }
            }
        }
        let fix = |p: (u32, u32)| if p.0 == u32::MAX { (0, p.1) } else { p };
        g.sectors = fix(g.sectors);
        g.ideal = fix(g.ideal);
        g.lines = fix(g.lines);
        g.requests = fix(g.requests);
        g.runs_aligned = fix(g.runs_aligned);
        g.runs = fix(g.runs);
        sh.ways = fix(sh.ways);
        sh.wavefronts = fix(sh.wavefronts);
        sh.ideal = fix(sh.ideal);
        let stride = if !strides.is_empty() && strides.iter().all(|s| *s == strides[0]) {
            strides[0]
        } else {
            None
        };
        g.stride = stride;
        sh.stride = stride;
        g.misalign = if !misaligns.is_empty() && misaligns.iter().all(|s| *s == misaligns[0]) {
            misaligns[0]
        } else {
            None
        };
        let mut verdicts = Vec::new();
        if shared {
            if bank_def || bank_pos {
                verdicts.push((MemClass::BankConflict, bank_def));
            }
        } else {
            if unc_def || unc_pos {
                verdicts.push((MemClass::Uncoalesced, unc_def));
            }
            // A misalignment only matters when the access is otherwise dense.
            if (mis_def || mis_pos) && !unc_def {
                verdicts.push((MemClass::Misaligned, mis_def));
            }
        }
        AccessResult {
            site: *site,
            global: (!shared).then_some(g),
            shared: shared.then_some(sh),
            verdicts,
            data_dependent: data,
            param_dependent: param,
            pitch_read,
            budget_spent,
            address: self.acf.display(site.addr),
            active: self.acf.display(site.active),
        }
    }

    /// Whether symbol `s` is an integer kernel parameter with no assumption given that the
    /// kernel uses as a pitch ([`pitch_params`]), or a value scaled by one: the parameter in a
    /// 24-bit multiply's wrapper (`p & 0xffffff`), or a shift by it (`blockIdx.x << log2N`).
    fn unassumed_pitch(&self, s: u32) -> bool {
        let is_pitch = |a: Atom| self.pitches.contains_key(&a) && self.unassumed_integer_atom(a);
        match self.syms.symbol(s) {
            Sym::Atom(a) => is_pitch(a),
            Sym::Node(n) => match self.acf.kind(strip_wrappers(self.acf, n)) {
                Kind::Atom(a) => is_pitch(a),
                Kind::Bin(crate::expr::BinOp::Shl, _, amount) => param_atom(self.acf, amount)
                    .is_some_and(|a| is_pitch(a) && self.pitches.get(&a) == Some(&PitchUse::Shift)),
                _ => false,
            },
        }
    }

    /// Whether `a` is an integer kernel parameter with no assumption given.
    fn unassumed_integer_atom(&self, a: Atom) -> bool {
        let Atom::Param {
            func,
            index,
            offset,
        } = a
        else {
            return false;
        };
        let ty = self.oracle.module.funcs[func]
            .params
            .get(index as usize)
            .map(|p| p.ty);
        let pointer = offset == 0 && matches!(ty, Some(Type::U64 | Type::B64 | Type::S64));
        !pointer && !self.oracle.params.contains_key(&(func, index))
    }

    /// The address with every unassumed pitch parameter ([`pitch_params`]) of it read as a
    /// padded row pitch, when those parameters only separate rows of the warp (lanes of one
    /// row of the block move together when the pitch changes); `None` otherwise (a stride
    /// `in[s*i]` spreads the lanes of a row: its cost depends on `s`).
    fn padded_pitch_addr(
        &mut self,
        site: &AccessSite,
        env: &Env,
        lanes_on: u32,
    ) -> Option<WarpVal> {
        let pitches: Vec<(Atom, PitchUse)> = self
            .acf
            .params_under(site.addr)
            .into_iter()
            .filter(|a| self.unassumed_integer_atom(*a))
            .filter_map(|a| self.pitches.get(&a).map(|u| (a, *u)))
            .collect();
        if pitches.is_empty() {
            return None;
        }
        let with = |reading: usize| {
            let mut e = env.clone();
            for (a, u) in &pitches {
                e.bind.insert(*a, WarpVal::konst(u.padded()[reading]));
            }
            e
        };
        let a1 = self.eval(site.addr, &with(0));
        let a2 = self.eval(site.addr, &with(1));
        let (c1, _) = a1.split(lanes_on)?;
        let (c2, _) = a2.split(lanes_on)?;
        let mut row_shift: Vec<([u32; 2], i64)> = Vec::new();
        for k in 0..32 {
            if lanes_on & (1 << k) == 0 {
                continue;
            }
            let l = env.lanes[k]?;
            let row = [l.tid[1], l.tid[2]];
            let d = c2[k].wrapping_sub(c1[k]);
            match row_shift.iter().find(|(r, _)| *r == row) {
                Some((_, x)) if *x != d => return None,
                Some(_) => {}
                None => row_shift.push((row, d)),
            }
        }
        Some(a1)
    }

    /// Possible values modulo 128 of a lane-uniform symbolic address part, split into the
    /// residues that do occur (block indices of a known grid: every block runs) and those
    /// that are merely possible (unknown parameters, data); each set contains 0 at least.
    ///
    /// Unknown integer parameters used as pitches ([`pitch_params`]) are read as padded
    /// (no residue); the third set is the unknown residues with them left unknown, when that
    /// differs.
    fn residues(&self, part: &[(u32, i64)]) -> (Vec<i64>, Vec<i64>, Option<Vec<i64>>) {
        let mut run: u128 = 1;
        let mut unk: u128 = 1;
        let mut pitch: u128 = 1;
        let sumset = |set: u128, contrib: u128| -> u128 {
            let mut next: u128 = 0;
            for a in 0..128 {
                if set & (1u128 << a) != 0 {
                    for b in 0..128 {
                        if contrib & (1u128 << b) != 0 {
                            next |= 1u128 << ((a + b) % 128);
                        }
                    }
                }
            }
            next
        };
        for &(m, c) in part {
            let f = self.syms.factors(m);
            let info = (f.len() == 1).then(|| self.syms.info(f[0]));
            match info {
                Some(SymInfo {
                    range: Some((lo, hi)),
                    align,
                    ..
                }) if align != 0 && hi - lo < 128 => {
                    let mut contrib: u128 = 0;
                    for v in lo..=hi {
                        contrib |= 1u128 << (c.wrapping_mul(v)).rem_euclid(128);
                    }
                    run = sumset(run, contrib);
                }
                _ => {
                    let mut tz = c.unsigned_abs().trailing_zeros();
                    let mut sliding = false;
                    for &s in f {
                        let a = self.syms.info(s).align;
                        if a == 0 {
                            sliding = true;
                        } else {
                            tz = tz.saturating_add(a.trailing_zeros());
                        }
                    }
                    if !sliding && tz < 7 {
                        let step = 1usize << tz;
                        let mut contrib: u128 = 0;
                        let mut v = 0;
                        while v < 128 {
                            contrib |= 1u128 << v;
                            v += step;
                        }
                        if f.iter().any(|&s| self.unassumed_pitch(s)) {
                            // An integer parameter nothing was said about that the kernel
                            // uses as a pitch (`a[i + k*n]`): real code pads those, so it
                            // alone is no reason to call the access misaligned, nor is
                            // reading it padded a proof that it is.
                            pitch = sumset(pitch, contrib);
                        } else {
                            unk = sumset(unk, contrib);
                        }
                    }
                }
            }
        }
        let list =
            |set: u128| -> Vec<i64> { (0..128).filter(|r| set & (1u128 << r) != 0).collect() };
        let strict = (pitch != 1).then(|| list(sumset(unk, pitch)));
        (list(run), list(unk), strict)
    }
}

/// How a parameter the kernel uses as a pitch enters its indices, which decides the value it
/// takes when it is read as padded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PitchUse {
    /// Multiplied by something that varies (`a[y*w + x]`) or stepping a loop: read as a
    /// multiple of 32 elements.
    Multiplier,
    /// A power of two whose mask selects the low bits of an index (`i & (stride - 1)`, the
    /// butterflies of a Walsh transform or a sorting network): read as a large power of two,
    /// so a warp's 32 consecutive indices stay consecutive.
    Mask,
    /// A shift amount (`blockIdx.x << log2N`): read as at least 5 (a multiple of 32
    /// elements).
    Shift,
}

impl PitchUse {
    /// The two values the parameter takes in the padded reading: the first measures, the
    /// second checks that lanes of one row move together when the pitch changes.
    fn padded(self) -> [i64; 2] {
        match self {
            PitchUse::Multiplier => [PADDED_PITCH, PADDED_PITCH + 32],
            PitchUse::Mask => [1 << 16, 1 << 17],
            PitchUse::Shift => [12, 13],
        }
    }
}

/// `n` with the 24-bit truncations nvcc wraps around `__mul24` operands and sign or zero
/// extensions removed: `p & 0xffffff`, `(256*p) >> 8`, `(p << 8) >> 8`.
fn strip_wrappers(acf: &Acf, n: Node) -> Node {
    let mut n = n;
    loop {
        n = match acf.kind(n) {
            Kind::Ext(_, x) => x,
            Kind::Bin(crate::expr::BinOp::And, a, b) => {
                let low_mask = |c: Node| matches!(acf.kind(c), Kind::Const(m) if m > 0 && m & (m + 1) == 0 && m >= 0xffff);
                if low_mask(b) {
                    a
                } else if low_mask(a) {
                    b
                } else {
                    return n;
                }
            }
            Kind::Bin(crate::expr::BinOp::Shr { .. }, a, k) => {
                let Kind::Const(k) = acf.kind(k) else {
                    return n;
                };
                if !(1..32).contains(&k) {
                    return n;
                }
                let mut a = a;
                while let Kind::Ext(_, x) = acf.kind(a) {
                    a = x;
                }
                match acf.kind(a) {
                    Kind::Mul(x, y) => match (acf.kind(x), acf.kind(y)) {
                        (Kind::Const(c), _) if c == 1 << k => y,
                        (_, Kind::Const(c)) if c == 1 << k => x,
                        _ => return n,
                    },
                    Kind::Bin(crate::expr::BinOp::Shl, x, s) if matches!(acf.kind(s), Kind::Const(c) if c == k) => {
                        x
                    }
                    _ => return n,
                }
            }
            _ => return n,
        };
    }
}

/// The kernel parameter `n` is, seen through [`strip_wrappers`] and constant factors.
fn param_atom(acf: &Acf, n: Node) -> Option<Atom> {
    let mut n = strip_wrappers(acf, n);
    loop {
        match acf.kind(n) {
            Kind::Atom(a @ Atom::Param { .. }) => return Some(a),
            Kind::Mul(x, y) => match (acf.kind(x), acf.kind(y)) {
                (Kind::Const(_), _) => n = strip_wrappers(acf, y),
                (_, Kind::Const(_)) => n = strip_wrappers(acf, x),
                _ => return None,
            },
            _ => return None,
        }
    }
}

/// The parameter `q` of a mask `q - 1` (or `(q >> k) - 1`).
fn mask_param(acf: &Acf, n: Node) -> Option<Atom> {
    let Kind::Add(a, b) = acf.kind(strip_wrappers(acf, n)) else {
        return None;
    };
    let q = match (acf.kind(a), acf.kind(b)) {
        (Kind::Const(-1), _) => b,
        (_, Kind::Const(-1)) => a,
        _ => return None,
    };
    match acf.kind(strip_wrappers(acf, q)) {
        Kind::Bin(crate::expr::BinOp::Shr { .. }, x, k)
            if matches!(acf.kind(k), Kind::Const(_)) =>
        {
            param_atom(acf, x)
        }
        _ => param_atom(acf, q),
    }
}

/// Parameters the kernel uses as pitches, and how ([`PitchUse`]): multiplied by something
/// that varies (a loop counter, a thread or block index, another parameter), stepping a
/// loop-carried value, masking an index (`i & (q - 1)`) or shifting one (`b << q`).
pub fn pitch_params(acf: &Acf) -> FxHashMap<Atom, PitchUse> {
    let mut out: FxHashMap<Atom, PitchUse> = FxHashMap::default();
    let mut add = |a: Option<Atom>, u: PitchUse| {
        if let Some(a) = a {
            let e = out.entry(a).or_insert(u);
            *e = (*e).max(u);
        }
    };
    for i in 0..acf.len() {
        match acf.kind(Node::new(i)) {
            Kind::Mul(a, b)
                if !matches!(acf.kind(a), Kind::Const(_))
                    && !matches!(acf.kind(b), Kind::Const(_)) =>
            {
                add(param_atom(acf, a), PitchUse::Multiplier);
                add(param_atom(acf, b), PitchUse::Multiplier);
            }
            Kind::Bin(crate::expr::BinOp::And, a, b) => {
                add(mask_param(acf, a), PitchUse::Mask);
                add(mask_param(acf, b), PitchUse::Mask);
            }
            Kind::Bin(crate::expr::BinOp::Shl, _, b) => add(param_atom(acf, b), PitchUse::Shift),
            _ => {}
        }
    }
    for lv in &acf.loopvars {
        if let Some(step) = lv.step {
            for a in acf.params_under(step) {
                add(Some(a), PitchUse::Multiplier);
            }
        }
    }
    out
}

/// The byte stride between consecutive active lanes, when it is constant.
fn constant_stride(offs: &[(u32, i64)]) -> Option<i64> {
    if offs.len() < 2 {
        return None;
    }
    let s = (offs[1].1 - offs[0].1) / i64::from((offs[1].0 - offs[0].0).max(1));
    offs.windows(2)
        .all(|w| w[1].1 - w[0].1 == s * i64::from(w[1].0 - w[0].0))
        .then_some(s)
}

/// Whether an access in `space` is measured by the checks (global and shared memory).
pub fn measured(space: StateSpace) -> bool {
    matches!(
        space,
        StateSpace::Global | StateSpace::Generic | StateSpace::Shared | StateSpace::SharedCta
    )
}
