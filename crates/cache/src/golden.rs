//! The golden trace's caches: one private cache per thread, of the L1's geometry and policy,
//! that no other thread touches (GRAB, Algorithm 1 lines 8–11 and 32–42).
//!
//! They exist only for the analysis. A thread's cache is created on its first access and
//! released when its warp exits, so memory follows the resident warps, not the whole grid.
//! Each set is a short vector in LRU order (most recent first): a thread rarely holds more
//! than a few lines per set, so a scan beats a linked list here. Semantics match
//! [`crate::sector_cache::SectorCache`] access for access (the property tests check that a
//! thread alone in a [`SectorCache`](crate::sector_cache::SectorCache) sees the same hits).

use crate::config::Geometry;
use crate::sector_cache::Insert;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

#[derive(Clone, Copy, Debug)]
struct PrivateWay {
    line: u64,
    valid: u8,
}

type PrivateSet = SmallVec<[PrivateWay; 4]>;

/// One thread's cache: set index → ways, most recently used first.
#[derive(Clone, Debug, Default)]
pub struct PrivateCache {
    sets: FxHashMap<u32, PrivateSet>,
}

impl PrivateCache {
    /// The same lookup-and-update as the shared cache; returns whether it hit.
    pub fn access(&mut self, geo: &Geometry, sector: u64, insert: Insert) -> bool {
        let per = u64::from(geo.sectors_per_line());
        let (line, bit) = (sector / per, 1u8 << (sector % per));
        let set = (line % geo.sets()) as u32;
        let ways = self.sets.entry(set).or_default();
        if let Some(i) = ways.iter().position(|w| w.line == line) {
            let hit = ways[i].valid & bit != 0;
            if hit || insert != Insert::None {
                let mut w = ways.remove(i);
                w.valid |= bit;
                if insert == Insert::Lru && !hit {
                    ways.push(w);
                } else {
                    ways.insert(0, w);
                }
            }
            return hit;
        }
        if insert != Insert::None {
            if ways.len() as u32 == geo.ways {
                ways.pop();
            }
            let w = PrivateWay { line, valid: bit };
            if insert == Insert::Lru {
                ways.push(w);
            } else {
                ways.insert(0, w);
            }
        }
        false
    }
}

/// The private caches of the 32 threads of one warp.
#[derive(Clone, Debug, Default)]
pub struct WarpCaches {
    lanes: [PrivateCache; 32],
}

impl WarpCaches {
    /// Accesses `sector` from every lane of `lanes` and returns the first lane that hit, if
    /// any (scenario S1 of GRAB §4.2: then a miss of the shared cache is due to other
    /// threads; that lane is the witness).
    pub fn access(
        &mut self,
        geo: &Geometry,
        sector: u64,
        lanes: u32,
        insert: Insert,
    ) -> Option<u32> {
        let mut first = None;
        let mut m = lanes;
        while m != 0 {
            let l = m.trailing_zeros();
            m &= m - 1;
            if self.lanes[l as usize].access(geo, sector, insert) && first.is_none() {
                first = Some(l);
            }
        }
        first
    }
}
