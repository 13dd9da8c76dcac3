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
//!   are at most [`EXACT_LEFTOVERS`] of them; with more, each leftover's candidate partners
//!   are its [`WINDOW`] nearest leftovers by latency on either side (so the work stays
//!   `O(leftovers × WINDOW)` rather than quadratic). Greedy does not order blocks: groups are
//!   laid out by their smallest thread id, full groups first.
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
use std::collections::{BTreeSet, BinaryHeap};

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
fn gain(lat: &[f64], min_a: &[u32], max_a: &[u32], min_b: &[u32], max_b: &[u32]) -> f64 {
    let mut g = 0.0;
    for j in 0..lat.len() {
        let lo = min_a[j].min(min_b[j]);
        let hi = max_a[j].max(max_b[j]);
        g += lat[j] * (2.0 * f64::from(lo) - f64::from(hi));
    }
    g
}

struct Group {
    members: Vec<(u32, u32)>,
    min: Vec<u32>,
    max: Vec<u32>,
    /// `Σ lat × max` (the sort key for candidate windows).
    key: f64,
    alive: bool,
}

impl Group {
    fn of(classes: &Classes, lat: &[f64], members: Vec<(u32, u32)>) -> Group {
        let mut min = vec![u32::MAX; classes.cols];
        let mut max = vec![0u32; classes.cols];
        for &(c, _) in &members {
            for ((lo, hi), &v) in min.iter_mut().zip(max.iter_mut()).zip(classes.vector(c)) {
                *lo = (*lo).min(v);
                *hi = (*hi).max(v);
            }
        }
        if members.is_empty() {
            min.iter_mut().for_each(|x| *x = 0);
        }
        let key = max.iter().zip(lat).map(|(&m, &l)| f64::from(m) * l).sum();
        Group {
            members,
            min,
            max,
            key,
            alive: true,
        }
    }
}

#[derive(PartialEq)]
struct Edge(f64, usize, usize);
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

/// A group's members: (class, threads of that class).
type Members = Vec<(u32, u32)>;

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

fn greedy(classes: &Classes, lat: &[f64], gs: usize) -> Vec<Vec<(u32, u32)>> {
    let gs32 = gs as u32;
    let mut out: Vec<Vec<(u32, u32)>> = Vec::new();
    // identical threads first, in descending gain (= class latency) order
    let mut ids: Vec<u32> = (0..classes.len() as u32).collect();
    ids.sort_by(|&a, &b| {
        classes.latency[b as usize]
            .total_cmp(&classes.latency[a as usize])
            .then(a.cmp(&b))
    });
    let mut groups: Vec<Group> = Vec::new();
    for &c in &ids {
        let n = classes.size[c as usize];
        for _ in 0..n / gs32 {
            out.push(vec![(c, gs32)]);
        }
        if !n.is_multiple_of(gs32) {
            groups.push(Group::of(classes, lat, vec![(c, n % gs32)]));
        }
    }
    let exact = groups.len() <= EXACT_LEFTOVERS;
    // candidate order by key, for the windowed mode
    let mut by_key: BTreeSet<(u64, usize)> = BTreeSet::new();
    let key_of = |g: &Group| g.key.max(0.0).to_bits();
    for (i, g) in groups.iter().enumerate() {
        by_key.insert((key_of(g), i));
    }
    let candidates = |groups: &Vec<Group>, by_key: &BTreeSet<(u64, usize)>, i: usize| {
        if exact {
            (0..groups.len())
                .filter(|&j| j != i && groups[j].alive)
                .collect::<Vec<_>>()
        } else {
            let k = (key_of(&groups[i]), i);
            let mut v: Vec<usize> = by_key.range(..k).rev().take(WINDOW).map(|x| x.1).collect();
            v.extend(
                by_key
                    .range((std::ops::Bound::Excluded(k), std::ops::Bound::Unbounded))
                    .take(WINDOW)
                    .map(|x| x.1),
            );
            v
        }
    };
    // Exact mode: every pair's edge is in the heap. Windowed mode: each group keeps one edge,
    // to its best candidate; when that partner is merged away the edge goes stale and the
    // group looks again (so the heap holds O(groups) edges, never a window per stale edge).
    let best_edge = |groups: &Vec<Group>, by_key: &BTreeSet<(u64, usize)>, i: usize| {
        let g = &groups[i];
        candidates(groups, by_key, i)
            .into_iter()
            .filter(|&j| groups[j].alive)
            .map(|j| {
                let h = &groups[j];
                Edge(gain(lat, &g.min, &g.max, &h.min, &h.max), i, j)
            })
            .max()
    };
    let mut heap = BinaryHeap::new();
    for i in 0..groups.len() {
        if exact {
            for j in i + 1..groups.len() {
                let (a, b) = (&groups[i], &groups[j]);
                heap.push(Edge(gain(lat, &a.min, &a.max, &b.min, &b.max), i, j));
            }
        } else if let Some(e) = best_edge(&groups, &by_key, i) {
            heap.push(e);
        }
    }
    let mut alive = groups.len();
    while alive > 1 {
        let Some(Edge(_, a, b)) = heap.pop() else {
            break;
        };
        if !groups[a].alive || !groups[b].alive {
            if !exact {
                // the owner (first) of a stale edge looks for a new partner
                if groups[a].alive
                    && let Some(e) = best_edge(&groups, &by_key, a)
                {
                    heap.push(e);
                }
            }
            continue;
        }
        groups[a].alive = false;
        groups[b].alive = false;
        by_key.remove(&(key_of(&groups[a]), a));
        by_key.remove(&(key_of(&groups[b]), b));
        alive -= 2;
        // the larger group's threads first, so an overflow splits the newcomer, not a
        // group already formed
        let (first, second) = if groups[b].members.iter().map(|m| m.1).sum::<u32>()
            > groups[a].members.iter().map(|m| m.1).sum::<u32>()
        {
            (b, a)
        } else {
            (a, b)
        };
        let mut members = std::mem::take(&mut groups[first].members);
        members.extend(std::mem::take(&mut groups[second].members));
        let size: u32 = members.iter().map(|m| m.1).sum();
        let rest = if size > gs32 {
            let (head, tail) = split(members, gs32);
            out.push(head);
            tail
        } else {
            members
        };
        if size == gs32 {
            out.push(rest);
            continue;
        }
        if rest.is_empty() {
            continue;
        }
        let g = Group::of(classes, lat, rest);
        let id = groups.len();
        by_key.insert((key_of(&g), id));
        groups.push(g);
        alive += 1;
        if exact {
            for j in 0..id {
                if groups[j].alive {
                    let (x, y) = (&groups[j], &groups[id]);
                    heap.push(Edge(gain(lat, &x.min, &x.max, &y.min, &y.max), j, id));
                }
            }
        } else if let Some(e) = best_edge(&groups, &by_key, id) {
            heap.push(e);
        }
        if !exact && heap.is_empty() && alive > 1 {
            // every survivor's edge was consumed: pair them afresh
            for i in (0..groups.len()).filter(|&i| groups[i].alive) {
                if let Some(e) = best_edge(&groups, &by_key, i) {
                    heap.push(e);
                }
            }
        }
    }
    for g in groups.into_iter().filter(|g| g.alive) {
        out.push(g.members);
    }
    out
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
    }
}
