//! # warpscope-cost
//!
//! The one memory-cost model of warpscope: what a single warp-wide memory request costs on
//! Volta and newer NVIDIA GPUs (sm_70 … sm_90), counted the way Nsight Compute's source
//! counters count it, so that static analysis (`warpscope check`), dynamic profiles
//! (`warpscope profile`) and an H100 can be compared number for number.
//!
//! Everything here is a pure function of the 32 lane addresses, the active-lane mask and the
//! access size in bytes (1 … 16; a `.v4.f32` access is 16). Nothing allocates: the profiler
//! calls these once per warp memory request.
//!
//! ## Global memory ([`global`])
//!
//! The hardware rule (Nsight Compute Kernel Profiling Guide, "Memory Tables" / terminology:
//! *sector*: an aligned 32-byte chunk of memory; a 128-byte cache line is four sectors; "when
//! an SM executes a global or local memory instruction for a warp, a single request is sent to
//! L1TEX ... based on the access pattern and the participating threads, the request requires
//! to access a number of cache lines, and sectors within these cache lines"):
//!
//! * **sectors** — the distinct aligned 32-byte sectors touched by the bytes
//!   `[addr, addr + size)` of the active lanes. This is what Nsight Compute reports per
//!   instruction as *L2 Theoretical Sectors Global* (summed over executions).
//! * **ideal sectors** — `min(sectors, ⌈active lanes × size / 32⌉)`: what the request would
//!   need if the active lanes' bytes were packed and sector-aligned, but never more than it
//!   actually touched (lanes sharing addresses can need fewer sectors than their bytes). This is
//!   Nsight Compute's *L2 Theoretical Sectors Global Ideal*; *Excessive* is `sectors − ideal`.
//!   The H100 separates it from the two simpler readings (`docs/accuracy.md`): a broadcast
//!   `scale[4]` (`corpus/coalesced.cu:43`) has ideal = sectors, not `⌈32 × 4 / 32⌉ = 4`; a warp
//!   of 16 rows 1 KiB apart with two lanes per address (`corpus/matmul.cu:58`) has ideal 4 per
//!   request, not `⌈unique bytes / 32⌉ = 2`; and `corpus/gaussian.cu:66`, which mixes both,
//!   matches only the minimum.
//! * **used sectors** — `⌈unique bytes / 32⌉`: the sectors the bytes the warp actually uses
//!   would fill (a broadcast uses one); `sectors − used` is fetched but unread.
//! * **lane sectors** — `⌈active lanes × size / 32⌉`, every lane's bytes, duplicates included.
//! * **lines** — distinct aligned 128-byte lines (L1/L2 tags), GPUDrano's dynamic measure
//!   (paper 003, §5: "each byte accessed is divided by the size of the cache line ... we count
//!   the number of unique bins").
//! * **NoAlign** — the same two counts after subtracting the warp's lowest active address from
//!   every lane (GPUDrano's *NoAlign* variant): what the pattern would cost if the warp's data
//!   started on a line boundary. `sectors > noalign_sectors` means part of the cost is
//!   misalignment rather than stride.
//! * **aligned-run sectors** — the sectors needed if every *dense run* of bytes (maximal
//!   interval of touched bytes) started on a sector boundary. The part of the excess
//!   `sectors − ideal` that `sectors − aligned_run_sectors` explains is misalignment
//!   (`a[i + 1]`: 5 sectors, 4 aligned, 4 ideal); the rest is stride or scatter (`a[2 * i]`:
//!   8 sectors for 4 ideal, while its 32 four-byte runs would need 32 aligned sectors). Unlike
//!   NoAlign this also separates the two when a warp covers several rows of a 2-D block whose
//!   rows start mid-sector.
//!
//! ## Shared memory ([`shared`])
//!
//! Shared memory has 32 banks of 4 bytes; byte address `a` lives in bank `(a / 4) mod 32`.
//! One *wavefront* serves at most one 4-byte word per bank; lanes reading the same word are
//! served by the same wavefront (broadcast / multicast, also for stores: one write wins), lanes
//! hitting different words of one bank need one wavefront each (Nsight Compute's definition:
//! "work items of a wavefront are processed in parallel, while work items of different
//! wavefronts are serialized"; CUDA C++ Programming Guide, compute capability 7.x+ "Shared
//! Memory": "a shared memory request for a warp does not generate a bank conflict between two
//! threads that access any address within the same 32-bit word").
//!
//! One wavefront moves at most 128 bytes (32 banks × 4 bytes), so wide accesses are split
//! into *phases* by lane number, and conflicts only count within a phase:
//!
//! | bytes per lane | phases | lanes per phase | ideal wavefronts (full warp, before merging) |
//! |---|---|---|---|
//! | 1, 2, 4 | 1 | 32 | 1 |
//! | 8 (`.v2.f32`, `.f64`) | 2 (half-warps) | 16 | 2 |
//! | 16 (`.v4.f32`, `.v2.f64`) | 4 (quarter-warps) | 8 | 4 |
//!
//! A phase with active lanes costs `max over banks of distinct words in that bank` wavefronts
//! (≥ 1); a phase without active lanes costs nothing.
//!
//! Two phases share one wavefront when, together, they touch every bank at most once and
//! either ask for disjoint sets of addresses or all ask for the same single address. For
//! 8-byte accesses the two half-warps may merge; for 16-byte accesses the two quarter-warps of
//! each half-warp may (never across half-warps). So a warp-wide 8-byte broadcast, or lanes
//! pairing up on 8-byte addresses, is one wavefront, a 16-byte broadcast two, while 8-byte
//! lanes `i` and `i + 8` sharing addresses still cost two. This is the H100's behaviour on 177
//! probe patterns (`scripts/h100/shared_probe.py`, `validation/h100/shared_patterns.tsv`,
//! checked by `tests/h100_shared.rs`); the plain phase rule over-counted 18 of them.
//!
//! **wavefronts** is the sum over the (merged) phases (Nsight Compute's *L1 Wavefronts
//! Shared*), **ideal wavefronts** the number of merged phases with active lanes (*L1 Wavefronts
//! Shared Ideal*), and **ways** the worst phase's degree (the N of an N-way conflict;
//! `wavefronts / ideal` is Nsight Compute's per-instruction *L1 Conflicts Shared N-Way*
//! average).

