//! Greedy (Algorithm 1): identical threads first, then the leftover groups merged by largest
//! gain, all pairs ([`merge_exact`]) or in segments by windows ([`super::windowed`]).

use super::windowed::merge_windowed;
use super::{EXACT_LEFTOVERS, Members, SEGMENT, SEGMENT_LEFT, by_descending_latency, gain};
use crate::estimate::Classes;
use rayon::prelude::*;

/// No member node.
const NONE: u32 = u32::MAX;

/// The partial groups Greedy merges, by id: the order they were made in, which breaks ties
/// between equal gains. Their Min and Max vectors (`bounds`: Min then Max, `2 × cols` values)
/// are kept by the merging mode: by id in the exact mode, in candidate order in the windowed.
/// A group's members are a linked list of (class, threads) nodes in one arena, so a merge
/// joins two lists instead of allocating and copying a list of members.
pub(super) struct Pool {
    pub(super) cols: usize,
    /// `Σ lat × Max` (the sort key of the candidate windows).
    pub(super) key: Vec<f64>,
    pub(super) alive: Vec<bool>,
    /// First and last member node of each group.
    ends: Vec<(u32, u32)>,
    /// Threads of each group.
    size: Vec<u32>,
    /// Member nodes: class, threads, next node of the group ([`NONE`] at its end).
    nodes: Vec<(u32, u32, u32)>,
    /// Groups alive.
    pub(super) live: usize,
}

impl Pool {
    pub(super) fn new(cols: usize) -> Pool {
        Pool {
            cols,
            key: Vec::new(),
            alive: Vec::new(),
            ends: Vec::new(),
            size: Vec::new(),
            nodes: Vec::new(),
            live: 0,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.key.len()
    }

    /// Adds a group of `members` with these bounds.
    pub(super) fn add(&mut self, lat: &[f64], members: &[(u32, u32)], bounds: &[u32]) -> usize {
        let first = self.nodes.len() as u32;
        let n = members.len() as u32;
        self.nodes.extend(
            members
                .iter()
                .zip(first + 1..)
                .map(|(&(c, k), next)| (c, k, if next == first + n { NONE } else { next })),
        );
        let ends = if n == 0 {
            (NONE, NONE)
        } else {
            (first, first + n - 1)
        };
        let size = members.iter().map(|m| m.1).sum();
        self.add_list(lat, ends, size, bounds)
    }

    /// Adds a group whose member list (`ends`, `size` threads) is already in the arena.
    fn add_list(&mut self, lat: &[f64], ends: (u32, u32), size: u32, bounds: &[u32]) -> usize {
        let key = bounds[self.cols..]
            .iter()
            .zip(lat)
            .map(|(&m, &l)| f64::from(m) * l)
            .sum();
        self.key.push(key);
        self.alive.push(true);
        self.ends.push(ends);
        self.size.push(size);
        self.live += 1;
        self.len() - 1
    }

    pub(super) fn retire(&mut self, id: usize) {
        self.alive[id] = false;
        self.live -= 1;
    }

    /// A live group's place in the candidate order: by key, then id.
    pub(super) fn key_of(&self, id: usize) -> (u64, u32) {
        (self.key[id].max(0.0).to_bits(), id as u32)
    }

    /// The member nodes of the list starting at `node`, in order.
    fn list(&self, mut node: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        std::iter::from_fn(move || {
            let &(c, k, next) = self.nodes.get(node as usize)?;
            node = next;
            Some((c, k))
        })
    }

    /// The members of group `id`.
    pub(super) fn members(&self, id: usize) -> Members {
        self.list(self.ends[id].0).collect()
    }
}

/// Writes the bounds of the groups of classes `members` (from their vectors) into `out`.
pub(super) fn bounds_of(
    classes: &Classes,
    members: impl IntoIterator<Item = u32>,
    out: &mut [u32],
) {
    let (min, max) = out.split_at_mut(classes.cols);
    min.fill(u32::MAX);
    max.fill(0);
    for c in members {
        for ((lo, hi), &v) in min.iter_mut().zip(max.iter_mut()).zip(classes.vector(c)) {
            *lo = (*lo).min(v);
            *hi = (*hi).max(v);
        }
    }
}

/// Gain of the union of two groups from their Min-then-Max bounds.
#[inline]
pub(super) fn pair_gain(lat: &[f64], a: &[u32], b: &[u32], cols: usize) -> f64 {
    let (min_a, max_a) = a.split_at(cols);
    let (min_b, max_b) = b.split_at(cols);
    gain(lat, min_a, max_a, min_b, max_b)
}

/// A candidate merge: its gain and two group ids (exact mode: the older first; windowed mode:
/// the group that looked first).
#[derive(Clone, Copy, PartialEq)]
pub(super) struct Edge(pub(super) f64, pub(super) u32, pub(super) u32);
impl Eq for Edge {}
impl PartialOrd for Edge {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Edge {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0
            .total_cmp(&o.0)
            // ties: the older pair first (smaller ids), deterministic
            .then_with(|| o.1.cmp(&self.1))
            .then_with(|| o.2.cmp(&self.2))
    }
}

/// A max-heap of edges with four children per node: a pop walks half the levels of a binary
/// heap and reads each level's children from one cache line (16-byte edges). Every owner has at
/// most one edge in it at a time, so its edges are distinct and the pop order is the same as any
/// other priority queue's.
#[derive(Default)]
pub(super) struct EdgeHeap {
    pub(super) v: Vec<Edge>,
}

impl EdgeHeap {
    pub(super) fn is_empty(&self) -> bool {
        self.v.is_empty()
    }

