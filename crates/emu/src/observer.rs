//! Events the emulator reports while it runs, for profilers written as [`Observer`]s
//! (divergence map, coalescing profile, basic-block vectors, memory traces).
//!
//! Each SM of a launch gets its own observer, made with [`Observer::fork`] and merged back
//! with [`Observer::join`] in SM order when the launch ends, so observers need no locking and
//! their merged result does not depend on how many host threads ran the SMs: events of one
//! SM arrive in that SM's issue order, which only the emulated schedule decides. Forks that
//! share state with each other (a trace writer, a cache shared by all SMs) see the
//! interleaving *across* SMs too; such an observer sets [`Observer::SHARED_STATE`], and
//! launches it observes run on the emulated schedule ([`crate::Schedule`]), so that the
//! interleaving it sees is the emulated SMs' and never the host threads'.
//!
//! Every method has an empty default. The associated constants let an observer switch off
//! the per-instruction and per-basic-block events entirely (they are checked at compile
//! time; [`NoObserver`] switches everything off so plain emulation pays nothing).

use crate::program::Space;
use warpscope_ir::{Block, FuncId, Inst};

/// A warp, as events name it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct WarpInfo {
    /// Index of the launch within the run (0-based, counting repeats).
    pub launch: u32,
    /// The SM the warp's block was dispatched to.
    pub sm: u32,
    /// Block (CTA) coordinates.
    pub cta: [u32; 3],
    /// Linear block index (x fastest).
    pub cta_linear: u32,
    /// Warp index within its block.
    pub warp_in_cta: u32,
    /// Unique warp number within the launch: `cta_linear × warps_per_cta + warp_in_cta`.
    pub global_warp: u64,
    /// Lanes that exist (the last warp of a block whose size is not a multiple of 32 is
    /// partial).
    pub lanes: u32,
}

/// A launch, as events name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchInfo {
    pub index: u32,
    /// The kernel's PTX (mangled) name.
    pub kernel: String,
    pub func: FuncId,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Dynamic shared memory bytes.
    pub dynamic_shared: u32,
    pub num_sms: u32,
    /// Blocks resident per SM at most (occupancy).
    pub blocks_per_sm: u32,
    /// Shared memory per block in bytes (static + dynamic), as occupancy counted it.
    pub shared_per_block: u32,
}

/// Counts of one launch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaunchStats {
    /// Warp instructions issued (guarded-off ones included).
    pub warp_instructions: u64,
    /// Sum over issued warp instructions of their active lanes.
    pub thread_instructions: u64,
    pub blocks: u64,
    pub warps: u64,
}

impl LaunchStats {
    pub fn add(&mut self, o: &LaunchStats) {
        self.warp_instructions += o.warp_instructions;
        self.thread_instructions += o.thread_instructions;
        self.blocks += o.blocks;
        self.warps += o.warps;
    }
}

/// Kind of a memory request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessKind {
    Load,
    Store,
    /// An atomic with a result (`atom`).
    Atomic,
    /// An atomic without a result (`red`).
    Reduction,
}

/// Where a memory request went. Generic accesses are reported with the space they resolved
/// to (one event per space when the lanes of one generic access resolve to several).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemSpace {
    Global,
    Shared,
    Local,
    Const,
    Param,
}

impl MemSpace {
    pub fn name(self) -> &'static str {
        match self {
            MemSpace::Global => "global",
            MemSpace::Shared => "shared",
            MemSpace::Local => "local",
            MemSpace::Const => "const",
            MemSpace::Param => "param",
        }
    }
}

impl From<Space> for MemSpace {
    fn from(s: Space) -> MemSpace {
        match s {
            Space::Global | Space::Generic => MemSpace::Global,
            Space::Shared => MemSpace::Shared,
            Space::Local => MemSpace::Local,
            Space::Const => MemSpace::Const,
            Space::Param => MemSpace::Param,
        }
    }
}

/// One warp-wide memory request.
#[derive(Clone, Copy, Debug)]
pub struct MemoryAccess<'a> {
    pub func: FuncId,
    pub inst: Inst,
    pub space: MemSpace,
    pub kind: AccessKind,
    /// Bytes accessed per lane (a `.v4.f32` access is 16).
    pub size: u32,
    /// Address of each lane in its space: global addresses are virtual addresses (buffers
    /// start at 4 KiB-aligned addresses), shared addresses are byte offsets in the block's
    /// shared memory, local addresses are byte offsets in each thread's own local memory.
    /// Only lanes in `active` are meaningful.
    pub addrs: &'a [u64; 32],
    /// Lanes that made the request (active and guard true).
    pub active: u32,
    /// Whether the instruction used generic addressing.
    pub generic: bool,
}

/// Barrier flavours reported to observers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BarrierEvent {
    /// The warp arrived and waits.
    Wait,
    /// The warp arrived without waiting (`bar.arrive`).
    Arrive,
    /// The barrier completed and released its waiting warps.
    Release,
}

