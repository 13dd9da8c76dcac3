//! The observers that measure a run: [`SimtEfficiency`] (instructions and active/predicated-on
//! lanes per instruction), [`DivergenceMap`] (τ and δ per branch, paper 004),
//! [`Coalescing`] (sectors, lines, NoAlign, wavefronts per memory instruction, paper 003 and
//! `warpscope-cost`), and [`Profiler`], which runs the three together. [`Both`] runs any two
//! observers together (e.g. a [`Profiler`] with
//! [`BasicBlockVectors`](crate::bbv::BasicBlockVectors)).
//!
//! All of them count per kernel: events of a launch go to the launched kernel's tables, so
//! a device function called from two kernels is profiled separately in each. Tables are
//! dense arrays indexed by [`InstIndex`] (no hashing on the hot path) that each SM's fork
//! allocates on its first event and merges into its parent on `join`. A [`LaunchWindow`]
//! restricts counting to some launches (to match `ncu --launch-skip/--launch-count`).

use cranelift_entity::EntityRef;
use std::collections::BTreeMap;
use std::sync::Arc;
use warpscope_emu::{
    AccessKind, BarrierEvent, LaunchInfo, LaunchStats, MemSpace, MemoryAccess, Observer, WarpInfo,
};
use warpscope_ir::{Block, CallGraph, FuncId, Inst, Module};
use warpscope_ptx::FunctionKind;

use crate::model::{Access, GlobalCounters, SharedCounters};
use warpscope_cost::{CostMemo, GlobalCost, SharedCost};

/// The functions a kernel may run: itself, every function reachable through direct calls,
/// and, when the module makes indirect calls, every device function with a body. The kernel
/// comes first, the others in module order.
pub fn reachable(module: &Module, cg: &CallGraph, k: FuncId) -> Vec<FuncId> {
    let indirect = cg.sites().iter().any(|s| s.callee.is_none());
    let mut reach = vec![false; module.funcs.len()];
    let mut stack = vec![k];
    reach[k.index()] = true;
    while let Some(f) = stack.pop() {
        for s in cg.calls_from(f) {
            if let Some(c) = s.callee
                && !reach[c.index()]
            {
                reach[c.index()] = true;
                stack.push(c);
            }
        }
    }
    if indirect {
        for (f, func) in module.funcs.iter() {
            if func.kind == FunctionKind::Func && !func.is_declaration {
                reach[f.index()] = true;
            }
        }
    }
    std::iter::once(k)
        .chain(module.funcs.keys().filter(|&f| f != k && reach[f.index()]))
        .collect()
}

const NO_BASE: u32 = u32::MAX;

/// Dense numbering of the instructions one kernel may run: function `f`'s instruction `i` is
/// `base[f] + i` for `f` in [`reachable`] order. Tables sized by it stay small even in
/// modules with many kernels.
#[derive(Clone, Debug, Default)]
pub struct KernelInsts {
    base: Vec<u32>,
    starts: Vec<(u32, FuncId)>,
    len: usize,
}

impl KernelInsts {
    /// The dense number of `inst` of `func` (`None` when the kernel cannot run `func`).
    #[inline]
    pub fn local(&self, func: FuncId, inst: Inst) -> Option<usize> {
        let b = *self.base.get(func.index())?;
        (b != NO_BASE).then(|| b as usize + inst.index())
    }

    /// Number of instructions the kernel may run.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The (function, instruction) of a dense number.
    pub fn resolve(&self, local: usize) -> (FuncId, Inst) {
        let d = local as u32;
        // The last function starting at or before `d` (empty functions share its base).
        let i = self.starts.partition_point(|&(b, _)| b <= d) - 1;
        let (b, f) = self.starts[i];
        (f, Inst::new((d - b) as usize))
    }
}

/// [`KernelInsts`] of every kernel of a module.
#[derive(Clone, Debug, Default)]
pub struct InstIndex {
    kernels: Vec<Option<Arc<KernelInsts>>>,
}