#![forbid(unsafe_code)]

/// Threads per warp.
pub const WARP_SIZE: usize = 32;
/// Bytes per global-memory sector.
pub const SECTOR_BYTES: u64 = 32;
/// Bytes per L1/L2 cache line (four sectors).
pub const LINE_BYTES: u64 = 128;
/// Shared-memory banks.
pub const BANKS: u64 = 32;
/// Bytes per shared-memory bank word.
pub const BANK_BYTES: u64 = 4;
/// Largest per-lane access the model handles (`.v4.b32`, `.v2.b64`).
pub const MAX_ACCESS_BYTES: u32 = 16;

/// The cost of one warp-wide global-memory request. All counts are for the active lanes
/// only; a request with no active lanes costs nothing (all zero).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GlobalCost {
    /// Lanes that made the request.
    pub lanes: u32,
    /// Distinct aligned 32-byte sectors touched (*L2 Theoretical Sectors Global*).
    pub sectors: u32,
    /// `min(sectors, lane_sectors)` (*L2 Theoretical Sectors Global Ideal*).
    pub ideal_sectors: u32,
    /// `⌈lanes × size / 32⌉`: every active lane's bytes, duplicates included.
    pub lane_sectors: u32,
    /// `⌈unique bytes / 32⌉`: sectors the used bytes would fill (≥ 1 when `lanes > 0`,
    /// ≤ `ideal_sectors`).
    pub used_sectors: u32,
    /// Sectors if every dense run of touched bytes started on a sector boundary
    /// (≥ `used_sectors`; see the crate docs).
    pub aligned_run_sectors: u32,
    /// Distinct aligned 128-byte lines touched (GPUDrano's measure).
    pub lines: u32,
    /// Sectors after subtracting the lowest active address from every lane (GPUDrano NoAlign).
    pub noalign_sectors: u32,
    /// Lines after subtracting the lowest active address from every lane (GPUDrano NoAlign).
    pub noalign_lines: u32,
    /// Distinct bytes touched.
    pub unique_bytes: u32,
    /// Maximal intervals of touched bytes.
    pub runs: u32,
}

