//! The synthetic launches the model benches share (shaped like the corpus kernels').

pub const THREADS: usize = 1 << 20;
pub const DISTINCT_THREADS: usize = 1 << 18;

pub fn mix(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^ (x >> 16)
}

/// Marching-cubes-like: 12 edge blocks each crossed or not (up to 4096 distinct vectors) plus
/// entry and exit blocks.
pub fn mc_like() -> (Vec<u32>, usize, Vec<f64>) {
    let cols = 14;
    let mut counts = Vec::with_capacity(THREADS * cols);
    for t in 0..THREADS as u32 {
        let h = mix(t);
        counts.push(1);
        for e in 0..12 {
            counts.push((h >> e) & 1);
        }
        counts.push(1);
    }
    let lat = (0..cols).map(|c| 20.0 + 7.0 * c as f64).collect();
    (counts, cols, lat)
}

/// Loop-like: a loop body run 0..=1023 times (1024 distinct vectors).
pub fn loop_like() -> (Vec<u32>, usize, Vec<f64>) {
    let cols = 4;
    let mut counts = Vec::with_capacity(THREADS * cols);
    for t in 0..THREADS as u32 {
        let k = mix(t) % 1024;
        counts.extend([1, k + 1, k, 1]);
    }
    (counts, cols, vec![30.0, 8.0, 90.0, 20.0])
}

/// Alignment-like (`threads` threads): nearly every thread distinct (a row of cells whose
/// branch counts depend on the thread's own sequence), latencies close together: Greedy-Max's
/// bound prunes little. 242,427 distinct vectors of 262,144 threads, 839,289 of 1,048,576.
pub fn distinct_like(threads: usize) -> (Vec<u32>, usize, Vec<f64>) {
    let cols = 7;
    let mut counts = Vec::with_capacity(threads * cols);
    for t in 0..threads as u32 {
        let h = mix(t);
        let m = 4 + (h & 7);
        let a = (h >> 3) % (m * m + 1);
        let b = (h >> 11) % (m * m + 1 - a);
        let e = mix(h) % 512;
        counts.extend([1, m, m * m, a, b, m * m - a - b, e]);
    }
    (counts, cols, vec![30.0, 12.0, 9.0, 14.0, 11.0, 10.0, 6.0])
}
