//! GRAB's properties 4.1 and 4.2 over random access streams, plus accounting invariants.
//!
//! * **4.1**: every `mh` / `m*h` miss is caused by other threads: replaying only the accesses
//!   of the thread whose private cache hit (the witness) turns that access into a hit.
//! * **4.2**: every interference miss of block `b` at location `l` appears in the effects of
//!   some root cause, under its fault type.

use proptest::prelude::*;
use warpscope_cache::config::{CapacityTest, Geometry};
use warpscope_cache::grab::{Fault, Grab, Op, Outcome, Request};
use warpscope_cache::observer::request_sectors;
use warpscope_cache::sector_cache::Insert;

/// One generated request: warp, location, op, and per lane (up to 4 lanes) a line.
#[derive(Clone, Debug)]
struct Gen {
    warp: u64,
    inst: u32,
    op: Op,
    /// (lane, line, sector within line)
    lanes: Vec<(u32, u64, u64)>,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => Just(Op::Load(Insert::Mru)),
        1 => Just(Op::Load(Insert::Lru)),
        1 => Just(Op::Load(Insert::None)),
        1 => Just(Op::Store),
    ]
}

fn stream() -> impl Strategy<Value = Vec<Gen>> {
    let req = (
        0u64..4,
        0u32..6,
        op(),
        prop::collection::vec((0u32..4, 0u64..12, 0u64..4), 1..4),
    )
        .prop_map(|(warp, inst, op, lanes)| Gen {
            warp,
            inst,
            op,
            lanes,
        });
    prop::collection::vec(req, 1..80)
}

fn geometry() -> impl Strategy<Value = Geometry> {
    // 1 to 4 sets of 1 to 3 ways, 128-byte lines.
    (1u64..5, 1u32..4)
        .prop_map(|(sets, ways)| Geometry::new(sets * u64::from(ways) * 128, 128, ways).unwrap())
}

/// The sectors of a generated request in first-touch order (lanes in generation order), or,
/// with `only = Some(lane)`, the sectors that lane touches, in the same order and with only
/// that lane in each mask: removing the other threads' accesses leaves the order of this
/// thread's accesses as it was.
fn sectors(g: &Gen, only: Option<u32>) -> Vec<(u64, u32)> {
    let mut out: Vec<(u64, u32)> = Vec::new();
    for &(lane, line, sec) in &g.lanes {
        let s = line * 4 + sec;
        match out.iter_mut().find(|(x, _)| *x == s) {
            Some(e) => e.1 |= 1 << lane,
            None => out.push((s, 1 << lane)),
        }
    }
    match only {
        Some(lane) => out
            .into_iter()
            .filter(|(_, m)| m & (1 << lane) != 0)
            .map(|(s, _)| (s, 1 << lane))
            .collect(),
        None => out,
    }
}

/// Runs a stream; returns per request its outcomes.
fn run(
    geo: Geometry,
    cap: CapacityTest,
    stream: &[Gen],
    only: Option<(u64, u32)>,
) -> (Vec<Vec<Outcome>>, Grab) {
    let mut g = Grab::new(geo, cap, 0);
    let mut all = Vec::new();
    for (t, r) in stream.iter().enumerate() {
        let secs = match only {
            Some((w, lane)) if r.warp == w => sectors(r, Some(lane)),
            Some(_) => Vec::new(),
            None => sectors(r, None),
        };
        let mut out = Vec::new();
        g.request(
            &Request {
                warp: r.warp,
                inst: r.inst,
                op: r.op,
                sectors: &secs,
                time: t as u64,
                addrs: None,
            },
            Some(&mut out),
        );
        all.push(out);
    }
    (all, g)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn property_4_1_interference_needs_other_threads(
        s in stream(),
        geo in geometry(),
        set_test in any::<bool>(),
    ) {
        let cap = if set_test { CapacityTest::Set } else { CapacityTest::Cache };
        let (outs, _) = run(geo, cap, &s, None);
        for (i, out) in outs.iter().enumerate() {
            for o in out.iter().filter(|o| o.fault.is_some_and(Fault::is_interference)) {
                let lane = o.witness.expect("an interference miss has a witness lane");
                let (alone, _) = run(geo, cap, &s, Some((s[i].warp, lane)));
                let again = alone[i].iter().find(|x| x.sector == o.sector)
                    .expect("the witness lane touches the sector");
                prop_assert!(again.hit,
                    "request {i} sector {}: {:?} under interference, yet a miss with only \
                     warp {} lane {lane}", o.sector, o.fault, s[i].warp);
            }
        }
    }

    #[test]
    fn property_4_2_every_interference_miss_is_an_effect(
        s in stream(),
        geo in geometry(),
    ) {
        let (outs, g) = run(geo, CapacityTest::Cache, &s, None);
        let mut interference = 0u64;
        for (i, out) in outs.iter().enumerate() {
            for o in out {
                let Some(f) = o.fault else { continue };
                if !f.is_interference() {
                    continue;
                }
                interference += 1;
                let root = o.root.expect("an interference miss has a root cause");
                let block = o.sector / 4;
                let found = g.counts.effects.iter().any(|(k, v)| {
                    k.fault == f && k.root == root && k.effect.inst == s[i].inst
                        && k.effect.block == block && v.misses > 0
                });
                prop_assert!(found, "request {i}: {o:?} not among the effects");
            }
        }
        // Exact accounting: effects of interference faults sum to the interference misses,
        // and to what the root-cause instructions were charged.
        let in_effects: u64 = g.counts.effects.iter()
            .filter(|(k, _)| k.fault.is_interference())
            .map(|(_, v)| v.misses)
            .sum();
        prop_assert_eq!(in_effects, interference);
        let t = g.counts.total();
        prop_assert_eq!(t.interference_caused, interference);
        prop_assert_eq!(t.faults[0] + t.faults[1], interference);
        prop_assert_eq!(t.load_sectors - t.load_hits, t.faults.iter().sum::<u64>());
    }

    #[test]
    fn request_sectors_match_the_cost_model(
        base in 0u64..1 << 20,
        offs in prop::collection::vec(0u64..4096, 32),
        active in any::<u32>(),
        size in prop::sample::select(vec![1u32, 2, 4, 8, 16]),
    ) {
        let mut addrs = [0u64; 32];
        for (l, o) in offs.iter().enumerate() {
            addrs[l] = (base + o) / u64::from(size) * u64::from(size);
        }
        let mut out = Vec::new();
        request_sectors(&addrs, active, size, &mut out);
        let cost = warpscope_cost::global(&addrs, active, size);
        prop_assert_eq!(out.len() as u64, u64::from(cost.sectors));
        let lanes = out.iter().fold(0u32, |m, (_, l)| m | l);
        prop_assert_eq!(lanes, active);
    }
}