impl InstIndex {
    pub fn new(module: &Module) -> InstIndex {
        let cg = CallGraph::with_module(module);
        let mut kernels = vec![None; module.funcs.len()];
        for (k, _) in module.kernels() {
            let mut ki = KernelInsts {
                base: vec![NO_BASE; module.funcs.len()],
                starts: Vec::new(),
                len: 0,
            };
            for f in reachable(module, &cg, k) {
                ki.base[f.index()] = ki.len as u32;
                ki.starts.push((ki.len as u32, f));
                ki.len += module.funcs[f].insts.len();
            }
            kernels[k.index()] = Some(Arc::new(ki));
        }
        InstIndex { kernels }
    }

    /// The numbering of kernel `k`.
    pub fn kernel(&self, k: FuncId) -> Option<&Arc<KernelInsts>> {
        self.kernels.get(k.index()).and_then(Option::as_ref)
    }
}

/// One selection of launches, like one `ncu` run's filter: among the launches of the named
/// kernels (all kernels when `kernels` is empty), skip `skip`, then take `count` (all when
/// `None`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaunchPass {
    /// Kernel names (display or PTX names); empty for every kernel.
    pub kernels: Vec<String>,
    pub skip: u32,
    pub count: Option<u32>,
}

/// Which launches are profiled: those any of the passes selects (every launch when there are
/// no passes). Launches outside run normally but are not counted, so a profile can match
/// exactly what `ncu --launch-skip/--launch-count/-k` measured.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaunchWindow {
    pub passes: Vec<LaunchPass>,
    /// Launches of each pass's kernels seen so far.
    seen: Vec<u32>,
}

impl LaunchWindow {
    /// Every launch.
    pub const ALL: LaunchWindow = LaunchWindow {
        passes: Vec::new(),
        seen: Vec::new(),
    };

    /// Skip `skip` launches, then count `count` (like `ncu --launch-skip/--launch-count`).
    pub fn skip_count(skip: u32, count: Option<u32>) -> LaunchWindow {
        if skip == 0 && count.is_none() {
            return LaunchWindow::ALL;
        }
        LaunchWindow::from_passes(vec![LaunchPass {
            kernels: Vec::new(),
            skip,
            count,
        }])
    }

    pub fn from_passes(passes: Vec<LaunchPass>) -> LaunchWindow {
        LaunchWindow {
            seen: vec![0; passes.len()],
            passes,
        }
    }

    /// Whether the next launch, of kernel `kernel` (PTX name), is profiled. Call once per
    /// launch, in launch order.
    pub fn select(&mut self, kernel: &str) -> bool {
        if self.passes.is_empty() {
            return true;
        }
        self.seen.resize(self.passes.len(), 0);
        let name = crate::model::display_name(kernel);
        let mut any = false;
        for (p, seen) in self.passes.iter().zip(self.seen.iter_mut()) {
            if !p.kernels.is_empty() && !p.kernels.iter().any(|k| *k == name || k == kernel) {
                continue;
            }
            let i = *seen;
            *seen += 1;
            any |= i >= p.skip && p.count.is_none_or(|c| i - p.skip < c);
        }
        any
    }

    /// Parses one pass written as `ncu` filter arguments: `-k NAME` / `--kernel-name NAME`
    /// (a plain name, or `regex:^(a|b|c)$` limited to a list of alternatives),
    /// `--launch-skip N`, `--launch-count N`.
    pub fn parse_ncu_pass(args: &str) -> Result<LaunchPass, String> {
        let mut p = LaunchPass::default();
        let mut it = args.split_whitespace();
        while let Some(a) = it.next() {
            let mut val = |what: &str| it.next().ok_or_else(|| format!("`{what}` needs a value"));
            match a {
                "-k" | "--kernel-name" => {
                    let v = val(a)?;
                    match v.strip_prefix("regex:") {
                        Some(r) => {
                            let r = r.trim_start_matches('^').trim_end_matches('$');
                            let r = r.trim_start_matches('(').trim_end_matches(')');
                            if r.contains(|c: char| "[]*+?.{}\\".contains(c)) {
                                return Err(format!(
                                    "only alternatives of plain names are supported in `{v}`"
                                ));
                            }
                            p.kernels.extend(r.split('|').map(str::to_string));
                        }
                        None => p.kernels.push(v.to_string()),
                    }
                }
                "--launch-skip" | "-s" => {
                    p.skip = val(a)?.parse().map_err(|e| format!("--launch-skip: {e}"))?;
                }
                "--launch-count" | "-c" => {
                    p.count = Some(
                        val(a)?
                            .parse()
                            .map_err(|e| format!("--launch-count: {e}"))?,
                    );
                }
                other => return Err(format!("unsupported ncu filter argument `{other}`")),
            }
        }
        Ok(p)
    }
}

