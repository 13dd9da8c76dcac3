//! A set-associative, sectored LRU cache (the per-SM L1 and the shared L2 of the original
//! trace).
//!
//! Blocks are lines of [`Geometry::line`] bytes split into 32-byte sectors; a line is
//! allocated on a miss with only the missed sector valid (sector fill), and set `line mod
//! sets` holds up to `ways` lines. Every set keeps its lines on an intrusive doubly linked
//! LRU list and one hash map finds a line's way, so lookups, updates and evictions are O(1)
//! whatever the associativity (the default L1 has 4 sets of 512 ways).

use crate::config::{Geometry, SECTOR_BYTES};
use rustc_hash::FxHashMap;

const NIL: u32 = u32::MAX;

/// Where a filled line goes in its set's LRU order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Insert {
    /// Most recently used (normal allocation).
    Mru,
    /// Least recently used: the next victim (`.cs`, `.lu`, `.L1::evict_first`).
    Lru,
    /// Do not allocate on a miss (`.L1::no_allocate`, stores).
    None,
}

/// A line evicted to make room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evicted {
    /// Line number (address / line size).
    pub line: u64,
    /// Valid sectors at eviction (bit i = sector i of the line).
    pub valid: u8,
    /// Who last touched it (see [`SectorCache::access_by`]).
    pub owner: u64,
}

/// What one sector lookup found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lookup {
    pub hit: bool,
    /// On a miss: whether every line of the cache (or of the set, for the set test) already
    /// held a block — GRAB's `miss*`.
    pub cache_full: bool,
    pub set_full: bool,
    pub evicted: Option<Evicted>,
}

#[derive(Clone, Copy, Debug)]
struct Way {
    line: u64,
    /// Who last touched the line (filled it, hit it, or filled another of its sectors).
    owner: u64,
    valid: u8,
    prev: u32,
    next: u32,
}

/// The cache.
#[derive(Clone, Debug)]
pub struct SectorCache {
    geo: Geometry,
    sets: u64,
    ways: Vec<Way>,
    /// Per set: most and least recently used way (absolute indices), and lines held.
    head: Vec<u32>,
    tail: Vec<u32>,
    used: Vec<u32>,
    occupied: u64,
    index: FxHashMap<u64, u32>,
}

impl SectorCache {
    pub fn new(geo: Geometry) -> SectorCache {
        let sets = geo.sets();
        SectorCache {
            geo,
            sets,
            ways: Vec::new(),
            head: vec![NIL; sets as usize],
            tail: vec![NIL; sets as usize],
            used: vec![0; sets as usize],
            occupied: 0,
            index: FxHashMap::default(),
        }
    }

    pub fn geometry(&self) -> Geometry {
        self.geo
    }

    /// Line number and sector bit of a sector number (address / 32).
    pub fn split(&self, sector: u64) -> (u64, u8) {
        let per = u64::from(self.geo.sectors_per_line());
        (sector / per, 1u8 << (sector % per))
    }

    /// Whether the sector is cached (no state change).
    pub fn contains(&self, sector: u64) -> bool {
        let (line, bit) = self.split(sector);
        self.index
            .get(&line)
            .is_some_and(|&w| self.ways[w as usize].valid & bit != 0)
    }

    /// Lines held.
    pub fn occupied(&self) -> u64 {
        self.occupied
    }

    /// Looks the sector up; on a hit the line becomes most recently used, on a miss the
    /// sector is filled as `insert` says (evicting the set's LRU line when it is full).
    pub fn access(&mut self, sector: u64, insert: Insert) -> Lookup {
        self.access_by(sector, insert, 0)
    }