    pub(super) fn peek(&self) -> Option<Edge> {
        self.v.first().copied()
    }

    pub(super) fn push(&mut self, e: Edge) {
        let mut i = self.v.len();
        self.v.push(e);
        while i > 0 {
            let p = (i - 1) / 4;
            if self.v[p] >= e {
                break;
            }
            self.v[i] = self.v[p];
            i = p;
        }
        self.v[i] = e;
    }

    /// Replaces the top edge by `e` (the heap is not empty).
    pub(super) fn replace_top(&mut self, e: Edge) {
        self.v[0] = e;
        self.sift_down(0);
    }

    pub(super) fn pop(&mut self) -> Option<Edge> {
        let last = self.v.pop()?;
        if self.v.is_empty() {
            return Some(last);
        }
        let top = std::mem::replace(&mut self.v[0], last);
        self.sift_down(0);
        Some(top)
    }

    pub(super) fn sift_down(&mut self, mut i: usize) {
        let n = self.v.len();
        let e = self.v[i];
        loop {
            let c = 4 * i + 1;
            if c >= n {
                break;
            }
            let mut best = c;
            for k in c + 1..(c + 4).min(n) {
                if self.v[k] > self.v[best] {
                    best = k;
                }
            }
            if self.v[best] <= e {
                break;
            }
            self.v[i] = self.v[best];
            i = best;
        }
        self.v[i] = e;
    }
}

impl Edge {
    pub(super) fn of(g: f64, i: usize, j: usize) -> Edge {
        Edge(g, i.min(j) as u32, i.max(j) as u32)
    }
}

/// Merges live groups `a` and `b` with bounds `ba` and `bb` (the larger group's threads first,
/// so an overflow splits the newcomer, not a group already formed: a full group is the first
/// `gs32` threads of the joined list); a full group goes to `out`. Returns the id of the
/// partial group left, if any, its bounds in `made`.
#[allow(clippy::too_many_arguments)]
pub(super) fn merge(
    pool: &mut Pool,
    classes: &Classes,
    lat: &[f64],
    gs32: u32,
    (a, ba): (usize, &[u32]),
    (b, bb): (usize, &[u32]),
    made: &mut [u32],
    out: &mut Vec<Members>,
) -> Option<usize> {
    let (first, second) = if pool.size[b] > pool.size[a] {
        (b, a)
    } else {
        (a, b)
    };
    // join the lists: first's members, then second's
    let (f0, f1) = pool.ends[first];
    let (s0, s1) = pool.ends[second];
    let ends = match (f0 == NONE, s0 == NONE) {
        (true, _) => (s0, s1),
        (_, true) => (f0, f1),
        _ => {
            pool.nodes[f1 as usize].2 = s0;
            (f0, s1)
        }
    };
    let size = pool.size[first] + pool.size[second];
    pool.retire(a);
    pool.retire(b);
    if size == gs32 {
        out.push(pool.list(ends.0).collect());
        return None;
    }
    if size < gs32 {
        let cols = pool.cols;
        for j in 0..cols {
            made[j] = ba[j].min(bb[j]);
            made[cols + j] = ba[cols + j].max(bb[cols + j]);
        }
        return Some(pool.add_list(lat, ends, size, made));
    }
    // split after the first `gs32` threads: the full group to `out`, the rest stays
    let mut head: Members = Vec::new();
    let mut left = gs32;
    let mut node = ends.0;
    while left > 0 {
        let (c, k, next) = pool.nodes[node as usize];
        if k <= left {
            head.push((c, k));
            left -= k;
            node = next;
        } else {
            head.push((c, left));
            pool.nodes[node as usize].1 = k - left;
            left = 0;
        }
    }
    out.push(head);
    let tail = (node, ends.1);
    bounds_of(classes, pool.list(node).map(|m| m.0), made);
    Some(pool.add_list(lat, tail, size - gs32, made))
}

/// Greedy's start: whole groups of identical threads (in descending class latency, the
/// gain order) into `out`, and the pool of each class's leftover partial group with the
/// leftovers' bounds, by id.
pub(super) fn leftover_pool(
    classes: &Classes,
    lat: &[f64],
    gs32: u32,
    out: &mut Vec<Members>,
) -> (Pool, Vec<u32>) {
    let w = 2 * classes.cols;
    let ids = by_descending_latency(classes);
    let mut pool = Pool::new(classes.cols);
    let mut bounds: Vec<u32> = Vec::new();
    for &c in &ids {
        let n = classes.size[c as usize];
        for _ in 0..n / gs32 {
            out.push(vec![(c, gs32)]);
        }
        if !n.is_multiple_of(gs32) {
            let at = bounds.len();
            bounds.resize(at + w, 0);
            bounds_of(classes, [c], &mut bounds[at..]);
            pool.add(lat, &[(c, n % gs32)], &bounds[at..]);
        }
    }
    (pool, bounds)
}

pub(super) fn greedy(classes: &Classes, lat: &[f64], gs: usize) -> Vec<Members> {
    let gs32 = gs as u32;
    let mut out: Vec<Members> = Vec::new();
    let (pool, bounds) = leftover_pool(classes, lat, gs32, &mut out);
    merge_leftovers(pool, bounds, classes, lat, gs32, &mut out);
    out
}

/// Merges the pool's groups: all pairs when there are at most [`EXACT_LEFTOVERS`]; otherwise
/// the groups, in candidate order, are cut into segments of [`SEGMENT`], each segment's are
/// merged by [`merge_windowed`] on their own, and the segments' survivors (at most one each)
/// are merged in turn the same way. The survivors go to `out`.
pub(super) fn merge_leftovers(
    mut pool: Pool,
    bounds: Vec<u32>,
    classes: &Classes,
    lat: &[f64],
    gs32: u32,
    out: &mut Vec<Members>,
) {
    let w = 2 * pool.cols;
    if pool.len() <= EXACT_LEFTOVERS {
        merge_exact(&mut pool, bounds, classes, lat, gs32, out);
        for id in 0..pool.len() {
            if pool.alive[id] {
                out.push(pool.members(id));
            }
        }
        return;
    }
    let mut keys: Vec<(u64, u32)> = (0..pool.len()).map(|i| pool.key_of(i)).collect();
    keys.sort_unstable();
    // the segments' groups (by id in candidate order) with their bounds, taken out of the pool
    let cols = pool.cols;
    let parts: Vec<(Pool, Vec<u32>)> = keys
        .chunks(SEGMENT)
        .map(|seg| {
            let mut part = Pool::new(cols);
            let mut seg_bounds = Vec::with_capacity(seg.len() * w);
            for &(_, id) in seg {
                let id = id as usize;
                let b = &bounds[id * w..(id + 1) * w];
                seg_bounds.extend_from_slice(b);
                part.add(lat, &pool.members(id), b);
            }
            (part, seg_bounds)
        })
        .collect();
    drop(pool);
    drop(bounds);
    // The segments are independent: merged on rayon's threads, their full groups and
    // survivors gathered in segment order, so the result is the one a loop over them gives.
    let merged: Vec<(Vec<Members>, Vec<Members>)> = parts
        .into_par_iter()
        .map(|(mut part, seg_bounds)| {
            let mut full = Vec::new();
            merge_windowed(
                &mut part,
                &seg_bounds,
                classes,
                lat,
                gs32,
                &mut full,
                SEGMENT_LEFT,
            );
            let left = (0..part.len())
                .filter(|&id| part.alive[id])
                .map(|id| part.members(id))
                .collect();
            (full, left)
        })
        .collect();
    let mut survivors = Pool::new(cols);
    let mut survivors_bounds: Vec<u32> = Vec::new();
    for (full, left) in merged {
        out.extend(full);
        for members in left {
            let at = survivors_bounds.len();
            survivors_bounds.resize(at + w, 0);
            bounds_of(
                classes,
                members.iter().map(|m| m.0),
                &mut survivors_bounds[at..],
            );
            survivors.add(lat, &members, &survivors_bounds[at..]);
        }
    }
    merge_leftovers(survivors, survivors_bounds, classes, lat, gs32, out);
}

/// Merges the pair of largest gain among all pairs of live groups, until one is left. Each
/// group keeps its best edge; a group whose partner is merged away looks again among all.
/// (`bounds` by id.)
pub(super) fn merge_exact(
    pool: &mut Pool,
    mut bounds: Vec<u32>,
    classes: &Classes,
    lat: &[f64],
    gs32: u32,
    out: &mut Vec<Members>,
) {
    let cols = pool.cols;
    let w = 2 * cols;
    let look = |pool: &Pool, bounds: &[u32], i: usize| {
        let own = &bounds[i * w..(i + 1) * w];
        (0..pool.len())
            .filter(|&j| j != i && pool.alive[j])
            .map(|j| Edge::of(pair_gain(lat, own, &bounds[j * w..(j + 1) * w], cols), i, j))
            .max()
    };
    let mut best: Vec<Option<Edge>> = (0..pool.len()).map(|i| look(pool, &bounds, i)).collect();
    let mut made = vec![0u32; w];
    while pool.live > 1 {
        let Some(Edge(_, a, b)) = (0..pool.len())
            .filter(|&i| pool.alive[i])
            .filter_map(|i| best[i])
            .max()
        else {
            break;
        };
        let (a, b) = (a as usize, b as usize);
        let (ba, bb) = (&bounds[a * w..(a + 1) * w], &bounds[b * w..(b + 1) * w]);
        let c = merge(pool, classes, lat, gs32, (a, ba), (b, bb), &mut made, out);
        if c.is_some() {
            bounds.extend_from_slice(&made);
            best.push(None);
        }
        for i in 0..pool.len() {
            if !pool.alive[i] || Some(i) == c {
                continue;
            }
            let stale = best[i]
                .is_some_and(|Edge(_, x, y)| !pool.alive[x as usize] || !pool.alive[y as usize]);
            if stale {
                best[i] = look(pool, &bounds, i);
            } else if let Some(c) = c {
                let e = Edge::of(
                    pair_gain(lat, &bounds[i * w..(i + 1) * w], &made, cols),
                    i,
                    c,
                );
                if best[i].is_none_or(|b| e > b) {
                    best[i] = Some(e);
                }
            }
        }
        if let Some(c) = c {
            best[c] = look(pool, &bounds, c);
        }
    }
}
