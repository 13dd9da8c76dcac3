//! The paper's performance metrics (section IV-B) over per-thread basic-block vectors.
//!
//! * warp: `T_w = Σ_b lat[b] × max_{t∈w} BBV_t[b]` (equations 2 and 3);
//! * thread block: `T_Tb = Σ_{w∈Tb} T_w` (4);
//! * **BBV-weighted**: `Σ T_Tb / #SM` (5);
//! * **BBV-weighted-scheduled**: the blocks, in launch order, dispatched dynamically round-robin
//!   to `#SM × occupancy` block slots (each SM runs up to `occupancy` blocks at once, each
//!   block taking `T_Tb`): a block goes to the slot that frees first, the first wave filling
//!   SM 0, 1, …, 131, then their second slots; the kernel ends when the last block does.
//!
//! Threads with identical vectors are grouped into [`Classes`] first (a uniform kernel has
//! one), so the metrics, the regroupings and their evaluation cost `O(threads × blocks)` once
//! and then work per class.
//!
//! The **no-divergence** estimate replaces each warp's per-block maximum by the mean over the
//! warp's threads (`Σ_b lat[b] × mean_{t∈w} BBV_t[b]`): the same work, as if the warp's
//! threads followed one path and only its amount of work mattered; the gap to the estimate as
//! run is what divergence costs, and the per-block share of it (`lat[b] × (max − mean)` summed
//! over warps) is what [`crate::attribution`] assigns to branches.

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::hash::BuildHasher;

/// Threads grouped by identical basic-block vector.
#[derive(Clone, Debug)]
pub struct Classes {
    /// Columns (basic blocks) per vector.
    pub cols: usize,
    /// The distinct vectors, class-major (`len × cols`).
    pub vectors: Vec<u32>,
    /// Class of each thread.
    pub of_thread: Vec<u32>,
    /// Threads per class.
    pub size: Vec<u32>,
    /// `Lat_t` of the class (equation 11): `Σ_b lat[b] × BBV[b]`.
    pub latency: Vec<f64>,
}

impl Classes {
    /// Groups the `threads × cols` thread-major `counts`.
    pub fn new(counts: &[u32], cols: usize, lat: &[f64]) -> Classes {
        let threads = counts.len().checked_div(cols).unwrap_or(0);
        // FxHash rather than SipHash: the rows are the launch's own counts, not adversarial
        // keys, and hashing a million rows with SipHash was most of this function's time. The
        // table holds (class id, 32 bits of its row's hash), so that it grows without reading
        // the vectors again and a row is compared with a class's vector only when their
        // hashes agree.
        let fx = rustc_hash::FxBuildHasher;
        let row_hash = |row: &[u32]| (fx.hash_one(row) >> 32) as u32;
        // the table's hash of those 32 bits (odd multiplier: every bit reaches the top ones)
        let spread = |h: u32| u64::from(h).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut index: HashTable<(u32, u32)> = HashTable::new();
        let mut vectors: Vec<u32> = Vec::new();
        let mut size: Vec<u32> = Vec::new();
        let mut of_thread = Vec::with_capacity(threads);
        if cols == 0 {
            return Classes {
                cols,
                vectors,
                of_thread: vec![0; threads],
                size: vec![threads as u32],
                latency: vec![0.0],
            };
        }
        let mut last: Option<(&[u32], u32)> = None;
        for row in counts.chunks_exact(cols) {
            let id = match last {
                Some((r, id)) if r == row => id,
                _ => {
                    let next = size.len() as u32;
                    let h = row_hash(row);
                    let of = |id: u32| &vectors[id as usize * cols..(id as usize + 1) * cols];
                    let id = match index.entry(
                        spread(h),
                        |&(id, hk)| hk == h && of(id) == row,
                        |&(_, hk)| spread(hk),
                    ) {
                        Entry::Occupied(e) => e.get().0,
                        Entry::Vacant(e) => {
                            e.insert((next, h));
                            vectors.extend_from_slice(row);
                            size.push(0);
                            next
                        }
                    };
                    last = Some((row, id));
                    id
                }
            };
            size[id as usize] += 1;
            of_thread.push(id);
        }
        let latency = vectors
            .chunks_exact(cols)
            .map(|v| v.iter().zip(lat).map(|(&c, &l)| f64::from(c) * l).sum())
            .collect();
        Classes {
            cols,
            vectors,
            of_thread,
            size,
            latency,
        }
    }

