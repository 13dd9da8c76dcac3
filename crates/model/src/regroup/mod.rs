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
//!   descending latency and stops once `2·min(Lat_c, Σ lat·Min_g) − Σ lat·Max_g`, an upper
//!   bound of the gain, cannot beat the best found: exact, and short when similar threads
//!   exist. Its budget (below) is counted as the looser bound `min(Lat_c, 2·Lat_c − Σ lat·Max_g)`
//!   would have examined classes, which keeps the orders that bound gave. When
//!   nearly every thread is distinct and latencies are close, that bound prunes little and the
//!   search would be quadratic in threads (262,144 distinct alignment rows did not finish in 8
//!   minutes). The search is exact until it has examined [`GREEDY_MAX_BUDGET`] classes per
//!   thread of the launch; after that it looks at no more than the [`GREEDY_MAX_SCAN`]
//!   remaining classes of highest latency for each thread it adds (not exact there), so its
//!   work is linear in threads.
//!
//! Layout: [`sorting`], [`greedy`] (Algorithm 1: the leftover pool, its exact mode and the
//! segments) with [`windowed`] (its windowed mode's slot arena and gains), [`greedy_max`]
//! (Algorithm 2), and [`layout`] (groups to a thread order); the shared pieces (the gain, the
//! latency order) are here.

mod greedy;
mod greedy_max;
mod layout;
mod sorting;
#[cfg(test)]
mod tests;
mod windowed;

use crate::estimate::Classes;
use greedy::greedy;
use greedy_max::greedy_max;
use layout::lay_out;
use serde::Serialize;
use sorting::sorting;

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
/// Greedy-Max's exact search budget: classes examined (by the looser bound's count), per
/// thread of the launch.
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

/// Gain of the union of two groups from their Min/Max vectors (equation 10).
#[inline]
pub(super) fn gain(lat: &[f64], min_a: &[u32], max_a: &[u32], min_b: &[u32], max_b: &[u32]) -> f64 {
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
pub(super) type Members = Vec<(u32, u32)>;

/// The class ids by descending latency (`total_cmp`), then ascending id. Sorted as keys
/// beside the ids rather than by looking each latency up at every comparison (nearly all cache
/// misses at a million classes).
pub(super) fn by_descending_latency(classes: &Classes) -> Vec<u32> {
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
