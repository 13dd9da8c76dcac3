//! The emulator observer that feeds GRAB: every global memory request of every warp, per SM,
//! in the SM's issue order (the chosen warp scheduler's interleaving).
//!
//! Each SM's fork holds one [`Grab`] per cache configuration of the sweep, so one emulation
//! serves all L1 sizes, associativities and line sizes; only schedulers need a run each.
//! Forks are joined in SM order; at the end of a launch the SMs' L2 logs are merged by the
//! SMs' clocks (issued warp instructions) and run through the shared L2.

use std::sync::Arc;
use warpscope_emu::{
    BarrierEvent, LaunchInfo, LaunchStats, MemSpace, MemoryAccess, Observer, WarpInfo,
};
use warpscope_ir::{FuncId, Inst};

use crate::config::{CacheConfig, Geometry};
use crate::grab::{Grab, GrabCounts, L2Access, Request, run_l2};
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
            pending: Vec::new(),
            launches: Vec::new(),
        }
    }

    fn join(&mut self, other: Self) {
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
        for e in &mut self.engines {
            e.request(&r, None);
        }
        self.sectors = sectors;
    }

    fn barrier(&mut self, w: &WarpInfo, _f: FuncId, _i: Inst, _e: BarrierEvent, _a: u32) {
        for e in &mut self.engines {
            e.barrier(w.global_warp);
        }
    }

    fn warp_exit(&mut self, w: &WarpInfo) {
        for e in &mut self.engines {
            e.warp_exit(w.global_warp);
        }
    }
}