    pub fn len(&self) -> usize {
        self.size.len()
    }

    pub fn is_empty(&self) -> bool {
        self.size.is_empty()
    }

    pub fn threads(&self) -> usize {
        self.of_thread.len()
    }

    /// The vector of class `c`.
    pub fn vector(&self, c: u32) -> &[u32] {
        let c = c as usize;
        &self.vectors[c * self.cols..(c + 1) * self.cols]
    }
}

/// Per thread block latencies of one launch under one thread order.
#[derive(Clone, Debug, Default)]
pub struct BlockTimes {
    /// `T_Tb` of each block, in launch order.
    pub as_run: Vec<f64>,
    /// The same with every warp's per-block maximum replaced by its mean.
    pub no_divergence: Vec<f64>,
    /// Per column (basic block): `Σ_w lat[b] × (max − mean)`.
    pub column_excess: Vec<f64>,
    /// Warps whose threads did not all have the same vector.
    pub divergent_warps: u64,
    pub warps: u64,
}

/// The classes of the threads in `slots` (slot `s` runs thread `order[s]`, or `s` when
/// `order` is `None`) with how many threads of each, in first-seen order.
pub fn warp_members(
    classes: &Classes,
    order: Option<&[u32]>,
    slots: std::ops::Range<usize>,
    members: &mut Vec<(u32, u32)>,
) {
    members.clear();
    for s in slots {
        let t = order.map_or(s, |o| o[s] as usize);
        let c = classes.of_thread[t];
        match members.iter_mut().find(|(k, _)| *k == c) {
            Some(m) => m.1 += 1,
            None => members.push((c, 1)),
        }
    }
}

/// Thread-block latencies when slot `s` of the launch runs thread `order[s]` (identity when
/// `None`); blocks hold `tpb` consecutive slots, warps 32 consecutive slots of a block.
pub fn block_times(
    classes: &Classes,
    lat: &[f64],
    tpb: usize,
    order: Option<&[u32]>,
    detail: bool,
) -> BlockTimes {
    let n = classes.threads();
    let cols = classes.cols;
    let tpb = tpb.max(1);
    let nblocks = n.div_ceil(tpb);
    let mut out = BlockTimes {
        as_run: Vec::with_capacity(nblocks),
        no_divergence: Vec::with_capacity(nblocks),
        column_excess: if detail { vec![0.0; cols] } else { Vec::new() },
        ..BlockTimes::default()
    };
    // the class of each slot of a warp, read before any is used so that the reads overlap
    let mut cls = [0u32; 32];
    let mut maxv = vec![0u32; cols];
    let mut sumv = vec![0u64; cols];
    for b in 0..nblocks {
        let (b0, b1) = (b * tpb, ((b + 1) * tpb).min(n));
        let mut t_run = 0.0;
        let mut t_nd = 0.0;
        let mut w0 = b0;
        while w0 < b1 {
            let w1 = (w0 + 32).min(b1);
            out.warps += 1;
            let cls = &mut cls[..w1 - w0];
            match order {
                Some(o) => {
                    for (c, &t) in cls.iter_mut().zip(&o[w0..w1]) {
                        *c = classes.of_thread[t as usize];
                    }
                }
                None => cls.copy_from_slice(&classes.of_thread[w0..w1]),
            }
            if cls.iter().all(|&c| c == cls[0]) {
                let l = classes.latency[cls[0] as usize];
                t_run += l;
                t_nd += l;
            } else {
                out.divergent_warps += 1;
                maxv.iter_mut().for_each(|x| *x = 0);
                sumv.iter_mut().for_each(|x| *x = 0);
                // thread by thread (a class's vector as often as it has threads in the warp):
                // the same integer maxima and sums as class by class
                for &c in cls.iter() {
                    for ((m, s), &v) in maxv.iter_mut().zip(sumv.iter_mut()).zip(classes.vector(c))
                    {
                        *m = (*m).max(v);
                        *s += u64::from(v);
                    }
                }
                let nt = (w1 - w0) as f64;
                for j in 0..cols {
                    let mx = f64::from(maxv[j]) * lat[j];
                    let mean = sumv[j] as f64 / nt * lat[j];
                    t_run += mx;
                    t_nd += mean;
                    if detail {
                        out.column_excess[j] += mx - mean;
                    }
                }
            }
            w0 = w1;
        }
        out.as_run.push(t_run);
        out.no_divergence.push(t_nd);
    }
    out
}

