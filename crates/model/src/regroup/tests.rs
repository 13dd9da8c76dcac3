//! Unit and property tests of the three regroupings.

mod unit {
    use crate::estimate::{bbv_weighted_scheduled, block_times};
    use crate::regroup::{greedy::*, *};

    fn launch(counts: &[u32], cols: usize, lat: &[f64]) -> Classes {
        Classes::new(counts, cols, lat)
    }

    /// Threads alternate between a long path (column 0 × 10) and a short one (column 1 × 1).
    fn alternating(n: usize) -> (Vec<u32>, Vec<f64>) {
        let mut counts = Vec::new();
        for t in 0..n {
            if t % 2 == 0 {
                counts.extend([10, 0]);
            } else {
                counts.extend([0, 1]);
            }
        }
        (counts, vec![5.0, 5.0])
    }

    #[test]
    fn every_algorithm_separates_alternating_paths() {
        let (counts, lat) = alternating(256);
        let c = launch(&counts, 2, &lat);
        let before = block_times(&c, &lat, 64, None, false);
        for alg in Algorithm::ALL {
            let o = regroup(alg, &c, &lat, 32);
            assert!(is_permutation(&o, 256), "{alg:?}");
            let after = block_times(&c, &lat, 64, Some(&o), false);
            assert_eq!(after.divergent_warps, 0, "{alg:?}");
            assert!(after.as_run.iter().sum::<f64>() < before.as_run.iter().sum::<f64>());
        }
    }

    #[test]
    fn greedy_max_orders_blocks_by_descending_latency() {
        let (counts, lat) = alternating(256);
        let c = launch(&counts, 2, &lat);
        let o = regroup(Algorithm::GreedyMax, &c, &lat, 32);
        let t = block_times(&c, &lat, 32, Some(&o), false);
        assert!(t.as_run.windows(2).all(|w| w[0] >= w[1]), "{:?}", t.as_run);
        let s = regroup(Algorithm::Sorting, &c, &lat, 32);
        let ts = block_times(&c, &lat, 32, Some(&s), false);
        // sorting puts the short vectors ([0,1] < [10,0]) first
        assert!(ts.as_run[0] < ts.as_run[ts.as_run.len() - 1]);
        assert!(
            bbv_weighted_scheduled(&t.as_run, 3, 1) <= bbv_weighted_scheduled(&ts.as_run, 3, 1)
        );
    }

    #[test]
    fn greedy_merges_leftovers_by_gain() {
        // 40 threads of A (lat 100), 20 of B (close to A), 20 of C (far): group size 32.
        let mut counts = Vec::new();
        for _ in 0..40 {
            counts.extend([10, 0, 0]);
        }
        for _ in 0..20 {
            counts.extend([9, 0, 0]);
        }
        for _ in 0..20 {
            counts.extend([0, 0, 3]);
        }
        let lat = vec![10.0, 1.0, 1.0];
        let c = launch(&counts, 3, &lat);
        let groups = greedy(&c, &lat, 32);
        // A: one full group; leftover A(8) merges with B(20) first (gain 2·90 − 100 = 80 > C's).
        assert_eq!(groups[0], vec![(0, 32)]);
        // then AB(28) and C(20) are the last two: the merge overflows and C is split, AB kept
        assert!(
            groups.iter().any(|g| g.starts_with(&[(1, 20), (0, 8)])),
            "{groups:?}"
        );
        let o = regroup(Algorithm::Greedy, &c, &lat, 32);
        assert!(is_permutation(&o, 80));
    }

    #[test]
    fn windowed_greedy_is_a_permutation_on_many_leftovers() {
        // 3000 distinct vectors, 1 thread each: beyond EXACT_LEFTOVERS.
        let n = 3000;
        let mut counts = Vec::new();
        for t in 0..n as u32 {
            counts.extend([t % 97, t / 97, (t * 7) % 13]);
        }
        let lat = vec![3.0, 2.0, 1.0];
        let c = launch(&counts, 3, &lat);
        for alg in Algorithm::ALL {
            assert!(is_permutation(&regroup(alg, &c, &lat, 32), n), "{alg:?}");
        }
    }

