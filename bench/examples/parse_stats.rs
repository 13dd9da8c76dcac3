//! Peak-memory and one-shot timing of one parser on one input, in a fresh process.
//!
//! ```text
//! cargo run --release -p warpscope-bench --example parse_stats -- warpscope|ptx-syntax [FILE|--large|--common]
//! ```
//! `parse_stats --check-samples` lists which samples each parser accepts.
//! `--large` uses `large_module()`; `--common` the module built from the samples ptx-syntax
//! accepts. Prints bytes, parse time, MB/s, and the RSS growth during the parse (VmHWM after
//! minus VmRSS before), also as a multiple of the input size.

use std::time::Instant;

use warpscope_bench::*;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let which = args.first().map(String::as_str).unwrap_or("warpscope");
    if which == "--check-samples" {
        // Which samples each parser accepts.
        for (p, s) in samples() {
            let ours = warpscope_ptx::parse(&s).1.is_empty();
            let theirs = ptx_syntax_parses(&s);
            println!("{:>40}  {:>7} bytes  warpscope={ours}  ptx-syntax={theirs}", p.display().to_string(), s.len());
            if !theirs && let Ok(Err(e)) = std::panic::catch_unwind(|| ptx_syntax::parse_ptx(&s)) {
                let msg = format!("{e:?}");
                println!("    ptx-syntax error: {}", msg.chars().take(300).collect::<String>());
            }
        }
        return;
    }
    let input = match args.get(1).map(String::as_str) {
        None | Some("--large") => large_module(),
        Some("--common") => {
            let all = samples();
            let ok: Vec<&str> = all.iter().filter(|(_, s)| ptx_syntax_parses(s)).map(|(_, s)| s.as_str()).collect();
            build_module(&ok, LARGE_MODULE_BYTES)
        }
        Some(path) => std::fs::read_to_string(path).expect("read input"),
    };
    if let Some(p) = std::env::var_os("WARPSCOPE_DUMP") {
        std::fs::write(p, &input).expect("write dump");
    }
    // Make sure the input is resident before measuring.
    let check: usize = input.bytes().map(usize::from).sum();
    std::hint::black_box(check);
    // PARSE_REPEAT=N parses N extra times first (for profiling); the report is for the last.
    let repeat: usize = std::env::var("PARSE_REPEAT").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    for _ in 0..repeat {
        match which {
            "ptx-syntax" => drop(std::hint::black_box(ptx_syntax::parse_ptx(&input))),
            _ => drop(std::hint::black_box(warpscope_ptx::parse(&input))),
        }
    }
    let before = rss_kib().unwrap_or(0);
    let t = Instant::now();
    let ok = match which {
        "warpscope" => {
            let (m, errors) = warpscope_ptx::parse(&input);
            let ok = errors.is_empty();
            let dt = t.elapsed();
            report(which, &input, dt, before, ok);
            drop(m);
            return;
        }
        "ptx-syntax" => {
            let r = ptx_syntax::parse_ptx(&input);
            let ok = r.is_ok();
            let dt = t.elapsed();
            report(which, &input, dt, before, ok);
            drop(r);
            return;
        }
        _ => false,
    };
    eprintln!("unknown parser {which} ({ok})");
    std::process::exit(2);
}

fn report(which: &str, input: &str, dt: std::time::Duration, before: u64, ok: bool) {
    let peak = peak_rss_kib().unwrap_or(0);
    let delta = peak.saturating_sub(before);
    println!(
        "{which}: {} bytes, ok={ok}, {:.2} ms, {:.1} MB/s, RSS before {} KiB, peak {} KiB, delta {} KiB = {:.2}x input",
        input.len(),
        dt.as_secs_f64() * 1e3,
        input.len() as f64 / 1e6 / dt.as_secs_f64(),
        before,
        peak,
        delta,
        delta as f64 * 1024.0 / input.len() as f64
    );
}