    /// [`SectorCache::access`] on behalf of `owner` (GRAB's analysis: a warp), which becomes
    /// the owner of the line whenever the access touches it (a hit, or a fill of the line or
    /// of one of its sectors); an evicted line reports its last owner.
    pub fn access_by(&mut self, sector: u64, insert: Insert, owner: u64) -> Lookup {
        let (line, bit) = self.split(sector);
        let set = (line % self.sets) as usize;
        let full_cache = self.occupied == self.geo.lines();
        let full_set = self.used[set] == self.geo.ways;
        if let Some(&w) = self.index.get(&line) {
            let hit = self.ways[w as usize].valid & bit != 0;
            if hit || insert != Insert::None {
                self.ways[w as usize].valid |= bit;
                self.ways[w as usize].owner = owner;
                match insert {
                    Insert::Lru if !hit => self.move_to_tail(set, w),
                    _ => self.move_to_head(set, w),
                }
            }
            return Lookup {
                hit,
                cache_full: full_cache,
                set_full: full_set,
                evicted: None,
            };
        }
        let mut evicted = None;
        if insert != Insert::None {
            let w = if full_set {
                let victim = self.tail[set];
                let v = self.ways[victim as usize];
                evicted = Some(Evicted {
                    line: v.line,
                    valid: v.valid,
                    owner: v.owner,
                });
                self.index.remove(&v.line);
                self.unlink(set, victim);
                victim
            } else {
                self.used[set] += 1;
                self.occupied += 1;
                self.ways.push(Way {
                    line,
                    owner,
                    valid: 0,
                    prev: NIL,
                    next: NIL,
                });
                (self.ways.len() - 1) as u32
            };
            self.ways[w as usize].line = line;
            self.ways[w as usize].owner = owner;
            self.ways[w as usize].valid = bit;
            self.index.insert(line, w);
            match insert {
                Insert::Lru => self.push_tail(set, w),
                _ => self.push_head(set, w),
            }
        }
        Lookup {
            hit: false,
            cache_full: full_cache,
            set_full: full_set,
            evicted,
        }
    }

    /// First sector number of a line.
    pub fn first_sector(&self, line: u64) -> u64 {
        line * u64::from(self.geo.sectors_per_line())
    }

    fn unlink(&mut self, set: usize, w: u32) {
        let Way { prev, next, .. } = self.ways[w as usize];
        if prev == NIL {
            self.head[set] = next;
        } else {
            self.ways[prev as usize].next = next;
        }
        if next == NIL {
            self.tail[set] = prev;
        } else {
            self.ways[next as usize].prev = prev;
        }
    }

    fn push_head(&mut self, set: usize, w: u32) {
        let old = self.head[set];
        self.ways[w as usize].prev = NIL;
        self.ways[w as usize].next = old;
        if old == NIL {
            self.tail[set] = w;
        } else {
            self.ways[old as usize].prev = w;
        }
        self.head[set] = w;
    }

    fn push_tail(&mut self, set: usize, w: u32) {
        let old = self.tail[set];
        self.ways[w as usize].next = NIL;
        self.ways[w as usize].prev = old;
        if old == NIL {
            self.head[set] = w;
        } else {
            self.ways[old as usize].next = w;
        }
        self.tail[set] = w;
    }

    fn move_to_head(&mut self, set: usize, w: u32) {
        if self.head[set] != w {
            self.unlink(set, w);
            self.push_head(set, w);
        }
    }

    fn move_to_tail(&mut self, set: usize, w: u32) {
        if self.tail[set] != w {
            self.unlink(set, w);
            self.push_tail(set, w);
        }
    }
}

/// Sector number of a byte address.
pub fn sector_of(addr: u64) -> u64 {
    addr / u64::from(SECTOR_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache(bytes: u64, ways: u32) -> SectorCache {
        SectorCache::new(Geometry::new(bytes, 128, ways).unwrap())
    }

    #[test]
    fn lru_evicts_least_recent_in_set() {
        // 2 sets × 2 ways of 128 B; lines 0, 2, 4 map to set 0.
        let mut c = cache(512, 2);
        let s = |line: u64| line * 4;
        assert!(!c.access(s(0), Insert::Mru).hit);
        assert!(!c.access(s(2), Insert::Mru).hit);
        assert!(c.access(s(0), Insert::Mru).hit);
        let l = c.access(s(4), Insert::Mru);
        assert!(!l.hit && l.set_full && !l.cache_full);
        assert_eq!(l.evicted.map(|e| e.line), Some(2));
        assert!(c.contains(s(0)) && c.contains(s(4)) && !c.contains(s(2)));
    }

    #[test]
    fn sectors_fill_separately_and_stores_do_not_allocate() {
        let mut c = cache(512, 2);
        assert!(!c.access(0, Insert::Mru).hit);
        // Same line, another sector: a miss that evicts nothing.
        let l = c.access(1, Insert::Mru);
        assert!(!l.hit && l.evicted.is_none());
        assert!(c.access(1, Insert::None).hit);
        assert!(!c.access(40, Insert::None).hit);
        assert!(!c.contains(40));
        assert_eq!(c.occupied(), 1);
    }

    #[test]
    fn evict_first_inserts_at_lru() {
        let mut c = cache(256, 2); // one set of 2 ways
        c.access(0, Insert::Mru);
        c.access(4, Insert::Lru);
        let l = c.access(8, Insert::Mru);
        assert!(l.cache_full);
        assert_eq!(l.evicted.map(|e| e.line), Some(1));
    }
}
