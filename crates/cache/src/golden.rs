//! The golden trace's caches: one private cache per thread, of the L1's geometry and policy,
//! that no other thread touches (GRAB, Algorithm 1 lines 8–11 and 32–42).
//!
//! They exist only for the analysis. A thread's cache is created on its first access and
//! released when its warp exits, so memory follows the resident warps, not the whole grid.
//! A warp's 32 private caches share one hash map from line to the records of the lanes that
//! hold it, so a request (whose lanes mostly touch the same line: a broadcast, or consecutive
//! words) costs one probe, not 32 probes into 32 maps scattered over memory; only evictions
//! scan, over the lines of one set, and a thread's private cache rarely fills. Each lane's
//! recency order is its own, stamped from one clock per warp. Semantics match
//! [`crate::sector_cache::SectorCache`] access for access (the property tests check that a
//! thread alone in a [`SectorCache`](crate::sector_cache::SectorCache) sees the same hits).
//!
//! Beyond hits, each private line remembers which 4-byte words of it the thread read or wrote
//! since its warp's last barrier. A miss of the shared L1 on a word the thread already had in
//! hand since then re-reads a value the thread could have kept in a register (no barrier in
//! between, so no other thread of its block may have changed it): GRAB's register fix applies
//! whatever the fault type.

use crate::config::Geometry;
use crate::sector_cache::Insert;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// One lane's copy of a line in its private cache.
#[derive(Clone, Copy, Debug)]
struct LaneWay {
    /// Recency: larger is more recent. Lines filled "least recently used" (`.cs`, `.lu`)
    /// get ever smaller negative stamps, so the latest such fill is the next victim, as at
    /// the tail of the shared cache's LRU list.
    stamp: i64,
    /// 4-byte words of the line this lane read or wrote since the warp's last barrier
    /// (bit i = word i; lines of up to 256 bytes).
    words: u64,
    /// Valid sectors.
    valid: u8,
}

/// The lanes whose private caches hold one line.
#[derive(Clone, Debug, Default)]
struct LineLanes {
    /// Lanes holding the line.
    present: u32,
    /// Barrier epoch of the lanes' `words` (a warp's lanes share its epoch).
    epoch: u32,
    /// One record per lane of `present`, in lane order.
    ways: SmallVec<[LaneWay; 1]>,
}

impl LineLanes {
    fn slot(&self, lane: u32) -> usize {
        (self.present & ((1u32 << lane) - 1)).count_ones() as usize
    }
}

/// The next recency stamp of a warp's `clock` for a fill or hit.
fn stamp(clock: &mut i64, insert: Insert, hit: bool) -> i64 {
    *clock += 1;
    if insert == Insert::Lru && !hit {
        -*clock
    } else {
        *clock
    }
}

/// The private caches of the 32 threads of one warp.
#[derive(Clone, Debug, Default)]
pub struct WarpCaches {
    lines: FxHashMap<u64, LineLanes>,
    /// Per set: the lines some lane holds there (eviction candidates).
    set_lines: FxHashMap<u64, Vec<u64>>,
    /// Per set: how many lines each lane holds there.
    used: FxHashMap<u64, [u32; 32]>,
    clock: i64,
    /// Barriers the warp has passed.
    epoch: u32,
}

/// What a warp's private caches found for one sector.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Golden {
    /// The first lane whose private cache hit (scenario S1 of GRAB §4.2: then a miss of the
    /// shared cache is due to other threads; that lane is the witness).
    pub witness: Option<u32>,
    /// Some lane re-read a word it had read or written since the warp's last barrier.
    pub same_word: bool,
}