/// Per-kernel tables with fork/join and launch-window bookkeeping.
#[derive(Clone, Debug)]
pub(crate) struct KernelTables<T> {
    pub index: Arc<InstIndex>,
    pub window: LaunchWindow,
    pub kernel: u32,
    pub on: bool,
    /// The numbering of the current launch's kernel (`None`: not counting).
    pub layout: Option<Arc<KernelInsts>>,
    pub cur: T,
    pub done: BTreeMap<u32, T>,
}

/// A table of per-instruction data that merges.
pub(crate) trait Table: Default {
    fn merge(&mut self, other: Self);
}

impl<T: Table> KernelTables<T> {
    pub fn new(index: Arc<InstIndex>, window: LaunchWindow) -> Self {
        KernelTables {
            index,
            window,
            kernel: 0,
            on: true,
            layout: None,
            cur: T::default(),
            done: BTreeMap::new(),
        }
    }

    pub fn fork(&self) -> Self {
        KernelTables {
            index: self.index.clone(),
            window: self.window.clone(),
            kernel: self.kernel,
            on: self.on,
            layout: self.layout.clone(),
            cur: T::default(),
            done: BTreeMap::new(),
        }
    }

    pub fn join(&mut self, other: Self) {
        self.cur.merge(other.cur);
        for (k, t) in other.done {
            self.done.entry(k).or_default().merge(t);
        }
    }

    pub fn launch_begin(&mut self, l: &LaunchInfo) {
        self.flush();
        self.kernel = l.func.index() as u32;
        self.on = self.window.select(&l.kernel);
        self.layout = if self.on {
            self.index.kernel(l.func).cloned()
        } else {
            None
        };
    }

    /// The dense number of an event's instruction and the table length, when counting.
    #[inline]
    pub fn slot(&self, func: FuncId, inst: Inst) -> Option<(usize, usize)> {
        let l = self.layout.as_ref()?;
        Some((l.local(func, inst)?, l.len()))
    }

    pub fn launch_end(&mut self) {
        self.flush();
    }

    fn flush(&mut self) {
        let t = std::mem::take(&mut self.cur);
        self.done.entry(self.kernel).or_default().merge(t);
    }
}

impl<T: Table + Emptiness> KernelTables<T> {
    /// The finished tables by kernel.
    pub fn into_done(mut self) -> BTreeMap<u32, T> {
        self.flush();
        self.done.retain(|_, t| !t.is_default_like());
        self.done
    }
}

/// Whether a table is empty (used to drop kernels that were never counted).
pub(crate) trait Emptiness {
    fn is_default_like(&self) -> bool;
}

impl<T> Emptiness for DenseTable<T> {
    fn is_default_like(&self) -> bool {
        self.0.is_empty()
    }
}

impl<T> Emptiness for SlotTable<T> {
    fn is_default_like(&self) -> bool {
        self.vals.is_empty()
    }
}

/// A dense per-instruction array, allocated on first use.
#[derive(Clone, Debug)]
pub(crate) struct DenseTable<T>(pub Vec<T>);

impl<T> Default for DenseTable<T> {
    fn default() -> Self {
        DenseTable(Vec::new())
    }
}

pub(crate) trait Add {
    fn add(&mut self, o: &Self);
}

