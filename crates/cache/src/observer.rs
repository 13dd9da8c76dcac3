//! The emulator observer that feeds GRAB: every global memory request of every warp, per SM,
//! in the SM's issue order (the chosen warp scheduler's interleaving).
//!
//! Each SM's fork holds one [`Grab`] per cache configuration of the sweep, so one emulation
//! serves all L1 sizes, associativities and line sizes; only schedulers need a run each.
//! Forks are joined in SM order; at the end of a launch the SMs' L2 logs are merged by the
//! SMs' clocks (issued warp instructions) and run through the shared L2.
//!
//! An SM's requests are not analysed as they come but in batches of [`BATCH`]: the emulated
//! schedule interleaves all SMs on one host thread, and the analysis state of 132 SMs and
//! their resident warps does not fit the host's caches, so request by request nearly every
//! lookup would miss them. A batch runs each warp's requests through its private caches in
//! a row (a warp's golden trace depends on its own requests and barriers alone), then all
//! requests, in issue order, through the shared L1. The results are the same as request by
//! request.

use std::sync::Arc;
use warpscope_emu::{
    BarrierEvent, LaunchInfo, LaunchStats, MemSpace, MemoryAccess, Observer, WarpInfo,
};
use warpscope_ir::{FuncId, Inst};

use crate::config::{CacheConfig, Geometry};
use crate::golden::{Golden, low_bytes};
use crate::grab::{Grab, GrabCounts, L2Access, Op, Request, run_l2};
use crate::sites::InstTable;

/// What one launch produced under one configuration.
#[derive(Clone, Debug, Default)]
pub struct ConfigCounts {
    pub l1: Option<Geometry>,
    pub counts: GrabCounts,
}

/// One launch's results.
#[derive(Clone, Debug)]
pub struct LaunchCounts {
    pub index: u32,
    /// PTX name of the kernel.
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub blocks_per_sm: u32,
    pub warp_instructions: u64,
    /// Per configuration, in [`CacheObserver::new`]'s order.
    pub configs: Vec<ConfigCounts>,
}

/// Requests an SM buffers before analysing them (see the module documentation).
pub const BATCH: usize = 4096;

/// A buffered request, barrier or warp exit.
#[derive(Clone, Copy, Debug)]
struct Event {
    warp: u64,
    what: What,
}

#[derive(Clone, Copy, Debug)]
enum What {
    Request {
        inst: u32,
        op: Op,
        time: u64,
        /// Its sectors: `sectors[first..end]`; its lanes' address bytes: `lows[index]`.
        first: u32,
        end: u32,
        index: u32,
    },
    Barrier,
    Exit,
}

/// The events of one SM not analysed yet.
#[derive(Default)]
struct Batch {
    events: Vec<Event>,
    requests: usize,
    sectors: Vec<(u64, u32)>,
    lows: Vec<[u8; 32]>,
    /// Scratch: events in warp order, and the golden result of each sector.
    order: Vec<u32>,
    golden: Vec<Golden>,
}

impl Batch {
    fn request<'a>(&'a self, e: &Event) -> Option<(Request<'a>, &'a [u8; 32], usize, usize)> {
        let What::Request {
            inst,
            op,
            time,
            first,
            end,
            index,
        } = e.what
        else {
            return None;
        };
        let (first, end) = (first as usize, end as usize);
        let r = Request {
            warp: e.warp,
            inst,
            op,
            sectors: &self.sectors[first..end],
            time,
            addrs: None,
        };
        Some((r, &self.lows[index as usize], first, end))
    }

    /// Buffers a request; returns the number of requests buffered.
    fn push_request(&mut self, r: &Request<'_>) -> usize {
        let first = self.sectors.len() as u32;
        self.sectors.extend_from_slice(r.sectors);
        self.lows.push(r.addrs.map(low_bytes).unwrap_or_default());
        self.events.push(Event {
            warp: r.warp,
            what: What::Request {
                inst: r.inst,
                op: r.op,
                time: r.time,
                first,
                end: self.sectors.len() as u32,
                index: (self.lows.len() - 1) as u32,
            },
        });
        self.requests += 1;
        self.requests
    }

    /// Runs the buffered events through every engine and empties the buffer.
    fn flush(&mut self, engines: &mut [Grab]) {
        if self.events.is_empty() {
            return;
        }
        let mut order = std::mem::take(&mut self.order);
        let mut golden = std::mem::take(&mut self.golden);
        order.clear();
        order.extend(0..self.events.len() as u32);
        order.sort_by_key(|&i| self.events[i as usize].warp);
        for e in engines.iter_mut() {
            golden.clear();
            golden.resize(self.sectors.len(), Golden::default());
            // Each warp's golden trace, its events in order (the sort is stable).
            for &i in &order {
                let ev = &self.events[i as usize];
                match ev.what {
                    What::Request { .. } => {
                        if let Some((r, low, first, end)) = self.request(ev) {
                            e.golden(&r, Some(low), &mut golden[first..end]);
                        }
                    }
                    What::Barrier => e.barrier(ev.warp),
                    What::Exit => e.warp_exit(ev.warp),
                }
            }
            // The shared L1, in issue order.
            for ev in &self.events {
                if let Some((r, _, first, end)) = self.request(ev) {
                    e.shared(&r, &golden[first..end], None);
                }
            }
        }
        self.order = order;
        self.golden = golden;
        self.events.clear();
        self.requests = 0;
        self.sectors.clear();
        self.lows.clear();
    }
}

