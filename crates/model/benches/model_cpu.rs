//! On-CPU time of each step of the model on the synthetic launches of `model.rs`, one run
//! each, with what each regrouping chose (a hash of its order, its BBV-weighted-scheduled
//! estimate and its BBV-weighted work), so that a change can be checked for changing orders
//! and timed without the machine's load counted in (criterion measures wall time).
//!
//! `cargo bench -p warpscope-model --bench model_cpu` (arguments: names of launches to run,
//! of `distinct_1m distinct_256k mc_like loop_like`; all when none)
//!
//! Per step: `cpu` is the on-CPU time of all the process's threads (`/proc/self/stat`, 10 ms
//! ticks), `main` the main thread's (`/proc/thread-self/schedstat`, ns), `wall` the elapsed.

use rayon::prelude::*;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Instant;
use warpscope_model::estimate::{Classes, bbv_weighted, bbv_weighted_scheduled, block_times};
use warpscope_model::regroup::{Algorithm, regroup};

mod shapes;
use shapes::{DISTINCT_THREADS, THREADS, distinct_like, loop_like, mc_like};

/// The process's on-CPU seconds (user + system, all threads).
fn process_cpu() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // fields after the command's closing parenthesis: state is field 3, utime 14, stime 15
    let rest = stat.rsplit_once(')').map_or("", |r| r.1);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}

/// The calling thread's on-CPU seconds.
fn thread_cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let (p, t, w) = (process_cpu(), thread_cpu(), Instant::now());
    let r = f();
    println!(
        "  {what:<14} cpu {:6.2} s  main {:6.3} s  wall {:6.3} s",
        process_cpu() - p,
        thread_cpu() - t,
        w.elapsed().as_secs_f64()
    );
    r
}

fn run(name: &str, counts: &[u32], cols: usize, lat: &[f64]) {
    println!("{name} ({} threads)", counts.len() / cols);
    let (p0, w0) = (process_cpu(), Instant::now());
    let classes = timed("classes", || Classes::new(counts, cols, lat));
    let t = timed("block_times", || {
        block_times(&classes, lat, 256, None, true)
    });
    println!(
        "  {} classes; original: scheduled {:.0}, work {:.0}",
        classes.len(),
        bbv_weighted_scheduled(&t.as_run, 132, 8),
        bbv_weighted(&t.as_run, 132)
    );
    for alg in Algorithm::ALL {
        let o = timed(alg.name(), || regroup(alg, &classes, lat, 32));
        let r = timed("block_times", || {
            block_times(&classes, lat, 256, Some(&o), false)
        });
        let mut h = DefaultHasher::new();
        o.hash(&mut h);
        println!(
            "  {:<14} order hash {:016x}  scheduled {:.0}  work {:.0}",
            alg.name(),
            h.finish(),
            bbv_weighted_scheduled(&r.as_run, 132, 8),
            bbv_weighted(&r.as_run, 132)
        );
    }
    println!(
        "  whole model    cpu {:6.2} s  wall {:6.3} s  (steps one after another)",
        process_cpu() - p0,
        w0.elapsed().as_secs_f64()
    );
    drop(classes);
    // as `warpscope model` runs it (lib.rs): the regroupings, each with its estimate, side by
    // side on rayon's threads
    let (p1, w1) = (process_cpu(), Instant::now());
    let classes = Classes::new(counts, cols, lat);
    let t = block_times(&classes, lat, 256, None, true);
    let est: Vec<f64> = Algorithm::ALL
        .par_iter()
        .map(|&alg| {
            let o = regroup(alg, &classes, lat, 32);
            bbv_weighted_scheduled(
                &block_times(&classes, lat, 256, Some(&o), false).as_run,
                132,
                8,
            )
        })
        .collect();
    std::hint::black_box((t, est));
    println!(
        "  whole model    cpu {:6.2} s  wall {:6.3} s  (regroupings side by side, {} threads)",
        process_cpu() - p1,
        w1.elapsed().as_secs_f64(),
        rayon::current_num_threads()
    );
}

fn main() {
    let want: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let on = |n: &str| want.is_empty() || want.iter().any(|w| w == n);
    if on("distinct_1m") {
        let (c, k, l) = distinct_like(THREADS);
        run("distinct_1m", &c, k, &l);
    }
    if on("distinct_256k") {
        let (c, k, l) = distinct_like(DISTINCT_THREADS);
        run("distinct_256k", &c, k, &l);
    }
    if on("mc_like") {
        let (c, k, l) = mc_like();
        run("mc_like", &c, k, &l);
    }
    if on("loop_like") {
        let (c, k, l) = loop_like();
        run("loop_like", &c, k, &l);
    }
}
