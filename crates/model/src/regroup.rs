//! Thread regrouping (the paper's section V): Sorting, Greedy and Greedy-Max turn the
//! per-thread vectors into groups of `group_size` threads (a multiple of the warp size) and a
//! thread order: slot `s` of the regrouped launch does the work of thread `order[s]`.
//!
//! All three work on [`Classes`] (threads with identical vectors), which is exact:
//!
//! * **Sorting** sorts the vectors lexicographically; each class's threads stay in id order.
//! * **Greedy** (Algorithm 1) merges the pair of groups with the largest
//!   `Gain = Σ_b lat[b] × (2·Min_b − Max_b)` (benefit (8) minus cost (9)). Two threads with
//!   identical vectors have gain `Lat_t`, and no merge involving such a thread gains more, so
//!   the greedy first fills groups from identical threads: each class becomes `⌊n/size⌋` full
//!   groups and one leftover. The leftovers are then merged pairwise by largest gain (a merge
//!   that overflows splits off a full group: its first `group_size` threads), exactly when there
//!   are at most [`EXACT_LEFTOVERS`] of them (each group keeps its best edge among all; only
//!   groups whose partner was merged away look again, so a step costs O(leftovers), not a heap
//!   of every pair); with more, each leftover's candidate partners are its [`WINDOW`] nearest
//!   leftovers by `Σ lat × Max` on either side (so the work stays `O(leftovers × WINDOW)`
//!   rather than quadratic), read from [`Ordered`], which keeps the groups' Min and Max vectors
//!   in that order so a window is one stretch of memory. Greedy does not order blocks: groups
//!   are laid out by their smallest thread id, full groups first.
//! * **Greedy-Max** (Algorithm 2) seeds each group with the remaining thread of highest
//!   latency (11), then adds threads identical to a member while any remain, else the thread of
//!   maximal gain; groups are laid out in the order formed, i.e. by descending latency, which
//!   balances the SMs under the dynamic block dispatch. The gain search walks classes by
//!   descending latency and stops once `min(Lat_c, 2·Lat_c − Σ lat·Max_g)`, an upper bound of
//!   the gain, cannot beat the best found: exact, and short when similar threads exist. When
//!   nearly every thread is distinct and latencies are close, that bound prunes little and the
//!   search would be quadratic in threads (262,144 distinct alignment rows did not finish in 8
//!   minutes). The search is exact until it has examined [`GREEDY_MAX_BUDGET`] classes per
//!   thread of the launch; after that it looks at no more than the [`GREEDY_MAX_SCAN`]
//!   remaining classes of highest latency for each thread it adds (not exact there), so its
//!   work is linear in threads.

use crate::estimate::Classes;
use serde::Serialize;

/// Leftover groups up to which Greedy compares every pair.
pub const EXACT_LEFTOVERS: usize = 1024;
/// Candidate partners on each side (by latency) beyond that.
pub const WINDOW: usize = 16;
/// Classes Greedy-Max's gain search looks at for each thread it adds once its budget is spent:
/// the remaining classes of highest latency.
pub const GREEDY_MAX_SCAN: usize = 2 * WINDOW;
/// Greedy-Max's exact search budget: classes examined, per thread of the launch.
pub const GREEDY_MAX_BUDGET: u64 = 64;

/// A regrouping algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    Sorting,
    Greedy,
    GreedyMax,
}

impl Algorithm {
    pub const ALL: [Algorithm; 3] = [Algorithm::Sorting, Algorithm::Greedy, Algorithm::GreedyMax];

    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Sorting => "sorting",
            Algorithm::Greedy => "greedy",
            Algorithm::GreedyMax => "greedy-max",
        }
    }

    pub fn parse(s: &str) -> Option<Algorithm> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == s || (s == "greedy_max" && *a == Algorithm::GreedyMax))
    }
}

/// The thread order an algorithm produces (`order[slot] = thread`), a permutation of
/// `0..threads`.
pub fn regroup(alg: Algorithm, classes: &Classes, lat: &[f64], group_size: usize) -> Vec<u32> {
    let gs = group_size.max(1);
    match alg {
        Algorithm::Sorting => sorting(classes),
        Algorithm::Greedy => lay_out(classes, greedy(classes, lat, gs), true),
        Algorithm::GreedyMax => lay_out(classes, greedy_max(classes, lat, gs), false),
    }
}

