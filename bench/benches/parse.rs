//! `cargo bench -p warpscope-bench --bench parse`
//!
//! Parses the deterministic large module ([`warpscope_bench::large_module`]) with
//! warpscope-ptx and with ptx-syntax 0.5.0. If ptx-syntax cannot parse the full module,
//! both parsers are also measured on the largest module built only from the samples
//! that ptx-syntax accepts (printed at start-up).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use warpscope_bench::{LARGE_MODULE_BYTES, build_module, large_module, ptx_syntax_parses, samples};

fn bench_parse(c: &mut Criterion) {
    let big = large_module();
    {
        let (_, errors) = warpscope_ptx::parse(&big);
        assert!(
            errors.is_empty(),
            "warpscope-ptx failed on the benchmark module"
        );
    }
    let mut g = c.benchmark_group("parse_large_module");
    g.throughput(Throughput::Bytes(big.len() as u64));
    g.sample_size(30);
    g.bench_function("warpscope-ptx", |b| {
        b.iter(|| black_box(warpscope_ptx::parse(black_box(&big))))
    });
    let ps_full = ptx_syntax_parses(&big);
    eprintln!(
        "large module: {} bytes; ptx-syntax parses it: {ps_full}",
        big.len()
    );
    if ps_full {
        g.bench_function("ptx-syntax", |b| {
            b.iter(|| black_box(ptx_syntax::parse_ptx(black_box(&big)).is_ok()))
        });
    }
    g.finish();

    if !ps_full {
        // The largest input ptx-syntax accepts: the samples it parses, replicated.
        let all = samples();
        let ok: Vec<&str> = all
            .iter()
            .filter(|(_, s)| ptx_syntax_parses(s))
            .map(|(_, s)| s.as_str())
            .collect();
        let rejected: Vec<String> = all
            .iter()
            .filter(|(_, s)| !ptx_syntax_parses(s))
            .map(|(p, _)| {
                p.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        eprintln!(
            "ptx-syntax accepts {} of {} samples; rejected: {rejected:?}",
            ok.len(),
            all.len()
        );
        let common = build_module(&ok, LARGE_MODULE_BYTES);
        let common_ok = ptx_syntax_parses(&common);
        eprintln!(
            "common module: {} bytes; ptx-syntax parses it: {common_ok}",
            common.len()
        );
        if common_ok {
            let mut g = c.benchmark_group("parse_common_module");
            g.throughput(Throughput::Bytes(common.len() as u64));
            g.sample_size(10);
            g.bench_function("warpscope-ptx", |b| {
                b.iter(|| black_box(warpscope_ptx::parse(black_box(&common))))
            });
            g.bench_function("ptx-syntax", |b| {
                b.iter(|| black_box(ptx_syntax::parse_ptx(black_box(&common)).is_ok()))
            });
            g.finish();
        }
    }
}

criterion_group!(benches, bench_parse);
criterion_main!(benches);
