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
//!   of every pair). With more, the leftovers are put in order of `Σ lat × Max` and cut into
//!   segments of [`SEGMENT`]; each segment is merged on its own until [`SEGMENT_LEFT`] of its
//!   groups are left, with each group's candidate partners its [`WINDOW`] nearest groups in
//!   that order on either side (read from [`Slots`], which keeps the groups' Min and Max vectors
//!   in that order, so a window is one stretch of memory, and a segment's fits in a core's
//!   cache), and the segments' survivors are merged in turn the same way (all pairs once they
//!   are few enough). The work stays `O(leftovers × WINDOW)` rather than quadratic. Greedy
//!   does not order blocks: groups are laid out by their smallest thread id, full groups first.
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
//!
//! Why one file of ~1,370 lines: the three algorithms share the class table, the leftover
//! pool and the order layout, and Greedy's exact and windowed modes share its slot arena;
//! splitting Greedy out (`regroup/greedy.rs`) is the next step when it grows again.

use crate::estimate::Classes;
use serde::Serialize;

/// Leftover groups up to which Greedy compares every pair.
pub const EXACT_LEFTOVERS: usize = 1024;
/// Candidate partners on each side (by latency) beyond that.
pub const WINDOW: usize = 16;
/// Leftover groups merged together beyond [`EXACT_LEFTOVERS`]: consecutive in candidate
/// order, merged apart from the others' (a segment's groups and heap fit in a core's cache).
pub const SEGMENT: usize = 4096;
/// Groups a segment stops merging at: they are merged with the other segments' leftovers.
pub const SEGMENT_LEFT: usize = 64;
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
    let by = ThreadsByClass::new(classes);
    let mut order = Vec::with_capacity(classes.threads());
    for c in lexicographic(classes) {
        order.extend_from_slice(by.of(c));
    }
    order
}

/// The class ids in lexicographic order of their vectors (which are distinct, so the order is
/// unique). Sorted two columns at a time: the ids are sorted by their first two columns, each
/// run still tied by the next two, and so on, so each round reads a vector once rather than at
/// every comparison (a comparison sort's reads were nearly all cache misses at 839 K classes).
fn lexicographic(classes: &Classes) -> Vec<u32> {
    let cols = classes.cols;
    let n = classes.len();
    let mut ids: Vec<u32> = (0..n as u32).collect();
    let mut keyed: Vec<(u64, u32)> = Vec::with_capacity(n);
    // ranges of `ids` tied on the columns before `col`
    let mut todo = vec![(0usize, n, 0usize)];
    while let Some((lo, hi, col)) = todo.pop() {
        if hi - lo < 2 || col >= cols {
            continue;
        }
        keyed.clear();
        keyed.extend(ids[lo..hi].iter().map(|&c| {
            let v = classes.vector(c);
            let second = v.get(col + 1).map_or(0, |&x| u64::from(x));
            (u64::from(v[col]) << 32 | second, c)
        }));
        keyed.sort_unstable();
        for (slot, &(_, c)) in ids[lo..hi].iter_mut().zip(&keyed) {
            *slot = c;
        }
        let mut a = 0;
        while a < keyed.len() {
            let b = a + keyed[a..].partition_point(|e| e.0 == keyed[a].0);
            if b - a > 1 {
                todo.push((lo + a, lo + b, col + 2));
            }
            a = b;
        }
    }
    ids
}

/// The threads of each class in id order, all in one buffer (class `c`'s are
/// `threads[start[c]..start[c + 1]]`).
struct ThreadsByClass {
    start: Vec<usize>,
    threads: Vec<u32>,
}

impl ThreadsByClass {
    fn new(classes: &Classes) -> ThreadsByClass {
        let mut start = Vec::with_capacity(classes.len() + 1);
        let mut at = 0usize;
        start.push(0);
        for &n in &classes.size {
            at += n as usize;
            start.push(at);
        }
        let mut fill = start.clone();
        let mut threads = vec![0u32; at];
        for (t, &c) in classes.of_thread.iter().enumerate() {
            let f = &mut fill[c as usize];
            threads[*f] = t as u32;
            *f += 1;
        }
        ThreadsByClass { start, threads }
    }

    fn of(&self, c: u32) -> &[u32] {
        &self.threads[self.start[c as usize]..self.start[c as usize + 1]]
    }
}

