//! The golden trace's caches: one private cache per thread, of the L1's geometry and policy,
//! that no other thread touches (GRAB, Algorithm 1 lines 8–11 and 32–42).
//!
//! They exist only for the analysis. A thread's cache is created on its first access and
//! released when its warp exits, so memory follows the resident warps, not the whole grid.
//! A warp's 32 private caches share one hash map from line to the lanes that hold it, so a
//! request (whose lanes mostly touch the same line: a broadcast, or consecutive words) costs
//! one probe, not 32 probes into 32 maps scattered over memory; only evictions scan, over the
//! lines of one set, and a thread's private cache rarely fills.
//!
//! Each lane's recency order is its own, stamped from one clock per warp that advances once
//! per access: the lanes an access touches get the same stamp, which keeps every lane's own
//! order (a lane is touched at most once per access). Lanes that fill a line together and
//! touch it together afterwards (the lanes of a warp run in lockstep, so that is the rule)
//! therefore hold the same stamp and the same valid sectors, and share one record, a
//! [`Group`]; an access that touches only some lanes of a group splits it, and lanes that end
//! an access with equal state merge again. Semantics match
//! [`crate::sector_cache::SectorCache`] access for access (the property tests check that a
//! thread alone in a [`SectorCache`](crate::sector_cache::SectorCache) sees the same hits).
//!
//! Beyond hits, each private line remembers which 4-byte words of it the thread read or wrote
//! since its warp's last barrier. A miss of the shared L1 on a word the thread already had in
//! hand since then re-reads a value the thread could have kept in a register (no barrier in
//! between, so no other thread of its block may have changed it): GRAB's register fix applies
//! whatever the fault type. They are kept per line and word as the mask of lanes that touched
//! the word (a line's words fit one fixed-size block, whatever the number of lanes holding it).

use crate::config::Geometry;
use crate::sector_cache::Insert;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// Lanes that hold one line with the same recency and the same valid sectors.
#[derive(Clone, Copy, Debug)]
struct Group {
    /// Recency: larger is more recent. Lines filled "least recently used" (`.cs`, `.lu`)
    /// get ever smaller negative stamps, so the latest such fill is the next victim, as at
    /// the tail of the shared cache's LRU list.
    stamp: i64,
    lanes: u32,
    /// Valid sectors.
    valid: u8,
}

/// The lanes whose private caches hold one line.
#[derive(Clone, Debug)]
struct LineLanes {
    /// Lanes holding the line (the union of `groups`' lanes, which are disjoint).
    present: u32,
    /// Barrier epoch of the line's words (a warp's lanes share its epoch).
    epoch: u32,
    /// Index of the line's block in [`WarpCaches::words`].
    words: u32,
    groups: SmallVec<[Group; 2]>,
}

impl LineLanes {
    /// Drops `lane`'s copy.
    fn remove_lane(&mut self, lane: u32) {
        self.present &= !(1 << lane);
        if let Some(i) = self.groups.iter().position(|g| g.lanes & (1 << lane) != 0) {
            self.groups[i].lanes &= !(1 << lane);
            if self.groups[i].lanes == 0 {
                self.groups.swap_remove(i);
            }
        }
    }

    /// Merges the groups that ended an access with the same stamp and valid sectors (only
    /// groups the access touched carry its stamps).
    fn merge(&mut self, stamps: [i64; 2]) {
        let mut i = 0;
        while i < self.groups.len() {
            let gi = self.groups[i];
            if stamps.contains(&gi.stamp) {
                let mut j = i + 1;
                while j < self.groups.len() {
                    let gj = self.groups[j];
                    if gj.stamp == gi.stamp && gj.valid == gi.valid {
                        self.groups[i].lanes |= gj.lanes;
                        self.groups.swap_remove(j);
                    } else {
                        j += 1;
                    }
                }
            }
            i += 1;
        }
    }
}

