//! Property tests: the fast cost functions agree with a naive byte-set reference and keep the
//! model's invariants for any lane addresses, masks and sizes.

use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use warpscope_cost::{CostMemo, GlobalCost, SharedCost, global, lanes_per_phase, shared};

fn bytes_of(addrs: &[u64; 32], active: u32, size: u32) -> BTreeSet<u64> {
    let mut s = BTreeSet::new();
    for (lane, &a) in addrs.iter().enumerate() {
        if active & (1 << lane) != 0 {
            for b in 0..u64::from(size) {
                s.insert(a + b);
            }
        }
    }
    s
}

fn reference_global(addrs: &[u64; 32], active: u32, size: u32) -> GlobalCost {
    if active == 0 {
        return GlobalCost::default();
    }
    let bytes = bytes_of(addrs, active, size);
    let base = (0..32)
        .filter(|l| active & (1 << l) != 0)
        .map(|l| addrs[l])
        .min()
        .unwrap();
    let count = |g: u64, off: u64| -> u32 {
        bytes
            .iter()
            .map(|b| (b - off) / g)
            .collect::<BTreeSet<_>>()
            .len() as u32
    };
    // Dense runs.
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for &b in &bytes {
        match runs.last_mut() {
            Some(r) if r.1 + 1 == b => r.1 = b,
            _ => runs.push((b, b)),
        }
    }
    let lanes = active.count_ones();
    GlobalCost {
        lanes,
        sectors: count(32, 0),
        ideal_sectors: count(32, 0).min((u64::from(lanes) * u64::from(size)).div_ceil(32) as u32),
        lane_sectors: (u64::from(lanes) * u64::from(size)).div_ceil(32) as u32,
        used_sectors: (bytes.len() as u64).div_ceil(32) as u32,
        aligned_run_sectors: runs
            .iter()
            .map(|r| (r.1 - r.0 + 1).div_ceil(32) as u32)
            .sum(),
        lines: count(128, 0),
        noalign_sectors: count(32, base),
        noalign_lines: count(128, base),
        unique_bytes: bytes.len() as u32,
        runs: runs.len() as u32,
    }
}

fn reference_shared(addrs: &[u64; 32], active: u32, size: u32) -> SharedCost {
    let per = lanes_per_phase(size);
    // Phases that may share a wavefront: the two half-warps (8 bytes), the two quarter-warps
    // of a half-warp (16 bytes).
    let span = if per == 8 { 16 } else { 32 };
    let words_of = |lanes: &[u32]| -> BTreeSet<u64> {
        let mut words = BTreeSet::new();
        for &lane in lanes {
            let a = addrs[lane as usize];
            for w in a / 4..=(a + u64::from(size) - 1) / 4 {
                words.insert(w);
            }
        }
        words
    };
    let ways_of = |words: &BTreeSet<u64>| -> u32 {
        let mut banks: BTreeMap<u64, u32> = BTreeMap::new();
        for w in words {
            *banks.entry(w % 32).or_default() += 1;
        }
        banks.values().copied().max().unwrap_or(0)
    };
    let mut c = SharedCost {
        lanes: active.count_ones(),
        ..SharedCost::default()
    };
    for window in 0..32 / span {
        let phases: Vec<Vec<u32>> = (0..span / per)
            .map(|p| {
                let start = window * span + p * per;
                (start..start + per)
                    .filter(|l| active & (1 << l) != 0)
                    .collect()
            })
            .filter(|v: &Vec<u32>| !v.is_empty())
            .collect();
        if phases.len() == 2 {
            let a0: BTreeSet<u64> = phases[0].iter().map(|&l| addrs[l as usize]).collect();
            let a1: BTreeSet<u64> = phases[1].iter().map(|&l| addrs[l as usize]).collect();
            let all: Vec<u32> = phases.concat();
            let single = a0.union(&a1).count() == 1;
            if ways_of(&words_of(&all)) == 1 && (single || a0.is_disjoint(&a1)) {
                c.wavefronts += 1;
                c.ideal_wavefronts += 1;
                c.ways = c.ways.max(1);
                continue;
            }
        }
        for p in &phases {
            let ways = ways_of(&words_of(p));
            c.wavefronts += ways;
            c.ideal_wavefronts += 1;
            c.ways = c.ways.max(ways);
        }
    }
    c
}

/// Naturally aligned sizes, as PTX requires, plus odd sizes the model must still handle.
fn size() -> impl Strategy<Value = u32> {
    prop_oneof![Just(1u32), Just(2), Just(4), Just(8), Just(16), 1u32..=16]
}