impl GlobalCost {
    /// Sectors beyond the ideal (`sectors − ideal_sectors`), Nsight Compute's *Excessive*.
    pub fn excess_sectors(&self) -> u32 {
        self.sectors - self.ideal_sectors
    }

    /// Excess sectors due to misalignment: `sectors − aligned_run_sectors` when positive
    /// (dense runs starting mid-sector), at most the excess.
    pub fn misaligned_sectors(&self) -> u32 {
        self.sectors
            .saturating_sub(self.aligned_run_sectors)
            .min(self.excess_sectors())
    }

    /// Excess sectors due to stride or scatter: the excess that misalignment does not explain.
    pub fn strided_sectors(&self) -> u32 {
        self.excess_sectors() - self.misaligned_sectors().min(self.excess_sectors())
    }
}

/// Cost of one global request: `addrs[lane]` for the lanes set in `active`, `size` bytes each.
///
/// `size` is clamped to `1 ..= 16`. Lanes whose bytes wrap past `u64::MAX` are truncated at the
/// top of the address space.
#[inline]
pub fn global(addrs: &[u64; 32], active: u32, size: u32) -> GlobalCost {
    if active == u32::MAX {
        let mut buf = *addrs;
        return global_sorted_in_place(&mut buf, size);
    }
    let mut buf = [0u64; WARP_SIZE];
    let mut n = 0usize;
    let mut m = active;
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        buf[n] = addrs[lane];
        n += 1;
    }
    global_sorted_in_place(&mut buf[..n], size)
}

/// Cost of one global request given only the addresses of its active lanes (in any order).
/// At most 32 addresses are used; extra ones are ignored.
pub fn global_lanes(addrs: &[u64], size: u32) -> GlobalCost {
    let mut buf = [0u64; WARP_SIZE];
    let n = addrs.len().min(WARP_SIZE);
    buf[..n].copy_from_slice(&addrs[..n]);
    global_sorted_in_place(&mut buf[..n], size)
}

/// Distinct `1 << shift`-byte granules touched by sorted, equally sized intervals
/// `[a − off, a − off + size)`. Interval `i` adds the granules of its range not covered by
/// interval `i − 1`, whose range ends furthest so far; ranges of single intervals are
/// contiguous, so nothing below that end is uncovered. One branch-free pass.
#[inline(always)]
fn granules(buf: &[u64], size: u64, shift: u32, off: u64) -> u32 {
    let first = (buf[0] - off) >> shift;
    // One past the last granule covered so far.
    let mut end = first;
    let mut c = 0u64;
    for &a in buf {
        let r = a - off;
        let f = r >> shift;
        let l = r.saturating_add(size - 1) >> shift;
        c += (l + 1).saturating_sub(f.max(end));
        end = end.max(l + 1);
    }
    c as u32
}

