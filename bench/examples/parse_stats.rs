//! Timing and peak memory of one parser on one input.
//!
//! ```text
//! cargo run --release -p warpscope-bench --example parse_stats -- PARSER [INPUT] [--iters N]
//!   PARSER: warpscope | warpscope-ir (parse and lower to IR) | ptx-syntax
//!   INPUT:  FILE | --large (default: large_module()) | --common (samples ptx-syntax accepts)
//! cargo run --release -p warpscope-bench --example parse_stats -- --check-samples
//! ```
//!
//! The first parse runs in a fresh process: its RSS growth (VmHWM after minus VmRSS before) is
//! the peak-memory figure. With `--iters N`, N more parses follow and the minimum and median
//! wall time and the minimum on-CPU time (from `/proc/thread-self/schedstat`, which does not
//! count time spent waiting for a core on a busy machine) are printed.
//! `WARPSCOPE_DUMP=FILE` writes the input to FILE.

use std::time::{Duration, Instant};

use warpscope_bench::*;

fn on_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn parse_once(which: &str, input: &str) -> bool {
    match which {
        "ptx-syntax" => std::hint::black_box(ptx_syntax::parse_ptx(input)).is_ok(),
        "warpscope-ir" => {
            let (ast, errors) = warpscope_ptx::parse(input);
            let (module, lower_errors) = warpscope_ir::lower_module(ast);
            std::hint::black_box(&module);
            errors.is_empty() && lower_errors.is_empty()
        }
        _ => std::hint::black_box(warpscope_ptx::parse(input))
            .1
            .is_empty(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let which = args.first().map(String::as_str).unwrap_or("warpscope");
    if which == "--check-samples" {
        // Which samples each parser accepts.
        for (p, s) in samples() {
            let ours = warpscope_ptx::parse(&s).1.is_empty();
            let theirs = ptx_syntax_parses(&s);
            println!(
                "{:>40}  {:>7} bytes  warpscope={ours}  ptx-syntax={theirs}",
                p.display().to_string(),
                s.len()
            );
            if !theirs && let Ok(Err(e)) = std::panic::catch_unwind(|| ptx_syntax::parse_ptx(&s)) {
                let msg = format!("{e:?}");
                println!(
                    "    ptx-syntax error: {}",
                    msg.chars().take(300).collect::<String>()
                );
            }
        }
        return;
    }
    if !matches!(which, "warpscope" | "warpscope-ir" | "ptx-syntax") {
        eprintln!("unknown parser {which}: use warpscope, warpscope-ir or ptx-syntax");
        std::process::exit(2);
    }
    let mut iters = 0usize;
    let mut input_arg = None;
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        if a == "--iters" {
            iters = it.next().and_then(|v| v.parse().ok()).unwrap_or(10);
        } else {
            input_arg = Some(a.as_str());
        }
    }
    let input = match input_arg {
        None | Some("--large") => large_module(),
        Some("--common") => {
            let all = samples();
            let ok: Vec<&str> = all
                .iter()
                .filter(|(_, s)| ptx_syntax_parses(s))
                .map(|(_, s)| s.as_str())
                .collect();
            build_module(&ok, LARGE_MODULE_BYTES)
        }
        Some(path) => std::fs::read_to_string(path).expect("read input"),
    };
    if let Some(p) = std::env::var_os("WARPSCOPE_DUMP") {
        std::fs::write(p, &input).expect("write dump");
    }
    // Make sure the input is resident before measuring.
    std::hint::black_box(input.bytes().map(usize::from).sum::<usize>());
    let mb = input.len() as f64 / 1e6;

    let before = rss_kib().unwrap_or(0);
    let t = Instant::now();
    let ok = parse_once(which, &input);
    let first = t.elapsed();
    let peak = peak_rss_kib().unwrap_or(0);
    let delta = peak.saturating_sub(before);
    println!(
        "{which}: {} bytes, ok={ok}; first parse {:.2} ms ({:.1} MB/s); RSS before {before} KiB, peak {peak} KiB, delta {delta} KiB = {:.2}x input",
        input.len(),
        first.as_secs_f64() * 1e3,
        mb / first.as_secs_f64(),
        delta as f64 * 1024.0 / input.len() as f64
    );
    if iters > 0 {
        let mut wall: Vec<Duration> = Vec::with_capacity(iters);
        let mut cpu_min = u64::MAX;
        for _ in 0..iters {
            let c0 = on_cpu_ns();
            let t = Instant::now();
            parse_once(which, &input);
            wall.push(t.elapsed());
            if let (Some(a), Some(b)) = (c0, on_cpu_ns()) {
                cpu_min = cpu_min.min(b.saturating_sub(a));
            }
        }
        wall.sort();
        let min = wall[0].as_secs_f64();
        let med = wall[wall.len() / 2].as_secs_f64();
        let cpu = cpu_min as f64 / 1e9;
        println!(
            "{which}: {iters} iterations: wall min {:.2} ms ({:.1} MB/s), median {:.2} ms ({:.1} MB/s); on-CPU min {:.2} ms ({:.1} MB/s)",
            min * 1e3,
            mb / min,
            med * 1e3,
            mb / med,
            cpu * 1e3,
            mb / cpu
        );
    }
}