/// Receives emulation events. See the module documentation.
pub trait Observer: Send {
    /// Whether [`Observer::instruction`] is wanted (checked at compile time).
    const INSTRUCTIONS: bool = true;
    /// Whether [`Observer::block_entered`] is wanted (when false, no block markers are even
    /// compiled into the bytecode).
    const BLOCKS: bool = true;
    /// Whether [`Observer::memory`] is wanted.
    const MEMORY: bool = true;
    /// Whether [`Observer::branch`] is wanted.
    const BRANCHES: bool = true;
    /// Whether forks share state with each other, so that what they record depends on the
    /// order in which SMs issue: then every launch runs on the emulated schedule (one host
    /// thread, SMs interleaved by their emulated cycles) unless the run asks for
    /// [`crate::Schedule::Parallel`]. Combinators must OR their parts' values.
    const SHARED_STATE: bool = false;

    /// A fresh observer for one SM's share of a launch.
    fn fork(&self) -> Self
    where
        Self: Sized;
    /// Merges an SM's observer back (called in SM order).
    fn join(&mut self, other: Self)
    where
        Self: Sized;

    fn launch_begin(&mut self, _launch: &LaunchInfo) {}
    fn launch_end(&mut self, _launch: &LaunchInfo, _stats: &LaunchStats) {}
    /// A block (CTA) became resident on an SM.
    fn cta_begin(&mut self, _sm: u32, _cta: [u32; 3], _cta_linear: u32) {}
    /// A block finished.
    fn cta_end(&mut self, _sm: u32, _cta: [u32; 3], _cta_linear: u32) {}
    /// A warp started (its lanes in `warp.lanes`).
    fn warp_begin(&mut self, _warp: &WarpInfo) {}
    /// A warp entered basic block `block` of `func` with `active` lanes.
    fn block_entered(&mut self, _warp: &WarpInfo, _func: FuncId, _block: Block, _active: u32) {}
    /// A warp issued `inst`: `active` lanes were active, `executed` of them had a true guard.
    fn instruction(
        &mut self,
        _warp: &WarpInfo,
        _func: FuncId,
        _inst: Inst,
        _active: u32,
        _executed: u32,
    ) {
    }
    /// A conditional branch: `taken` ⊆ `active` lanes jumped.
    fn branch(&mut self, _warp: &WarpInfo, _func: FuncId, _inst: Inst, _active: u32, _taken: u32) {}
    /// A memory request.
    fn memory(&mut self, _warp: &WarpInfo, _access: &MemoryAccess<'_>) {}
    /// A barrier event at `inst` (for `Release`, the instruction the releasing warp was at).
    fn barrier(
        &mut self,
        _warp: &WarpInfo,
        _func: FuncId,
        _inst: Inst,
        _event: BarrierEvent,
        _active: u32,
    ) {
    }
    /// All lanes of the warp exited.
    fn warp_exit(&mut self, _warp: &WarpInfo) {}
}

/// The observer that observes nothing; emulation with it pays no event cost.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {
    const INSTRUCTIONS: bool = false;
    const BLOCKS: bool = false;
    const MEMORY: bool = false;
    const BRANCHES: bool = false;
    fn fork(&self) -> Self {
        NoObserver
    }
    fn join(&mut self, _other: Self) {}
}

/// Counts events; handy in tests and as an example observer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CountingObserver {
    pub launches: u64,
    pub ctas: u64,
    pub warps: u64,
    pub blocks_entered: u64,
    pub instructions: u64,
    pub branches: u64,
    pub divergent_branches: u64,
    pub memory_requests: u64,
    pub barriers: u64,
    pub warp_exits: u64,
}

impl Observer for CountingObserver {
    fn fork(&self) -> Self {
        CountingObserver::default()
    }
    fn join(&mut self, o: Self) {
        self.launches += o.launches;
        self.ctas += o.ctas;
        self.warps += o.warps;
        self.blocks_entered += o.blocks_entered;
        self.instructions += o.instructions;
        self.branches += o.branches;
        self.divergent_branches += o.divergent_branches;
        self.memory_requests += o.memory_requests;
        self.barriers += o.barriers;
        self.warp_exits += o.warp_exits;
    }
    fn launch_begin(&mut self, _l: &LaunchInfo) {
        self.launches += 1;
    }
    fn cta_begin(&mut self, _sm: u32, _cta: [u32; 3], _l: u32) {
        self.ctas += 1;
    }
    fn warp_begin(&mut self, _w: &WarpInfo) {
        self.warps += 1;
    }
    fn block_entered(&mut self, _w: &WarpInfo, _f: FuncId, _b: Block, _a: u32) {
        self.blocks_entered += 1;
    }
    fn instruction(&mut self, _w: &WarpInfo, _f: FuncId, _i: Inst, _a: u32, _e: u32) {
        self.instructions += 1;
    }
    fn branch(&mut self, _w: &WarpInfo, _f: FuncId, _i: Inst, active: u32, taken: u32) {
        self.branches += 1;
        if taken != 0 && taken != active {
            self.divergent_branches += 1;
        }
    }
    fn memory(&mut self, _w: &WarpInfo, _a: &MemoryAccess<'_>) {
        self.memory_requests += 1;
    }
    fn barrier(&mut self, _w: &WarpInfo, _f: FuncId, _i: Inst, _e: BarrierEvent, _a: u32) {
        self.barriers += 1;
    }
    fn warp_exit(&mut self, _w: &WarpInfo) {
        self.warp_exits += 1;
    }
}
