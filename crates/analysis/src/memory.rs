//! What one warp request costs, from the byte offsets of its active lanes, for the static
//! checks: the offsets are relative (to a base the analysis assumes 128-byte aligned, or
//! shifted by each residue it considers), and the counting itself is `warpscope-cost`'s, the
//! memory-cost model the profiles use and the H100 confirms (docs/accuracy.md), so a static
//! finding and a measured one count sectors, lines and wavefronts the same way. GPUCheck's
//! request count (Figure 10) is the paper's own measure and stays here.

use warpscope_cost::{GlobalCost, global_lanes, shared};

/// Where relative offsets are placed: a large multiple of 128 (a line, and a full bank
/// cycle), so negative offsets stay positive and alignment is preserved.
const BASE: i64 = 1 << 40;

fn absolute(o: i64) -> u64 {
    (BASE + o) as u64
}

/// The cost model's view of lanes at `offsets` (at most 32), `size` bytes each: every global
/// measure of one warp request from one pass (the functions below read single fields).
pub fn global_cost(offsets: &[i64], size: u32) -> GlobalCost {
    let mut addrs = [0u64; 32];
    let n = offsets.len().min(32);
    for (a, &o) in addrs.iter_mut().zip(offsets) {
        *a = absolute(o);
    }
    global_lanes(&addrs[..n], size)
}

/// 32-byte sectors touched.
pub fn sectors(offsets: &[i64], size: u32) -> u32 {
    global_cost(offsets, size).sectors
}

/// 128-byte lines touched.
pub fn lines(offsets: &[i64], size: u32) -> u32 {
    global_cost(offsets, size).lines
}

/// The ideal sector count of a request by `lanes` active lanes of `size` bytes each:
/// `⌈lanes · size / 32⌉` (Nsight Compute's "Ideal": lanes sharing an address still count their
/// bytes, so a broadcast is never excessive).
pub fn ideal_sectors(lanes: u32, size: u32) -> u32 {
    if lanes == 0 {
        return 0;
    }
    (lanes * size.max(1)).div_ceil(32).max(1)
}

/// Sectors if every dense run started on a sector boundary.
pub fn runs_aligned(offsets: &[i64], size: u32) -> u32 {
    global_cost(offsets, size).aligned_run_sectors
}

/// GPUCheck's Figure 10: greedy 256-byte requests over the constant lane offsets `c`
/// (relative to lane 0, in bytes, in lane order) plus `nonconst` lanes with unknown offsets.
/// Returns `(requests, requests + nonconst)`. Implemented as printed, quirks included (a
/// request grows to `c + 8` on the high side).
pub fn gpucheck_requests(c: &[i64], nonconst: u32) -> (u32, u32) {
    let mut set: Vec<i64> = c.to_vec();
    set.sort_unstable();
    set.dedup();
    let mut reqs: Vec<(i64, i64)> = Vec::new();
    for &x in &set {
        let mut fit = false;
        for r in reqs.iter_mut() {
            if x >= r.0 && x <= r.1 {
                fit = true;
            } else if x >= r.1 - 256 && x <= r.1 {
                r.0 = x;
                fit = true;
            } else if x <= r.0 + 256 && x >= r.0 {
                r.1 = x + 8;
                fit = true;
            }
        }
        if !fit {
            reqs.push((x, x + 8));
        }
    }
    let n = reqs.len() as u32;
    (n, n + nonconst)
}

/// Shared-memory cost of one warp request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BankCost {
    /// Worst N-way conflict over the phases (1: conflict free).
    pub ways: u32,
    /// Wavefronts: sum over phases of that phase's conflict degree.
    pub wavefronts: u32,
    /// Wavefronts without conflicts (one per phase with active lanes).
    pub ideal: u32,
}