fn global_sorted_in_place(buf: &mut [u64], size: u32) -> GlobalCost {
    let n = buf.len();
    if n == 0 {
        return GlobalCost::default();
    }
    sort_small(buf);
    let size = u64::from(size.clamp(1, MAX_ACCESS_BYTES));
    let lane_sectors = (n as u64 * size).div_ceil(SECTOR_BYTES) as u32;
    let base = buf[0];
    // The common case, a dense run (lane i at base + i × size): closed forms.
    let mut dense = true;
    for w in buf.windows(2) {
        dense &= w[1].wrapping_sub(w[0]) == size;
    }
    if dense && base.checked_add(n as u64 * size).is_some() {
        let bytes = n as u64 * size;
        let last = base + bytes - 1;
        let sectors = ((last >> 5) - (base >> 5) + 1) as u32;
        let used = bytes.div_ceil(SECTOR_BYTES) as u32;
        return GlobalCost {
            lanes: n as u32,
            sectors,
            ideal_sectors: sectors.min(lane_sectors),
            lane_sectors,
            used_sectors: used,
            aligned_run_sectors: used,
            lines: ((last >> 7) - (base >> 7) + 1) as u32,
            noalign_sectors: used,
            noalign_lines: bytes.div_ceil(LINE_BYTES) as u32,
            unique_bytes: bytes as u32,
            runs: 1,
        };
    }
    // One pass: drop lanes sharing an address (they add nothing), count sectors and lines,
    // and measure the dense runs. Sorted, equally long intervals: lane i adds the granules
    // past the furthest end so far, min(size, gap) new bytes, and a new run when the gap
    // exceeds the size.
    let mut m = 0usize;
    let (mut sectors, mut sec_end) = (0u64, base >> 5);
    let (mut lines, mut line_end) = (0u64, base >> 7);
    let mut unique = 0u64;
    let mut breaks = 0u64;
    let mut prev = base;
    for i in 0..n {
        let a = buf[i];
        if m > 0 && a == prev {
            continue;
        }
        let last = a.saturating_add(size - 1);
        let (f, l) = (a >> 5, last >> 5);
        sectors += (l + 1).saturating_sub(f.max(sec_end));
        sec_end = sec_end.max(l + 1);
        let (f, l) = (a >> 7, last >> 7);
        lines += (l + 1).saturating_sub(f.max(line_end));
        line_end = line_end.max(l + 1);
        if m > 0 {
            let d = a - prev;
            unique += d.min(size);
            breaks += u64::from(d > size);
        } else {
            unique = size;
        }
        prev = a;
        buf[m] = a;
        m += 1;
    }
    let buf = &buf[..m];
    let (sectors, lines) = (sectors as u32, lines as u32);
    // A warp starting on a line boundary costs the same moved to 0: skip the NoAlign pass.
    let (noalign_sectors, noalign_lines) = if base.is_multiple_of(LINE_BYTES) {
        (sectors, lines)
    } else {
        (granules(buf, size, 5, base), granules(buf, size, 7, base))
    };
    let runs = breaks + 1;
    let aligned_runs = if runs == 1 {
        unique.div_ceil(SECTOR_BYTES)
    } else if runs == m as u64 {
        runs * size.div_ceil(SECTOR_BYTES)
    } else {
        let mut total = 0u64;
        let mut len = size;
        for w in buf.windows(2) {
            let d = w[1] - w[0];
            if d > size {
                total += len.div_ceil(SECTOR_BYTES);
                len = size;
            } else {
                len += d;
            }
        }
        total + len.div_ceil(SECTOR_BYTES)
    };
    GlobalCost {
        lanes: n as u32,
        sectors,
        ideal_sectors: sectors.min(lane_sectors),
        lane_sectors,
        used_sectors: unique.div_ceil(SECTOR_BYTES) as u32,
        aligned_run_sectors: aligned_runs as u32,
        lines,
        noalign_sectors,
        noalign_lines,
        unique_bytes: unique as u32,
        runs: runs as u32,
    }
}

