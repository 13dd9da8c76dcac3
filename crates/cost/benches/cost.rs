//! Cost of one warp request through the model, for the patterns the profiler sees most.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use warpscope_cost::{global, shared};

fn lanes(f: impl Fn(u64) -> u64) -> [u64; 32] {
    std::array::from_fn(|l| f(l as u64))
}

fn bench(c: &mut Criterion) {
    let patterns = [
        ("coalesced", lanes(|l| 0x1000 + 4 * l), 4),
        ("stride2", lanes(|l| 0x1000 + 8 * l), 4),
        ("reversed", lanes(|l| 0x1000 + 4 * (31 - l)), 4),
        ("column32", lanes(|l| 128 * l), 4),
        ("two_row_broadcast", lanes(|l| 0x1004 + 1024 * (l / 16)), 4),
        ("float4", lanes(|l| 0x1000 + 16 * l), 16),
        (
            "scatter",
            lanes(|l| (l.wrapping_mul(2654435761) % 65536) * 4),
            4,
        ),
    ];
    // Calibration: the machine's cost of touching 32 lanes once.
    let a = lanes(|l| 0x1000 + 4 * l);
    c.bench_function("baseline/sum32", |b| {
        b.iter(|| {
            black_box(&a)
                .iter()
                .fold(0u64, |s, &x| s.wrapping_add(x >> 5))
        })
    });
    let mut g = c.benchmark_group("global");
    for (name, a, size) in &patterns {
        g.bench_function(*name, |b| {
            b.iter(|| global(black_box(a), black_box(u32::MAX), black_box(*size)))
        });
    }
    g.finish();
    let mut g = c.benchmark_group("shared");
    for (name, a, size) in &patterns {
        g.bench_function(*name, |b| {
            b.iter(|| shared(black_box(a), black_box(u32::MAX), black_box(*size)))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