/// One set of a warp's private caches.
#[derive(Clone, Debug, Default)]
struct SetLines {
    /// The lines some lane holds in the set (eviction candidates).
    lines: Vec<u64>,
    /// How many lines each lane holds in the set.
    used: [u32; 32],
}

/// The private caches of the 32 threads of one warp.
#[derive(Clone, Debug, Default)]
pub struct WarpCaches {
    lines: FxHashMap<u64, LineLanes>,
    sets: FxHashMap<u64, SetLines>,
    /// Per held line, a block of one lane mask per 4-byte word of the line: the lanes that
    /// read or wrote the word since the line's epoch.
    words: Vec<u32>,
    /// Blocks of `words` no line uses.
    free: Vec<u32>,
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
    /// same lookup-and-update as the shared cache; `low` (when known) holds the low byte of
    /// each lane's address, which says which word of the line the lane touches (lines are at
    /// most 256 bytes: see [`low_bytes`]).
    pub fn access(
        &mut self,
        geo: &Geometry,
        sector: u64,
        lanes: u32,
        insert: Insert,
        low: Option<&[u8; 32]>,
    ) -> Golden {
        let per = u64::from(geo.sectors_per_line());
        let (line, bit) = (sector / per, 1u8 << (sector % per));
        let nwords = (geo.line / 4) as usize;
        // One stamp per access: a lane is touched at most once, so each lane's order is as
        // if every touch had a stamp of its own.
        self.clock += 1;
        let hit_stamp = self.clock;
        let fill_stamp = if insert == Insert::Lru {
            -self.clock
        } else {
            self.clock
        };
        let mut hits = 0u32;
        // Lanes that already hold the line: one probe for all of them.
        let mut absent = lanes;
        let mut known = None;
        if let Some(e) = self.lines.get_mut(&line) {
            absent &= !e.present;
            let touched = lanes & e.present;
            if touched != 0 {
                let mut split: SmallVec<[Group; 2]> = SmallVec::new();
                for g in e.groups.iter_mut() {
                    let m = g.lanes & touched;
                    if m == 0 {
                        continue;
                    }
                    let hit = g.valid & bit != 0;
                    if hit {
                        hits |= m;
                    }
                    if hit || insert != Insert::None {
                        let now = Group {
                            stamp: if hit { hit_stamp } else { fill_stamp },
                            lanes: m,
                            valid: g.valid | bit,
                        };
                        if m == g.lanes {
                            *g = now;
                        } else {
                            g.lanes &= !m;
                            split.push(now);
                        }
                    }
                }
                e.groups.extend(split);
                if insert != Insert::None || hits != 0 {
                    e.merge([hit_stamp, fill_stamp]);
                }
            }
            if e.epoch != self.epoch {
                e.epoch = self.epoch;
                let w = e.words as usize * nwords;
                self.words[w..w + nwords].fill(0);
            }
            known = Some(e.words);
        }
        let mut g = Golden {
            witness: (hits != 0).then(|| hits.trailing_zeros()),
            same_word: false,
        };
        let fill = if insert == Insert::None { 0 } else { absent };
        if fill != 0 {
            known = Some(self.fill(geo, line, bit, fill, fill_stamp, known));
        }
        // Words: the lanes that hold the line now (old and new) note theirs; a lane that hit
        // on a word it had noted re-reads a value it had in hand.
        if let (Some(a), Some(block)) = (low, known) {
            let base = block as usize * nwords;
            let words = &mut self.words[base..base + nwords];
            let offset = (geo.line - 1) as u8;
            let mut m = lanes & !(absent & !fill);
            let mut same = 0u32;
            while m != 0 {
                let l = m.trailing_zeros();
                m &= m - 1;
                let w = &mut words[((a[l as usize] & offset) / 4) as usize];
                same |= *w & (1 << l);
                *w |= 1 << l;
            }
            g.same_word = same & hits != 0;
        }
        g
    }

