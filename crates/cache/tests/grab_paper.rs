//! GRAB's worked example (paper 001, §3, Figures 2–5): three threads share a 2-way cache of
//! two sets; the same request order under four memory layouts. Each test checks every
//! access's fault type and root cause against the paper's figures, including the memoised
//! eviction chain of Figure 4 (`m2` blamed on `m3'` through `m1`'s miss).
//!
//! Threads are warps of one lane; each access has its own program location (its step
//! number), so a root cause `(pc, block)` names the step that started the chain.

use warpscope_cache::config::{CapacityTest, Geometry};
use warpscope_cache::grab::{Fault, Grab, Op, Outcome, Request, Site};
use warpscope_cache::sector_cache::Insert;

/// The request order of Figure 2: (thread, block).
const ORDER: [(u64, &str); 10] = [
    (1, "m1"),
    (1, "m2"),
    (2, "m1'"),
    (2, "m1'"),
    (1, "m1"),
    (1, "m2"),
    (2, "m2'"),
    (3, "m3'"),
    (1, "m1"),
    (1, "m2"),
];

/// Runs ORDER with blocks mapped to lines by `line_of` (even lines are set S1, odd S2).
fn run(line_of: &dyn Fn(&str) -> u64, thread_of: &dyn Fn(u64) -> u64) -> (Vec<Outcome>, Grab) {
    let geo = Geometry::new(4 * 128, 128, 2).unwrap();
    let mut g = Grab::new(geo, CapacityTest::Cache, 0);
    let mut out = Vec::new();
    for (step, &(t, b)) in ORDER.iter().enumerate() {
        let sectors = [(line_of(b) * 4, 1u32)];
        g.request(
            &Request {
                warp: thread_of(t),
                inst: step as u32 + 1,
                op: Op::Load(Insert::Mru),
                sectors: &sectors,
                time: step as u64,
                addrs: None,
            },
            Some(&mut out),
        );
    }
    (out, g)
}

/// (hit, fault, root step) per access.
fn summary(
    out: &[Outcome],
    line_of: &dyn Fn(&str) -> u64,
) -> Vec<(bool, Option<Fault>, Option<u32>)> {
    out.iter()
        .map(|o| {
            if let Some(r) = o.root {
                // The root's block is the block its step accessed.
                let (_, b) = ORDER[r.inst as usize - 1];
                assert_eq!(r.block, line_of(b), "root block of {o:?}");
            }
            (o.hit, o.fault, o.root.map(|r| r.inst))
        })
        .collect()
}

use Fault::{MStarH, Mh, Mm};

#[test]
fn figure_2_all_blocks_in_one_set() {
    let line = |b: &str| match b {
        "m1" => 0,
        "m2" => 2,
        "m1'" => 4,
        "m2'" => 6,
        _ => 8,
    };
    let (out, g) = run(&line, &|t| t);
    assert_eq!(
        summary(&out, &line),
        vec![
            (false, Some(Mm), None),
            (false, Some(Mm), None),
            (false, Some(Mm), None),
            (true, None, None),
            // m1 was evicted by m1' (step 3).
            (false, Some(Mh), Some(3)),
            // m2 was evicted by m1, whose miss m1' caused: the chain ends at step 3.
            (false, Some(Mh), Some(3)),
            (false, Some(Mm), None),
            (false, Some(Mm), None),
            (false, Some(Mh), Some(7)),
            (false, Some(Mh), Some(8)),
        ]
    );
    // The ranking: m1' causes two interferences, m2' and m3' one each.
    let mut per_root = std::collections::BTreeMap::new();
    for (k, v) in &g.counts.effects {
        *per_root.entry(k.root.inst).or_insert(0) += v.misses;
    }
    assert_eq!(
        per_root.into_iter().collect::<Vec<_>>(),
        vec![(3, 2), (7, 1), (8, 1)]
    );
    assert_eq!(g.counts.insts[&3].interference_caused, 2);
}

#[test]
fn figure_3_m1_prime_relocated() {
    let line = |b: &str| match b {
        "m1" => 0,
        "m2" => 2,
        "m1'" => 1,
        "m2'" => 6,
        _ => 8,
    };
    let (out, _) = run(&line, &|t| t);
    assert_eq!(
        summary(&out, &line),
        vec![
            (false, Some(Mm), None),
            (false, Some(Mm), None),
            (false, Some(Mm), None),
            (true, None, None),
            (true, None, None),
            (true, None, None),
            (false, Some(Mm), None),
            (false, Some(Mm), None),
            // S2 holds only m1', so the cache is not full: plain misses.
            (false, Some(Mh), Some(7)),
            (false, Some(Mh), Some(8)),
        ]
    );
}

#[test]
fn figure_4_chain_through_a_full_cache() {
    let line = |b: &str| match b {
        "m1" => 0,
        "m2" => 2,
        "m1'" => 1,
        "m2'" => 3,
        _ => 8,
    };
    let (out, _) = run(&line, &|t| t);
    assert_eq!(
        summary(&out, &line),
        vec![
            (false, Some(Mm), None),
            (false, Some(Mm), None),
            (false, Some(Mm), None),
            (true, None, None),
            (true, None, None),
            (true, None, None),
            (false, Some(Mm), None),
            // The cache is full from here on: miss*.
            (false, Some(Mm), None),
            (false, Some(MStarH), Some(8)),
            // m2 was evicted by m1, whose miss m3' caused: memoised, m3' again.
            (false, Some(MStarH), Some(8)),
        ]
    );
}

#[test]
fn figure_5_merged_threads_have_no_interference() {
    let line = |b: &str| match b {
        "m1" => 0,
        "m2" => 2,
        "m1'" => 1,
        "m2'" => 3,
        _ => 8,
    };
    // T3's work moves into T1.
    let (out, g) = run(&line, &|t| if t == 3 { 1 } else { t });
    assert!(
        out.iter().all(|o| o.fault.is_none_or(|f| f == Mm)),
        "{out:?}"
    );
    let t = g.counts.total();
    assert_eq!((t.faults[0], t.faults[1]), (0, 0));
    // The misses of m1 and m2 remain, now within one thread, blamed on m3' and m1.
    assert_eq!(out[8].root, Some(Site { inst: 8, block: 8 }));
}