fn sorting(classes: &Classes) -> Vec<u32> {
    let mut ids: Vec<u32> = (0..classes.len() as u32).collect();
    ids.sort_by(|&a, &b| classes.vector(a).cmp(classes.vector(b)));
    let groups = ids
        .into_iter()
        .map(|c| vec![(c, classes.size[c as usize])])
        .collect();
    lay_out(classes, groups, false)
}

/// Threads of each class, in id order.
fn threads_by_class(classes: &Classes) -> Vec<Vec<u32>> {
    let mut by: Vec<Vec<u32>> = classes
        .size
        .iter()
        .map(|&n| Vec::with_capacity(n as usize))
        .collect();
    for (t, &c) in classes.of_thread.iter().enumerate() {
        by[c as usize].push(t as u32);
    }
    by
}

/// Turns groups (class, count) into a thread order, taking each class's threads in id order.
/// With `by_first_thread`, groups are laid out by their smallest thread id, full groups
/// first; otherwise in the order given.
fn lay_out(classes: &Classes, groups: Vec<Vec<(u32, u32)>>, by_first_thread: bool) -> Vec<u32> {
    let by = threads_by_class(classes);
    let mut next = vec![0usize; by.len()];
    let mut assigned: Vec<Vec<u32>> = groups
        .iter()
        .map(|g| {
            let mut v = Vec::with_capacity(g.iter().map(|m| m.1 as usize).sum());
            for &(c, k) in g {
                let c = c as usize;
                v.extend_from_slice(&by[c][next[c]..next[c] + k as usize]);
                next[c] += k as usize;
            }
            v
        })
        .collect();
    if by_first_thread {
        let full = assigned.iter().map(Vec::len).max().unwrap_or(0);
        assigned.sort_by_key(|g| (g.len() < full, g.iter().min().copied().unwrap_or(0)));
    }
    assigned.concat()
}

/// Gain of the union of two groups from their Min/Max vectors (equation 10).
#[inline]
fn gain(lat: &[f64], min_a: &[u32], max_a: &[u32], min_b: &[u32], max_b: &[u32]) -> f64 {
    let mut g = 0.0;
    for ((((&l, &lo_a), &hi_a), &lo_b), &hi_b) in
        lat.iter().zip(min_a).zip(max_a).zip(min_b).zip(max_b)
    {
        let lo = lo_a.min(lo_b);
        let hi = hi_a.max(hi_b);
        // 2·lo − hi is exact in i64 and in f64 (|x| < 2^34): the same value as
        // `2.0 * f64::from(lo) - f64::from(hi)`, with one conversion
        g += l * (2 * i64::from(lo) - i64::from(hi)) as f64;
    }
    g
}

/// A group's members: (class, threads of that class).
type Members = Vec<(u32, u32)>;

/// The partial groups Greedy merges, by id: the order they were made in, which breaks ties
/// between equal gains. Their Min and Max vectors (`bounds`: Min then Max, `2 × cols` values)
/// are kept by the merging mode: by id in the exact mode, in candidate order in the windowed.
struct Pool {
    cols: usize,
    /// `Σ lat × Max` (the sort key of the candidate windows).
    key: Vec<f64>,
    alive: Vec<bool>,
    members: Vec<Members>,
    /// Groups alive.
    live: usize,
}

impl Pool {
    fn len(&self) -> usize {
        self.key.len()
    }

    /// Adds a group with these bounds.
    fn add(&mut self, lat: &[f64], members: Members, bounds: &[u32]) -> usize {
        let key = bounds[self.cols..]
            .iter()
            .zip(lat)
            .map(|(&m, &l)| f64::from(m) * l)
            .sum();
        self.key.push(key);
        self.alive.push(true);
        self.members.push(members);
        self.live += 1;
        self.len() - 1
    }

    fn retire(&mut self, id: usize) {
        self.alive[id] = false;
        self.live -= 1;
    }

    /// A live group's place in the candidate order: by key, then id.
    fn key_of(&self, id: usize) -> (u64, u32) {
        (self.key[id].max(0.0).to_bits(), id as u32)
    }
}

/// Writes the bounds of `members` (from their classes' vectors) into `out`.
fn bounds_of(classes: &Classes, members: &Members, out: &mut [u32]) {
    let (min, max) = out.split_at_mut(classes.cols);
    min.fill(u32::MAX);
    max.fill(0);
    for &(c, _) in members {
        for ((lo, hi), &v) in min.iter_mut().zip(max.iter_mut()).zip(classes.vector(c)) {
            *lo = (*lo).min(v);
            *hi = (*hi).max(v);
        }
    }
}