/// The observer.
pub struct CacheObserver {
    table: Arc<InstTable>,
    configs: Arc<Vec<CacheConfig>>,
    /// L1 geometry per configuration for the current launch.
    geos: Vec<Geometry>,
    engines: Vec<Grab>,
    /// Issued warp instructions on this SM (its clock).
    clock: u64,
    sectors: Vec<(u64, u32)>,
    batch: Batch,
    /// Joined SMs' results for the current launch, per configuration.
    pending: Vec<(GrabCounts, Vec<L2Access>)>,
    /// Finished launches (root observer only).
    pub launches: Vec<LaunchCounts>,
}

impl CacheObserver {
    pub fn new(table: Arc<InstTable>, configs: Vec<CacheConfig>) -> CacheObserver {
        CacheObserver {
            table,
            configs: Arc::new(configs),
            geos: Vec::new(),
            engines: Vec::new(),
            clock: 0,
            sectors: Vec::with_capacity(64),
            batch: Batch::default(),
            pending: Vec::new(),
            launches: Vec::new(),
        }
    }

    fn engines_for(&mut self, sm: u32) {
        if self.engines.is_empty() {
            self.engines = self
                .geos
                .iter()
                .zip(self.configs.iter())
                .map(|(g, c)| Grab::new(*g, c.capacity, sm))
                .collect();
        }
    }

    fn id(&self, func: FuncId, inst: Inst) -> Option<u32> {
        self.table.id(func, inst)
    }
}

/// The distinct 32-byte sectors of a warp request, each with the lanes touching it, in
/// order of first touch.
pub fn request_sectors(addrs: &[u64; 32], active: u32, size: u32, out: &mut Vec<(u64, u32)>) {
    out.clear();
    let size = u64::from(size.max(1));
    let mut m = active;
    while m != 0 {
        let l = m.trailing_zeros();
        m &= m - 1;
        let a = addrs[l as usize];
        let first = a / 32;
        let last = a.saturating_add(size - 1) / 32;
        for s in first..=last {
            match out.iter_mut().rev().find(|(x, _)| *x == s) {
                Some(e) => e.1 |= 1 << l,
                None => out.push((s, 1 << l)),
            }
        }
    }
}

impl Observer for CacheObserver {
    const BLOCKS: bool = false;
    const BRANCHES: bool = false;

    fn fork(&self) -> Self {
        CacheObserver {
            table: self.table.clone(),
            configs: self.configs.clone(),
            geos: self.geos.clone(),
            engines: Vec::new(),
            clock: 0,
            sectors: Vec::with_capacity(64),
            batch: Batch::default(),
            pending: Vec::new(),
            launches: Vec::new(),
        }
    }

    fn join(&mut self, mut other: Self) {
        other.batch.flush(&mut other.engines);
        if self.pending.len() < other.engines.len() {
            self.pending
                .resize_with(other.engines.len(), Default::default);
        }
        for (p, e) in self.pending.iter_mut().zip(other.engines) {
            p.0.merge(e.counts);
            p.1.extend(e.l2_log);
        }
        self.launches.extend(other.launches);
    }

    fn launch_begin(&mut self, l: &LaunchInfo) {
        self.geos = self
            .configs
            .iter()
            .map(|c| c.l1_geometry(l.shared_per_block, l.blocks_per_sm))
            .collect();
        self.pending.clear();
        self.engines.clear();
    }

    fn launch_end(&mut self, l: &LaunchInfo, stats: &LaunchStats) {
        let mut configs = Vec::with_capacity(self.configs.len());
        let pending = std::mem::take(&mut self.pending);
        let mut pending = pending.into_iter();
        for (c, g) in self.configs.iter().zip(&self.geos) {
            let (mut counts, log) = pending.next().unwrap_or_default();
            run_l2(c.l2_geometry(), log, &mut counts);
            configs.push(ConfigCounts {
                l1: Some(*g),
                counts,
            });
        }
        self.launches.push(LaunchCounts {
            index: l.index,
            kernel: l.kernel.clone(),
            grid: l.grid,
            block: l.block,
            blocks_per_sm: l.blocks_per_sm,
            warp_instructions: stats.warp_instructions,
            configs,
        });
    }