/// Turns groups (class, count) into a thread order, taking each class's threads in id order.
/// With `by_first_thread`, groups are laid out by their smallest thread id, full groups
/// first; otherwise in the order given.
fn lay_out(classes: &Classes, groups: Vec<Members>, by_first_thread: bool) -> Vec<u32> {
    let by = ThreadsByClass::new(classes);
    let mut next: Vec<usize> = by.start[..by.start.len() - 1].to_vec();
    let mut flat = Vec::with_capacity(classes.threads());
    // each group's place in `flat`
    let mut spans: Vec<(usize, usize)> = Vec::with_capacity(groups.len());
    for g in &groups {
        let at = flat.len();
        for &(c, k) in g {
            let c = c as usize;
            flat.extend_from_slice(&by.threads[next[c]..next[c] + k as usize]);
            next[c] += k as usize;
        }
        spans.push((at, flat.len() - at));
    }
    if !by_first_thread {
        return flat;
    }
    let full = spans.iter().map(|s| s.1).max().unwrap_or(0);
    // (not full, smallest thread): distinct for every group, so the order is total
    let mut keyed: Vec<(bool, u32, usize)> = spans
        .iter()
        .enumerate()
        .map(|(i, &(at, n))| {
            let first = flat[at..at + n].iter().min().copied().unwrap_or(0);
            (n < full, first, i)
        })
        .collect();
    keyed.sort_unstable();
    let mut order = Vec::with_capacity(flat.len());
    for (_, _, i) in keyed {
        let (at, n) = spans[i];
        order.extend_from_slice(&flat[at..at + n]);
    }
    order
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
    fn new(cols: usize) -> Pool {
        Pool {
            cols,
            key: Vec::new(),
            alive: Vec::new(),
            members: Vec::new(),
            live: 0,
        }
    }

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

/// The class ids by descending latency (`total_cmp`), then ascending id. Sorted as keys
/// beside the ids rather than by looking each latency up at every comparison (nearly all cache
/// misses at a million classes).
fn by_descending_latency(classes: &Classes) -> Vec<u32> {
    let mut keyed: Vec<(u64, u32)> = classes
        .latency
        .iter()
        .enumerate()
        .map(|(c, &l)| {
            // `total_cmp`'s order as unsigned integers, reversed
            let b = l.to_bits();
            let ordered = if b >> 63 == 1 { !b } else { b | 1 << 63 };
            (!ordered, c as u32)
        })
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|k| k.1).collect()
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
    let ids = by_descending_latency(classes);
    let mut pool = Pool::new(classes.cols);
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
    let (pool, bounds) = leftover_pool(classes, lat, gs32, &mut out);
    merge_leftovers(pool, bounds, classes, lat, gs32, &mut out);
    out
}

/// Merges the pool's groups: all pairs when there are at most [`EXACT_LEFTOVERS`]; otherwise
/// the groups, in candidate order, are cut into segments of [`SEGMENT`], each segment's are
/// merged by [`merge_windowed`] on their own, and the segments' survivors (at most one each)
/// are merged in turn the same way. The survivors go to `out`.
fn merge_leftovers(
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
                out.push(std::mem::take(&mut pool.members[id]));
            }
        }
        return;
    }
    let mut keys: Vec<(u64, u32)> = (0..pool.len()).map(|i| pool.key_of(i)).collect();
    keys.sort_unstable();
    let mut survivors = Pool::new(pool.cols);
    let mut survivors_bounds: Vec<u32> = Vec::new();
    let mut seg_bounds: Vec<u32> = Vec::new();
    for seg in keys.chunks(SEGMENT) {
        // the segment's groups, by id in candidate order
        let mut part = Pool::new(pool.cols);
        seg_bounds.clear();
        for &(_, id) in seg {
            let id = id as usize;
            let b = &bounds[id * w..(id + 1) * w];
            seg_bounds.extend_from_slice(b);
            part.add(lat, std::mem::take(&mut pool.members[id]), b);
        }
        merge_windowed(
            &mut part,
            &seg_bounds,
            classes,
            lat,
            gs32,
            out,
            SEGMENT_LEFT,
        );
        for id in 0..part.len() {
            if part.alive[id] {
                let members = std::mem::take(&mut part.members[id]);
                let at = survivors_bounds.len();
                survivors_bounds.resize(at + w, 0);
                bounds_of(classes, &members, &mut survivors_bounds[at..]);
                survivors.add(lat, members, &survivors_bounds[at..]);
            }
        }
    }
    merge_leftovers(survivors, survivors_bounds, classes, lat, gs32, out);
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

