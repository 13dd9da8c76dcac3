//! The golden trace's caches: one private cache per thread, of the L1's geometry and policy,
//! that no other thread touches (GRAB, Algorithm 1 lines 8–11 and 32–42).
//!
//! They exist only for the analysis. A thread's cache is created on its first access and
//! released when its warp exits, so memory follows the resident warps, not the whole grid.
//! Each thread's lines sit in one hash map with recency stamps (a lookup is one probe; only
//! evictions scan, and a thread's private cache rarely fills). Semantics match
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

#[derive(Clone, Copy, Debug)]
struct PrivateWay {
    valid: u8,
    /// Recency: larger is more recent. Lines filled "least recently used" (`.cs`, `.lu`)
    /// get ever smaller negative stamps, so the latest such fill is the next victim, as at
    /// the tail of the shared cache's LRU list.
    stamp: i64,
    /// Barrier epoch of `words`.
    epoch: u32,
    /// 4-byte words of the line this thread read or wrote in `epoch` (bit i = word i; lines
    /// of up to 256 bytes).
    words: u64,
}

/// One lane's part of an access: which word of the line it touches (a bit of
/// [`PrivateWay::words`], 0 when unknown) and the warp's barrier epoch.
#[derive(Clone, Copy, Debug, Default)]
pub struct Word {
    pub bit: u64,
    pub epoch: u32,
}

/// What one private lookup found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrivateHit {
    pub hit: bool,
    /// The thread had read or written this very word since its warp's last barrier.
    pub same_word: bool,
}

/// One thread's cache: its lines by number with their recency stamps, and the lines held per
/// set. A lookup is one hash probe; only an eviction (a full set) scans the thread's lines
/// for the set's least recent one, and a thread's private cache rarely fills.
#[derive(Clone, Debug, Default)]
pub struct PrivateCache {
    lines: FxHashMap<u64, PrivateWay>,
    used: FxHashMap<u32, u32>,
    clock: i64,
}

impl PrivateCache {
    fn stamp(&mut self, insert: Insert, hit: bool) -> i64 {
        self.clock += 1;
        if insert == Insert::Lru && !hit {
            -self.clock
        } else {
            self.clock
        }
    }

    /// The same lookup-and-update as the shared cache; returns whether it hit, and whether
    /// the thread had touched `word` of the line since the last barrier (recording it now).
    pub fn access(
        &mut self,
        geo: &Geometry,
        sector: u64,
        insert: Insert,
        word: Word,
    ) -> PrivateHit {
        let per = u64::from(geo.sectors_per_line());
        let (line, bit) = (sector / per, 1u8 << (sector % per));
        if let Some(mut w) = self.lines.get(&line).copied() {
            let hit = w.valid & bit != 0;
            if w.epoch != word.epoch {
                w.epoch = word.epoch;
                w.words = 0;
            }
            let same_word = hit && w.words & word.bit != 0;
            w.words |= word.bit;
            if hit || insert != Insert::None {
                w.valid |= bit;
                w.stamp = self.stamp(insert, hit);
            }
            self.lines.insert(line, w);
            return PrivateHit { hit, same_word };
        }
        if insert != Insert::None {
            let sets = geo.sets();
            let set = (line % sets) as u32;
            let used = self.used.entry(set).or_insert(0);
            if *used == geo.ways {
                let victim = self
                    .lines
                    .iter()
                    .filter(|(l, _)| *l % sets == u64::from(set))
                    .min_by_key(|(_, w)| w.stamp)
                    .map(|(l, _)| *l);
                if let Some(v) = victim {
                    self.lines.remove(&v);
                }
            } else {
                *used += 1;
            }
            let stamp = self.stamp(insert, false);
            self.lines.insert(
                line,
                PrivateWay {
                    valid: bit,
                    stamp,
                    epoch: word.epoch,
                    words: word.bit,
                },
            );
        }
        PrivateHit::default()
    }
}

/// The private caches of the 32 threads of one warp.
#[derive(Clone, Debug, Default)]
pub struct WarpCaches {
    lanes: [PrivateCache; 32],
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
    /// Accesses `sector` from every lane of `lanes`; `addrs` (when known) are the lanes'
    /// byte addresses, which say which word of the line each lane touches.
    pub fn access(
        &mut self,
        geo: &Geometry,
        sector: u64,
        lanes: u32,
        insert: Insert,
        addrs: Option<&[u64; 32]>,
    ) -> Golden {
        let mut g = Golden::default();
        let mut m = lanes;
        while m != 0 {
            let l = m.trailing_zeros();
            m &= m - 1;
            let bit = addrs.map_or(0, |a| {
                1u64 << ((a[l as usize] % u64::from(geo.line)) / 4 % 64)
            });
            let word = Word {
                bit,
                epoch: self.epoch,
            };
            let h = self.lanes[l as usize].access(geo, sector, insert, word);
            if h.hit && g.witness.is_none() {
                g.witness = Some(l);
            }
            g.same_word |= h.same_word;
        }
        g
    }

    /// The warp passed a barrier: values other threads wrote may differ from now on.
    pub fn barrier(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
    }
}
