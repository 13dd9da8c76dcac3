//! One-shot comparison on ptoxide's gemm:
//! `cargo run --release -p warpscope-emu-ptoxide --example compare [n] [reps]`.
//! Prints the best of `reps` runs (default 3) of each configuration.
use std::time::Duration;
use warpscope_emu::ExecConfig;
use warpscope_emu_ptoxide::*;

fn best(reps: usize, mut f: impl FnMut() -> (Duration, Vec<f32>)) -> (Duration, Vec<f32>) {
    let mut out = f();
    for _ in 1..reps {
        let r = f();
        if r.0 < out.0 {
            out = r;
        }
    }
    out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(256);
    let reps: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(3);
    let one = ExecConfig {
        schedule: warpscope_emu::Schedule::Emulated,
        ..ExecConfig::default()
    };
    let (ti, _, _) = run_warpscope(n, one.clone());
    let (w1, c1) = best(reps, || {
        let (_, w, c) = run_warpscope(n, one.clone());
        (w, c)
    });
    let rate = |w: Duration| ti as f64 / w.as_secs_f64() / 1e6;
    if std::env::var_os("ONLY_WS").is_some() {
        println!(
            "warpscope 1 core {:.1} ms {:.1} M/s",
            w1.as_secs_f64() * 1e3,
            rate(w1)
        );
        return;
    }
    let (wn, cn) = best(reps, || {
        let (_, w, c) = run_warpscope(n, ExecConfig::default());
        (w, c)
    });
    let (wp, cp) = best(reps, || run_ptoxide(n));
    assert_eq!(c1, cp, "warpscope and ptoxide disagree");
    assert_eq!(c1, cn, "parallel and deterministic disagree");
    println!("gemm n={n}: {ti} thread-instructions, best of {reps}");
    println!(
        "ptoxide            {:>9.1} ms  {:>8.1} M thread-instr/s",
        wp.as_secs_f64() * 1e3,
        rate(wp)
    );
    println!(
        "warpscope 1 core   {:>9.1} ms  {:>8.1} M thread-instr/s  ({:.1}x ptoxide)",
        w1.as_secs_f64() * 1e3,
        rate(w1),
        wp.as_secs_f64() / w1.as_secs_f64()
    );
    println!(
        "warpscope all      {:>9.1} ms  {:>8.1} M thread-instr/s  ({:.1}x ptoxide, {} threads)",
        wn.as_secs_f64() * 1e3,
        rate(wn),
        wp.as_secs_f64() / wn.as_secs_f64(),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
}
