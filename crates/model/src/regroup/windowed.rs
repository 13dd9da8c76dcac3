//! Greedy's windowed mode: each group's candidates are its [`WINDOW`] nearest live groups
//! in candidate order on either side.

#[cfg(doc)]
use super::greedy::pair_gain;
use super::greedy::{Edge, EdgeHeap, Pool, merge};
use super::{Members, WINDOW};
use crate::estimate::Classes;

/// A slot whose group was merged away.
pub(super) const DEAD: u32 = u32::MAX;

/// The live groups of the windowed mode in candidate order, one slot each with a copy of its
/// Min-then-Max bounds, so that a group's window is one stretch of memory read in order. The
/// slots start in order of `Σ lat × Max`; a merged group takes the slot of the parent of
/// larger key (its own key is at least both parents', so that is the nearer one), the other
/// slot dies, and dead slots are dropped (in one pass, keeping the order) once they are as
/// many as the live ones, so a window skips at most as many dead slots as it reads on average.
pub(super) struct Slots {
    /// Bounds per slot.
    pub(super) w: usize,
    /// The group in each slot, or [`DEAD`].
    pub(super) ids: Vec<u32>,
    /// Min then Max per slot, as `f64` (exact: they are `u32`s) so that a gain needs no
    /// conversions.
    pub(super) bounds: Vec<f64>,
    /// The slot of each group id ([`DEAD`] once merged away).
    pub(super) slot: Vec<u32>,
    pub(super) live: usize,
}

impl Slots {
    /// Groups `0..n` with their bounds (by id) in the order `order`.
    pub(super) fn new(w: usize, order: &[u32], bounds: &[u32]) -> Slots {
        let n = order.len();
        let mut s = Slots {
            w,
            ids: order.to_vec(),
            bounds: Vec::with_capacity(n * w),
            slot: vec![DEAD; n],
            live: n,
        };
        for (at, &id) in order.iter().enumerate() {
            s.bounds.extend(
                bounds[id as usize * w..(id as usize + 1) * w]
                    .iter()
                    .map(|&x| f64::from(x)),
            );
            s.slot[id as usize] = at as u32;
        }
        s
    }

    pub(super) fn bounds_at(&self, at: usize) -> &[f64] {
        &self.bounds[at * self.w..(at + 1) * self.w]
    }

    /// Writes the bounds of live group `id` into `out`.
    pub(super) fn bounds_of(&self, id: u32, out: &mut [u32]) {
        for (o, &x) in out
            .iter_mut()
            .zip(self.bounds_at(self.slot[id as usize] as usize))
        {
            *o = x as u32;
        }
    }

    /// Empties the slot of live group `id`; returns the slot.
    pub(super) fn kill(&mut self, id: u32) -> usize {
        let at = std::mem::replace(&mut self.slot[id as usize], DEAD) as usize;
        self.ids[at] = DEAD;
        self.live -= 1;
        at
    }

    /// Puts group `id` with `bounds` in the empty slot `at`.
    pub(super) fn put(&mut self, at: usize, id: u32, bounds: &[u32]) {
        debug_assert_eq!(self.ids[at], DEAD);
        if self.slot.len() <= id as usize {
            self.slot.resize(id as usize + 1, DEAD);
        }
        self.slot[id as usize] = at as u32;
        self.ids[at] = id;
        for (o, &x) in self.bounds[at * self.w..(at + 1) * self.w]
            .iter_mut()
            .zip(bounds)
        {
            *o = f64::from(x);
        }
        self.live += 1;
    }

    /// Drops the dead slots if they are at least as many as the live ones (and a few).
    pub(super) fn compact_if_sparse(&mut self) {
        if self.ids.len() < 2 * self.live + 64 {
            return;
        }
        let w = self.w;
        let mut to = 0;
        for at in 0..self.ids.len() {
            let id = self.ids[at];
            if id == DEAD {
                continue;
            }
            if to != at {
                self.ids[to] = id;
                self.bounds.copy_within(at * w..(at + 1) * w, to * w);
            }
            self.slot[id as usize] = to as u32;
            to += 1;
        }
        self.ids.truncate(to);
        self.bounds.truncate(to * w);
    }

    /// Writes into `out` the slots of the up to `n` live groups before `at` (nearest first),
    /// then of the up to `n` after it.
    pub(super) fn window(&self, at: usize, n: usize, out: &mut Vec<u32>) {
        out.clear();
        out.extend(
            (0..at)
                .rev()
                .filter(|&j| self.ids[j] != DEAD)
                .take(n)
                .map(|j| j as u32),
        );
        out.extend(
            (at + 1..self.ids.len())
                .filter(|&j| self.ids[j] != DEAD)
                .take(n)
                .map(|j| j as u32),
        );
    }

    /// The best edge of live group `i` with the groups of its window (`scratch`: buffers).
    pub(super) fn best_edge(
        &self,
        lat: &[f64],
        i: u32,
        scratch: &mut (Vec<u32>, Vec<f64>),
    ) -> Option<Edge> {
        let at = self.slot[i as usize] as usize;
        let (cands, gains) = scratch;
        self.window(at, WINDOW, cands);
        self.window_gains(lat, at, cands, gains);
        let mut best: Option<Edge> = None;
        for (&g, &j) in gains.iter().zip(cands.iter()) {
            let e = Edge(g, i, self.ids[j as usize]);
            if best.is_none_or(|x| e > x) {
                best = Some(e);
            }
        }
        best
    }

