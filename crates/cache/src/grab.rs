//! GRAB's analysis of one SM's request stream (paper 001, §4): the original trace through the
//! SM's shared L1, the golden trace through per-thread private caches, the classification of
//! each miss, and the root cause of each miss found by following eviction chains.
//!
//! * **Classification** (Table 1), per sector lookup of a load: `hit`; `mh` — the L1 missed
//!   while some requesting thread's private cache hit, and the cache still had a free line;
//!   `m*h` — the same with every line of the cache (or of the set, [`CapacityTest::Set`])
//!   holding a block (the paper's `miss*`, an on-the-fly capacity test); `mm` — the private
//!   caches missed too, so other threads are not to blame.
//! * **Root causes** (§4.3, Figure 7), memoised: when an access evicts a line, each of the
//!   line's valid sectors records who is to blame: the access's own root cause if it missed
//!   because of an earlier eviction, else the access itself `(location, block)`. A later miss
//!   on that sector reads its root cause from the record in O(1); a miss with no record is
//!   compulsory and has none.
//! * **Effects** are `(location, block)` pairs counted per `(fault type, root cause)`.
//!
//! Locations are dense instruction ids ([`crate::sites::InstTable`]); blocks are line numbers
//! (address / line size). Stores are looked up (write-through: a present sector is updated,
//! a missing one is not allocated) but not classified; requests that bypass the L1 (`.cg`,
//! atomics, volatile loads) go straight to the L2 log.

use crate::config::{CapacityTest, Geometry};
use crate::golden::{Golden, WarpCaches, low_bytes};
use crate::sector_cache::{Insert, SectorCache};
use rustc_hash::FxHashMap;
use serde::Serialize;

/// GRAB's fault types (Table 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Fault {
    /// Missed, a private cache hit, the cache had room: a mapping conflict with other threads.
    #[serde(rename = "mh")]
    Mh,
    /// Missed, a private cache hit, the cache was full: capacity shared with other threads.
    #[serde(rename = "m*h")]
    MStarH,
    /// Missed in both traces: not caused by other threads.
    #[serde(rename = "mm")]
    Mm,
}

impl Fault {
    pub const ALL: [Fault; 3] = [Fault::Mh, Fault::MStarH, Fault::Mm];

    pub fn name(self) -> &'static str {
        match self {
            Fault::Mh => "mh",
            Fault::MStarH => "m*h",
            Fault::Mm => "mm",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether other threads caused it (properties 4.1 and 4.2 are about these).
    pub fn is_interference(self) -> bool {
        self != Fault::Mm
    }
}

/// What a request does at the L1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// A load that looks the L1 up and fills it as `Insert` says.
    Load(Insert),
    /// A write-through store: updates a present sector, allocates nothing.
    Store,
    /// Served by the L2 without touching the L1 (`.cg`, `.cv`, atomics, volatile).
    Bypass { write: bool },
}

/// A program location and a block: GRAB's root causes and effects are such pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Site {
    pub inst: u32,
    pub block: u64,
}

/// One warp-wide request: the distinct sectors it touches, each with the lanes touching it.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// Unique id of the warp (its threads are `(warp, lane)`).
    pub warp: u64,
    pub inst: u32,
    pub op: Op,
    pub sectors: &'a [(u64, u32)],
    /// The SM's clock when issued (orders the L2 stream across SMs).
    pub time: u64,
    /// The lanes' byte addresses, when known: they tell a re-read of the same value from one
    /// of a neighbouring word (see [`EffectCount::same_value`]).
    pub addrs: Option<&'a [u64; 32]>,
}

/// Outcome of one sector lookup, for tests and traces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub sector: u64,
    pub hit: bool,
    /// For a load miss.
    pub fault: Option<Fault>,
    pub root: Option<Site>,
    /// The lane whose private cache hit (for `mh` / `m*h`).
    pub witness: Option<u32>,
}