/// Sorts at most 64 values. Warp addresses are mostly one ascending run (coalesced), two
/// (a 2-D block whose rows are 16 lanes wide), or one descending run (reversed indexing):
/// those take one linear pass; anything else falls back to the standard sort.
#[inline]
fn sort_small(v: &mut [u64]) {
    let n = v.len();
    let mut descents = 0usize;
    let mut split = 0usize;
    for i in 1..n {
        if v[i] < v[i - 1] {
            descents += 1;
            split = i;
        }
    }
    if descents == 0 {
        return;
    }
    if descents == n - 1 {
        v.reverse();
        if v.windows(2).all(|w| w[0] <= w[1]) {
            return;
        }
    }
    if descents == 1 && n <= 64 {
        let mut tmp = [0u64; 64];
        tmp[..n].copy_from_slice(v);
        let (a, b) = tmp[..n].split_at(split);
        let (mut i, mut j) = (0, 0);
        for slot in v.iter_mut() {
            if j >= b.len() || (i < a.len() && a[i] <= b[j]) {
                *slot = a[i];
                i += 1;
            } else {
                *slot = b[j];
                j += 1;
            }
        }
        return;
    }
    v.sort_unstable();
}

/// The cost of one warp-wide shared-memory request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SharedCost {
    /// Lanes that made the request.
    pub lanes: u32,
    /// Wavefronts: sum over phases with active lanes of the busiest bank's distinct words
    /// (*L1 Wavefronts Shared*).
    pub wavefronts: u32,
    /// Phases with active lanes: the wavefronts without conflicts (*… Ideal*).
    pub ideal_wavefronts: u32,
    /// Worst N-way conflict over the phases (1: conflict-free; 0 when no lane is active).
    pub ways: u32,
}

impl SharedCost {
    /// Wavefronts beyond the ideal (Nsight Compute's bank-conflict count).
    pub fn excess_wavefronts(&self) -> u32 {
        self.wavefronts - self.ideal_wavefronts
    }
}

/// Lanes per phase for an access of `size` bytes (see the crate docs' table).
#[inline]
pub const fn lanes_per_phase(size: u32) -> u32 {
    match size {
        0..=4 => 32,
        5..=8 => 16,
        _ => 8,
    }
}

/// Cost of one shared-memory request: `addrs[lane]` (byte offsets in the block's shared
/// memory) for the lanes set in `active`, `size` bytes each (clamped to `1 ..= 16`).
#[inline]
pub fn shared(addrs: &[u64; 32], active: u32, size: u32) -> SharedCost {
    let size = size.clamp(1, MAX_ACCESS_BYTES);
    let per = lanes_per_phase(size);
    // Lanes within which two phases may share a wavefront.
    let span = if per == 8 { 16 } else { 32 };
    let phase_mask: u32 = if per == 32 {
        u32::MAX
    } else {
        (1u32 << per) - 1
    };
    let mut cost = SharedCost {
        lanes: active.count_ones(),
        ..SharedCost::default()
    };
    let mut lo = 0u32;
    while lo < 32 {
        let m0 = ((active >> lo) & phase_mask) << lo;
        let m1 = if per < span {
            ((active >> (lo + per)) & phase_mask) << (lo + per)
        } else {
            0
        };
        if m0 != 0 && m1 != 0 && phases_merge(addrs, m0, m1, size) {
            cost.wavefronts += 1;
            cost.ideal_wavefronts += 1;
            cost.ways = cost.ways.max(1);
        } else {
            for m in [m0, m1] {
                if m != 0 {
                    let w = phase_wavefronts(addrs, m, size);
                    cost.wavefronts += w;
                    cost.ideal_wavefronts += 1;
                    cost.ways = cost.ways.max(w);
                }
            }
        }
        lo += span;
    }
    cost
}

/// Whether two non-empty phases share a wavefront: together they touch each bank at most
/// once, and their address sets are disjoint or one single address.
fn phases_merge(addrs: &[u64; 32], m0: u32, m1: u32, size: u32) -> bool {
    if phase_wavefronts(addrs, m0 | m1, size) != 1 {
        return false;
    }
    let lanes = |m: u32| (0..32).filter(move |l| m & (1 << l) != 0).map(|l| addrs[l]);
    let first = addrs[m0.trailing_zeros() as usize];
    if lanes(m0 | m1).all(|a| a == first) {
        return true;
    }
    lanes(m0).all(|a| lanes(m1).all(|b| a != b))
}