/// A slot whose group was merged away.
const DEAD: u32 = u32::MAX;

/// The live groups of the windowed mode in candidate order, one slot each with a copy of its
/// Min-then-Max bounds, so that a group's window is one stretch of memory read in order. The
/// slots start in order of `Σ lat × Max`; a merged group takes the slot of the parent of
/// larger key (its own key is at least both parents', so that is the nearer one), the other
/// slot dies, and dead slots are dropped (in one pass, keeping the order) once they are as
/// many as the live ones, so a window skips at most as many dead slots as it reads on average.
struct Slots {
    /// Bounds per slot.
    w: usize,
    /// The group in each slot, or [`DEAD`].
    ids: Vec<u32>,
    bounds: Vec<u32>,
    /// The slot of each group id ([`DEAD`] once merged away).
    slot: Vec<u32>,
    live: usize,
}

impl Slots {
    /// Groups `0..n` with their bounds (by id) in the order `order`.
    fn new(w: usize, order: &[u32], bounds: &[u32]) -> Slots {
        let n = order.len();
        let mut s = Slots {
            w,
            ids: order.to_vec(),
            bounds: Vec::with_capacity(n * w),
            slot: vec![DEAD; n],
            live: n,
        };
        for (at, &id) in order.iter().enumerate() {
            s.bounds
                .extend_from_slice(&bounds[id as usize * w..(id as usize + 1) * w]);
            s.slot[id as usize] = at as u32;
        }
        s
    }

    fn bounds_at(&self, at: usize) -> &[u32] {
        &self.bounds[at * self.w..(at + 1) * self.w]
    }

    /// The bounds of live group `id`.
    fn bounds_of(&self, id: u32) -> &[u32] {
        self.bounds_at(self.slot[id as usize] as usize)
    }

    /// Empties the slot of live group `id`; returns the slot.
    fn kill(&mut self, id: u32) -> usize {
        let at = std::mem::replace(&mut self.slot[id as usize], DEAD) as usize;
        self.ids[at] = DEAD;
        self.live -= 1;
        at
    }

    /// Puts group `id` with `bounds` in the empty slot `at`.
    fn put(&mut self, at: usize, id: u32, bounds: &[u32]) {
        debug_assert_eq!(self.ids[at], DEAD);
        if self.slot.len() <= id as usize {
            self.slot.resize(id as usize + 1, DEAD);
        }
        self.slot[id as usize] = at as u32;
        self.ids[at] = id;
        self.bounds[at * self.w..(at + 1) * self.w].copy_from_slice(bounds);
        self.live += 1;
    }

