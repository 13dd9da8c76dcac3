//! Greedy-Max (Algorithm 2): seed each group with the thread of highest latency left, then add
//! identical threads, else the thread of maximal gain.

use super::{GREEDY_MAX_BUDGET, GREEDY_MAX_SCAN, Members, by_descending_latency, gain};
use crate::estimate::Classes;

pub(super) fn greedy_max(classes: &Classes, lat: &[f64], gs: usize) -> Vec<Members> {
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