impl<T: Add + Default + Clone> Table for DenseTable<T> {
    fn merge(&mut self, other: Self) {
        if other.0.is_empty() {
            return;
        }
        if self.0.is_empty() {
            *self = other;
            return;
        }
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            a.add(b);
        }
    }
}

impl<T: Default + Clone> DenseTable<T> {
    #[inline]
    pub fn at(&mut self, dense: usize, len: usize) -> &mut T {
        if self.0.is_empty() {
            self.0 = vec![T::default(); len];
        }
        &mut self.0[dense]
    }
}

/// A sparse per-instruction table: a dense slot map (allocated on first use) into a vector
/// of values, for the few instructions that branch or access memory.
#[derive(Clone, Debug)]
pub(crate) struct SlotTable<T> {
    slot: Vec<u32>,
    pub vals: Vec<(u32, T)>,
}

impl<T> Default for SlotTable<T> {
    fn default() -> Self {
        SlotTable {
            slot: Vec::new(),
            vals: Vec::new(),
        }
    }
}

const NO_SLOT: u32 = u32::MAX;

impl<T: Default> SlotTable<T> {
    #[inline]
    pub fn at(&mut self, dense: usize, len: usize) -> &mut T {
        if self.slot.is_empty() {
            self.slot = vec![NO_SLOT; len];
        }
        let mut s = self.slot[dense];
        if s == NO_SLOT {
            s = self.vals.len() as u32;
            self.slot[dense] = s;
            self.vals.push((dense as u32, T::default()));
        }
        &mut self.vals[s as usize].1
    }
}

impl<T: Add + Default> Table for SlotTable<T> {
    fn merge(&mut self, other: Self) {
        if other.vals.is_empty() {
            return;
        }
        if self.vals.is_empty() {
            *self = other;
            return;
        }
        let len = self.slot.len();
        for (d, v) in other.vals {
            self.at(d as usize, len).add(&v);
        }
    }
}

impl<T> SlotTable<T> {
    /// Values in instruction order.
    pub fn sorted(mut self) -> Vec<(u32, T)> {
        self.vals.sort_by_key(|(d, _)| *d);
        self.vals
    }
}

/// Issue counts of one instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InstCount {
    /// Warp instructions issued.
    pub warps: u64,
    /// Active lanes summed.
    pub active: u64,
    /// Guard-true lanes summed.
    pub executed: u64,
}

impl Add for InstCount {
    #[inline]
    fn add(&mut self, o: &Self) {
        self.warps += o.warps;
        self.active += o.active;
        self.executed += o.executed;
    }
}

/// Branch counts of one conditional branch: the divergence map's τ and δ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BranchCount {
    /// τ: warp visits.
    pub visits: u64,
    /// δ: visits whose active lanes disagreed.
    pub divergent: u64,
    pub active_lanes: u64,
    pub taken_lanes: u64,
}

impl Add for BranchCount {
    #[inline]
    fn add(&mut self, o: &Self) {
        self.visits += o.visits;
        self.divergent += o.divergent;
        self.active_lanes += o.active_lanes;
        self.taken_lanes += o.taken_lanes;
    }
}

/// Memory counts of one instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemCount {
    pub access: Option<Access>,
    pub size: u32,
    pub global: GlobalCounters,
    pub shared: SharedCounters,
    pub local: u64,
    /// Sectors of the local requests ([`local_sectors`]).
    pub local_sectors: u64,
    pub other: u64,
}

impl Add for MemCount {
    fn add(&mut self, o: &Self) {
        self.access = self.access.or(o.access);
        self.size = self.size.max(o.size);
        self.global.merge(&o.global);
        self.shared.merge(&o.shared);
        self.local += o.local;
        self.local_sectors += o.local_sectors;
        self.other += o.other;
    }
}

/// A memory instruction's counts and the memos of its last global and shared requests.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MemSlot {
    count: MemCount,
    global: CostMemo<GlobalCost>,
    shared: CostMemo<SharedCost>,
}