    #[test]
    fn windowed_greedy_over_segments_finds_the_clusters() {
        // 600 clusters of 32 threads, each thread its own vector (column 0 spread by the
        // thread within its cluster, far apart between clusters): 19,200 leftovers, so five
        // segments, whose survivors are merged in turn. Greedy should find the clusters (as
        // Sorting does here), leaving at most one partial group.
        let mut counts = Vec::new();
        for k in 0..600u32 {
            for t in 0..32u32 {
                let c = (k * 7919) % 600;
                counts.extend([1000 * c + t, c % 5, 3]);
            }
        }
        let lat = vec![1.0, 40.0, 2.0];
        let c = launch(&counts, 3, &lat);
        assert_eq!(c.len(), 19_200);
        let groups = greedy(&c, &lat, 32);
        let sizes: Vec<u32> = groups.iter().map(|g| g.iter().map(|m| m.1).sum()).collect();
        assert!(sizes.iter().filter(|&&n| n != 32).count() <= 1, "{sizes:?}");
        let work = |alg| {
            let o = regroup(alg, &c, &lat, 32);
            assert!(is_permutation(&o, 19_200));
            block_times(&c, &lat, 256, Some(&o), false)
                .as_run
                .iter()
                .sum::<f64>()
        };
        let (greedy, sorting) = (work(Algorithm::Greedy), work(Algorithm::Sorting));
        assert!(
            greedy <= 1.02 * sorting,
            "greedy {greedy}, sorting {sorting}"
        );
    }

    #[test]
    fn greedy_max_past_its_budget_still_groups_every_thread() {
        // 4096 distinct vectors of one latency: the gain bound prunes nothing, so the exact
        // search would examine every class for every thread (16.7 M > 64 per thread); past
        // the budget it looks at the first GREEDY_MAX_SCAN classes only.
        let n = 4096;
        let mut counts = Vec::new();
        for t in 0..n as u32 {
            counts.extend([t, n as u32 - t]);
        }
        let lat = vec![1.0, 1.0];
        let c = launch(&counts, 2, &lat);
        assert_eq!(c.len(), n);
        let o = regroup(Algorithm::GreedyMax, &c, &lat, 32);
        assert!(is_permutation(&o, n));
    }
}

mod properties {
    use crate::estimate::block_times;
    use crate::regroup::{greedy::*, windowed::*, *};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Every algorithm returns a permutation, and no regrouping changes the total work
        /// (the no-divergence time summed over blocks is order independent up to warp means).
        #[test]
        fn orders_are_permutations(
            rows in proptest::collection::vec(proptest::collection::vec(0u32..5, 3), 1..400),
            gs in 1usize..3,
        ) {
            let n = rows.len();
            let counts: Vec<u32> = rows.concat();
            let lat = vec![3.0, 1.0, 7.0];
            let c = Classes::new(&counts, 3, &lat);
            let total: f64 = c.of_thread.iter().map(|&k| c.latency[k as usize]).sum();
            for alg in Algorithm::ALL {
                let o = regroup(alg, &c, &lat, 32 * gs);
                prop_assert!(is_permutation(&o, n), "{:?}", alg);
                let t = block_times(&c, &lat, 64, Some(&o), false);
                // a warp costs at least its threads' mean: Σ blocks ≥ Σ threads / 32
                prop_assert!(t.as_run.iter().sum::<f64>() + 1e-6 >= total / 32.0);
            }
        }

        /// The latency order is `total_cmp`'s, descending, then by id.
        #[test]
        fn latency_order_matches_total_cmp(
            lat in proptest::collection::vec(
                prop_oneof![any::<f64>(), Just(0.0), Just(-0.0), Just(1.5), Just(f64::NAN)],
                0..200,
            ),
        ) {
            let c = Classes {
                cols: 0,
                vectors: Vec::new(),
                of_thread: Vec::new(),
                size: vec![1; lat.len()],
                latency: lat.clone(),
            };
            let mut want: Vec<u32> = (0..lat.len() as u32).collect();
            want.sort_by(|&a, &b| lat[b as usize].total_cmp(&lat[a as usize]).then(a.cmp(&b)));
            prop_assert_eq!(by_descending_latency(&c), want);
        }

        /// Sorting's order is the threads sorted by vector, then by id.
        #[test]
        fn sorting_matches_a_comparison_sort(
            rows in proptest::collection::vec(proptest::collection::vec(0u32..4, 1..6), 1..300),
        ) {
            let cols = rows[0].len();
            let counts: Vec<u32> = rows.iter().flat_map(|r| r.iter().cycle().take(cols)).copied().collect();
            let c = Classes::new(&counts, cols, &vec![1.0; cols]);
            let mut want: Vec<u32> = (0..rows.len() as u32).collect();
            want.sort_by(|&a, &b| {
                let (a, b) = (a as usize, b as usize);
                counts[a * cols..(a + 1) * cols].cmp(&counts[b * cols..(b + 1) * cols])
            });
            prop_assert_eq!(regroup(Algorithm::Sorting, &c, &[1.0; 8][..cols], 32), want);
        }

