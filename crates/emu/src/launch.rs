//! One kernel launch: occupancy, block dispatch to SMs, and each SM's simulation (resident
//! blocks, warp scheduling, barriers).
//!
//! Blocks are dispatched round robin: block `b` (linear index, x fastest) goes to SM
//! `b mod num_sms`, and each SM runs its blocks in increasing order with at most
//! `blocks_per_sm` of them resident at once (a new one is admitted when one finishes). Each
//! SM has a cycle counter (one cycle per issued warp instruction, plus the cycles it idles
//! waiting for memory) and a warp scheduler that picks which resident warp issues next.
//!
//! How SMs map onto host threads is the [`Schedule`]:
//!
//! * On the **emulated schedule**, one host thread interleaves all SMs of the launch by their
//!   cycle counters: the SM that is furthest behind in emulated time issues next (ties go to
//!   the lower SM number), at most [`STEP`] warp instructions at a time. The order of every
//!   event, and so of atomics and of accesses to memory the SMs share, is decided by the
//!   emulated SMs and schedulers alone.
//! * **In parallel**, SMs run independently on a rayon pool. Each SM still issues in the
//!   same order as on the emulated schedule; only the order *between* SMs is left to the
//!   host, which changes nothing for a kernel whose blocks do not communicate
//!   ([`crate::ordering`]).
//!
//! [`Schedule::Auto`], the default, runs a launch in parallel only when neither the kernel
//! nor the observer can tell the difference, so results never depend on the host.

use crate::exec::{BarArrival, Env, Geometry, Stop, Warp};
use crate::fault::{Fault, FaultKind};
use crate::memory::GlobalMem;
use crate::observer::{BarrierEvent, LaunchInfo, LaunchStats, Observer, WarpInfo};
use crate::program::{BarKind, NONE, Program};
use crate::sched::{SchedulerKind, WarpView, Yield};
use crate::translate::ProgramSites;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

/// Most warp instructions one SM issues on the emulated schedule before the SM furthest
/// behind in emulated time gets its turn (the granularity at which SMs interleave).
pub const STEP: u32 = 16;

/// How a launch's SMs run on host threads (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Schedule {
    /// Reproducible and as fast as that allows: the emulated schedule for launches whose
    /// outcome can depend on the order of SMs (the kernel's blocks communicate, see
    /// [`crate::ordering`], or the observer's forks share state, see
    /// [`Observer::SHARED_STATE`]); in parallel for all others.
    #[default]
    Auto,
    /// Every launch on the emulated schedule, on one host thread (also reproducible for
    /// kernels whose blocks race through plain loads and stores).
    Emulated,
    /// Every launch in parallel: fastest, but kernels whose blocks communicate get results
    /// that depend on the host's thread timing.
    Parallel,
}

/// Per-SM resource limits (defaults: sm_90, H100 SXM).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmLimits {
    pub max_threads: u32,
    pub max_blocks: u32,
    pub max_warps: u32,
    pub regs: u32,
    /// Register allocation granularity per warp.
    pub reg_unit: u32,
    pub shared: u32,
    pub max_shared_per_block: u32,
    /// Shared memory the driver reserves per block.
    pub reserved_shared_per_block: u32,
    pub max_threads_per_block: u32,
}

impl Default for SmLimits {
    fn default() -> Self {
        SmLimits {
            max_threads: 2048,
            max_blocks: 32,
            max_warps: 64,
            regs: 65536,
            reg_unit: 256,
            shared: 228 * 1024,
            max_shared_per_block: 227 * 1024,
            reserved_shared_per_block: 1024,
            max_threads_per_block: 1024,
        }
    }
}