/// Busiest bank's distinct words among the lanes in `mask` (non-empty).
#[inline]
fn phase_wavefronts(addrs: &[u64; 32], mask: u32, size: u32) -> u32 {
    // Two merging phases touch at most 96 words: 32 lanes × (≤ 3 words for ≤ 8 bytes) or
    // 16 × (≤ 5 for 16 bytes).
    let mut words = [0u64; 96];
    let mut n = 0usize;
    let mut m = mask;
    let last_off = u64::from(size - 1);
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        let a = addrs[lane];
        let first = a / BANK_BYTES;
        let last = a.saturating_add(last_off) / BANK_BYTES;
        let mut w = first;
        while w <= last && n < words.len() {
            words[n] = w;
            n += 1;
            w += 1;
        }
    }
    let words = &mut words[..n];
    sort_small(words);
    // Fast path: consecutive distinct words spanning at most one bank cycle.
    if n > 0 && words[n - 1] - words[0] < BANKS {
        return 1;
    }
    let mut per_bank = [0u8; BANKS as usize];
    let mut worst = 0u8;
    let mut prev = u64::MAX;
    for &w in words.iter() {
        if w != prev {
            let b = &mut per_bank[(w % BANKS) as usize];
            *b += 1;
            worst = worst.max(*b);
            prev = w;
        }
    }
    u32::from(worst.max(1))
}

/// A one-entry cache of the last request of one instruction. Costs do not change when every
/// lane moves by the same multiple of 128 bytes (a line for global memory, a full bank cycle
/// for shared memory), and successive requests of one instruction in a loop usually differ
/// exactly so (`a[i * n + k]` for the next `k` row, the next tile); checking that is one
/// vectorisable pass over the lanes instead of a full recount.
#[derive(Clone, Copy, Debug)]
pub struct CostMemo<C> {
    addrs: [u64; 32],
    active: u32,
    size: u32,
    cost: Option<C>,
}

impl<C: Copy> Default for CostMemo<C> {
    fn default() -> Self {
        CostMemo {
            addrs: [0; 32],
            active: 0,
            size: 0,
            cost: None,
        }
    }
}

impl<C: Copy> CostMemo<C> {
    /// Whether `addrs` is the remembered request moved by a multiple of 128 bytes.
    #[inline]
    fn hit(&self, addrs: &[u64; 32], active: u32, size: u32) -> Option<C> {
        let c = self.cost?;
        if active != self.active || size != self.size || active == 0 {
            return None;
        }
        let first = active.trailing_zeros() as usize;
        let d = addrs[first].wrapping_sub(self.addrs[first]);
        if !d.is_multiple_of(LINE_BYTES) {
            return None;
        }
        let mut same = true;
        for (l, (a, p)) in addrs.iter().zip(&self.addrs).enumerate() {
            let inactive = (active >> l) & 1 == 0;
            same &= inactive | (a.wrapping_sub(*p) == d);
        }
        same.then_some(c)
    }

    #[inline]
    fn store(&mut self, addrs: &[u64; 32], active: u32, size: u32, c: C) -> C {
        self.addrs = *addrs;
        self.active = active;
        self.size = size;
        self.cost = Some(c);
        c
    }
}

impl CostMemo<GlobalCost> {
    /// [`global`], remembered.
    #[inline]
    pub fn global(&mut self, addrs: &[u64; 32], active: u32, size: u32) -> GlobalCost {
        match self.hit(addrs, active, size) {
            Some(c) => c,
            None => self.store(addrs, active, size, global(addrs, active, size)),
        }
    }
}