    /// Fills `line` for the lanes of `fill`, which do not hold it, making room first where a
    /// lane's set is full (lanes are independent, so all evictions can precede all fills);
    /// `known` is the line's words block when some lane holds it. Returns the words block.
    fn fill(
        &mut self,
        geo: &Geometry,
        line: u64,
        bit: u8,
        fill: u32,
        stamp: i64,
        known: Option<u32>,
    ) -> u32 {
        let nwords = (geo.line / 4) as usize;
        let set = line % geo.sets();
        let s = self.sets.entry(set).or_default();
        let mut full = 0u32;
        let mut m = fill;
        while m != 0 {
            let l = m.trailing_zeros();
            m &= m - 1;
            if s.used[l as usize] >= geo.ways {
                full |= 1 << l;
            } else {
                s.used[l as usize] += 1;
            }
        }
        if full != 0 {
            self.evict(set, full, nwords);
        }
        let group = Group {
            stamp,
            lanes: fill,
            valid: bit,
        };
        match known {
            Some(b) => {
                let e = self.lines.get_mut(&line).expect("the line is held");
                e.present |= fill;
                e.groups.push(group);
                e.merge([stamp, stamp]);
                b
            }
            None => {
                let b = match self.free.pop() {
                    Some(b) => b,
                    None => {
                        let b = (self.words.len() / nwords.max(1)) as u32;
                        self.words.resize(self.words.len() + nwords, 0);
                        b
                    }
                };
                self.lines.insert(
                    line,
                    LineLanes {
                        present: fill,
                        epoch: self.epoch,
                        words: b,
                        groups: smallvec::smallvec![group],
                    },
                );
                self.sets
                    .get_mut(&set)
                    .expect("set made above")
                    .lines
                    .push(line);
                b
            }
        }
    }

    /// Drops, for each lane of `full` (whose set is full), its least recent line of `set`.
    fn evict(&mut self, set: u64, full: u32, nwords: usize) {
        let Some(s) = self.sets.get_mut(&set) else {
            return;
        };
        // One scan of the set's lines finds every lane's victim.
        let mut best = [(i64::MAX, u64::MAX); 32];
        for &line in &s.lines {
            let e = &self.lines[&line];
            for g in &e.groups {
                let mut m = g.lanes & full;
                while m != 0 {
                    let l = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if g.stamp < best[l].0 {
                        best[l] = (g.stamp, line);
                    }
                }
            }
        }
        let mut m = full;
        while m != 0 {
            let l = m.trailing_zeros();
            m &= m - 1;
            let (_, line) = best[l as usize];
            let Some(e) = self.lines.get_mut(&line) else {
                continue;
            };
            e.remove_lane(l);
            let base = e.words as usize * nwords;
            self.words[base..base + nwords]
                .iter_mut()
                .for_each(|w| *w &= !(1 << l));
            if e.present == 0 {
                self.free.push(e.words);
                self.lines.remove(&line);
                if let Some(k) = s.lines.iter().position(|&x| x == line) {
                    s.lines.swap_remove(k);
                }
            }
        }
    }

    /// The warp passed a barrier: values other threads wrote may differ from now on.
    pub fn barrier(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
    }

    /// Empties the caches for another warp, keeping their memory.
    pub fn clear(&mut self) {
        self.lines.clear();
        self.sets.clear();
        self.words.clear();
        self.free.clear();
        self.clock = 0;
        self.epoch = 0;
    }
}

/// The low byte of each lane's address: all [`WarpCaches::access`] needs of it.
pub fn low_bytes(addrs: &[u64; 32]) -> [u8; 32] {
    addrs.map(|a| a as u8)
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
        let mut a = [0u8; 32];
        a[3] = 8;
        a[4] = 12;
        assert!(!w.access(&geo, 0, 0b11000, Insert::Mru, Some(&a)).same_word);
        assert!(w.access(&geo, 0, 0b01000, Insert::Mru, Some(&a)).same_word);
        w.barrier();
        assert!(!w.access(&geo, 0, 0b11000, Insert::Mru, Some(&a)).same_word);
        assert!(w.access(&geo, 0, 0b10000, Insert::Mru, Some(&a)).same_word);
    }
}