    /// Into `gains`, the [`pair_gain`] of the group in slot `at` with the group in each slot
    /// of `cands`, to the bit: each sum is taken in column order from the same terms
    /// (`lat × (2·lo − hi)`, `2·lo − hi` exact in `f64` as in `i64`), but four candidates'
    /// sums are taken together in registers, so that their additions overlap instead of each
    /// waiting on the one before, and no term needs a conversion.
    pub(super) fn window_gains(&self, lat: &[f64], at: usize, cands: &[u32], gains: &mut Vec<f64>) {
        let w = self.w;
        let cols = w / 2;
        let own = self.bounds_at(at);
        let (own_lo, own_hi) = own.split_at(cols);
        let lat = &lat[..cols.min(lat.len())];
        gains.clear();
        for four in cands.chunks(4) {
            let mut rows: [&[f64]; 4] = [own; 4];
            for (r, &j) in rows.iter_mut().zip(four) {
                *r = &self.bounds[j as usize * w..(j as usize + 1) * w];
            }
            let mut g = [0.0f64; 4];
            for (b, &l) in lat.iter().enumerate() {
                let (lo_a, hi_a) = (own_lo[b], own_hi[b]);
                for (gk, r) in g.iter_mut().zip(&rows) {
                    // `min`/`max` without NaN handling: the bounds are exact integers
                    let (lo_b, hi_b) = (r[b], r[cols + b]);
                    let lo = if lo_b < lo_a { lo_b } else { lo_a };
                    let hi = if hi_b > hi_a { hi_b } else { hi_a };
                    *gk += l * ((lo + lo) - hi);
                }
            }
            gains.extend_from_slice(&g[..four.len()]);
        }
    }
}

/// Merges by largest gain with each group's candidates limited to its [`WINDOW`] nearest live
/// groups in candidate order ([`Slots`]) on either side, until `left` groups are left. Each
/// group keeps one edge in the heap, to its best candidate when it looked; when that partner
/// is merged away the edge goes stale and the group looks again (so the heap holds O(groups)
/// edges, never a window per stale edge). (`bounds` of the groups, by id.)
pub(super) fn merge_windowed(
    pool: &mut Pool,
    bounds: &[u32],
    classes: &Classes,
    lat: &[f64],
    gs32: u32,
    out: &mut Vec<Members>,
    left: usize,
) {
    let w = 2 * pool.cols;
    let mut keys: Vec<(u64, u32)> = (0..pool.len()).map(|i| pool.key_of(i)).collect();
    keys.sort_unstable();
    let order: Vec<u32> = keys.iter().map(|k| k.1).collect();
    drop(keys);
    let mut slots = Slots::new(w, &order, bounds);
    drop(order);
    let mut scratch = (
        Vec::with_capacity(2 * WINDOW),
        Vec::with_capacity(2 * WINDOW),
    );
    let mut heap = EdgeHeap::default();
    for i in 0..pool.len() as u32 {
        if let Some(e) = slots.best_edge(lat, i, &mut scratch) {
            heap.push(e);
        }
    }
    let (mut ba, mut bb) = (vec![0u32; w], vec![0u32; w]);
    let mut made = vec![0u32; w];
    while pool.live > left.max(1) {
        if heap.is_empty() {
            // every survivor's edge was consumed: pair them afresh
            for i in (0..pool.len()).filter(|&i| pool.alive[i]) {
                if let Some(e) = slots.best_edge(lat, i as u32, &mut scratch) {
                    heap.push(e);
                }
            }
        }
        let Some(Edge(_, a, b)) = heap.peek() else {
            break;
        };
        let (a, b) = (a as usize, b as usize);
        if !pool.alive[a] || !pool.alive[b] {
            // the owner (first) of a stale edge looks for a new partner, which replaces the
            // stale edge in place (one sift instead of a pop and a push)
            let next = if pool.alive[a] {
                slots.best_edge(lat, a as u32, &mut scratch)
            } else {
                None
            };
            match next {
                Some(e) => heap.replace_top(e),
                None => {
                    heap.pop();
                }
            }
            continue;
        }
        heap.pop();
        slots.bounds_of(a as u32, &mut ba);
        slots.bounds_of(b as u32, &mut bb);
        // the merged group goes to the slot of the parent of larger key
        let (near, far) = if pool.key_of(b) > pool.key_of(a) {
            (b, a)
        } else {
            (a, b)
        };
        let at = slots.kill(near as u32);
        slots.kill(far as u32);
        if let Some(id) = merge(pool, classes, lat, gs32, (a, &ba), (b, &bb), &mut made, out) {
            slots.put(at, id as u32, &made);
            if let Some(e) = slots.best_edge(lat, id as u32, &mut scratch) {
                heap.push(e);
            }
        }
        slots.compact_if_sparse();
    }
}
