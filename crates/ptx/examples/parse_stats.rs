//! Parses PTX files and prints size, time, throughput, peak RSS and errors.
//!
//! `cargo run --release -p warpscope-ptx --example parse_stats -- FILE... [--quiet] [--errors]`

use std::time::Instant;

fn vm_hwm_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn vm_rss_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let show_errors = args.iter().any(|a| a == "--errors");
    let mut failed = false;
    for path in args.iter().filter(|a| !a.starts_with("--")) {
        let src = match std::fs::read_to_string(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{path}: {e}");
                failed = true;
                continue;
            }
        };
        let rss_before = vm_rss_kib().unwrap_or(0);
        let t = Instant::now();
        let (module, errors) = warpscope_ptx::parse(&src);
        let dt = t.elapsed();
        let hwm = vm_hwm_kib().unwrap_or(0);
        let mb = src.len() as f64 / 1e6;
        println!(
            "{path}: {} bytes, {} items, {:.3} ms, {:.1} MB/s, peak RSS {} KiB (before parse {} KiB, delta {} KiB = {:.1}x input), {} errors",
            src.len(),
            module.items.len(),
            dt.as_secs_f64() * 1e3,
            mb / dt.as_secs_f64(),
            hwm,
            rss_before,
            hwm.saturating_sub(rss_before),
            hwm.saturating_sub(rss_before) as f64 * 1024.0 / src.len().max(1) as f64,
            errors.len()
        );
        if !errors.is_empty() {
            failed = true;
            if show_errors {
                print!("{}", warpscope_ptx::render_errors(path, &src, &errors));
            }
        }
        drop(module);
    }
    if failed {
        std::process::exit(1);
    }
}