/// Counts of one instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct InstCounts {
    /// L1 sector lookups (loads and stores), hits and misses.
    pub l1_sectors: u64,
    pub l1_hits: u64,
    pub l1_misses: u64,
    /// Load sector lookups and hits.
    pub load_sectors: u64,
    pub load_hits: u64,
    /// Misses by fault type (loads).
    pub faults: [u64; 3],
    /// `mm` misses with no eviction record: first touches.
    pub compulsory: u64,
    /// `mh` / `m*h` misses anywhere whose root cause is this instruction.
    pub interference_caused: u64,
    /// L2 sector lookups and hits (L1 misses, stores, bypasses).
    pub l2_sectors: u64,
    pub l2_hits: u64,
}

impl InstCounts {
    pub fn add(&mut self, o: &InstCounts) {
        self.l1_sectors += o.l1_sectors;
        self.l1_hits += o.l1_hits;
        self.l1_misses += o.l1_misses;
        self.load_sectors += o.load_sectors;
        self.load_hits += o.load_hits;
        for i in 0..3 {
            self.faults[i] += o.faults[i];
        }
        self.compulsory += o.compulsory;
        self.interference_caused += o.interference_caused;
        self.l2_sectors += o.l2_sectors;
        self.l2_hits += o.l2_hits;
    }
}

/// Key of one effect: `(fault type, root cause, effect)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EffectKey {
    pub fault: Fault,
    pub root: Site,
    pub effect: Site,
}

/// How often an effect happened, how often the missing warp had itself been the last to
/// touch the evicted line (a re-read of its own data), and how often a requesting thread
/// re-read a word it had itself read or written since its warp's last barrier (a value a
/// register would have kept).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EffectCount {
    pub misses: u64,
    pub rereads: u64,
    pub same_value: u64,
}

/// One access to the L2, logged for the launch-wide L2 pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct L2Access {
    pub time: u64,
    pub sm: u32,
    pub sector: u64,
    pub inst: u32,
    /// A plain store (write-through from the L1). Atomics and reductions are not: they read
    /// the sector at the L2.
    pub store: bool,
}

/// What GRAB found: mergeable across SMs and launches.
#[derive(Clone, Debug, Default)]
pub struct GrabCounts {
    pub insts: FxHashMap<u32, InstCounts>,
    pub effects: FxHashMap<EffectKey, EffectCount>,
}

impl GrabCounts {
    pub fn merge(&mut self, o: GrabCounts) {
        for (k, v) in o.insts {
            self.insts.entry(k).or_default().add(&v);
        }
        for (k, v) in o.effects {
            let e = self.effects.entry(k).or_default();
            e.misses += v.misses;
            e.rereads += v.rereads;
            e.same_value += v.same_value;
        }
    }

    /// Totals over instructions.
    pub fn total(&self) -> InstCounts {
        let mut t = InstCounts::default();
        for c in self.insts.values() {
            t.add(c);
        }
        t
    }
}

/// Emptied private caches kept for reuse, at most (a block's warps exit together).
const SPARE_WARPS: usize = 8;

/// Who is to blame for a sector's absence: the memoised end of its eviction chain.
#[derive(Clone, Copy, Debug)]
struct Blame {
    root: Site,
    /// The warp that last touched the evicted line.
    owner: u64,
}

/// The analysis state of one SM for one cache configuration.
pub struct Grab {
    geo: Geometry,
    capacity: CapacityTest,
    /// The SM's L1; a line's owner is the last warp to touch it.
    l1: SectorCache,
    golden: FxHashMap<u64, Box<WarpCaches>>,
    /// Emptied private caches of exited warps, for the next warps (boxed as in `golden`,
    /// so they move between the two without copying).
    #[allow(clippy::vec_box)]
    spare: Vec<Box<WarpCaches>>,
    blame: FxHashMap<u64, Blame>,
    sm: u32,
    pub counts: GrabCounts,
    pub l2_log: Vec<L2Access>,
}

