//! Sorting: the threads in lexicographic order of their vectors.

use super::layout::ThreadsByClass;
use crate::estimate::Classes;

pub(super) fn sorting(classes: &Classes) -> Vec<u32> {
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
pub(super) fn lexicographic(classes: &Classes) -> Vec<u32> {
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