    #[inline]
    fn instruction(&mut self, _w: &WarpInfo, _f: FuncId, _i: Inst, _a: u32, _e: u32) {
        self.clock += 1;
    }

    fn memory(&mut self, w: &WarpInfo, a: &MemoryAccess<'_>) {
        if a.space != MemSpace::Global || a.active == 0 {
            return;
        }
        let Some(id) = self.id(a.func, a.inst) else {
            return;
        };
        let op = self.table.op(id, a.kind);
        self.engines_for(w.sm);
        let mut sectors = std::mem::take(&mut self.sectors);
        request_sectors(a.addrs, a.active, a.size, &mut sectors);
        let r = Request {
            warp: w.global_warp,
            inst: id,
            op,
            sectors: &sectors,
            time: self.clock,
            addrs: Some(a.addrs),
        };
        if self.batch.push_request(&r) >= BATCH {
            self.batch.flush(&mut self.engines);
        }
        self.sectors = sectors;
    }

    fn barrier(&mut self, w: &WarpInfo, _f: FuncId, _i: Inst, _e: BarrierEvent, _a: u32) {
        self.batch.events.push(Event {
            warp: w.global_warp,
            what: What::Barrier,
        });
    }

    fn warp_exit(&mut self, w: &WarpInfo) {
        self.batch.events.push(Event {
            warp: w.global_warp,
            what: What::Exit,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::CapacityTest;
    use crate::sector_cache::Insert;
    use proptest::prelude::*;

    /// A generated event: a request of `warp` (op, lanes' addresses), a barrier or an exit.
    #[derive(Clone, Debug)]
    enum Gen {
        Request(u64, u32, Op, Vec<(u32, u64)>),
        Barrier(u64),
        Exit(u64),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            6 => Just(Op::Load(Insert::Mru)),
            1 => Just(Op::Load(Insert::Lru)),
            1 => Just(Op::Load(Insert::None)),
            1 => Just(Op::Store),
            1 => Just(Op::Bypass { write: false }),
        ]
    }

    fn event() -> impl Strategy<Value = Gen> {
        prop_oneof![
            12 => (
                0u64..5,
                0u32..4,
                op(),
                prop::collection::vec((0u32..32, 0u64..2048), 1..8),
            )
                .prop_map(|(w, i, op, lanes)| Gen::Request(w, i, op, lanes)),
            1 => (0u64..5).prop_map(Gen::Barrier),
            1 => (0u64..5).prop_map(Gen::Exit),
        ]
    }

    /// Everything a [`Grab`] counted, in a comparable order.
    fn summary(g: &Grab) -> (Vec<(u32, String)>, Vec<String>, Vec<L2Access>) {
        let mut insts: Vec<_> = g
            .counts
            .insts
            .iter()
            .map(|(&k, v)| (k, format!("{v:?}")))
            .collect();
        insts.sort();
        let mut effects: Vec<String> = g
            .counts
            .effects
            .iter()
            .map(|(k, v)| format!("{k:?} {v:?}"))
            .collect();
        effects.sort();
        (insts, effects, g.l2_log.clone())
    }

    proptest! {
        /// Batches give what request-by-request analysis gives, wherever the batches end:
        /// warps' golden traces run apart, the shared L1 in issue order.
        #[test]
        fn batches_match_request_by_request(
            events in prop::collection::vec(event(), 1..150),
            cut in 1usize..40,
            ways in 1u32..4,
        ) {
            let geo = Geometry::new(2 * u64::from(ways) * 128, 128, ways).unwrap();
            let mut direct = Grab::new(geo, CapacityTest::Cache, 0);
            let mut batched = vec![Grab::new(geo, CapacityTest::Cache, 0)];
            let mut batch = Batch::default();
            let mut sectors = Vec::new();
            for (t, e) in events.iter().enumerate() {
                match e {
                    Gen::Request(warp, inst, op, lanes) => {
                        let mut addrs = [0u64; 32];
                        let mut active = 0u32;
                        for &(l, a) in lanes {
                            addrs[l as usize] = a * 4;
                            active |= 1 << l;
                        }
                        request_sectors(&addrs, active, 4, &mut sectors);
                        let r = Request {
                            warp: *warp,
                            inst: *inst,
                            op: *op,
                            sectors: &sectors,
                            time: t as u64,
                            addrs: Some(&addrs),
                        };
                        direct.request(&r, None);
                        if batch.push_request(&r) >= cut {
                            batch.flush(&mut batched);
                        }
                    }
                    Gen::Barrier(w) => {
                        direct.barrier(*w);
                        batch.events.push(Event { warp: *w, what: What::Barrier });
                    }
                    Gen::Exit(w) => {
                        direct.warp_exit(*w);
                        batch.events.push(Event { warp: *w, what: What::Exit });
                    }
                }
            }
            batch.flush(&mut batched);
            prop_assert_eq!(summary(&direct), summary(&batched[0]));
        }
    }
}