impl Grab {
    pub fn new(geo: Geometry, capacity: CapacityTest, sm: u32) -> Grab {
        Grab {
            geo,
            capacity,
            l1: SectorCache::new(geo),
            golden: FxHashMap::default(),
            spare: Vec::new(),
            blame: FxHashMap::default(),
            sm,
            counts: GrabCounts::default(),
            l2_log: Vec::new(),
        }
    }

    pub fn geometry(&self) -> Geometry {
        self.geo
    }

    /// Releases the private caches of a warp that exited (their memory serves the next warp).
    pub fn warp_exit(&mut self, warp: u64) {
        if let Some(mut g) = self.golden.remove(&warp)
            && self.spare.len() < SPARE_WARPS
        {
            g.clear();
            self.spare.push(g);
        }
    }

    /// The warp passed a barrier.
    pub fn barrier(&mut self, warp: u64) {
        if let Some(g) = self.golden.get_mut(&warp) {
            g.barrier();
        }
    }

    /// Processes one request; `out` (when given) receives each sector's outcome.
    pub fn request(&mut self, r: &Request<'_>, out: Option<&mut Vec<Outcome>>) {
        let low = r.addrs.map(low_bytes);
        let mut golden = vec![Golden::default(); r.sectors.len()];
        self.golden(r, low.as_ref(), &mut golden);
        self.shared(r, &golden, out);
    }

    /// The golden trace of one request: each sector through the requesting lanes' private
    /// caches, results in `out` (one per sector of `r`; bypasses leave them alone). `low` is
    /// [`low_bytes`] of the lanes' addresses, when known. A warp's golden trace depends on
    /// nothing but its own requests, so warps may be run apart from each other as long as
    /// each warp's requests (and barriers) keep their order.
    pub fn golden(&mut self, r: &Request<'_>, low: Option<&[u8; 32]>, out: &mut [Golden]) {
        // The golden trace sees stores too: a store that hits refreshes the line's recency in
        // the storing threads' private caches as it does in the shared L1, or a lone
        // thread's two caches would drift apart and its later misses would look like
        // interference (property 4.1).
        let insert = match r.op {
            Op::Bypass { .. } => return,
            Op::Store => Insert::None,
            Op::Load(insert) => insert,
        };
        let geo = self.geo;
        let spare = &mut self.spare;
        let caches = self
            .golden
            .entry(r.warp)
            .or_insert_with(|| spare.pop().unwrap_or_default());
        for (&(sector, lanes), g) in r.sectors.iter().zip(out) {
            *g = caches.access(&geo, sector, lanes, insert, low);
        }
    }

    /// The original trace of one request, given its golden trace ([`Grab::golden`]): the
    /// shared L1 (and the L2 log), the classification of each miss and its root cause; `out`
    /// (when given) receives each sector's outcome.
    pub fn shared(
        &mut self,
        r: &Request<'_>,
        golden: &[Golden],
        mut out: Option<&mut Vec<Outcome>>,
    ) {
        for (&(sector, _), &golden) in r.sectors.iter().zip(golden) {
            let o = match r.op {
                Op::Bypass { .. } => {
                    self.log_l2(r, sector, false);
                    continue;
                }
                Op::Store => {
                    let hit = self.l1.access_by(sector, Insert::None, r.warp).hit;
                    let c = self.counts.insts.entry(r.inst).or_default();
                    c.l1_sectors += 1;
                    if hit {
                        c.l1_hits += 1;
                    } else {
                        c.l1_misses += 1;
                    }
                    self.log_l2(r, sector, true);
                    Outcome {
                        sector,
                        hit,
                        fault: None,
                        root: None,
                        witness: None,
                    }
                }
                Op::Load(insert) => self.load(r, sector, insert, golden),
            };
            if let Some(v) = out.as_deref_mut() {
                v.push(o);
            }
        }
    }

    fn log_l2(&mut self, r: &Request<'_>, sector: u64, store: bool) {
        self.l2_log.push(L2Access {
            time: r.time,
            sm: self.sm,
            sector,
            inst: r.inst,
            store,
        });
    }