/// Bank conflicts of lanes `(lane, byte offset)` accessing `size` bytes each.
pub fn bank_cost(lanes: &[(u32, i64)], size: u32) -> BankCost {
    let mut addrs = [0u64; 32];
    let mut active = 0u32;
    for &(l, o) in lanes.iter().filter(|(l, _)| *l < 32) {
        addrs[l as usize] = absolute(o);
        active |= 1 << l;
    }
    let c = shared(&addrs, active, size);
    BankCost {
        ways: c.ways.max(1),
        wavefronts: c.wavefronts,
        ideal: c.ideal_wavefronts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(f: impl Fn(i64) -> i64) -> Vec<i64> {
        (0..32).map(f).collect()
    }

    #[test]
    fn coalesced_strided_and_misaligned() {
        let o = lanes(|k| 4 * k);
        assert_eq!(
            (sectors(&o, 4), ideal_sectors(32, 4), lines(&o, 4)),
            (4, 4, 1)
        );
        let o = lanes(|k| 8 * k);
        assert_eq!((sectors(&o, 4), runs_aligned(&o, 4)), (8, 32));
        let o = lanes(|k| 4 * k + 4);
        assert_eq!(
            (sectors(&o, 4), runs_aligned(&o, 4), lines(&o, 4)),
            (5, 4, 2)
        );
        // Broadcast.
        let o = lanes(|_| 64);
        assert_eq!((sectors(&o, 4), ideal_sectors(32, 4)), (1, 4));
        // float4, 16-byte misaligned: 17 sectors for 16.
        let o = lanes(|k| 16 * k + 16);
        assert_eq!((sectors(&o, 16), ideal_sectors(32, 16)), (17, 16));
    }

    #[test]
    fn two_rows_of_a_16_wide_block() {
        // Rows 400 bytes apart: the second starts mid-sector.
        let o: Vec<i64> = (0..32).map(|k| (k / 16) * 400 + (k % 16) * 4).collect();
        assert_eq!(sectors(&o, 4), 5);
        assert_eq!(runs_aligned(&o, 4), 4);
        // 8-wide rows of u16: four 16-byte pieces, 2048 bytes apart.
        let o: Vec<i64> = (0..32).map(|k| (k / 8) * 2048 + (k % 8) * 2).collect();
        assert_eq!(
            (sectors(&o, 2), ideal_sectors(32, 2), runs_aligned(&o, 2)),
            (4, 2, 4)
        );
    }

    #[test]
    fn gpucheck_figure10() {
        // Contiguous 4-byte lanes: one request.
        assert_eq!(gpucheck_requests(&lanes(|k| 4 * k), 0), (1, 1));
        // Lanes 512 bytes apart: one request each.
        assert_eq!(gpucheck_requests(&lanes(|k| 512 * k), 0), (32, 32));
        // Unknown lanes widen the range.
        assert_eq!(gpucheck_requests(&[0], 31), (1, 32));
    }

    #[test]
    fn banks() {
        let l =
            |f: &dyn Fn(i64) -> i64| (0..32u32).map(|k| (k, f(i64::from(k)))).collect::<Vec<_>>();
        assert_eq!(bank_cost(&l(&|k| 4 * k), 4).ways, 1);
        assert_eq!(bank_cost(&l(&|k| 8 * k), 4).ways, 2);
        assert_eq!(bank_cost(&l(&|k| 128 * k), 4).ways, 32);
        assert_eq!(bank_cost(&l(&|_| 0), 4).ways, 1);
        // 33-column padding.
        assert_eq!(bank_cost(&l(&|k| 132 * k), 4).ways, 1);
        // 8-byte accesses, consecutive: two conflict-free half-warp phases.
        let c = bank_cost(&l(&|k| 8 * k), 8);
        assert_eq!((c.ways, c.wavefronts, c.ideal), (1, 2, 2));
        // 16-byte accesses, consecutive: four phases.
        let c = bank_cost(&l(&|k| 16 * k), 16);
        assert_eq!((c.ways, c.wavefronts, c.ideal), (1, 4, 4));
    }
}
