//! One kernel launch: occupancy, block dispatch to SMs, and each SM's simulation (resident
//! blocks, warp scheduling, barriers).
//!
//! Blocks are dispatched round robin: block `b` (linear index, x fastest) goes to SM
//! `b mod num_sms`, and each SM runs its blocks in increasing order with at most
//! `blocks_per_sm` of them resident at once (a new one is admitted when one finishes). SMs
//! are independent, so they run in parallel on a rayon pool, or one after another in
//! deterministic mode; both give the same per-SM event order and the same results for
//! race-free kernels.

use crate::exec::{BarArrival, Env, Geometry, Stop, Warp};
use crate::fault::{Fault, FaultKind};
use crate::memory::GlobalMem;
use crate::observer::{BarrierEvent, LaunchInfo, LaunchStats, Observer, WarpInfo};
use crate::program::{BarKind, NONE, Program};
use crate::sched::{SchedulerKind, WarpView, Yield};
use crate::translate::ProgramSites;
use rayon::prelude::*;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

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
    /// Host threads (None: rayon's default); ignored when `deterministic`.
    pub threads: Option<usize>,
    /// Run SMs one after another on the calling thread.
    pub deterministic: bool,
    /// Thread-instruction budget of the whole run.
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
            deterministic: false,
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

    /// Runs the launch, reporting to `obs`.
    pub fn run<O: Observer>(&self, cfg: &ExecConfig, obs: &mut O) -> Result<LaunchStats, Fault> {
        let info = self.info(cfg);
        obs.launch_begin(&info);
        let nblocks = u64::from(self.grid[0]) * u64::from(self.grid[1]) * u64::from(self.grid[2]);
        let nsms = u64::from(cfg.num_sms.max(1)).min(nblocks.max(1)) as u32;
        if let Some(p) = &cfg.progress {
            p.begin_launch(&self.prog.name, nblocks);
        }
        let abort = AtomicBool::new(false);
        let run_sm = |sm: u32, o: O, scratch: &mut SmScratch| -> (O, Result<LaunchStats, Fault>) {
            let mut env = Env::new(
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
                self.pool,
                self.limit,
                &abort,
                sm,
                self.out,
            );
            let r = self.run_sm(
                &mut env,
                cfg,
                sm,
                nblocks,
                u64::from(cfg.num_sms.max(1)),
                scratch,
            );
            if r.is_err() {
                abort.store(true, Ordering::Relaxed);
            }
            // Give back unused budget.
            if env.budget > 0 {
                self.pool.fetch_add(env.budget, Ordering::Relaxed);
            }
            let stats = env.stats;
            (env.obs, r.map(|()| stats))
        };
        let results: Vec<(O, Result<LaunchStats, Fault>)> = if cfg.deterministic || nsms == 1 {
            let mut v = Vec::new();
            let mut scratch = SmScratch::default();
            for sm in 0..nsms {
                let r = run_sm(sm, obs.fork(), &mut scratch);
                let failed = r.1.is_err();
                v.push(r);
                if failed {
                    break;
                }
            }
            v
        } else {
            let forks: Vec<O> = (0..nsms).map(|_| obs.fork()).collect();
            let job = || {
                forks
                    .into_par_iter()
                    .enumerate()
                    .map_init(SmScratch::default, |s, (sm, o)| run_sm(sm as u32, o, s))
                    .collect()
            };
            match cfg.threads {
                Some(n) => match rayon::ThreadPoolBuilder::new().num_threads(n).build() {
                    Ok(pool) => pool.install(job),
                    Err(_) => job(),
                },
                None => job(),
            }
        };
        let mut stats = LaunchStats::default();
        let mut first_fault: Option<Fault> = None;
        let mut aborted: Option<Fault> = None;
        for (o, r) in results {
            obs.join(o);
            match r {
                Ok(s) => stats.add(&s),
                Err(f) => {
                    if f.site.is_none() && matches!(f.kind, FaultKind::Unsupported { .. }) {
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
        obs.launch_end(&info, &stats);
        Ok(stats)
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

    fn run_sm<O: Observer>(
        &self,
        env: &mut Env<'_, O>,
        cfg: &ExecConfig,
        sm: u32,
        nblocks: u64,
        stride: u64,
        scratch: &mut SmScratch,
    ) -> Result<(), Fault> {
        let threads = self.block[0] * self.block[1] * self.block[2];
        let wpb = threads.div_ceil(32) as usize;
        let bps = self.occupancy.blocks_per_sm as usize;
        let shared_size = self.occupancy.shared_per_block as usize;
        let local_size = self.prog.funcs[0].frame_size;
        let mut sched = cfg.scheduler.build();
        let quantum = sched.quantum();
        let latency = sched.models_latency() && cfg.memory_latency > 0;
        let SmScratch { ctas, slots, views } = scratch;
        // Forget the previous SM's blocks but keep their storage.
        ctas.truncate(bps);
        for c in ctas.iter_mut() {
            c.active = false;
        }
        for s in slots.iter_mut() {
            s.state = WState::Done;
        }
        let mut next_block = u64::from(sm);
        let mut age = 0u64;

        loop {
            // Admit blocks into free CTA slots.
            while next_block < nblocks {
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
                let linear = next_block;
                next_block += stride;
                let coords = self.cta_coords(linear);
                let c = &mut ctas[free];
                c.active = true;
                c.cta = coords;
                c.linear = linear as u32;
                c.shared.clear();
                c.shared.resize(shared_size, 0);
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
                        launch: self.index,
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
                    s.age = age;
                    s.arrival = None;
                    age += 1;
                    env.start_warp(&mut s.warp, info, local_size);
                    ws.push(slot);
                }
                ctas[free].warps = ws;
            }
            if !ctas.iter().any(|c| c.active) {
                return Ok(());
            }
            // Pick a warp.
            views.clear();
            views.extend(slots.iter().map(|s| WarpView {
                ready: s.state == WState::Ready && s.ready_at <= env.cycle,
                age: s.age,
            }));
            let Some(i) = sched.pick(views) else {
                // Nothing ready: wait for a stalled warp, or it is a deadlock.
                let next = slots
                    .iter()
                    .filter(|s| s.state == WState::Ready)
                    .map(|s| s.ready_at)
                    .min();
                match next {
                    Some(t) => {
                        env.cycle = env.cycle.max(t);
                        continue;
                    }
                    None => return Err(self.deadlock(env, ctas, slots)),
                }
            };
            let cta_i = slots[i].cta;
            let stop = {
                let (slot, cta) = (&mut slots[i], &mut ctas[cta_i]);
                env.run(&mut slot.warp, &mut cta.shared, quantum, latency)?
            };
            match stop {
                Stop::Quantum => sched.yielded(i, Yield::Quantum),
                Stop::Stall => {
                    slots[i].ready_at = env.cycle + u64::from(cfg.memory_latency);
                    sched.yielded(i, Yield::Stall);
                }
                Stop::Barrier(arr) => {
                    sched.yielded(i, Yield::Blocked);
                    self.arrive(env, ctas, slots, i, arr);
                }
                Stop::Exited => {
                    sched.yielded(i, Yield::Blocked);
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
                            self.try_release(env, ctas, slots, cta_i, id);
                        }
                    }
                }
            }
        }
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