impl Add for MemSlot {
    fn add(&mut self, o: &Self) {
        self.count.add(&o.count);
    }
}

/// Counts issued warp instructions, active lanes and predicated-on lanes per instruction
/// (SIMT efficiency).
#[derive(Clone, Debug)]
pub struct SimtEfficiency {
    pub(crate) t: KernelTables<DenseTable<InstCount>>,
}

impl SimtEfficiency {
    pub fn new(index: Arc<InstIndex>, window: LaunchWindow) -> Self {
        SimtEfficiency {
            t: KernelTables::new(index, window),
        }
    }

    /// Counts by kernel function index, then by the kernel's dense instruction number
    /// ([`KernelInsts`]).
    pub fn into_counts(self) -> BTreeMap<u32, Vec<InstCount>> {
        self.t
            .into_done()
            .into_iter()
            .map(|(k, v)| (k, v.0))
            .collect()
    }
}

/// The [`Observer`] methods every per-instruction table observer shares: forking and joining
/// its [`KernelTables`] across SM threads and opening / closing a launch.
macro_rules! per_launch_tables {
    ($ty:ident) => {
        fn fork(&self) -> Self {
            $ty { t: self.t.fork() }
        }
        fn join(&mut self, o: Self) {
            self.t.join(o.t);
        }
        fn launch_begin(&mut self, l: &LaunchInfo) {
            self.t.launch_begin(l);
        }
        fn launch_end(&mut self, _l: &LaunchInfo, _s: &LaunchStats) {
            self.t.launch_end();
        }
    };
}

impl Observer for SimtEfficiency {
    const BLOCKS: bool = false;
    const MEMORY: bool = false;
    const BRANCHES: bool = false;
    per_launch_tables!(SimtEfficiency);
    #[inline]
    fn instruction(&mut self, _w: &WarpInfo, func: FuncId, inst: Inst, active: u32, executed: u32) {
        let Some((d, n)) = self.t.slot(func, inst) else {
            return;
        };
        let c = self.t.cur.at(d, n);
        c.warps += 1;
        c.active += u64::from(active.count_ones());
        c.executed += u64::from(executed.count_ones());
    }
}

/// The divergence map (paper 004): per conditional branch, the warp visits τ and the
/// divergent visits δ (visits where some but not all active lanes jumped).
#[derive(Clone, Debug)]
pub struct DivergenceMap {
    pub(crate) t: KernelTables<SlotTable<BranchCount>>,
}

impl DivergenceMap {
    pub fn new(index: Arc<InstIndex>, window: LaunchWindow) -> Self {
        DivergenceMap {
            t: KernelTables::new(index, window),
        }
    }

    /// Counts by kernel function index, then by the kernel's dense instruction number
    /// ([`KernelInsts`]), in instruction order.
    pub fn into_counts(self) -> BTreeMap<u32, Vec<(u32, BranchCount)>> {
        self.t
            .into_done()
            .into_iter()
            .map(|(k, v)| (k, v.sorted()))
            .collect()
    }
}

impl Observer for DivergenceMap {
    const INSTRUCTIONS: bool = false;
    const BLOCKS: bool = false;
    const MEMORY: bool = false;
    per_launch_tables!(DivergenceMap);
    #[inline]
    fn branch(&mut self, _w: &WarpInfo, func: FuncId, inst: Inst, active: u32, taken: u32) {
        let Some((d, n)) = self.t.slot(func, inst) else {
            return;
        };
        let c = self.t.cur.at(d, n);
        c.visits += 1;
        c.divergent += u64::from(taken != 0 && taken != active);
        c.active_lanes += u64::from(active.count_ones());
        c.taken_lanes += u64::from(taken.count_ones());
    }
}

/// The coalescing and bank-conflict profile: per memory instruction, the cost of every warp
/// request under `warpscope-cost`'s model (global: sectors, ideal sectors, lines, NoAlign;
/// shared: wavefronts, ideal wavefronts, N-way conflicts).
#[derive(Clone, Debug)]
pub struct Coalescing {
    pub(crate) t: KernelTables<SlotTable<MemSlot>>,
}

