//! The model and the three regroupings on a 1 M-thread launch (docs/performance.md): the work
//! `warpscope model` adds to the profile, on synthetic vectors shaped like the corpus kernels'.
//!
//! `cargo bench -p warpscope-model --bench model -- --warm-up-time 1 --measurement-time 3`
//! (`-- h100_estimate` for warpscope's H100 estimate alone, `-- model_distinct` for the
//! nearly-all-distinct launches)

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use warpscope_model::estimate::{Classes, bbv_weighted_scheduled, block_times};
use warpscope_model::regroup::{Algorithm, regroup};
use warpscope_model::throughput::{ColumnCost, H100Machine, LaunchInput, Unit, estimate};

mod shapes;
use shapes::{DISTINCT_THREADS, THREADS, distinct_like, loop_like, mc_like};

/// The estimates and the three regroupings with their estimates: the model's work beyond the
/// profile.
fn model(counts: &[u32], cols: usize, lat: &[f64]) -> f64 {
    let classes = Classes::new(counts, cols, lat);
    let t = block_times(&classes, lat, 256, None, true);
    let mut best = bbv_weighted_scheduled(&t.as_run, 132, 8);
    for alg in Algorithm::ALL {
        let o = regroup(alg, &classes, lat, 32);
        let r = block_times(&classes, lat, 256, Some(&o), false);
        best = best.min(bbv_weighted_scheduled(&r.as_run, 132, 8));
    }
    best
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("model_1m_threads");
    g.sample_size(10);
    for (name, (counts, cols, lat)) in [("mc_like", mc_like()), ("loop_like", loop_like())] {
        g.bench_function(format!("{name}/estimates_and_three_regroupings"), |b| {
            b.iter(|| model(black_box(&counts), cols, &lat))
        });
        let classes = Classes::new(&counts, cols, &lat);
        // warpscope's H100 estimate of the launch (once per original and per regrouping):
        // per column a chain of its latency, an issue slot per 5 cycles of it on the fp32 pipe
        let cost: Vec<ColumnCost> = lat
            .iter()
            .map(|&l| {
                let mut c = ColumnCost {
                    issue: (l / 5.0).ceil(),
                    chain: l,
                    sectors: 4.0,
                    l1_clk: 1.0,
                    ..ColumnCost::default()
                };
                c.units[Unit::Fp32 as usize] = c.issue;
                c
            })
            .collect();
        let machine = H100Machine::h100();
        let order = regroup(Algorithm::GreedyMax, &classes, &lat, 32);
        for (what, ord) in [("original", None), ("greedy_max_order", Some(&order[..]))] {
            g.bench_function(format!("{name}/h100_estimate_{what}"), |b| {
                b.iter(|| {
                    estimate(
                        &LaunchInput {
                            classes: black_box(&classes),
                            cost: &cost,
                            threads_per_block: 256,
                            order: ord,
                            sms: 132,
                            blocks_per_sm: 8,
                            buffer_bytes: 4.0 * THREADS as f64,
                            local_bytes_per_thread: 0.0,
                            l1_cold_sectors: 0.0,
                            clock_mhz: 1979.5,
                        },
                        &machine,
                    )
                    .cycles
                })
            });
        }
        for alg in Algorithm::ALL {
            g.bench_function(format!("{name}/{}", alg.name()), |b| {
                b.iter(|| regroup(alg, black_box(&classes), &lat, 32))
            });
        }
    }
    g.finish();
    // Nearly every vector distinct: the regroupings alone (242,427 classes).
    let mut g = c.benchmark_group("model_distinct_256k_threads");
    g.sample_size(10);
    let (counts, cols, lat) = distinct_like(DISTINCT_THREADS);
    let classes = Classes::new(&counts, cols, &lat);
    for alg in Algorithm::ALL {
        g.bench_function(alg.name(), |b| {
            b.iter(|| regroup(alg, black_box(&classes), &lat, 32))
        });
    }
    g.finish();
    // The same on a million threads (839,289 classes): the whole model as the issue states it,
    // and each regrouping alone.
    let mut g = c.benchmark_group("model_distinct_1m_threads");
    g.sample_size(10);
    let (counts, cols, lat) = distinct_like(THREADS);
    g.bench_function("estimates_and_three_regroupings", |b| {
        b.iter(|| model(black_box(&counts), cols, &lat))
    });
    let classes = Classes::new(&counts, cols, &lat);
    g.bench_function("classes", |b| {
        b.iter(|| Classes::new(black_box(&counts), cols, &lat).len())
    });
    for alg in Algorithm::ALL {
        g.bench_function(alg.name(), |b| {
            b.iter(|| regroup(alg, black_box(&classes), &lat, 32))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