/// How to run launches.
#[derive(Clone, Debug)]
pub struct ExecConfig {
    /// Number of SMs (132 for an H100 SXM).
    pub num_sms: u32,
    pub limits: SmLimits,
    pub scheduler: SchedulerKind,
    /// Host threads for launches that run in parallel (None: rayon's default). Results do
    /// not depend on it unless `schedule` is [`Schedule::Parallel`].
    pub threads: Option<usize>,
    /// How SMs map onto host threads.
    pub schedule: Schedule,
    /// Thread-instruction budget of the whole run. A launch that runs in parallel gives each
    /// SM the whole remaining budget and checks the total when the launch ends (so that
    /// where it stops does not depend on the host); on the emulated schedule the SMs draw
    /// from one budget.
    pub max_instructions: u64,
    /// Registers per thread for occupancy (None: estimated from the PTX).
    pub regs_per_thread: Option<u32>,
    /// Cycles a warp stalls after a global/local load or an atomic with a result (0: no
    /// latency model; warps then yield only at their quantum, barriers and exit).
    /// [`crate::sched::MEMORY_LATENCY`] is a typical value for profiling.
    pub memory_latency: u32,
    /// Counters a front end reads to draw a progress bar (None: not counted).
    pub progress: Option<std::sync::Arc<crate::progress::Progress>>,
}

impl Default for ExecConfig {
    fn default() -> Self {
        ExecConfig {
            num_sms: 132,
            limits: SmLimits::default(),
            scheduler: SchedulerKind::default(),
            threads: None,
            schedule: Schedule::Auto,
            max_instructions: 10_000_000_000,
            regs_per_thread: None,
            memory_latency: 0,
            progress: None,
        }
    }
}

/// Occupancy of one launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occupancy {
    pub blocks_per_sm: u32,
    pub regs_per_thread: u32,
    pub shared_per_block: u32,
    /// Which limit binds: "threads", "warps", "blocks", "registers" or "shared memory".
    pub limiter: &'static str,
}

/// Computes how many blocks fit on one SM.
pub fn occupancy(
    prog: &Program,
    block: [u32; 3],
    dyn_smem: u32,
    cfg: &ExecConfig,
) -> Result<Occupancy, String> {
    let l = &cfg.limits;
    let threads = block[0] as u64 * block[1] as u64 * block[2] as u64;
    if threads == 0 {
        return Err("the block has no threads".into());
    }
    if threads > u64::from(l.max_threads_per_block) {
        return Err(format!(
            "{threads} threads per block exceed the limit of {}",
            l.max_threads_per_block
        ));
    }
    let threads = threads as u32;
    let warps = threads.div_ceil(32);
    let regs = cfg
        .regs_per_thread
        .unwrap_or(prog.regs_per_thread)
        .clamp(1, 255);
    let shared = prog.dyn_shared_offset as u64 + u64::from(dyn_smem);
    if shared > u64::from(l.max_shared_per_block) {
        return Err(format!(
            "{shared} bytes of shared memory per block exceed the limit of {}",
            l.max_shared_per_block
        ));
    }
    let shared = shared as u32;
    let regs_per_warp = (regs * 32).div_ceil(l.reg_unit) * l.reg_unit;
    let by = [
        ("threads", l.max_threads / (warps * 32)),
        ("warps", l.max_warps / warps),
        ("blocks", l.max_blocks),
        ("registers", l.regs / (regs_per_warp * warps)),
        (
            "shared memory",
            l.shared / (shared + l.reserved_shared_per_block),
        ),
    ];
    let (limiter, n) = by
        .iter()
        .copied()
        .min_by_key(|&(_, n)| n)
        .unwrap_or(("blocks", 1));
    if n == 0 {
        return Err(format!(
            "one block does not fit on an SM (limited by {limiter}: {regs} registers per thread, \
             {shared} bytes of shared memory, {threads} threads)"
        ));
    }
    Ok(Occupancy {
        blocks_per_sm: n,
        regs_per_thread: regs,
        shared_per_block: shared,
        limiter,
    })
}

/// Everything shared by the SMs of one launch.
pub struct Launch<'a> {
    pub prog: &'a Program,
    pub sites: &'a ProgramSites,
    pub global: &'a GlobalMem,
    pub constb: &'a [u8],
    pub params: &'a [u8],
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dyn_smem: u32,
    pub index: u32,
    pub occupancy: Occupancy,
    /// Remaining thread-instruction budget (shared by all SMs).
    pub pool: &'a AtomicI64,
    pub limit: u64,
    pub out: &'a Mutex<Vec<u8>>,
    /// Why the kernel's outcome can depend on the order of its SMs (None: it cannot).
    pub order_dependence: Option<&'a crate::ordering::OrderDependence>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WState {
    Ready,
    Waiting,
    Done,
}