    fn load(&mut self, r: &Request<'_>, sector: u64, insert: Insert, golden: Golden) -> Outcome {
        let per_line = u64::from(self.geo.sectors_per_line());
        let line = sector / per_line;
        let look = self.l1.access_by(sector, insert, r.warp);
        let witness = golden.witness;
        let c = self.counts.insts.entry(r.inst).or_default();
        c.l1_sectors += 1;
        c.load_sectors += 1;
        if look.hit {
            c.l1_hits += 1;
            c.load_hits += 1;
            return Outcome {
                sector,
                hit: true,
                fault: None,
                root: None,
                witness: None,
            };
        }
        c.l1_misses += 1;
        let full = match self.capacity {
            CapacityTest::Cache => look.cache_full,
            CapacityTest::Set => look.set_full,
        };
        let fault = match (witness.is_some(), full) {
            (true, false) => Fault::Mh,
            (true, true) => Fault::MStarH,
            (false, _) => Fault::Mm,
        };
        c.faults[fault.index()] += 1;
        let blame = self.blame.get(&sector).copied();
        if blame.is_none() && fault == Fault::Mm {
            c.compulsory += 1;
        }
        // A private cache can only hit on a sector this thread loaded before with
        // allocation, which the shared cache allocated too; so an interference miss always
        // finds the eviction that lost it. Should that ever fail, blame the access itself
        // rather than drop the miss from the report (property 4.2).
        let here = Site {
            inst: r.inst,
            block: line,
        };
        let root = match blame {
            Some(b) => Some(b.root),
            None if fault.is_interference() => Some(here),
            None => None,
        };
        if let Some(root) = root {
            let e = self.counts.effects.entry(EffectKey {
                fault,
                root,
                effect: here,
            });
            let e = e.or_default();
            e.misses += 1;
            if blame.is_some_and(|b| b.owner == r.warp) {
                e.rereads += 1;
            }
            if golden.same_word {
                e.same_value += 1;
            }
            if fault.is_interference() {
                self.counts
                    .insts
                    .entry(root.inst)
                    .or_default()
                    .interference_caused += 1;
            }
        }
        if let Some(ev) = look.evicted {
            // Figure 7: the victim's sectors blame this access's root cause, or this access.
            let to_blame = root.unwrap_or(here);
            let owner = ev.owner;
            let first = ev.line * per_line;
            let mut v = ev.valid;
            while v != 0 {
                let s = v.trailing_zeros();
                v &= v - 1;
                self.blame.insert(
                    first + u64::from(s),
                    Blame {
                        root: to_blame,
                        owner,
                    },
                );
            }
        }
        self.log_l2(r, sector, false);
        Outcome {
            sector,
            hit: false,
            fault: Some(fault),
            root,
            witness,
        }
    }
}

/// Runs a launch's L2 log through the shared L2 (in issue-time order, SMs interleaved by
/// their clocks) and adds each instruction's L2 lookups and hits to `counts`.
pub fn run_l2(geo: Geometry, mut log: Vec<L2Access>, counts: &mut GrabCounts) {
    log.sort_by_key(|a| (a.time, a.sm));
    let mut l2 = SectorCache::new(geo);
    for a in log {
        // The L2 is write-back and allocates on writes. A store needs no data from memory (the
        // L2 keeps byte masks), so it counts as a hit whether or not the sector was present,
        // as Nsight Compute counts the H100's store sectors (store-only kernels read 99-101 %
        // `lts__t_sector_hit_rate.pct`, docs/accuracy.md); loads, atomics and reductions hit
        // only a present sector.
        let present = l2.access(a.sector, Insert::Mru).hit;
        let hit = present || a.store;
        let c = counts.insts.entry(a.inst).or_default();
        c.l2_sectors += 1;
        if hit {
            c.l2_hits += 1;
        }
    }
}