/// Gain of the union of two groups from their Min-then-Max bounds.
#[inline]
fn pair_gain(lat: &[f64], a: &[u32], b: &[u32], cols: usize) -> f64 {
    let (min_a, max_a) = a.split_at(cols);
    let (min_b, max_b) = b.split_at(cols);
    gain(lat, min_a, max_a, min_b, max_b)
}

/// A candidate merge: its gain and two group ids (exact mode: the older first; windowed mode:
/// the group that looked first).
#[derive(Clone, Copy, PartialEq)]
struct Edge(f64, u32, u32);
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
struct EdgeHeap {
    v: Vec<Edge>,
}

impl EdgeHeap {
    fn is_empty(&self) -> bool {
        self.v.is_empty()
    }

    fn peek(&self) -> Option<Edge> {
        self.v.first().copied()
    }

    fn push(&mut self, e: Edge) {
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
    fn replace_top(&mut self, e: Edge) {
        self.v[0] = e;
        self.sift_down(0);
    }

    fn pop(&mut self) -> Option<Edge> {
        let last = self.v.pop()?;
        if self.v.is_empty() {
            return Some(last);
        }
        let top = std::mem::replace(&mut self.v[0], last);
        self.sift_down(0);
        Some(top)
    }

    fn sift_down(&mut self, mut i: usize) {
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
    fn of(g: f64, i: usize, j: usize) -> Edge {
        Edge(g, i.min(j) as u32, i.max(j) as u32)
    }
}

/// Splits `members` after its first `gs` threads.
fn split(members: Members, gs: u32) -> (Members, Members) {
    let mut head = Vec::new();
    let mut tail = Vec::new();
    let mut left = gs;
    for (c, k) in members {
        if left == 0 {
            tail.push((c, k));
        } else if k <= left {
            head.push((c, k));
            left -= k;
        } else {
            head.push((c, left));
            tail.push((c, k - left));
            left = 0;
        }
    }
    (head, tail)
}

fn threads(members: &Members) -> u32 {
    members.iter().map(|m| m.1).sum()
}

/// Merges live groups `a` and `b` with bounds `ba` and `bb` (the larger group's threads first,
/// so an overflow splits the newcomer, not a group already formed); a full group goes to
/// `out`. Returns the id of the partial group left, if any, its bounds in `made`.
#[allow(clippy::too_many_arguments)]
fn merge(
    pool: &mut Pool,
    classes: &Classes,
    lat: &[f64],
    gs32: u32,
    (a, ba): (usize, &[u32]),
    (b, bb): (usize, &[u32]),
    made: &mut [u32],
    out: &mut Vec<Members>,
) -> Option<usize> {
    let (first, second) = if threads(&pool.members[b]) > threads(&pool.members[a]) {
        (b, a)
    } else {
        (a, b)
    };
    let mut members = std::mem::take(&mut pool.members[first]);
    members.extend(std::mem::take(&mut pool.members[second]));
    pool.retire(a);
    pool.retire(b);
    let size = threads(&members);
    if size == gs32 {
        out.push(members);
        return None;
    }
    let rest = if size < gs32 {
        let cols = pool.cols;
        for j in 0..cols {
            made[j] = ba[j].min(bb[j]);
            made[cols + j] = ba[cols + j].max(bb[cols + j]);
        }
        members
    } else {
        let (head, tail) = split(members, gs32);
        out.push(head);
        bounds_of(classes, &tail, made);
        tail
    };
    Some(pool.add(lat, rest, made))
}

/// Greedy's start: whole groups of identical threads (in descending class latency, the
/// gain order) into `out`, and the pool of each class's leftover partial group with the
/// leftovers' bounds, by id.
fn leftover_pool(
    classes: &Classes,
    lat: &[f64],
    gs32: u32,
    out: &mut Vec<Members>,
) -> (Pool, Vec<u32>) {
    let w = 2 * classes.cols;
    let mut ids: Vec<u32> = (0..classes.len() as u32).collect();
    ids.sort_by(|&a, &b| {
        classes.latency[b as usize]
            .total_cmp(&classes.latency[a as usize])
            .then(a.cmp(&b))
    });
    let mut pool = Pool {
        cols: classes.cols,
        key: Vec::new(),
        alive: Vec::new(),
        members: Vec::new(),
        live: 0,
    };
    let mut bounds: Vec<u32> = Vec::new();
    for &c in &ids {
        let n = classes.size[c as usize];
        for _ in 0..n / gs32 {
            out.push(vec![(c, gs32)]);
        }
        if !n.is_multiple_of(gs32) {
            let members = vec![(c, n % gs32)];
            let at = bounds.len();
            bounds.resize(at + w, 0);
            bounds_of(classes, &members, &mut bounds[at..]);
            pool.add(lat, members, &bounds[at..]);
        }
    }
    (pool, bounds)
}

fn greedy(classes: &Classes, lat: &[f64], gs: usize) -> Vec<Members> {
    let gs32 = gs as u32;
    let mut out: Vec<Members> = Vec::new();
    let (mut pool, bounds) = leftover_pool(classes, lat, gs32, &mut out);
    if pool.len() <= EXACT_LEFTOVERS {
        merge_exact(&mut pool, bounds, classes, lat, gs32, &mut out);
    } else {
        merge_windowed(&mut pool, &bounds, classes, lat, gs32, &mut out);
    }
    for id in 0..pool.len() {
        if pool.alive[id] {
            out.push(std::mem::take(&mut pool.members[id]));
        }
    }
    out
}

/// Merges the pair of largest gain among all pairs of live groups, until one is left. Each
/// group keeps its best edge; a group whose partner is merged away looks again among all.
/// (`bounds` by id.)
fn merge_exact(
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

/// Entries per chunk of [`Ordered`] after a split (a chunk splits beyond twice this).
const CHUNK: usize = 32;

/// The live groups in candidate order (`(key, id)`), each with a copy of its Min-then-Max
/// bounds, in chunks of up to `2 × CHUNK` entries: a group's candidate window is then one or
/// two stretches of memory, read in order.
struct Ordered {
    w: usize,
    chunks: Vec<Chunk>,
    /// The last key of each chunk (no chunk is empty).
    lasts: Vec<(u64, u32)>,
}

struct Chunk {
    keys: Vec<(u64, u32)>,
    bounds: Vec<u32>,
}

impl Ordered {
    /// From entries already in order.
    fn of_sorted<'a>(w: usize, entries: impl Iterator<Item = ((u64, u32), &'a [u32])>) -> Ordered {
        let mut o = Ordered {
            w,
            chunks: Vec::new(),
            lasts: Vec::new(),
        };
        for (k, b) in entries {
            if o.chunks.last().is_none_or(|c| c.keys.len() == CHUNK) {
                o.chunks.push(Chunk {
                    keys: Vec::with_capacity(2 * CHUNK + 1),
                    bounds: Vec::with_capacity((2 * CHUNK + 1) * w),
                });
                o.lasts.push(k);
            }
            let c = o.chunks.last_mut().expect("pushed");
            debug_assert!(c.keys.last().is_none_or(|&l| l < k));
            c.keys.push(k);
            c.bounds.extend_from_slice(b);
            *o.lasts.last_mut().expect("pushed") = k;
        }
        o
    }

    /// The chunk that holds `k`, or where it goes, and its position there.
    fn locate(&self, k: (u64, u32)) -> (usize, usize) {
        let c = self
            .lasts
            .partition_point(|&l| l < k)
            .min(self.chunks.len().saturating_sub(1));
        let p = self
            .chunks
            .get(c)
            .map_or(0, |ch| ch.keys.partition_point(|&x| x < k));
        (c, p)
    }

    fn insert(&mut self, k: (u64, u32), bounds: &[u32]) {
        let w = self.w;
        if self.chunks.is_empty() {
            *self = Ordered::of_sorted(w, std::iter::once((k, bounds)));
            return;
        }
        let (c, p) = self.locate(k);
        let ch = &mut self.chunks[c];
        ch.keys.insert(p, k);
        ch.bounds.splice(p * w..p * w, bounds.iter().copied());
        self.lasts[c] = *ch.keys.last().expect("not empty");
        if ch.keys.len() > 2 * CHUNK {
            let keys = ch.keys.split_off(CHUNK);
            let bounds = ch.bounds.split_off(CHUNK * w);
            self.lasts[c] = *ch.keys.last().expect("not empty");
            self.lasts.insert(c + 1, *keys.last().expect("not empty"));
            self.chunks.insert(c + 1, Chunk { keys, bounds });
        }
    }

    /// Removes `k`, copying its bounds into `bounds`.
    fn remove(&mut self, k: (u64, u32), bounds: &mut [u32]) {
        let (c, p) = self.locate(k);
        let ch = &mut self.chunks[c];
        debug_assert_eq!(ch.keys.get(p), Some(&k));
        bounds.copy_from_slice(&ch.bounds[p * self.w..(p + 1) * self.w]);
        ch.keys.remove(p);
        ch.bounds.drain(p * self.w..(p + 1) * self.w);
        match ch.keys.last() {
            Some(&l) => self.lasts[c] = l,
            None => {
                self.chunks.remove(c);
                self.lasts.remove(c);
            }
        }
    }

    /// Calls `f(bounds of k, id, bounds)` for the up to `n` entries before `k` (nearest first),
    /// then the up to `n` after it; `k` is in the order.
    fn window(&self, k: (u64, u32), n: usize, mut f: impl FnMut(&[u32], u32, &[u32])) {
        let w = self.w;
        let (c0, p0) = self.locate(k);
        let own = &self.chunks[c0].bounds[p0 * w..(p0 + 1) * w];
        let (mut c, mut p, mut left) = (c0, p0, n);
        while left > 0 {
            if p == 0 {
                if c == 0 {
                    break;
                }
                c -= 1;
                p = self.chunks[c].keys.len();
            }
            p -= 1;
            let ch = &self.chunks[c];
            f(own, ch.keys[p].1, &ch.bounds[p * w..(p + 1) * w]);
            left -= 1;
        }
        let (mut c, mut p, mut left) = (c0, p0 + 1, n);
        while left > 0 {
            if p == self.chunks[c].keys.len() {
                if c + 1 == self.chunks.len() {
                    break;
                }
                c += 1;
                p = 0;
            }
            let ch = &self.chunks[c];
            f(own, ch.keys[p].1, &ch.bounds[p * w..(p + 1) * w]);
            p += 1;
            left -= 1;
        }
    }
}

/// Merges by largest gain with each group's candidates limited to its [`WINDOW`] nearest live
/// groups in candidate order on either side. Each group keeps one edge in the heap, to its best
/// candidate when it looked; when that partner is merged away the edge goes stale and the group
/// looks again (so the heap holds O(groups) edges, never a window per stale edge). (`bounds` of
/// the first groups, by id.)
fn merge_windowed(
    pool: &mut Pool,
    bounds: &[u32],
    classes: &Classes,
    lat: &[f64],
    gs32: u32,
    out: &mut Vec<Members>,
) {
    let cols = pool.cols;
    let w = 2 * cols;
    let mut keys: Vec<(u64, u32)> = (0..pool.len()).map(|i| pool.key_of(i)).collect();
    keys.sort_unstable();
    let mut order = Ordered::of_sorted(
        w,
        keys.into_iter()
            .map(|k| (k, &bounds[k.1 as usize * w..(k.1 as usize + 1) * w])),
    );
    let best_edge = |pool: &Pool, order: &Ordered, i: usize| {
        let mut best: Option<Edge> = None;
        order.window(pool.key_of(i), WINDOW, |own, j, b| {
            let e = Edge(pair_gain(lat, own, b, cols), i as u32, j);
            if best.is_none_or(|x| e > x) {
                best = Some(e);
            }
        });
        best
    };
    let mut heap = EdgeHeap::default();
    for i in 0..pool.len() {
        if let Some(e) = best_edge(pool, &order, i) {
            heap.push(e);
        }
    }
    let (mut ba, mut bb, mut made) = (vec![0u32; w], vec![0u32; w], vec![0u32; w]);
    while pool.live > 1 {
        let Some(Edge(_, a, b)) = heap.peek() else {
            break;
        };
        let (a, b) = (a as usize, b as usize);
        if !pool.alive[a] || !pool.alive[b] {
            // the owner (first) of a stale edge looks for a new partner, which replaces the
            // stale edge in place (one sift instead of a pop and a push)
            match pool.alive[a].then(|| best_edge(pool, &order, a)).flatten() {
                Some(e) => heap.replace_top(e),
                None => {
                    heap.pop();
                }
            }
            continue;
        }
        heap.pop();
        order.remove(pool.key_of(a), &mut ba);
        order.remove(pool.key_of(b), &mut bb);
        let Some(id) = merge(pool, classes, lat, gs32, (a, &ba), (b, &bb), &mut made, out) else {
            continue;
        };
        order.insert(pool.key_of(id), &made);
        if let Some(e) = best_edge(pool, &order, id) {
            heap.push(e);
        }
        if heap.is_empty() && pool.live > 1 {
            // every survivor's edge was consumed: pair them afresh
            for i in (0..pool.len()).filter(|&i| pool.alive[i]) {
                if let Some(e) = best_edge(pool, &order, i) {
                    heap.push(e);
                }
            }
        }
    }
}

fn greedy_max(classes: &Classes, lat: &[f64], gs: usize) -> Vec<Vec<(u32, u32)>> {
    let gs32 = gs as u32;
    let d = classes.len();
    let mut budget: u64 =
        GREEDY_MAX_BUDGET * classes.size.iter().map(|&n| u64::from(n)).sum::<u64>();
    // classes by descending latency, as a doubly linked list of those with threads left
    let mut order: Vec<usize> = (0..d).collect();
    order.sort_by(|&a, &b| {
        classes.latency[b]
            .total_cmp(&classes.latency[a])
            .then(a.cmp(&b))
    });
    const NIL: usize = usize::MAX;
    let mut next = vec![NIL; d];
    let mut prev = vec![NIL; d];
    for w in order.windows(2) {
        next[w[0]] = w[1];
        prev[w[1]] = w[0];
    }
    let mut head = order.first().copied().unwrap_or(NIL);
    let mut left: Vec<u32> = classes.size.clone();
    let remove = |c: usize, head: &mut usize, next: &mut Vec<usize>, prev: &mut Vec<usize>| {
        let (p, n) = (prev[c], next[c]);
        if p == NIL {
            *head = n;
        } else {
            next[p] = n;
        }
        if n != NIL {
            prev[n] = p;
        }
    };
    let mut out = Vec::new();
    let mut gmin = vec![0u32; classes.cols];
    let mut gmax = vec![0u32; classes.cols];
    while head != NIL {
        let seed = head;
        let mut members: Vec<(u32, u32)> = Vec::new();
        let mut size = 0u32;
        gmin.copy_from_slice(classes.vector(seed as u32));
        gmax.copy_from_slice(classes.vector(seed as u32));
        let take = |c: usize, k: u32, members: &mut Vec<(u32, u32)>, left: &mut Vec<u32>| {
            match members.iter_mut().find(|m| m.0 as usize == c) {
                Some(m) => m.1 += k,
                None => members.push((c as u32, k)),
            }
            left[c] -= k;
        };
        take(seed, 1, &mut members, &mut left);
        size += 1;
        if left[seed] == 0 {
            remove(seed, &mut head, &mut next, &mut prev);
        }
        while size < gs32 && head != NIL {
            // identical threads first
            if let Some(&(c, _)) = members.iter().find(|m| left[m.0 as usize] > 0) {
                let c = c as usize;
                let k = left[c].min(gs32 - size);
                take(c, k, &mut members, &mut left);
                size += k;
                if left[c] == 0 {
                    remove(c, &mut head, &mut next, &mut prev);
                }
                continue;
            }
            let lat_max: f64 = gmax.iter().zip(lat).map(|(&m, &l)| f64::from(m) * l).sum();
            let mut best = f64::NEG_INFINITY;
            let mut best_c = NIL;
            let mut c = head;
            let mut scanned = 0usize;
            while c != NIL {
                let lc = classes.latency[c];
                if lc.min(2.0 * lc - lat_max) <= best || budget == 0 && scanned == GREEDY_MAX_SCAN {
                    break;
                }
                scanned += 1;
                budget = budget.saturating_sub(1);
                let v = classes.vector(c as u32);
                let g = gain(lat, &gmin, &gmax, v, v);
                if g > best {
                    best = g;
                    best_c = c;
                }
                c = next[c];
            }
            if best_c == NIL {
                break;
            }
            for ((lo, hi), &v) in gmin
                .iter_mut()
                .zip(gmax.iter_mut())
                .zip(classes.vector(best_c as u32))
            {
                *lo = (*lo).min(v);
                *hi = (*hi).max(v);
            }
            take(best_c, 1, &mut members, &mut left);
            size += 1;
            if left[best_c] == 0 {
                remove(best_c, &mut head, &mut next, &mut prev);
            }
        }
        out.push(members);
    }
    out
}

/// Whether `order` is a permutation of `0..n`.
pub fn is_permutation(order: &[u32], n: usize) -> bool {
    if order.len() != n {
        return false;
    }
    let mut seen = vec![false; n];
    order
        .iter()
        .all(|&t| (t as usize) < n && !std::mem::replace(&mut seen[t as usize], true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimate::{bbv_weighted_scheduled, block_times};

    fn launch(counts: &[u32], cols: usize, lat: &[f64]) -> Classes {
        Classes::new(counts, cols, lat)
    }

    /// Threads alternate between a long path (column 0 × 10) and a short one (column 1 × 1).
    fn alternating(n: usize) -> (Vec<u32>, Vec<f64>) {
        let mut counts = Vec::new();
        for t in 0..n {
            if t % 2 == 0 {
                counts.extend([10, 0]);
            } else {
                counts.extend([0, 1]);
            }
        }
        (counts, vec![5.0, 5.0])
    }

    #[test]
    fn every_algorithm_separates_alternating_paths() {
        let (counts, lat) = alternating(256);
        let c = launch(&counts, 2, &lat);
        let before = block_times(&c, &lat, 64, None, false);
        for alg in Algorithm::ALL {
            let o = regroup(alg, &c, &lat, 32);
            assert!(is_permutation(&o, 256), "{alg:?}");
            let after = block_times(&c, &lat, 64, Some(&o), false);
            assert_eq!(after.divergent_warps, 0, "{alg:?}");
            assert!(after.as_run.iter().sum::<f64>() < before.as_run.iter().sum::<f64>());
        }
    }

    #[test]
    fn greedy_max_orders_blocks_by_descending_latency() {
        let (counts, lat) = alternating(256);
        let c = launch(&counts, 2, &lat);
        let o = regroup(Algorithm::GreedyMax, &c, &lat, 32);
        let t = block_times(&c, &lat, 32, Some(&o), false);
        assert!(t.as_run.windows(2).all(|w| w[0] >= w[1]), "{:?}", t.as_run);
        let s = regroup(Algorithm::Sorting, &c, &lat, 32);
        let ts = block_times(&c, &lat, 32, Some(&s), false);
        // sorting puts the short vectors ([0,1] < [10,0]) first
        assert!(ts.as_run[0] < ts.as_run[ts.as_run.len() - 1]);
        assert!(
            bbv_weighted_scheduled(&t.as_run, 3, 1) <= bbv_weighted_scheduled(&ts.as_run, 3, 1)
        );
    }

    #[test]
    fn greedy_merges_leftovers_by_gain() {
        // 40 threads of A (lat 100), 20 of B (close to A), 20 of C (far): group size 32.
        let mut counts = Vec::new();
        for _ in 0..40 {
            counts.extend([10, 0, 0]);
        }
        for _ in 0..20 {
            counts.extend([9, 0, 0]);
        }
        for _ in 0..20 {
            counts.extend([0, 0, 3]);
        }
        let lat = vec![10.0, 1.0, 1.0];
        let c = launch(&counts, 3, &lat);
        let groups = greedy(&c, &lat, 32);
        // A: one full group; leftover A(8) merges with B(20) first (gain 2·90 − 100 = 80 > C's).
        assert_eq!(groups[0], vec![(0, 32)]);
        // then AB(28) and C(20) are the last two: the merge overflows and C is split, AB kept
        assert!(
            groups.iter().any(|g| g.starts_with(&[(1, 20), (0, 8)])),
            "{groups:?}"
        );
        let o = regroup(Algorithm::Greedy, &c, &lat, 32);
        assert!(is_permutation(&o, 80));
    }

    #[test]
    fn windowed_greedy_is_a_permutation_on_many_leftovers() {
        // 3000 distinct vectors, 1 thread each: beyond EXACT_LEFTOVERS.
        let n = 3000;
        let mut counts = Vec::new();
        for t in 0..n as u32 {
            counts.extend([t % 97, t / 97, (t * 7) % 13]);
        }
        let lat = vec![3.0, 2.0, 1.0];
        let c = launch(&counts, 3, &lat);
        for alg in Algorithm::ALL {
            assert!(is_permutation(&regroup(alg, &c, &lat, 32), n), "{alg:?}");
        }
    }

    #[test]
    fn greedy_max_past_its_budget_still_groups_every_thread() {
        // 4096 distinct vectors of one latency: the gain bound prunes nothing, so the exact
        // search would examine every class for every thread (16.7 M > 64 per thread); past
        // the budget it looks at the first GREEDY_MAX_SCAN classes only.
        let n = 4096;
        let mut counts = Vec::new();
        for t in 0..n as u32 {
            counts.extend([t, n as u32 - t]);
        }
        let lat = vec![1.0, 1.0];
        let c = launch(&counts, 2, &lat);
        assert_eq!(c.len(), n);
        let o = regroup(Algorithm::GreedyMax, &c, &lat, 32);
        assert!(is_permutation(&o, n));
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use crate::estimate::block_times;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Every algorithm returns a permutation, and no regrouping changes the total work
        /// (the no-divergence time summed over blocks is order independent up to warp means).
        #[test]
        fn orders_are_permutations(
            rows in proptest::collection::vec(proptest::collection::vec(0u32..5, 3), 1..400),
            gs in 1usize..3,
        ) {
            let n = rows.len();
            let counts: Vec<u32> = rows.concat();
            let lat = vec![3.0, 1.0, 7.0];
            let c = Classes::new(&counts, 3, &lat);
            let total: f64 = c.of_thread.iter().map(|&k| c.latency[k as usize]).sum();
            for alg in Algorithm::ALL {
                let o = regroup(alg, &c, &lat, 32 * gs);
                prop_assert!(is_permutation(&o, n), "{:?}", alg);
                let t = block_times(&c, &lat, 64, Some(&o), false);
                // a warp costs at least its threads' mean: Σ blocks ≥ Σ threads / 32
                prop_assert!(t.as_run.iter().sum::<f64>() + 1e-6 >= total / 32.0);
            }
        }

        /// The exact mode's per-group best edges pick the same merges as Algorithm 1 read
        /// literally: the pair of largest gain among all live pairs, every time.
        #[test]
        fn exact_greedy_matches_all_pairs_search(
            rows in proptest::collection::vec(proptest::collection::vec(0u32..4, 3), 1..300),
        ) {
            let counts: Vec<u32> = rows.concat();
            let lat = vec![2.0, 1.0, 5.0];
            let c = Classes::new(&counts, 3, &lat);
            prop_assert_eq!(greedy(&c, &lat, 32), all_pairs_greedy(&c, &lat, 32));
        }

        /// `Ordered` keeps the order, bounds and windows a sorted set would.
        #[test]
        fn ordered_matches_a_sorted_set(
            ops in proptest::collection::vec((0u64..200, any::<bool>()), 1..600),
        ) {
            use std::collections::BTreeMap;
            let w = 2;
            let mut o = Ordered::of_sorted(w, std::iter::empty());
            let mut set: BTreeMap<(u64, u32), [u32; 2]> = BTreeMap::new();
            let mut scratch = [0u32; 2];
            for (i, &(key, add)) in ops.iter().enumerate() {
                let victim = set.range((key, 0)..).next().map(|(k, _)| *k);
                match victim {
                    Some(k) if !add => {
                        o.remove(k, &mut scratch);
                        prop_assert_eq!(scratch, set.remove(&k).unwrap());
                    }
                    _ => {
                        let k = (key, i as u32);
                        let b = [key as u32, i as u32];
                        o.insert(k, &b);
                        set.insert(k, b);
                    }
                }
                // every entry's window: its 3 neighbours on each side, nearest first
                let keys: Vec<_> = set.keys().copied().collect();
                for (p, &k) in keys.iter().enumerate() {
                    let mut got = Vec::new();
                    o.window(k, 3, |own, j, b| {
                        assert_eq!(own, &set[&k]);
                        got.push((j, b.to_vec()));
                    });
                    let want: Vec<_> = keys[p.saturating_sub(3)..p]
                        .iter()
                        .rev()
                        .chain(keys[p + 1..].iter().take(3))
                        .map(|k| (k.1, set[k].to_vec()))
                        .collect();
                    prop_assert_eq!(got, want);
                }
            }
        }
    }

    /// Algorithm 1 on the leftover groups, literally: every step scans all live pairs.
    fn all_pairs_greedy(c: &Classes, lat: &[f64], gs: usize) -> Vec<Members> {
        let gs32 = gs as u32;
        let w = 2 * c.cols;
        let mut out = Vec::new();
        let (mut pool, mut bounds) = leftover_pool(c, lat, gs32, &mut out);
        let mut made = vec![0u32; w];
        while pool.live > 1 {
            let live: Vec<usize> = (0..pool.len()).filter(|&i| pool.alive[i]).collect();
            let mut best: Option<Edge> = None;
            for (x, &i) in live.iter().enumerate() {
                for &j in &live[x + 1..] {
                    let g = pair_gain(
                        lat,
                        &bounds[i * w..(i + 1) * w],
                        &bounds[j * w..(j + 1) * w],
                        c.cols,
                    );
                    let e = Edge::of(g, i, j);
                    if best.is_none_or(|b| e > b) {
                        best = Some(e);
                    }
                }
            }
            let Edge(_, a, b) = best.unwrap();
            let (a, b) = (a as usize, b as usize);
            let (ba, bb) = (
                bounds[a * w..(a + 1) * w].to_vec(),
                bounds[b * w..(b + 1) * w].to_vec(),
            );
            if merge(
                &mut pool,
                c,
                lat,
                gs32,
                (a, &ba),
                (b, &bb),
                &mut made,
                &mut out,
            )
            .is_some()
            {
                bounds.extend_from_slice(&made);
            }
        }
        for id in 0..pool.len() {
            if pool.alive[id] {
                out.push(std::mem::take(&mut pool.members[id]));
            }
        }
        out
    }
}