impl WarpCaches {
    /// Accesses `sector` from every lane of `lanes`, each in its own private cache, with the
    /// same lookup-and-update as the shared cache; `addrs` (when known) are the lanes' byte
    /// addresses, which say which word of the line each lane touches.
    pub fn access(
        &mut self,
        geo: &Geometry,
        sector: u64,
        lanes: u32,
        insert: Insert,
        addrs: Option<&[u64; 32]>,
    ) -> Golden {
        let per = u64::from(geo.sectors_per_line());
        let (line, bit) = (sector / per, 1u8 << (sector % per));
        let word_bit = |l: u32| {
            addrs.map_or(0, |a| {
                1u64 << ((a[l as usize] % u64::from(geo.line)) / 4 % 64)
            })
        };
        let mut g = Golden::default();
        // Lanes that already hold the line: one probe for all of them.
        let mut absent = lanes;
        if let Some(e) = self.lines.get_mut(&line) {
            if e.epoch != self.epoch {
                e.epoch = self.epoch;
                e.ways.iter_mut().for_each(|w| w.words = 0);
            }
            let mut m = lanes & e.present;
            absent &= !e.present;
            while m != 0 {
                let l = m.trailing_zeros();
                m &= m - 1;
                let slot = e.slot(l);
                let w = &mut e.ways[slot];
                let hit = w.valid & bit != 0;
                let wb = word_bit(l);
                g.same_word |= hit && w.words & wb != 0;
                w.words |= wb;
                if hit || insert != Insert::None {
                    w.valid |= bit;
                    w.stamp = stamp(&mut self.clock, insert, hit);
                }
                if hit && g.witness.is_none() {
                    g.witness = Some(l);
                }
            }
        }
        if absent == 0 || insert == Insert::None {
            return g;
        }
        // Lanes that miss in their private caches and allocate the line: count it in each
        // lane's set, making room first where the lane's set is full (lanes are independent,
        // so all evictions can precede all fills).
        let set = line % geo.sets();
        let used = self.used.entry(set).or_insert([0; 32]);
        let mut full = 0u32;
        let mut m = absent;
        while m != 0 {
            let l = m.trailing_zeros();
            m &= m - 1;
            if used[l as usize] >= geo.ways {
                full |= 1 << l;
            } else {
                used[l as usize] += 1;
            }
        }
        while full != 0 {
            let l = full.trailing_zeros();
            full &= full - 1;
            self.evict(set, l);
        }
        let epoch = self.epoch;
        let e = self.lines.entry(line).or_insert_with(|| LineLanes {
            epoch,
            ..LineLanes::default()
        });
        if e.present == 0 {
            self.set_lines.entry(set).or_default().push(line);
        }
        e.ways.reserve(absent.count_ones() as usize);
        let mut m = absent;
        while m != 0 {
            let l = m.trailing_zeros();
            m &= m - 1;
            let way = LaneWay {
                stamp: stamp(&mut self.clock, insert, false),
                words: word_bit(l),
                valid: bit,
            };
            let slot = e.slot(l);
            e.ways.insert(slot, way);
            e.present |= 1 << l;
        }
        g
    }

    /// Drops lane `lane`'s least recent line of `set` (its set is full).
    fn evict(&mut self, set: u64, lane: u32) {
        let Some(cands) = self.set_lines.get_mut(&set) else {
            return;
        };
        let victim = cands
            .iter()
            .enumerate()
            .filter_map(|(k, l)| {
                let e = &self.lines[l];
                (e.present & (1 << lane) != 0).then(|| (e.ways[e.slot(lane)].stamp, k))
            })
            .min();
        let Some((_, k)) = victim else {
            return;
        };
        let line = cands[k];
        let e = self.lines.get_mut(&line).expect("candidate lines are held");
        let slot = e.slot(lane);
        e.ways.remove(slot);
        e.present &= !(1 << lane);
        if e.present == 0 {
            self.lines.remove(&line);
            cands.swap_remove(k);
        }
    }

    /// The warp passed a barrier: values other threads wrote may differ from now on.
    pub fn barrier(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sector_cache::SectorCache;
    use proptest::prelude::*;

    fn insert() -> impl Strategy<Value = Insert> {
        prop_oneof![
            4 => Just(Insert::Mru),
            1 => Just(Insert::Lru),
            1 => Just(Insert::None),
        ]
    }

    proptest! {
        /// Each lane of a warp's private caches behaves access for access as a shared cache
        /// of the same geometry that only that lane uses; the witness is the lowest lane
        /// that hit. Few lines and small sets, so lanes share lines and sets fill.
        #[test]
        fn each_lane_is_a_cache_of_its_own(
            sets in 1u64..4,
            ways in 1u32..4,
            stream in prop::collection::vec((any::<u32>(), 0u64..40, insert()), 1..200),
        ) {
            let geo = Geometry::new(sets * u64::from(ways) * 128, 128, ways).unwrap();
            let mut warp = WarpCaches::default();
            let mut alone: Vec<SectorCache> = (0..32).map(|_| SectorCache::new(geo)).collect();
            for (lanes, sector, ins) in stream {
                let lanes = lanes & 0x8000_00ff; // lanes 0–7 and 31
                let got = warp.access(&geo, sector, lanes, ins, None);
                let mut want = None;
                for l in 0..32u32 {
                    if lanes & (1 << l) != 0 && alone[l as usize].access(sector, ins).hit {
                        want.get_or_insert(l);
                    }
                }
                prop_assert_eq!(got.witness, want);
            }
        }
    }

    #[test]
    fn a_reread_word_since_the_barrier_is_the_same_value() {
        let geo = Geometry::new(4 * 128, 128, 1).unwrap();
        let mut w = WarpCaches::default();
        let mut a = [0u64; 32];
        a[3] = 8;
        a[4] = 12;
        assert!(!w.access(&geo, 0, 0b11000, Insert::Mru, Some(&a)).same_word);
        assert!(w.access(&geo, 0, 0b01000, Insert::Mru, Some(&a)).same_word);
        w.barrier();
        assert!(!w.access(&geo, 0, 0b11000, Insert::Mru, Some(&a)).same_word);
        assert!(w.access(&geo, 0, 0b10000, Insert::Mru, Some(&a)).same_word);
    }
}
