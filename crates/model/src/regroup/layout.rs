//! Groups of (class, count) to a thread order.

use super::Members;
use crate::estimate::Classes;

/// The threads of each class in id order, all in one buffer (class `c`'s are
/// `threads[start[c]..start[c + 1]]`).
pub(super) struct ThreadsByClass {
    pub(super) start: Vec<usize>,
    pub(super) threads: Vec<u32>,
}

impl ThreadsByClass {
    pub(super) fn new(classes: &Classes) -> ThreadsByClass {
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

    pub(super) fn of(&self, c: u32) -> &[u32] {
        &self.threads[self.start[c as usize]..self.start[c as usize + 1]]
    }
}

/// Turns groups (class, count) into a thread order, taking each class's threads in id order.
/// With `by_first_thread`, groups are laid out by their smallest thread id, full groups
/// first; otherwise in the order given.
pub(super) fn lay_out(classes: &Classes, groups: Vec<Members>, by_first_thread: bool) -> Vec<u32> {
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