impl Coalescing {
    pub fn new(index: Arc<InstIndex>, window: LaunchWindow) -> Self {
        Coalescing {
            t: KernelTables::new(index, window),
        }
    }

    /// Counts by kernel function index, then by the kernel's dense instruction number
    /// ([`KernelInsts`]), in instruction order.
    pub fn into_counts(self) -> BTreeMap<u32, Vec<(u32, MemCount)>> {
        self.t
            .into_done()
            .into_iter()
            .map(|(k, v)| {
                (
                    k,
                    v.sorted().into_iter().map(|(d, m)| (d, m.count)).collect(),
                )
            })
            .collect()
    }
}

/// The profile's name for an emulator access kind.
pub fn access_of(k: AccessKind) -> Access {
    match k {
        AccessKind::Load => Access::Load,
        AccessKind::Store => Access::Store,
        AccessKind::Atomic => Access::Atomic,
        AccessKind::Reduction => Access::Reduction,
    }
}

impl Observer for Coalescing {
    const INSTRUCTIONS: bool = false;
    const BLOCKS: bool = false;
    const BRANCHES: bool = false;
    per_launch_tables!(Coalescing);
    #[inline]
    fn memory(&mut self, _w: &WarpInfo, a: &MemoryAccess<'_>) {
        if a.active == 0 {
            return;
        }
        let Some((d, n)) = self.t.slot(a.func, a.inst) else {
            return;
        };
        let slot = self.t.cur.at(d, n);
        let c = &mut slot.count;
        if c.access.is_none() {
            c.access = Some(access_of(a.kind));
        }
        c.size = c.size.max(a.size);
        match a.space {
            MemSpace::Global => c.global.add(&slot.global.global(a.addrs, a.active, a.size)),
            MemSpace::Shared => c.shared.add(&slot.shared.shared(a.addrs, a.active, a.size)),
            MemSpace::Local => {
                c.local += 1;
                c.local_sectors += local_sectors(a.addrs, a.active, a.size);
            }
            MemSpace::Const | MemSpace::Param => c.other += 1,
        }
    }
}

/// Sectors one warp request to local memory touches. Local memory interleaves the threads'
/// 4-byte words: word `w` of lane `l` lies at `w × 128 + l × 4` of the warp's local region, so
/// the 32 lanes' copies of a word form one 128-byte line of 4 sectors, lane `l` in sector
/// `l / 8`. A lane accessing bytes `a..a + size` of its local memory touches words `a / 4 …
/// (a + size − 1) / 4`; the request touches one sector per distinct (word, `l / 8`): 4 sectors
/// when every lane accesses the same 4-byte word, up to 32 when they access 32 different words.
pub fn local_sectors(addrs: &[u64; 32], active: u32, size: u32) -> u64 {
    let mut keys = [0u64; 128];
    let mut n = 0;
    for (l, &a) in addrs.iter().enumerate() {
        if active & (1 << l) == 0 {
            continue;
        }
        let (w0, w1) = (a / 4, (a + u64::from(size.max(1)) - 1) / 4);
        for w in w0..=w1.min(w0 + 3) {
            keys[n] = w * 4 + (l as u64) / 8;
            n += 1;
        }
    }
    let keys = &mut keys[..n];
    keys.sort_unstable();
    let mut distinct = 0;
    for i in 0..keys.len() {
        if i == 0 || keys[i] != keys[i - 1] {
            distinct += 1;
        }
    }
    distinct
}

/// Launches seen by a [`Profiler`]: what the launch info and stats said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchSeen {
    pub info: LaunchInfo,
    pub stats: LaunchStats,
    pub profiled: bool,
}

/// The default profile: [`SimtEfficiency`], [`DivergenceMap`] and [`Coalescing`] together,
/// plus the list of launches.
#[derive(Clone, Debug)]
pub struct Profiler {
    pub simt: SimtEfficiency,
    pub divergence: DivergenceMap,
    pub coalescing: Coalescing,
    pub launches: Vec<LaunchSeen>,
    window: LaunchWindow,
    on: bool,
}