struct WarpSlot {
    warp: Warp,
    cta: usize,
    state: WState,
    ready_at: u64,
    age: u64,
    /// Barrier arrival while waiting.
    arrival: Option<BarArrival>,
}

#[derive(Default, Clone)]
struct BarState {
    /// Warps that arrived (sync or arrive) in this phase.
    arrived: u32,
    waiting: Vec<usize>,
    popc: u32,
    all: bool,
    any: bool,
    count: Option<u32>,
}

/// Per-host-thread storage reused by the SMs it simulates (warp register files, shared
/// memory), so simulating an SM allocates nothing once the first one warmed it up.
#[derive(Default)]
pub struct SmScratch {
    ctas: Vec<CtaSlot>,
    slots: Vec<WarpSlot>,
    views: Vec<WarpView>,
}

struct CtaSlot {
    active: bool,
    cta: [u32; 3],
    linear: u32,
    shared: Vec<u8>,
    warps: Vec<usize>,
    live: u32,
    bars: Vec<BarState>,
}

impl Launch<'_> {
    fn info(&self, cfg: &ExecConfig) -> LaunchInfo {
        LaunchInfo {
            index: self.index,
            kernel: self.prog.name.clone(),
            func: self.prog.kernel,
            grid: self.grid,
            block: self.block,
            dynamic_shared: self.dyn_smem,
            num_sms: cfg.num_sms,
            blocks_per_sm: self.occupancy.blocks_per_sm,
            shared_per_block: self.occupancy.shared_per_block,
        }
    }

    /// Whether this launch runs on the emulated schedule (see [`Schedule`]).
    fn emulated<O: Observer>(&self, cfg: &ExecConfig) -> bool {
        match cfg.schedule {
            Schedule::Emulated => true,
            Schedule::Parallel => false,
            Schedule::Auto => O::SHARED_STATE || self.order_dependence.is_some(),
        }
    }

    /// Runs the launch, reporting to `obs`.
    pub fn run<O: Observer>(&self, cfg: &ExecConfig, obs: &mut O) -> Result<LaunchStats, Fault> {
        let info = self.info(cfg);
        obs.launch_begin(&info);
        let nblocks = u64::from(self.grid[0]) * u64::from(self.grid[1]) * u64::from(self.grid[2]);
        let nsms = u64::from(cfg.num_sms.max(1)).min(nblocks.max(1)) as u32;
        if let Some(p) = &cfg.progress {
            p.begin_launch(&self.prog.name, nblocks);
        }
        let parallel = nsms > 1 && !self.emulated::<O>(cfg);
        let remaining = self.pool.load(Ordering::Relaxed);
        let results = if parallel {
            self.run_parallel(cfg, obs, nsms, nblocks, remaining)
        } else {
            self.run_emulated(cfg, obs, nsms, nblocks)
        };
        let mut stats = LaunchStats::default();
        let mut first_fault: Option<Fault> = None;
        let mut aborted: Option<Fault> = None;
        // SM order: the lowest-numbered SM that faulted names the fault, whatever the host
        // timing (SMs above a faulting one are stopped, SMs below it are not).
        for (o, r) in results {
            obs.join(o);
            match r {
                Ok(s) => stats.add(&s),
                Err(f) => {
                    if is_abort(&f) {
                        aborted.get_or_insert(f);
                    } else if first_fault.is_none() {
                        first_fault = Some(f);
                    }
                }
            }
        }
        if let Some(f) = first_fault.or(aborted) {
            return Err(f);
        }
        if parallel {
            // Each SM had the whole remaining budget; charge what they used together.
            let used = i64::try_from(stats.thread_instructions).unwrap_or(i64::MAX);
            self.pool.fetch_sub(used, Ordering::Relaxed);
            if used > remaining {
                return Err(Fault::new(FaultKind::Budget { limit: self.limit }));
            }
        }
        obs.launch_end(&info, &stats);
        Ok(stats)
    }

    /// Runs all SMs on the calling thread, interleaved by their emulated cycles: the SM
    /// furthest behind issues next (ties: lower SM first). The first fault stops the launch.
    fn run_emulated<O: Observer>(
        &self,
        cfg: &ExecConfig,
        obs: &O,
        nsms: u32,
        nblocks: u64,
    ) -> Vec<(O, Result<LaunchStats, Fault>)> {
        // Nothing sets it: the first fault ends the loop below.
        let abort = AtomicBool::new(false);
        let mut scratch: Vec<SmScratch> = (0..nsms).map(|_| SmScratch::default()).collect();
        let mut sms: Vec<SmRun<'_, '_, O>> = scratch
            .iter_mut()
            .enumerate()
            .map(|(sm, s)| self.start_sm(cfg, sm as u32, obs.fork(), self.pool, &abort, s, STEP))
            .collect();
        let mut turn: BinaryHeap<Reverse<(u64, u32)>> =
            (0..nsms).map(|s| Reverse((0, s))).collect();
        let mut fault: Option<(u32, Fault)> = None;
        while let Some(Reverse((_, s))) = turn.pop() {
            let r = &mut sms[s as usize];
            match r.step(self, cfg, nblocks) {
                Ok(false) => turn.push(Reverse((r.env.cycle, s))),
                Ok(true) => {}
                Err(f) => {
                    fault = Some((s, f));
                    break;
                }
            }
        }
        sms.into_iter()
            .enumerate()
            .map(|(sm, r)| {
                let res = match fault.take_if(|(s, _)| *s as usize == sm) {
                    Some((_, f)) => Err(f),
                    None => Ok(()),
                };
                r.finish(self.pool, res)
            })
            .collect()
    }

    /// Runs SMs in parallel on host threads, each with the whole remaining budget.
    fn run_parallel<O: Observer>(
        &self,
        cfg: &ExecConfig,
        obs: &O,
        nsms: u32,
        nblocks: u64,
        remaining: i64,
    ) -> Vec<(O, Result<LaunchStats, Fault>)> {
        let pools: Vec<AtomicI64> = (0..nsms).map(|_| AtomicI64::new(remaining)).collect();
        let aborts: Vec<AtomicBool> = (0..nsms).map(|_| AtomicBool::new(false)).collect();
        let run_one = |sm: usize, o: O, scratch: &mut SmScratch| {
            let mut r = self.start_sm(
                cfg,
                sm as u32,
                o,
                &pools[sm],
                &aborts[sm],
                scratch,
                u32::MAX,
            );
            let res = loop {
                match r.step(self, cfg, nblocks) {
                    Ok(false) => {}
                    Ok(true) => break Ok(()),
                    Err(f) => break Err(f),
                }
            };
            if let Err(f) = &res
                && !is_abort(f)
            {
                for a in &aborts[sm + 1..] {
                    a.store(true, Ordering::Relaxed);
                }
            }
            r.finish(&pools[sm], res)
        };
        let forks: Vec<O> = (0..nsms).map(|_| obs.fork()).collect();
        let job = || {
            forks
                .into_par_iter()
                .enumerate()
                .map_init(SmScratch::default, |s, (sm, o)| run_one(sm, o, s))
                .collect()
        };
        match cfg.threads {
            Some(n) => match rayon::ThreadPoolBuilder::new().num_threads(n).build() {
                Ok(pool) => pool.install(job),
                Err(_) => job(),
            },
            None => job(),
        }
    }

    /// Sets up SM `sm` (no block admitted yet); it issues at most `step` warp instructions
    /// per [`SmRun::step`].
    #[allow(clippy::too_many_arguments)]
    fn start_sm<'s, 'e, O: Observer>(
        &'e self,
        cfg: &ExecConfig,
        sm: u32,
        o: O,
        pool: &'e AtomicI64,
        abort: &'e AtomicBool,
        scratch: &'s mut SmScratch,
        step: u32,
    ) -> SmRun<'s, 'e, O> {
        let env = Env::new(
            self.prog,
            self.sites,
            self.global,
            self.constb,
            self.params,
            Geometry {
                grid: self.grid,
                block: self.block,
                dyn_smem: self.dyn_smem,
                total_smem: self.occupancy.shared_per_block,
                nsms: cfg.num_sms,
                launch: self.index,
            },
            o,
            pool,
            self.limit,
            abort,
            sm,
            self.out,
        );
        let sched = cfg.scheduler.build();
        let quantum = sched.quantum().min(step);
        let latency = sched.models_latency() && cfg.memory_latency > 0;
        let bps = self.occupancy.blocks_per_sm as usize;
        // Forget the previous SM's blocks but keep their storage.
        scratch.ctas.truncate(bps);
        for c in scratch.ctas.iter_mut() {
            c.active = false;
        }
        for s in scratch.slots.iter_mut() {
            s.state = WState::Done;
        }
        SmRun {
            env,
            scratch,
            sched,
            sm,
            next_block: u64::from(sm),
            age: 0,
            quantum,
            latency,
        }
    }

    fn cta_coords(&self, linear: u64) -> [u32; 3] {
        let gx = u64::from(self.grid[0]);
        let gy = u64::from(self.grid[1]);
        [
            (linear % gx) as u32,
            ((linear / gx) % gy) as u32,
            (linear / (gx * gy)) as u32,
        ]
    }

    fn arrive<O: Observer>(
        &self,
        env: &mut Env<'_, O>,
        ctas: &mut [CtaSlot],
        slots: &mut [WarpSlot],
        i: usize,
        arr: BarArrival,
    ) {
        let cta_i = slots[i].cta;
        let code = &self.prog.funcs[arr.func as usize];
        let inst = code.meta[arr.pc as usize].inst;
        let ev = if arr.kind == BarKind::Arrive {
            BarrierEvent::Arrive
        } else {
            BarrierEvent::Wait
        };
        env.obs
            .barrier(&slots[i].warp.info, code.func, inst, ev, arr.lanes);
        let b = &mut ctas[cta_i].bars[arr.id as usize];
        if b.arrived == 0 {
            b.all = true;
            b.any = false;
            b.popc = 0;
        }
        b.arrived += 1;
        if arr.count.is_some() {
            b.count = arr.count;
        }
        b.popc += arr.contrib;
        b.all &= arr.all_true;
        b.any |= arr.contrib > 0;
        if arr.kind != BarKind::Arrive {
            b.waiting.push(i);
            slots[i].state = WState::Waiting;
            slots[i].arrival = Some(arr);
        }
        self.try_release(env, ctas, slots, cta_i, arr.id as usize);
    }

    fn try_release<O: Observer>(
        &self,
        env: &mut Env<'_, O>,
        ctas: &mut [CtaSlot],
        slots: &mut [WarpSlot],
        cta_i: usize,
        id: usize,
    ) {
        let c = &mut ctas[cta_i];
        let b = &mut c.bars[id];
        if b.arrived == 0 {
            return;
        }
        let done = match b.count {
            Some(n) => b.arrived * 32 >= n,
            None => b.arrived >= c.live,
        };
        if !done {
            return;
        }
        let waiting = std::mem::take(&mut b.waiting);
        let (popc, all, any) = (b.popc, b.all, b.any);
        *b = BarState::default();
        for wi in waiting {
            let s = &mut slots[wi];
            s.state = WState::Ready;
            s.ready_at = s.ready_at.max(env.cycle);
            if let Some(arr) = s.arrival.take() {
                if arr.d != NONE {
                    match arr.kind {
                        BarKind::RedPopc => {
                            let v = [u64::from(popc); 32];
                            let dst = &mut s.warp.regs[arr.d as usize];
                            for l in 0..32 {
                                if arr.lanes >> l & 1 == 1 {
                                    dst[l] = v[l];
                                }
                            }
                        }
                        BarKind::RedAnd | BarKind::RedOr => {
                            let t = if arr.kind == BarKind::RedAnd {
                                all
                            } else {
                                any
                            };
                            let p = &mut s.warp.preds[arr.d as usize];
                            *p = (*p & !arr.lanes) | if t { arr.lanes } else { 0 };
                        }
                        _ => {}
                    }
                }
                let code = &self.prog.funcs[arr.func as usize];
                let inst = code.meta[arr.pc as usize].inst;
                env.obs.barrier(
                    &s.warp.info,
                    code.func,
                    inst,
                    BarrierEvent::Release,
                    arr.lanes,
                );
            }
        }
    }

    #[cold]
    fn deadlock<O: Observer>(
        &self,
        env: &Env<'_, O>,
        ctas: &[CtaSlot],
        slots: &[WarpSlot],
    ) -> Fault {
        for c in ctas.iter().filter(|c| c.active) {
            let waiting: Vec<&WarpSlot> = c
                .warps
                .iter()
                .map(|&w| &slots[w])
                .filter(|s| s.state == WState::Waiting)
                .collect();
            let Some(first) = waiting.first() else {
                continue;
            };
            let exited = c
                .warps
                .iter()
                .filter(|&&w| slots[w].state == WState::Done)
                .count();
            let mut ids: Vec<String> = Vec::new();
            for s in &waiting {
                if let Some(a) = s.arrival {
                    let (line, _, _) = self.sites.describe(a.func as usize, a.pc as usize);
                    ids.push(format!(
                        "warp {} at barrier {} (PTX line {line})",
                        s.warp.info.warp_in_cta, a.id
                    ));
                }
            }
            let detail = format!(
                "{} of {} warps of the block wait forever ({}); {exited} warps exited",
                waiting.len(),
                c.warps.len(),
                ids.join(", ")
            );
            let arr = first.arrival;
            let mut w = Warp {
                info: first.warp.info,
                ..Default::default()
            };
            if let Some(a) = arr {
                w.func = a.func;
            }
            let lane = first.arrival.map_or(0, |a| a.lanes.trailing_zeros());
            return env.fault(
                &w,
                arr.map_or(0, |a| a.pc),
                lane,
                FaultKind::Deadlock { detail },
            );
        }
        Fault::new(FaultKind::Deadlock {
            detail: "no warp can make progress".into(),
        })
    }
}