/// BBV-weighted (equation 5): the sum of block latencies over the SMs.
pub fn bbv_weighted(blocks: &[f64], sms: u32) -> f64 {
    blocks.iter().sum::<f64>() / f64::from(sms.max(1))
}

/// BBV-weighted-scheduled: dynamic round-robin dispatch of the blocks, in order, to
/// `sms × per_sm` slots; the time the last block ends.
pub fn bbv_weighted_scheduled(blocks: &[f64], sms: u32, per_sm: u32) -> f64 {
    dispatch(blocks, sms, per_sm)
        .iter()
        .zip(blocks)
        .map(|(&(_, start), &t)| start + t.max(0.0))
        .fold(0.0, f64::max)
}

/// The dispatch of BBV-weighted-scheduled: blocks of durations `blocks`, in order, each to the
/// `sms × per_sm` slot that frees first (ties to the lowest slot; slot order = wave × sms + sm,
/// so the first wave fills SM 0…sms−1). Per block: its SM and its start time.
pub fn dispatch(blocks: &[f64], sms: u32, per_sm: u32) -> Vec<(u32, f64)> {
    let sms = sms.max(1) as u64;
    let slots = sms * u64::from(per_sm.max(1));
    // (free time, slot order)
    let mut heap: BinaryHeap<Reverse<(u64, u64)>> = (0..slots.min(blocks.len() as u64))
        .map(|s| Reverse((0u64, s)))
        .collect();
    let mut out = Vec::with_capacity(blocks.len());
    for &t in blocks {
        let Reverse((free, slot)) = heap.pop().expect("at least one slot");
        let start = f64::from_bits(free);
        out.push(((slot % sms) as u32, start));
        heap.push(Reverse(((start + t.max(0.0)).to_bits(), slot)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paper_figure_4_dynamic_schedule_beats_the_static_one() {
        // Two SMs, one block each at a time: blocks 10, 2, 2, 2: dynamic puts blocks 2..3 on SM1.
        let b = [10.0, 2.0, 2.0, 2.0];
        assert_eq!(bbv_weighted_scheduled(&b, 2, 1), 10.0);
        assert_eq!(bbv_weighted(&b, 2), 8.0);
        // Greedy-Max's point (figure 5): descending order balances better.
        let unordered = [1.0, 1.0, 4.0, 4.0];
        let ordered = [4.0, 4.0, 1.0, 1.0];
        assert!(bbv_weighted_scheduled(&ordered, 2, 1) <= bbv_weighted_scheduled(&unordered, 2, 1));
        assert_eq!(bbv_weighted_scheduled(&unordered, 2, 1), 5.0);
    }

    #[test]
    fn a_warp_costs_its_slowest_thread_per_block() {
        // 2 blocks (columns) with latencies 10 and 1; thread 0 runs col0 twice, thread 1 col1 5x.
        let counts = [2, 0, 0, 5];
        let lat = [10.0, 1.0];
        let c = Classes::new(&counts, 2, &lat);
        assert_eq!(c.len(), 2);
        let t = block_times(&c, &lat, 32, None, true);
        assert_eq!(t.as_run, vec![25.0]);
        assert_eq!(t.no_divergence, vec![12.5]);
        assert_eq!(t.column_excess, vec![10.0, 2.5]);
        assert_eq!(t.divergent_warps, 1);
    }

    #[test]
    fn identical_threads_share_a_class() {
        let counts = [1, 2, 1, 2, 3, 4, 1, 2];
        let c = Classes::new(&counts, 2, &[1.0, 1.0]);
        assert_eq!(c.len(), 2);
        assert_eq!(c.size, vec![3, 1]);
        assert_eq!(c.of_thread, vec![0, 0, 1, 0]);
        assert_eq!(c.latency, vec![3.0, 7.0]);
    }
}