impl Profiler {
    pub fn new(index: Arc<InstIndex>, window: LaunchWindow) -> Profiler {
        Profiler {
            simt: SimtEfficiency::new(index.clone(), window.clone()),
            divergence: DivergenceMap::new(index.clone(), window.clone()),
            coalescing: Coalescing::new(index, window.clone()),
            launches: Vec::new(),
            window,
            on: true,
        }
    }

    /// A profiler for every kernel of `module`, counting every launch.
    pub fn for_module(module: &Module) -> Profiler {
        Profiler::new(Arc::new(InstIndex::new(module)), LaunchWindow::ALL)
    }
}

impl Observer for Profiler {
    const BLOCKS: bool = false;
    fn fork(&self) -> Self {
        Profiler {
            simt: self.simt.fork(),
            divergence: self.divergence.fork(),
            coalescing: self.coalescing.fork(),
            launches: Vec::new(),
            window: self.window.clone(),
            on: self.on,
        }
    }
    fn join(&mut self, o: Self) {
        self.simt.join(o.simt);
        self.divergence.join(o.divergence);
        self.coalescing.join(o.coalescing);
        self.launches.extend(o.launches);
    }
    fn launch_begin(&mut self, l: &LaunchInfo) {
        self.on = self.window.select(&l.kernel);
        self.simt.launch_begin(l);
        self.divergence.launch_begin(l);
        self.coalescing.launch_begin(l);
    }
    fn launch_end(&mut self, l: &LaunchInfo, s: &LaunchStats) {
        self.simt.launch_end(l, s);
        self.divergence.launch_end(l, s);
        self.coalescing.launch_end(l, s);
        self.launches.push(LaunchSeen {
            info: l.clone(),
            stats: *s,
            profiled: self.on,
        });
    }
    #[inline]
    fn instruction(&mut self, w: &WarpInfo, f: FuncId, i: Inst, active: u32, executed: u32) {
        self.simt.instruction(w, f, i, active, executed);
    }
    #[inline]
    fn branch(&mut self, w: &WarpInfo, f: FuncId, i: Inst, active: u32, taken: u32) {
        self.divergence.branch(w, f, i, active, taken);
    }
    #[inline]
    fn memory(&mut self, w: &WarpInfo, a: &MemoryAccess<'_>) {
        self.coalescing.memory(w, a);
    }
}

/// Two observers run together; each sees every event it asked for.
#[derive(Clone, Debug, Default)]
pub struct Both<A, B>(pub A, pub B);