        /// The exact mode's per-group best edges pick the same merges as Algorithm 1 read
        /// literally: the pair of largest gain among all live pairs, every time.
        #[test]
        fn exact_greedy_matches_all_pairs_search(
            rows in proptest::collection::vec(proptest::collection::vec(0u32..4, 3), 1..300),
        ) {
            let counts: Vec<u32> = rows.concat();
            let lat = vec![2.0, 1.0, 5.0];
            let c = Classes::new(&counts, 3, &lat);
            prop_assert_eq!(greedy(&c, &lat, 32), all_pairs_greedy(&c, &lat, 32));
        }

        /// With a budget that is never spent, Greedy-Max's pruned walk picks what Algorithm 2
        /// read literally picks: every thread it adds is the remaining one of largest gain
        /// (the first by descending latency on ties).
        #[test]
        fn exact_greedy_max_matches_a_full_scan(
            rows in proptest::collection::vec(proptest::collection::vec(0u32..6, 3), 1..300),
            gs in 1usize..3,
        ) {
            let counts: Vec<u32> = rows.concat();
            let lat = vec![2.0, 1.0, 5.0];
            let c = Classes::new(&counts, 3, &lat);
            prop_assert_eq!(
                greedy_max::greedy_max_with_budget(&c, &lat, 32 * gs, u64::MAX),
                full_scan_greedy_max(&c, &lat, 32 * gs)
            );
        }

        /// `Slots` keeps the order of the groups left, their bounds and their windows, as a
        /// list that merged groups are taken out of (and put back in at a dead parent's
        /// place) would, also across compactions.
        #[test]
        fn slots_match_a_list(
            n in 1usize..300,
            ops in proptest::collection::vec((any::<u32>(), any::<u32>(), any::<bool>()), 0..400),
        ) {
            let w = 2;
            let bounds: Vec<u32> = (0..n as u32).flat_map(|i| [i, 1000 + i]).collect();
            // an order other than by id
            let order: Vec<u32> = (0..n as u32).map(|i| (2 * n as u32 - 1 - i + 5) % n as u32).collect();
            let mut slots = Slots::new(w, &order, &bounds);
            // the model: (id, bounds) in order, `None` for a place whose group is gone
            let mut list: Vec<Option<(u32, [u32; 2])>> = order
                .iter()
                .map(|&i| Some((i, [i, 1000 + i])))
                .collect();
            let mut next_id = n as u32;
            for (x, y, replace) in ops {
                let live: Vec<u32> = list.iter().flatten().map(|e| e.0).collect();
                if live.len() < 2 {
                    break;
                }
                let a = live[x as usize % live.len()];
                let b = live[(x as usize + 1 + y as usize % (live.len() - 1)) % live.len()];
                let pa = list.iter().position(|e| e.is_some_and(|e| e.0 == a)).unwrap();
                let pb = list.iter().position(|e| e.is_some_and(|e| e.0 == b)).unwrap();
                let at = slots.kill(a);
                slots.kill(b);
                list[pa] = None;
                list[pb] = None;
                if replace {
                    let nb = [next_id, 7 * next_id];
                    slots.put(at, next_id, &nb);
                    list[pa] = Some((next_id, nb));
                    next_id += 1;
                }
                slots.compact_if_sparse();
                let live: Vec<(u32, [u32; 2])> = list.iter().flatten().copied().collect();
                prop_assert_eq!(slots.live, live.len());
                let mut scratch = Vec::new();
                for (p, &(id, b)) in live.iter().enumerate() {
                    let mut got = [0u32; 2];
                    slots.bounds_of(id, &mut got);
                    prop_assert_eq!(got, b);
                    slots.window(slots.slot[id as usize] as usize, 3, &mut scratch);
                    let got: Vec<u32> = scratch.iter().map(|&j| slots.ids[j as usize]).collect();
                    let want: Vec<u32> = live[p.saturating_sub(3)..p]
                        .iter()
                        .rev()
                        .chain(live[p + 1..].iter().take(3))
                        .map(|e| e.0)
                        .collect();
                    prop_assert_eq!(got, want);
                }
            }
        }

