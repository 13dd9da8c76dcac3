//! Greedy-Max (Algorithm 2): seed each group with the thread of highest latency left, then add
//! identical threads, else the thread of maximal gain.

use super::{GREEDY_MAX_BUDGET, GREEDY_MAX_SCAN, Members, by_descending_latency};
use crate::estimate::Classes;

pub(super) fn greedy_max(classes: &Classes, lat: &[f64], gs: usize) -> Vec<Members> {
    greedy_max_with_budget(classes, lat, gs, GREEDY_MAX_BUDGET)
}

/// Greedy-Max with an exact search budget of `per_thread` classes examined per thread.
pub(super) fn greedy_max_with_budget(
    classes: &Classes,
    lat: &[f64],
    gs: usize,
    per_thread: u64,
) -> Vec<Members> {
    let gs32 = gs as u32;
    let d = classes.len();
    let cols = classes.cols;
    let mut budget: u64 =
        per_thread.saturating_mul(classes.size.iter().map(|&n| u64::from(n)).sum::<u64>());
    // The classes by descending latency, then id: the walk's order. Positions in it stand for
    // the classes below; their latencies, vectors and threads left are copied in that order,
    // so a walk reads memory in order instead of one class's vector here and one there (at a
    // million distinct vectors those reads were nearly all cache misses).
    let by_lat = by_descending_latency(classes);
    let latency: Vec<f64> = by_lat
        .iter()
        .map(|&c| classes.latency[c as usize])
        .collect();
    // (as `f64`, exact: no conversion in the walk)
    let mut vectors_f: Vec<f64> = Vec::with_capacity(d * cols);
    for &c in &by_lat {
        vectors_f.extend(classes.vector(c).iter().map(|&x| f64::from(x)));
    }
    let lat = &lat[..cols.min(lat.len())];
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
    // the group's Min and Max vectors
    let mut gmin = vec![0.0; cols];
    let mut gmax = vec![0.0; cols];
    let vector_f = |p: usize| &vectors_f[p * cols..(p + 1) * cols];
    while head != NIL {
        let seed = head;
        let mut members: Members = Vec::new();
        let mut size = 0u32;
        gmin.copy_from_slice(vector_f(seed as usize));
        gmax.copy_from_slice(vector_f(seed as usize));
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
            let lat_max: f64 = gmax.iter().zip(lat).map(|(&m, &l)| m * l).sum();
            let lat_min: f64 = gmin.iter().zip(lat).map(|(&m, &l)| m * l).sum();
            let mut best = f64::NEG_INFINITY;
            let mut best_p = NIL;
            let mut p = head;
            let mut scanned = 0usize;
            // the gain bound: each column's term `l × (2·min(lo, v) − max(hi, v))` is at most
            // `l × (2·v − hi)` and at most `l × (2·lo − hi)`, so the gain is at most
            // `2·min(Lat_c, Σ lat·Min) − Σ lat·Max`; the walk is by descending `Lat_c`, so the
            // bound only falls from here on, and the walk stops once it cannot beat the best
            let pruned = |lp: f64, best: f64| 2.0 * lp.min(lat_min) - lat_max <= best;
            'walk: while p != NIL {
                // the next few classes that can still beat the best found so far (the best
                // only grows, so a class that cannot now cannot later either), their gains
                // computed together, then taken one by one as the walk would
                let mut batch = [NIL; GAIN_BATCH];
                let mut n = 0;
                let mut q = p;
                while n < GAIN_BATCH && q != NIL {
                    let limited = budget <= n as u64 && scanned + n == GREEDY_MAX_SCAN;
                    if limited || pruned(latency[q as usize], best) {
                        break;
                    }
                    batch[n] = q;
                    n += 1;
                    q = next[q as usize];
                }
                if n == 0 {
                    break;
                }
                let gains = batch_gains(lat, &gmin, &gmax, &vectors_f, cols, &batch[..n]);
                for (&b, &g) in batch[..n].iter().zip(&gains) {
                    if pruned(latency[b as usize], best) {
                        p = b;
                        break 'walk;
                    }
                    scanned += 1;
                    budget = budget.saturating_sub(1);
                    if g > best {
                        best = g;
                        best_p = b;
                    }
                }
                p = q;
            }
            // `p`: the first class not examined. The budget is spent as the looser bound
            // `min(Lat_c, 2·Lat_c − Σ lat·Max)` would have spent it (the classes it would still
            // examine from here, none of which can beat the best), so that the search stays
            // exact for as many threads as it did with that bound, and the orders are the same
            while p != NIL && !(budget == 0 && scanned == GREEDY_MAX_SCAN) {
                let lp = latency[p as usize];
                if lp.min(2.0 * lp - lat_max) <= best {
                    break;
                }
                scanned += 1;
                budget = budget.saturating_sub(1);
                p = next[p as usize];
            }
            if best_p == NIL {
                break;
            }
            for ((lo, hi), &v) in gmin
                .iter_mut()
                .zip(gmax.iter_mut())
                .zip(vector_f(best_p as usize))
            {
                *lo = f64::min(*lo, v);
                *hi = f64::max(*hi, v);
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

/// Classes whose gains the walk computes together.
const GAIN_BATCH: usize = 4;

/// The gains of adding one thread of each class at positions `batch` (vectors `vectors`, as
/// `f64`) to a group with bounds `lo`, `hi`: [`super::gain`]'s value to the bit (each sum in
/// column order from the same exact terms), the classes' sums interleaved so that their
/// additions overlap instead of each waiting on the one before.
fn batch_gains(
    lat: &[f64],
    lo: &[f64],
    hi: &[f64],
    vectors: &[f64],
    cols: usize,
    batch: &[u32],
) -> [f64; GAIN_BATCH] {
    let mut rows: [&[f64]; GAIN_BATCH] = [&[]; GAIN_BATCH];
    for (k, r) in rows.iter_mut().enumerate() {
        // a short batch repeats its first class (the extra sums are not used)
        let p = batch.get(k).unwrap_or(&batch[0]);
        *r = &vectors[*p as usize * cols..(*p as usize + 1) * cols];
    }
    let mut g = [0.0; GAIN_BATCH];
    for (b, &l) in lat.iter().enumerate() {
        let (a, h) = (lo[b], hi[b]);
        for (gk, r) in g.iter_mut().zip(&rows) {
            let v = r[b];
            // `min`/`max` without NaN handling: the values are exact integers
            let mn = if v < a { v } else { a };
            let mx = if v > h { v } else { h };
            *gk += l * ((mn + mn) - mx);
        }
    }
    g
}