impl CostMemo<SharedCost> {
    /// [`shared`], remembered.
    #[inline]
    pub fn shared(&mut self, addrs: &[u64; 32], active: u32, size: u32) -> SharedCost {
        match self.hit(addrs, active, size) {
            Some(c) => c,
            None => self.store(addrs, active, size, shared(addrs, active, size)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(f: impl Fn(u64) -> u64) -> [u64; 32] {
        std::array::from_fn(|l| f(l as u64))
    }

    const ALL: u32 = u32::MAX;

    #[test]
    fn coalesced_float_load() {
        let c = global(&lanes(|l| 0x1000 + 4 * l), ALL, 4);
        assert_eq!((c.sectors, c.ideal_sectors, c.lines), (4, 4, 1));
        assert_eq!((c.noalign_sectors, c.noalign_lines), (4, 1));
        assert_eq!((c.aligned_run_sectors, c.runs, c.unique_bytes), (4, 1, 128));
        assert_eq!(c.excess_sectors(), 0);
    }

    #[test]
    fn stride_two_is_eight_sectors_for_four_ideal() {
        let c = global(&lanes(|l| 0x1000 + 8 * l), ALL, 4);
        assert_eq!((c.sectors, c.ideal_sectors, c.lines), (8, 4, 2));
        assert_eq!((c.strided_sectors(), c.misaligned_sectors()), (4, 0));
        assert_eq!(c.runs, 32);
    }

    #[test]
    fn off_by_one_is_misaligned_not_strided() {
        let c = global(&lanes(|l| 0x1000 + 4 + 4 * l), ALL, 4);
        assert_eq!((c.sectors, c.ideal_sectors, c.lines), (5, 4, 2));
        assert_eq!((c.noalign_sectors, c.noalign_lines), (4, 1));
        assert_eq!((c.misaligned_sectors(), c.strided_sectors()), (1, 0));
    }

    #[test]
    fn broadcast_costs_one_sector() {
        let c = global(&lanes(|_| 0x2004), ALL, 4);
        assert_eq!((c.sectors, c.ideal_sectors, c.lane_sectors), (1, 1, 4));
        assert_eq!((c.lines, c.unique_bytes), (1, 4));
    }

    #[test]
    fn inactive_lanes_do_not_count() {
        let c = global(&lanes(|l| 0x1000 + 4 * l), 0x0000_00ff, 4);
        assert_eq!((c.lanes, c.sectors, c.ideal_sectors), (8, 1, 1));
        assert_eq!(global(&lanes(|l| l), 0, 4), GlobalCost::default());
    }

    #[test]
    fn vector_and_wide_accesses() {
        // float4 per lane, dense: 512 bytes = 16 sectors, 4 lines.
        let c = global(&lanes(|l| 0x1000 + 16 * l), ALL, 16);
        assert_eq!((c.sectors, c.ideal_sectors, c.lines), (16, 16, 4));
        // double, stride 2: 32 lanes × 8 bytes spread over 512 bytes.
        let c = global(&lanes(|l| 0x1000 + 16 * l), ALL, 8);
        assert_eq!((c.sectors, c.ideal_sectors), (16, 8));
        // 16 rows 1 KiB apart, two lanes per row address (matmul with threadIdx.x on rows):
        // ideal is the lanes' 128 bytes, not the 64 unique ones.
        let c = global(&lanes(|l| 0x10000 + 1024 * (l % 16)), ALL, 4);
        assert_eq!((c.sectors, c.ideal_sectors, c.used_sectors), (16, 4, 2));
        // bytes: 32 lanes × 1 byte = 1 sector.
        let c = global(&lanes(|l| 0x1000 + l), ALL, 1);
        assert_eq!((c.sectors, c.ideal_sectors, c.lane_sectors), (1, 1, 1));
    }

    #[test]
    fn unsorted_lanes_cost_the_same() {
        let rev = global(&lanes(|l| 0x1000 + 4 * (31 - l)), ALL, 4);
        let fwd = global(&lanes(|l| 0x1000 + 4 * l), ALL, 4);
        assert_eq!(rev, fwd);
        let c = global_lanes(&[0x1000, 0x9000, 0x1004], 4);
        assert_eq!((c.lanes, c.sectors, c.lines, c.runs), (3, 2, 2, 2));
    }

    #[test]
    fn two_rows_of_a_16_wide_block_are_misaligned() {
        // Rows of 100 floats: the second half-warp starts 400 bytes in, mid-sector.
        let c = global(&lanes(|l| 0x1000 + (l / 16) * 400 + 4 * (l % 16)), ALL, 4);
        assert_eq!(
            (c.sectors, c.ideal_sectors, c.aligned_run_sectors),
            (5, 4, 4)
        );
        assert_eq!(c.misaligned_sectors(), 1);
    }

    #[test]
    fn noalign_can_exceed_the_aligned_count() {
        let c = global_lanes(&[5, 64, 72], 1);
        assert_eq!((c.sectors, c.noalign_sectors), (2, 3));
    }

    #[test]
    fn shared_conflict_free_and_broadcast() {
        let c = shared(&lanes(|l| 4 * l), ALL, 4);
        assert_eq!((c.wavefronts, c.ideal_wavefronts, c.ways), (1, 1, 1));
        let c = shared(&lanes(|_| 20), ALL, 4);
        assert_eq!((c.wavefronts, c.ideal_wavefronts, c.ways), (1, 1, 1));
        // bytes: four lanes per word, same word is free.
        let c = shared(&lanes(|l| l ^ 1), ALL, 1);
        assert_eq!((c.wavefronts, c.ways), (1, 1));
    }

    #[test]
    fn shared_column_of_a_32x32_float_tile_is_32_way() {
        let c = shared(&lanes(|l| 4 * 32 * l), ALL, 4);
        assert_eq!((c.wavefronts, c.ideal_wavefronts, c.ways), (32, 1, 32));
        assert_eq!(c.excess_wavefronts(), 31);
        // Padded to 33 columns: conflict-free.
        let c = shared(&lanes(|l| 4 * 33 * l), ALL, 4);
        assert_eq!((c.wavefronts, c.ways), (1, 1));
    }

    #[test]
    fn shared_strides() {
        assert_eq!(shared(&lanes(|l| 8 * l), ALL, 4).ways, 2);
        assert_eq!(shared(&lanes(|l| 12 * l), ALL, 4).ways, 1);
        assert_eq!(shared(&lanes(|l| 16 * l), ALL, 4).ways, 4);
    }

    #[test]
    fn shared_doubles_per_half_warp() {
        let c = shared(&lanes(|l| 8 * l), ALL, 8);
        assert_eq!((c.wavefronts, c.ideal_wavefronts, c.ways), (2, 2, 1));
        let c = shared(&lanes(|l| 16 * l), ALL, 8);
        assert_eq!((c.wavefronts, c.ideal_wavefronts, c.ways), (4, 2, 2));
        // Only the first half-warp active: one phase.
        let c = shared(&lanes(|l| 8 * l), 0x0000_ffff, 8);
        assert_eq!((c.wavefronts, c.ideal_wavefronts), (1, 1));
    }

    #[test]
    fn shared_float4_per_quarter_warp() {
        let c = shared(&lanes(|l| 16 * l), ALL, 16);
        assert_eq!((c.wavefronts, c.ideal_wavefronts, c.ways), (4, 4, 1));
        // Row pitch of 128 bytes between lanes: every lane of a quarter hits banks 0..3.
        let c = shared(&lanes(|l| 128 * l), ALL, 16);
        assert_eq!((c.wavefronts, c.ideal_wavefronts, c.ways), (32, 4, 8));
    }

    #[test]
    fn empty_shared_request_costs_nothing() {
        assert_eq!(shared(&lanes(|l| l), 0, 4), SharedCost::default());
    }
}