/// Lane addresses drawn from patterns that matter: affine (stride, offset), scattered in a
/// small window (duplicates likely), and fully random.
fn addrs() -> impl Strategy<Value = [u64; 32]> {
    prop_oneof![
        (0u64..4096, 0u64..300).prop_map(|(base, stride)| {
            std::array::from_fn(|l| 0x10000 + base + stride * l as u64)
        }),
        // Reversed (descending) and 2-D blocks of `w`-lane rows `pitch` bytes apart (several
        // ascending runs, or the same run repeated).
        (0u64..4096, 0u64..64).prop_map(|(base, stride)| {
            std::array::from_fn(|l| 0x10000 + base + stride * (31 - l as u64))
        }),
        (
            0u64..4096,
            0u64..16,
            prop_oneof![Just(8u64), Just(16)],
            0u64..2048
        )
            .prop_map(|(base, stride, w, pitch)| {
                std::array::from_fn(|l| {
                    let l = l as u64;
                    0x10000 + base + (l / w) * pitch + stride * (l % w)
                })
            }),
        prop::array::uniform32(0u64..1024).prop_map(|a| a.map(|x| 0x10000 + x)),
        prop::array::uniform32(0u64..(1 << 40)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn global_matches_reference(a in addrs(), active in any::<u32>(), size in size()) {
        prop_assert_eq!(global(&a, active, size), reference_global(&a, active, size));
    }

    #[test]
    fn global_invariants(a in addrs(), active in any::<u32>(), size in size()) {
        let c = global(&a, active, size);
        prop_assert!(c.used_sectors <= c.aligned_run_sectors);
        prop_assert!(c.used_sectors <= c.ideal_sectors);
        prop_assert!(c.ideal_sectors <= c.sectors);
        prop_assert!(c.ideal_sectors <= c.lane_sectors);
        prop_assert!(c.excess_sectors() == c.sectors - c.ideal_sectors);
        prop_assert!(c.misaligned_sectors() + c.strided_sectors() == c.excess_sectors());
        prop_assert!(c.lines <= c.sectors && c.sectors <= 4 * c.lines);
        prop_assert!(c.noalign_lines <= c.noalign_sectors);
        prop_assert!(c.sectors <= 2 * c.lanes);
        prop_assert_eq!(c.lanes == 0, c.sectors == 0);
    }

    #[test]
    fn shared_matches_reference(a in addrs(), active in any::<u32>(), size in size()) {
        prop_assert_eq!(shared(&a, active, size), reference_shared(&a, active, size));
    }

    #[test]
    fn shared_invariants(a in addrs(), active in any::<u32>(), size in size()) {
        let c = shared(&a, active, size);
        prop_assert!(c.ideal_wavefronts <= c.wavefronts);
        prop_assert!(c.ideal_wavefronts <= 32 / lanes_per_phase(size));
        prop_assert!(c.ways <= c.wavefronts);
        prop_assert!(c.wavefronts <= c.ideal_wavefronts * c.ways);
        prop_assert_eq!(c.lanes == 0, c.wavefronts == 0);
    }

    /// Shifting every lane by whole lines changes nothing; shifting by a multiple of the
    /// bank cycle changes no shared cost either.
    #[test]
    fn translation_invariance(a in addrs(), active in any::<u32>(), size in size(), k in 0u64..64) {
        let shifted = a.map(|x| x + 128 * k);
        prop_assert_eq!(global(&a, active, size), global(&shifted, active, size));
        prop_assert_eq!(shared(&a, active, size), shared(&shifted, active, size));
    }

    /// The NoAlign counts are those of the request moved so its lowest address is 0.
    #[test]
    fn noalign_is_alignment_free(a in addrs(), active in any::<u32>().prop_filter("non-empty", |m| *m != 0), size in size()) {
        let min = (0..32).filter(|l| active & (1 << l) != 0).map(|l| a[l]).min().unwrap();
        let moved = a.map(|x| x.wrapping_sub(min));
        let c = global(&a, active, size);
        let m = global(&moved, active, size);
        prop_assert_eq!((c.noalign_sectors, c.noalign_lines), (m.sectors, m.lines));
    }

    /// The memo returns exactly what a recount would, for sequences mixing line-shifted
    /// repeats, other shifts, new masks and new patterns.
    #[test]
    fn memo_is_transparent(
        a in addrs(),
        steps in prop::collection::vec((0u64..8, 0u64..3, any::<bool>(), any::<u32>()), 1..12),
        size in size(),
    ) {
        let mut gm = CostMemo::<GlobalCost>::default();
        let mut sm = CostMemo::<SharedCost>::default();
        let mut cur = a;
        let mut mask = u32::MAX;
        for (lines, odd, new_mask, m) in steps {
            let shift = lines * 128 + odd * 4;
            cur = cur.map(|x| x + shift);
            if new_mask {
                mask = m;
            }
            prop_assert_eq!(gm.global(&cur, mask, size), global(&cur, mask, size));
            prop_assert_eq!(sm.shared(&cur, mask, size), shared(&cur, mask, size));
        }
    }
}