    /// Drops the dead slots if they are at least as many as the live ones (and a few).
    fn compact_if_sparse(&mut self) {
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
    fn window(&self, at: usize, n: usize, out: &mut Vec<u32>) {
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

    /// The best edge of live group `i` with the groups of its window (`scratch`: a buffer).
    fn best_edge(&self, lat: &[f64], i: u32, scratch: &mut Vec<u32>) -> Option<Edge> {
        let cols = self.w / 2;
        let at = self.slot[i as usize] as usize;
        self.window(at, WINDOW, scratch);
        let own = self.bounds_at(at);
        let mut best: Option<Edge> = None;
        let mut consider = |g: f64, j: u32| {
            let e = Edge(g, i, self.ids[j as usize]);
            if best.is_none_or(|x| e > x) {
                best = Some(e);
            }
        };
        let mut quads = scratch.chunks_exact(4);
        for q in quads.by_ref() {
            let g = pair_gains4(
                lat,
                own,
                [q[0], q[1], q[2], q[3]].map(|j| self.bounds_at(j as usize)),
                cols,
            );
            for (&g, &j) in g.iter().zip(q) {
                consider(g, j);
            }
        }
        for &j in quads.remainder() {
            consider(pair_gain(lat, own, self.bounds_at(j as usize), cols), j);
        }
        best
    }
}

/// [`pair_gain`] of `own` with each of four groups (bounds Min then Max): each sum is taken
/// in column order, as `pair_gain` takes it (so the values are the same), the four side by
/// side, so that their additions overlap instead of each waiting on the one before.
#[inline]
fn pair_gains4(lat: &[f64], own: &[u32], other: [&[u32]; 4], cols: usize) -> [f64; 4] {
    let (min_a, max_a) = own.split_at(cols);
    let (min_a, max_a, lat) = (&min_a[..cols], &max_a[..cols], &lat[..cols]);
    let mins = other.map(|o| &o[..cols]);
    let maxs = other.map(|o| &o[cols..2 * cols]);
    let mut g = [0.0f64; 4];
    for b in 0..cols {
        for k in 0..4 {
            let lo = min_a[b].min(mins[k][b]);
            let hi = max_a[b].max(maxs[k][b]);
            g[k] += lat[b] * (2 * i64::from(lo) - i64::from(hi)) as f64;
        }
    }
    g
}

/// Merges by largest gain with each group's candidates limited to its [`WINDOW`] nearest live
/// groups in candidate order ([`Slots`]) on either side, until `left` groups are left. Each
/// group keeps one edge in the heap, to its best candidate when it looked; when that partner
/// is merged away the edge goes stale and the group looks again (so the heap holds O(groups)
/// edges, never a window per stale edge). (`bounds` of the groups, by id.)
fn merge_windowed(
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
    let mut scratch = Vec::with_capacity(2 * WINDOW);
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
        ba.copy_from_slice(slots.bounds_of(a as u32));
        bb.copy_from_slice(slots.bounds_of(b as u32));
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

fn greedy_max(classes: &Classes, lat: &[f64], gs: usize) -> Vec<Members> {
    let gs32 = gs as u32;
    let d = classes.len();
    let cols = classes.cols;
    let mut budget: u64 =
        GREEDY_MAX_BUDGET * classes.size.iter().map(|&n| u64::from(n)).sum::<u64>();
    // The classes by descending latency, then id: the walk's order. Positions in it stand for
    // the classes below; their latencies, vectors and threads left are copied in that order,
    // so a walk reads memory in order instead of one class's vector here and one there (at a
    // million distinct vectors those reads were nearly all cache misses).
    let by_lat = by_descending_latency(classes);
    let latency: Vec<f64> = by_lat
        .iter()
        .map(|&c| classes.latency[c as usize])
        .collect();
    let mut vectors: Vec<u32> = Vec::with_capacity(d * cols);
    for &c in &by_lat {
        vectors.extend_from_slice(classes.vector(c));
    }
    let vector = |p: usize| &vectors[p * cols..(p + 1) * cols];
    let mut left: Vec<u32> = by_lat.iter().map(|&c| classes.size[c as usize]).collect();
    // the positions with threads left, as a doubly linked list
    const NIL: u32 = u32::MAX;
    let mut next: Vec<u32> = (1..=d as u32).collect();
    let mut prev: Vec<u32> = (0..d as u32).map(|p| p.wrapping_sub(1)).collect();
    if let Some(last) = next.last_mut() {
        *last = NIL;
    }
    let mut head = if d == 0 { NIL } else { 0 };
    let remove = |p: u32, head: &mut u32, next: &mut [u32], prev: &mut [u32]| {
        let (a, b) = (prev[p as usize], next[p as usize]);
        if a == NIL {
            *head = b;
        } else {
            next[a as usize] = b;
        }
        if b != NIL {
            prev[b as usize] = a;
        }
    };
    let take = |p: u32, k: u32, members: &mut Members, left: &mut [u32]| {
        match members.iter_mut().find(|m| m.0 == p) {
            Some(m) => m.1 += k,
            None => members.push((p, k)),
        }
        left[p as usize] -= k;
    };
    let mut out = Vec::new();
    let mut gmin = vec![0u32; cols];
    let mut gmax = vec![0u32; cols];
    while head != NIL {
        let seed = head;
        let mut members: Members = Vec::new();
        let mut size = 0u32;
        gmin.copy_from_slice(vector(seed as usize));
        gmax.copy_from_slice(vector(seed as usize));
        take(seed, 1, &mut members, &mut left);
        size += 1;
        if left[seed as usize] == 0 {
            remove(seed, &mut head, &mut next, &mut prev);
        }
        while size < gs32 && head != NIL {
            // identical threads first
            if let Some(&(p, _)) = members.iter().find(|m| left[m.0 as usize] > 0) {
                let k = left[p as usize].min(gs32 - size);
                take(p, k, &mut members, &mut left);
                size += k;
                if left[p as usize] == 0 {
                    remove(p, &mut head, &mut next, &mut prev);
                }
                continue;
            }
            let lat_max: f64 = gmax.iter().zip(lat).map(|(&m, &l)| f64::from(m) * l).sum();
            let mut best = f64::NEG_INFINITY;
            let mut best_p = NIL;
            let mut p = head;
            let mut scanned = 0usize;
            while p != NIL {
                let lp = latency[p as usize];
                if lp.min(2.0 * lp - lat_max) <= best || budget == 0 && scanned == GREEDY_MAX_SCAN {
                    break;
                }
                scanned += 1;
                budget = budget.saturating_sub(1);
                let v = vector(p as usize);
                let g = gain(lat, &gmin, &gmax, v, v);
                if g > best {
                    best = g;
                    best_p = p;
                }
                p = next[p as usize];
            }
            if best_p == NIL {
                break;
            }
            for ((lo, hi), &v) in gmin
                .iter_mut()
                .zip(gmax.iter_mut())
                .zip(vector(best_p as usize))
            {
                *lo = (*lo).min(v);
                *hi = (*hi).max(v);
            }
            take(best_p, 1, &mut members, &mut left);
            size += 1;
            if left[best_p as usize] == 0 {
                remove(best_p, &mut head, &mut next, &mut prev);
            }
        }
        for m in &mut members {
            m.0 = by_lat[m.0 as usize];
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
    fn windowed_greedy_over_segments_finds_the_clusters() {
        // 600 clusters of 32 threads, each thread its own vector (column 0 spread by the
        // thread within its cluster, far apart between clusters): 19,200 leftovers, so five
        // segments, whose survivors are merged in turn. Greedy should find the clusters (as
        // Sorting does here), leaving at most one partial group.
        let mut counts = Vec::new();
        for k in 0..600u32 {
            for t in 0..32u32 {
                let c = (k * 7919) % 600;
                counts.extend([1000 * c + t, c % 5, 3]);
            }
        }
        let lat = vec![1.0, 40.0, 2.0];
        let c = launch(&counts, 3, &lat);
        assert_eq!(c.len(), 19_200);
        let groups = greedy(&c, &lat, 32);
        let sizes: Vec<u32> = groups.iter().map(threads).collect();
        assert!(sizes.iter().filter(|&&n| n != 32).count() <= 1, "{sizes:?}");
        let work = |alg| {
            let o = regroup(alg, &c, &lat, 32);
            assert!(is_permutation(&o, 19_200));
            block_times(&c, &lat, 256, Some(&o), false)
                .as_run
                .iter()
                .sum::<f64>()
        };
        let (greedy, sorting) = (work(Algorithm::Greedy), work(Algorithm::Sorting));
        assert!(
            greedy <= 1.02 * sorting,
            "greedy {greedy}, sorting {sorting}"
        );
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

        /// The latency order is `total_cmp`'s, descending, then by id.
        #[test]
        fn latency_order_matches_total_cmp(
            lat in proptest::collection::vec(
                prop_oneof![any::<f64>(), Just(0.0), Just(-0.0), Just(1.5), Just(f64::NAN)],
                0..200,
            ),
        ) {
            let c = Classes {
                cols: 0,
                vectors: Vec::new(),
                of_thread: Vec::new(),
                size: vec![1; lat.len()],
                latency: lat.clone(),
            };
            let mut want: Vec<u32> = (0..lat.len() as u32).collect();
            want.sort_by(|&a, &b| lat[b as usize].total_cmp(&lat[a as usize]).then(a.cmp(&b)));
            prop_assert_eq!(by_descending_latency(&c), want);
        }

        /// Sorting's order is the threads sorted by vector, then by id.
        #[test]
        fn sorting_matches_a_comparison_sort(
            rows in proptest::collection::vec(proptest::collection::vec(0u32..4, 1..6), 1..300),
        ) {
            let cols = rows[0].len();
            let counts: Vec<u32> = rows.iter().flat_map(|r| r.iter().cycle().take(cols)).copied().collect();
            let c = Classes::new(&counts, cols, &vec![1.0; cols]);
            let mut want: Vec<u32> = (0..rows.len() as u32).collect();
            want.sort_by(|&a, &b| {
                let (a, b) = (a as usize, b as usize);
                counts[a * cols..(a + 1) * cols].cmp(&counts[b * cols..(b + 1) * cols])
            });
            prop_assert_eq!(regroup(Algorithm::Sorting, &c, &[1.0; 8][..cols], 32), want);
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

        /// `Slots` keeps the order of the groups left, their bounds and their windows, as a
        /// list that merged groups are taken out of (and put back in at a dead parent's
        /// place) would, also across compactions.
        #[test]
        fn slots_match_a_list(
            n in 1usize..300,
            ops in proptest::collection::vec((any::<u32>(), any::<u32>(), any::<bool>()), 0..400),
        ) {
            let w = 2;
            let bounds: Vec<u32> = (0..n as u32).flat_map(|i| [i, 1000 + i]).collect();
            // an order other than by id
            let order: Vec<u32> = (0..n as u32).map(|i| (2 * n as u32 - 1 - i + 5) % n as u32).collect();
            let mut slots = Slots::new(w, &order, &bounds);
            // the model: (id, bounds) in order, `None` for a place whose group is gone
            let mut list: Vec<Option<(u32, [u32; 2])>> = order
                .iter()
                .map(|&i| Some((i, [i, 1000 + i])))
                .collect();
            let mut next_id = n as u32;
            for (x, y, replace) in ops {
                let live: Vec<u32> = list.iter().flatten().map(|e| e.0).collect();
                if live.len() < 2 {
                    break;
                }
                let a = live[x as usize % live.len()];
                let b = live[(x as usize + 1 + y as usize % (live.len() - 1)) % live.len()];
                let pa = list.iter().position(|e| e.is_some_and(|e| e.0 == a)).unwrap();
                let pb = list.iter().position(|e| e.is_some_and(|e| e.0 == b)).unwrap();
                let at = slots.kill(a);
                slots.kill(b);
                list[pa] = None;
                list[pb] = None;
                if replace {
                    let nb = [next_id, 7 * next_id];
                    slots.put(at, next_id, &nb);
                    list[pa] = Some((next_id, nb));
                    next_id += 1;
                }
                slots.compact_if_sparse();
                let live: Vec<(u32, [u32; 2])> = list.iter().flatten().copied().collect();
                prop_assert_eq!(slots.live, live.len());
                let mut scratch = Vec::new();
                for (p, &(id, b)) in live.iter().enumerate() {
                    prop_assert_eq!(slots.bounds_of(id), &b[..]);
                    slots.window(slots.slot[id as usize] as usize, 3, &mut scratch);
                    let got: Vec<u32> = scratch.iter().map(|&j| slots.ids[j as usize]).collect();
                    let want: Vec<u32> = live[p.saturating_sub(3)..p]
                        .iter()
                        .rev()
                        .chain(live[p + 1..].iter().take(3))
                        .map(|e| e.0)
                        .collect();
                    prop_assert_eq!(got, want);
                }
            }
        }

        /// Four gains side by side are the gains one at a time, to the bit.
        #[test]
        fn four_gains_are_the_gains(
            rows in proptest::collection::vec(proptest::collection::vec(0u32..1000, 10), 5),
            lat in proptest::collection::vec(0.0f64..100.0, 5),
        ) {
            let b: Vec<Vec<u32>> = rows
                .iter()
                .map(|r| {
                    let (x, y) = r.split_at(5);
                    x.iter().zip(y).map(|(&p, &q)| p.min(q)).chain(x.iter().zip(y).map(|(&p, &q)| p.max(q))).collect()
                })
                .collect();
            let four = pair_gains4(&lat, &b[0], [&b[1][..], &b[2], &b[3], &b[4]], 5);
            for k in 0..4 {
                prop_assert_eq!(four[k].to_bits(), pair_gain(&lat, &b[0], &b[k + 1], 5).to_bits());
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