        /// A window's gains, a column of all candidates at a time in `f64`, are the gains
        /// one at a time (`pair_gain`, in `i64` terms), to the bit.
        #[test]
        fn window_gains_are_the_gains(
            rows in proptest::collection::vec(proptest::collection::vec(0u32..1000, 10), 2..40),
            lat in proptest::collection::vec(0.0f64..100.0, 5),
        ) {
            let b: Vec<u32> = rows
                .iter()
                .flat_map(|r| {
                    let (x, y) = r.split_at(5);
                    x.iter().zip(y).map(|(&p, &q)| p.min(q)).chain(x.iter().zip(y).map(|(&p, &q)| p.max(q))).collect::<Vec<u32>>()
                })
                .collect();
            let n = rows.len();
            let order: Vec<u32> = (0..n as u32).collect();
            let slots = Slots::new(10, &order, &b);
            let cands: Vec<u32> = (1..n as u32).take(2 * crate::regroup::WINDOW).collect();
            let mut gains = Vec::new();
            slots.window_gains(&lat, 0, &cands, &mut gains);
            prop_assert_eq!(gains.len(), cands.len());
            for (k, &j) in cands.iter().enumerate() {
                let j = j as usize;
                let want = pair_gain(&lat, &b[..10], &b[j * 10..(j + 1) * 10], 5);
                prop_assert_eq!(gains[k].to_bits(), want.to_bits());
            }
        }
    }

    /// Algorithm 2, literally: seed with the remaining thread of highest latency, add
    /// identical threads while any remain, else scan every remaining class for the largest gain.
    fn full_scan_greedy_max(c: &Classes, lat: &[f64], gs: usize) -> Vec<Members> {
        let order = by_descending_latency(c);
        let mut left = c.size.clone();
        let mut out = Vec::new();
        while let Some(&seed) = order.iter().find(|&&k| left[k as usize] > 0) {
            let mut members: Members = vec![(seed, 1)];
            left[seed as usize] -= 1;
            let (mut lo, mut hi) = (c.vector(seed).to_vec(), c.vector(seed).to_vec());
            let mut size = 1;
            while size < gs {
                let k = match members.iter().find(|m| left[m.0 as usize] > 0) {
                    Some(m) => m.0,
                    None => {
                        let mut best: Option<(f64, u32)> = None;
                        for &k in order.iter().filter(|&&k| left[k as usize] > 0) {
                            let g = gain(lat, &lo, &hi, c.vector(k), c.vector(k));
                            if best.is_none_or(|b| g > b.0) {
                                best = Some((g, k));
                            }
                        }
                        match best {
                            Some(b) => b.1,
                            None => break,
                        }
                    }
                };
                match members.iter_mut().find(|m| m.0 == k) {
                    Some(m) => m.1 += 1,
                    None => members.push((k, 1)),
                }
                left[k as usize] -= 1;
                size += 1;
                for ((l, h), &v) in lo.iter_mut().zip(hi.iter_mut()).zip(c.vector(k)) {
                    *l = (*l).min(v);
                    *h = (*h).max(v);
                }
            }
            out.push(members);
        }
        out
    }

    /// Algorithm 1 on the leftover groups, literally: every step scans all live pairs.
    fn all_pairs_greedy(c: &Classes, lat: &[f64], gs: usize) -> Vec<Members> {
        let gs32 = gs as u32;
        let w = 2 * c.cols;
        let mut out = Vec::new();
        let (mut pool, mut bounds) = leftover_pool(c, lat, gs32, &mut out);
        let mut made = vec![0u32; w];
        while pool.live > 1 {
            let live: Vec<usize> = (0..pool.len()).filter(|&i| pool.alive[i]).collect();
            let mut best: Option<Edge> = None;
            for (x, &i) in live.iter().enumerate() {
                for &j in &live[x + 1..] {
                    let g = pair_gain(
                        lat,
                        &bounds[i * w..(i + 1) * w],
                        &bounds[j * w..(j + 1) * w],
                        c.cols,
                    );
                    let e = Edge::of(g, i, j);
                    if best.is_none_or(|b| e > b) {
                        best = Some(e);
                    }
                }
            }
            let Edge(_, a, b) = best.unwrap();
            let (a, b) = (a as usize, b as usize);
            let (ba, bb) = (
                bounds[a * w..(a + 1) * w].to_vec(),
                bounds[b * w..(b + 1) * w].to_vec(),
            );
            if merge(
                &mut pool,
                c,
                lat,
                gs32,
                (a, &ba),
                (b, &bb),
                &mut made,
                &mut out,
            )
            .is_some()
            {
                bounds.extend_from_slice(&made);
            }
        }
        for id in 0..pool.len() {
            if pool.alive[id] {
                out.push(pool.members(id));
            }
        }
        out
    }
}