impl<A: Observer, B: Observer> Observer for Both<A, B> {
    const INSTRUCTIONS: bool = A::INSTRUCTIONS || B::INSTRUCTIONS;
    const BLOCKS: bool = A::BLOCKS || B::BLOCKS;
    const MEMORY: bool = A::MEMORY || B::MEMORY;
    const BRANCHES: bool = A::BRANCHES || B::BRANCHES;
    const SHARED_STATE: bool = A::SHARED_STATE || B::SHARED_STATE;
    fn fork(&self) -> Self {
        Both(self.0.fork(), self.1.fork())
    }
    fn join(&mut self, o: Self) {
        self.0.join(o.0);
        self.1.join(o.1);
    }
    fn launch_begin(&mut self, l: &LaunchInfo) {
        self.0.launch_begin(l);
        self.1.launch_begin(l);
    }
    fn launch_end(&mut self, l: &LaunchInfo, s: &LaunchStats) {
        self.0.launch_end(l, s);
        self.1.launch_end(l, s);
    }
    fn cta_begin(&mut self, sm: u32, cta: [u32; 3], linear: u32) {
        self.0.cta_begin(sm, cta, linear);
        self.1.cta_begin(sm, cta, linear);
    }
    fn cta_end(&mut self, sm: u32, cta: [u32; 3], linear: u32) {
        self.0.cta_end(sm, cta, linear);
        self.1.cta_end(sm, cta, linear);
    }
    fn warp_begin(&mut self, w: &WarpInfo) {
        self.0.warp_begin(w);
        self.1.warp_begin(w);
    }
    #[inline]
    fn block_entered(&mut self, w: &WarpInfo, f: FuncId, b: Block, active: u32) {
        if A::BLOCKS {
            self.0.block_entered(w, f, b, active);
        }
        if B::BLOCKS {
            self.1.block_entered(w, f, b, active);
        }
    }
    #[inline]
    fn instruction(&mut self, w: &WarpInfo, f: FuncId, i: Inst, active: u32, executed: u32) {
        if A::INSTRUCTIONS {
            self.0.instruction(w, f, i, active, executed);
        }
        if B::INSTRUCTIONS {
            self.1.instruction(w, f, i, active, executed);
        }
    }
    #[inline]
    fn branch(&mut self, w: &WarpInfo, f: FuncId, i: Inst, active: u32, taken: u32) {
        if A::BRANCHES {
            self.0.branch(w, f, i, active, taken);
        }
        if B::BRANCHES {
            self.1.branch(w, f, i, active, taken);
        }
    }
    #[inline]
    fn memory(&mut self, w: &WarpInfo, a: &MemoryAccess<'_>) {
        if A::MEMORY {
            self.0.memory(w, a);
        }
        if B::MEMORY {
            self.1.memory(w, a);
        }
    }
    fn barrier(&mut self, w: &WarpInfo, f: FuncId, i: Inst, e: BarrierEvent, active: u32) {
        self.0.barrier(w, f, i, e, active);
        self.1.barrier(w, f, i, e, active);
    }
    fn warp_exit(&mut self, w: &WarpInfo) {
        self.0.warp_exit(w);
        self.1.warp_exit(w);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn local_requests_touch_a_sector_per_word_and_group_of_8_lanes() {
        let same = [8u64; 32];
        assert_eq!(super::local_sectors(&same, u32::MAX, 4), 4);
        assert_eq!(super::local_sectors(&same, 1, 4), 1);
        assert_eq!(super::local_sectors(&same, u32::MAX, 8), 8);
        let mut per_lane = [0u64; 32];
        for (l, a) in per_lane.iter_mut().enumerate() {
            *a = 4 * l as u64;
        }
        assert_eq!(super::local_sectors(&per_lane, u32::MAX, 4), 32);
        // lanes 0 and 8 share word 0 but not a sector; lanes 0 and 1 share both
        let mut two = [0u64; 32];
        two[8] = 0;
        assert_eq!(super::local_sectors(&two, 0b1_0000_0011, 4), 2);
    }

    use super::*;

    #[test]
    fn launch_window() {
        let mut w = LaunchWindow::skip_count(2, Some(3));
        let on: Vec<u32> = (0..8).filter(|_| w.select("k")).collect();
        assert_eq!(on, vec![2, 3, 4]);
        let mut all = LaunchWindow::ALL;
        assert!((0..100).all(|_| all.select("k")));
    }

    #[test]
    fn ncu_style_passes() {
        let a =
            LaunchWindow::parse_ncu_pass("-k regex:^(fill|fan1)$ --launch-skip 1 --launch-count 2")
                .unwrap();
        assert_eq!(a.kernels, vec!["fill", "fan1"]);
        let b = LaunchWindow::parse_ncu_pass("-k fan2 --launch-skip 0 --launch-count 1").unwrap();
        let mut w = LaunchWindow::from_passes(vec![a, b]);
        let seq = ["fill", "fan1", "fan2", "fill", "fan2", "fan1"];
        let on: Vec<bool> = seq.iter().map(|k| w.select(k)).collect();
        assert_eq!(on, vec![false, true, true, true, false, false]);
        assert!(LaunchWindow::parse_ncu_pass("-k regex:fa.*").is_err());
        assert!(LaunchWindow::parse_ncu_pass("--nvtx").is_err());
    }
}