/// Whether a fault only says the SM was stopped because another one faulted.
fn is_abort(f: &Fault) -> bool {
    f.site.is_none() && matches!(f.kind, FaultKind::Unsupported { .. })
}

/// One SM's progress through its share of a launch: its resident blocks and warps, its
/// scheduler and its clock (`env.cycle`).
struct SmRun<'s, 'e, O: Observer> {
    env: Env<'e, O>,
    scratch: &'s mut SmScratch,
    sched: Box<dyn crate::sched::WarpScheduler>,
    sm: u32,
    /// Linear index of the next block this SM admits.
    next_block: u64,
    /// Warps admitted so far (their age for the scheduler).
    age: u64,
    /// Most warp instructions per pick.
    quantum: u32,
    /// Whether long-latency memory ops stall the warp.
    latency: bool,
}

impl<O: Observer> SmRun<'_, '_, O> {
    /// Admits blocks into free slots, then lets one warp issue (or, when none is ready,
    /// advances the clock to the next one that will be). Returns true when the SM is done.
    fn step(&mut self, l: &Launch<'_>, cfg: &ExecConfig, nblocks: u64) -> Result<bool, Fault> {
        let env = &mut self.env;
        let sm = self.sm;
        let threads = l.block[0] * l.block[1] * l.block[2];
        let wpb = threads.div_ceil(32) as usize;
        let bps = l.occupancy.blocks_per_sm as usize;
        let stride = u64::from(cfg.num_sms.max(1));
        let SmScratch { ctas, slots, views } = &mut *self.scratch;
        // Admit blocks into free CTA slots.
        while self.next_block < nblocks {
            let free = match ctas.iter().position(|c| !c.active) {
                Some(i) => i,
                None if ctas.len() < bps => {
                    ctas.push(CtaSlot {
                        active: false,
                        cta: [0; 3],
                        linear: 0,
                        shared: Vec::new(),
                        warps: Vec::new(),
                        live: 0,
                        bars: vec![BarState::default(); 16],
                    });
                    ctas.len() - 1
                }
                None => break,
            };
            let linear = self.next_block;
            self.next_block += stride;
            let coords = l.cta_coords(linear);
            let c = &mut ctas[free];
            c.active = true;
            c.cta = coords;
            c.linear = linear as u32;
            c.shared.clear();
            c.shared.resize(l.occupancy.shared_per_block as usize, 0);
            c.live = wpb as u32;
            for b in &mut c.bars {
                *b = BarState::default();
            }
            env.obs.cta_begin(sm, coords, linear as u32);
            env.stats.blocks += 1;
            // Warp slots: reuse done ones.
            let mut ws = Vec::with_capacity(wpb);
            for k in 0..wpb {
                let lanes_here = (threads - (k as u32) * 32).min(32);
                let lanes = if lanes_here == 32 {
                    u32::MAX
                } else {
                    (1u32 << lanes_here) - 1
                };
                let slot = match slots.iter().position(|s| s.state == WState::Done) {
                    Some(i) => i,
                    None => {
                        slots.push(WarpSlot {
                            warp: Warp::default(),
                            cta: free,
                            state: WState::Done,
                            ready_at: 0,
                            age: 0,
                            arrival: None,
                        });
                        slots.len() - 1
                    }
                };
                let info = WarpInfo {
                    launch: l.index,
                    sm,
                    cta: coords,
                    cta_linear: linear as u32,
                    warp_in_cta: k as u32,
                    global_warp: linear * wpb as u64 + k as u64,
                    lanes,
                };
                let s = &mut slots[slot];
                s.cta = free;
                s.state = WState::Ready;
                s.ready_at = env.cycle;
                s.age = self.age;
                s.arrival = None;
                self.age += 1;
                env.start_warp(&mut s.warp, info, l.prog.funcs[0].frame_size);
                ws.push(slot);
            }
            ctas[free].warps = ws;
        }
        if !ctas.iter().any(|c| c.active) {
            return Ok(true);
        }
        // Pick a warp.
        views.clear();
        views.extend(slots.iter().map(|s| WarpView {
            ready: s.state == WState::Ready && s.ready_at <= env.cycle,
            age: s.age,
        }));
        let Some(i) = self.sched.pick(views) else {
            // Nothing ready: wait for a stalled warp, or it is a deadlock.
            let next = slots
                .iter()
                .filter(|s| s.state == WState::Ready)
                .map(|s| s.ready_at)
                .min();
            return match next {
                Some(t) => {
                    env.cycle = env.cycle.max(t);
                    Ok(false)
                }
                None => Err(l.deadlock(env, ctas, slots)),
            };
        };
        let cta_i = slots[i].cta;
        let stop = {
            let (slot, cta) = (&mut slots[i], &mut ctas[cta_i]);
            env.run(&mut slot.warp, &mut cta.shared, self.quantum, self.latency)?
        };
        match stop {
            Stop::Quantum => self.sched.yielded(i, Yield::Quantum),
            Stop::Stall => {
                slots[i].ready_at = env.cycle + u64::from(cfg.memory_latency);
                self.sched.yielded(i, Yield::Stall);
            }
            Stop::Barrier(arr) => {
                self.sched.yielded(i, Yield::Blocked);
                l.arrive(env, ctas, slots, i, arr);
            }
            Stop::Exited => {
                self.sched.yielded(i, Yield::Blocked);
                slots[i].state = WState::Done;
                let c = &mut ctas[cta_i];
                c.live -= 1;
                if c.live == 0 {
                    c.active = false;
                    env.obs.cta_end(sm, c.cta, c.linear);
                    if let Some(p) = &cfg.progress {
                        p.block_done();
                    }
                } else {
                    // An exit may complete barriers that waited for this warp.
                    for id in 0..16 {
                        l.try_release(env, ctas, slots, cta_i, id);
                    }
                }
            }
        }
        Ok(false)
    }

    /// Gives unused budget back to `pool` and hands over the observer and the counts.
    fn finish(self, pool: &AtomicI64, res: Result<(), Fault>) -> (O, Result<LaunchStats, Fault>) {
        if self.env.budget > 0 {
            pool.fetch_add(self.env.budget, Ordering::Relaxed);
        }
        let stats = self.env.stats;
        (self.env.obs, res.map(|()| stats))
    }
}
