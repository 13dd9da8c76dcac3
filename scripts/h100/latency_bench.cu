// scripts/h100/latency_bench.cu -- clock64 latency micro-benchmarks for warpscope's divergence
// performance model (Liang et al., paper 002; `warpscope model`).
//
// Each benchmark runs one warp (or one thread) of a chain of DEPENDENT instructions written in
// inline PTX (asm volatile, so nvcc keeps each one) between two clock64() reads, and reports
// the cycles per link of the chain: the instruction's latency as a dependent instruction sees
// it, like the paper's Table III (GTX480) measured with the same method.
//
//   nvcc -O3 -Xptxas -O0 -arch=sm_90 scripts/h100/latency_bench.cu -o latency_bench && ./latency_bench
// (ptxas -O0 keeps every link of a chain; scripts/h100/latency_bench.sh says why)
//
// Output: tab-separated `class  cycles  what` lines (one per benchmark, the minimum of REPS
// runs), then `clock_mhz` measured by timing a clock64 spin with CUDA events.
// The classes are the ones crates/model/src/latency.rs maps PTX instructions to.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#ifndef CHAIN
#define CHAIN 256   // links per timed chain (unrolled)
#endif
#define REPS 5

// A chain of CHAIN dependent steps of STEP on variable x; the cycles per step go to out[0],
// the value to out[1] so nothing is dead.
#define BENCH(NAME, T, INIT, STEP)                                                         \
    __global__ void NAME(long long* out, T seed, T y) {                                    \
        T x = seed + (T)INIT;                                                              \
        __syncwarp();                                                                      \
        long long t0 = clock64();                                                          \
        _Pragma("unroll") for (int k = 0; k < CHAIN; ++k) { STEP; }                        \
        long long t1 = clock64();                                                          \
        if (threadIdx.x == 0) { out[0] = t1 - t0; out[1] = (long long)x; }                 \
    }

// ---- integer ALU
BENCH(b_int_add, unsigned, 1, asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(y)))
BENCH(b_int_logic, unsigned, 1, asm volatile("xor.b32 %0, %0, %1;" : "+r"(x) : "r"(y)))
BENCH(b_int_shift, unsigned, 1, asm volatile("shl.b32 %0, %0, 1;" : "+r"(x)))
BENCH(b_int_minmax, int, 1, asm volatile("max.s32 %0, %0, %1;" : "+r"(x) : "r"(y)))
BENCH(b_int_mul, unsigned, 1, asm volatile("mul.lo.u32 %0, %0, %1;" : "+r"(x) : "r"(y)))
BENCH(b_int_mad, unsigned, 1, asm volatile("mad.lo.u32 %0, %0, %1, %1;" : "+r"(x) : "r"(y)))
BENCH(b_int_mul_wide, unsigned long long, 1,
      asm volatile("{ .reg .u32 lo; cvt.u32.u64 lo, %0; mul.wide.u32 %0, lo, 3; }" : "+l"(x)))
BENCH(b_int64_add, unsigned long long, 1, asm volatile("add.u64 %0, %0, %1;" : "+l"(x) : "l"(y)))
BENCH(b_int64_mul, unsigned long long, 1, asm volatile("mul.lo.u64 %0, %0, %1;" : "+l"(x) : "l"(y)))
BENCH(b_int_div, unsigned, 1000003, asm volatile("div.u32 %0, %0, %1;" : "+r"(x) : "r"(y)))
BENCH(b_int_rem, unsigned, 1000003, asm volatile("rem.u32 %0, %0, %1;" : "+r"(x) : "r"(y)))
BENCH(b_int_div_s, int, 1000003, asm volatile("div.s32 %0, %0, %1;" : "+r"(x) : "r"(y)))
BENCH(b_int64_div, unsigned long long, 1000003,
      asm volatile("div.u64 %0, %0, %1;" : "+l"(x) : "l"(y)))
BENCH(b_int_bit, unsigned, 1, asm volatile("popc.b32 %0, %0;" : "+r"(x)))
BENCH(b_int_brev, unsigned, 1, asm volatile("brev.b32 %0, %0;" : "+r"(x)))
// setp + selp pair (reported per pair; the table halves it per instruction)
BENCH(b_setp_selp, unsigned, 1,
      asm volatile("{ .reg .pred p; setp.lt.u32 p, %0, %1; selp.u32 %0, %1, %0, p; }"
                   : "+r"(x) : "r"(y)))
// ---- fp32
BENCH(b_fp32_add, float, 1, asm volatile("add.f32 %0, %0, %1;" : "+f"(x) : "f"(y)))
BENCH(b_fp32_mul, float, 1, asm volatile("mul.f32 %0, %0, %1;" : "+f"(x) : "f"(y)))
BENCH(b_fp32_fma, float, 1, asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(x) : "f"(y)))
BENCH(b_fp32_minmax, float, 1, asm volatile("max.f32 %0, %0, %1;" : "+f"(x) : "f"(y)))
BENCH(b_fp32_div, float, 1, asm volatile("div.rn.f32 %0, %0, %1;" : "+f"(x) : "f"(y)))
BENCH(b_fp32_div_approx, float, 1, asm volatile("div.approx.f32 %0, %0, %1;" : "+f"(x) : "f"(y)))
BENCH(b_fp32_sqrt, float, 1, asm volatile("sqrt.rn.f32 %0, %0;" : "+f"(x)))
BENCH(b_fp32_rcp, float, 1, asm volatile("rcp.rn.f32 %0, %0;" : "+f"(x)))
BENCH(b_sfu_rcp, float, 1, asm volatile("rcp.approx.f32 %0, %0;" : "+f"(x)))
BENCH(b_sfu_sqrt, float, 1, asm volatile("sqrt.approx.f32 %0, %0;" : "+f"(x)))
BENCH(b_sfu_rsqrt, float, 1, asm volatile("rsqrt.approx.f32 %0, %0;" : "+f"(x)))
BENCH(b_sfu_sin, float, 1, asm volatile("sin.approx.f32 %0, %0;" : "+f"(x)))
BENCH(b_sfu_ex2, float, 1, asm volatile("ex2.approx.f32 %0, %0;" : "+f"(x)))
BENCH(b_sfu_lg2, float, 1, asm volatile("lg2.approx.f32 %0, %0;" : "+f"(x)))
BENCH(b_sfu_tanh, float, 1, asm volatile("tanh.approx.f32 %0, %0;" : "+f"(x)))
// ---- fp64
BENCH(b_fp64_add, double, 1, asm volatile("add.f64 %0, %0, %1;" : "+d"(x) : "d"(y)))
BENCH(b_fp64_fma, double, 1, asm volatile("fma.rn.f64 %0, %0, %1, %1;" : "+d"(x) : "d"(y)))
BENCH(b_fp64_div, double, 1, asm volatile("div.rn.f64 %0, %0, %1;" : "+d"(x) : "d"(y)))
BENCH(b_fp64_sqrt, double, 1, asm volatile("sqrt.rn.f64 %0, %0;" : "+d"(x)))
// ---- conversions: int -> float -> int pair (reported per pair)
BENCH(b_cvt_pair, int, 1,
      asm volatile("{ .reg .f32 f; cvt.rn.f32.s32 f, %0; cvt.rzi.s32.f32 %0, f; }" : "+r"(x)))
BENCH(b_cvt64_pair, float, 1,
      asm volatile("{ .reg .f64 d; cvt.f64.f32 d, %0; cvt.rn.f32.f64 %0, d; }" : "+f"(x)))
// ---- warp-level
BENCH(b_shfl, unsigned, 1,
      asm volatile("shfl.sync.bfly.b32 %0, %0, 1, 0x1f, 0xffffffff;" : "+r"(x)))
BENCH(b_vote, unsigned, 1,
      asm volatile("{ .reg .pred p; setp.ne.u32 p, %0, 0; vote.sync.ballot.b32 %0, p, 0xffffffff; }"
                   : "+r"(x)))

// ---- memory: pointer chases (each load's address is the previous load's value)
__global__ void b_ld_global(long long* out, const unsigned* __restrict__ p, int cg) {
    unsigned j = 0;
    // warm the lines first (L1 for .ca, L2 for .cg)
    for (int k = 0; k < CHAIN; ++k) {
        if (cg) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(j) : "l"(p + j));
        else asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(j) : "l"(p + j));
    }
    j = 0;
    long long t0 = clock64();
    if (cg) {
        _Pragma("unroll") for (int k = 0; k < CHAIN; ++k)
            asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(j) : "l"(p + j));
    } else {
        _Pragma("unroll") for (int k = 0; k < CHAIN; ++k)
            asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(j) : "l"(p + j));
    }
    long long t1 = clock64();
    if (threadIdx.x == 0) { out[0] = t1 - t0; out[1] = j; }
}

// DRAM: a chase over a large buffer with a large stride (every load misses L1 and L2).
__global__ void b_ld_dram(long long* out, const unsigned* __restrict__ p) {
    unsigned j = 0;
    long long t0 = clock64();
    for (int k = 0; k < 64; ++k) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(j) : "l"(p + j));
    long long t1 = clock64();
    if (threadIdx.x == 0) { out[0] = (t1 - t0) * (CHAIN / 64); out[1] = j; }
}

__global__ void b_ld_shared(long long* out, const unsigned* __restrict__ src) {
    __shared__ unsigned s[CHAIN];
    for (int k = threadIdx.x; k < CHAIN; k += blockDim.x) s[k] = src[k];
    __syncthreads();
    unsigned j = 0;
    long long t0 = clock64();
    _Pragma("unroll") for (int k = 0; k < CHAIN; ++k)
        asm volatile("ld.shared.u32 %0, [%1];" : "=r"(j) : "r"((unsigned)__cvta_generic_to_shared(s + j)));
    long long t1 = clock64();
    if (threadIdx.x == 0) { out[0] = t1 - t0; out[1] = j; }
}

// store then load of the same word, chained: reported per pair; the table subtracts ld.shared.
__global__ void b_st_ld_shared(long long* out, const unsigned* __restrict__ src) {
    __shared__ unsigned s[CHAIN];
    for (int k = threadIdx.x; k < CHAIN; k += blockDim.x) s[k] = src[k];
    __syncthreads();
    unsigned j = 0;
    unsigned a = (unsigned)__cvta_generic_to_shared(s) + 4 * threadIdx.x;
    long long t0 = clock64();
    _Pragma("unroll") for (int k = 0; k < CHAIN; ++k)
        asm volatile("st.shared.u32 [%1], %0; ld.shared.u32 %0, [%1];" : "+r"(j) : "r"(a));
    long long t1 = clock64();
    if (threadIdx.x == 0) { out[0] = t1 - t0; out[1] = j; }
}

__global__ void b_st_ld_global(long long* out, unsigned* p) {
    unsigned j = 0;
    unsigned* a = p + threadIdx.x;
    long long t0 = clock64();
    _Pragma("unroll") for (int k = 0; k < CHAIN; ++k)
        asm volatile("st.global.u32 [%1], %0; ld.global.ca.u32 %0, [%1];" : "+r"(j) : "l"(a) : "memory");
    long long t1 = clock64();
    if (threadIdx.x == 0) { out[0] = t1 - t0; out[1] = j; }
}

__constant__ unsigned c_chain[CHAIN];
__global__ void b_ld_const(long long* out) {
    unsigned j = 0;
    for (int k = 0; k < CHAIN; ++k) j = c_chain[j];  // warm
    j = 0;
    long long t0 = clock64();
    _Pragma("unroll") for (int k = 0; k < CHAIN; ++k) j = c_chain[j];
    long long t1 = clock64();
    if (threadIdx.x == 0) { out[0] = t1 - t0; out[1] = j; }
}

__global__ void b_ld_local(long long* out, const unsigned* __restrict__ src) {
    volatile unsigned loc[CHAIN];
    for (int k = 0; k < CHAIN; ++k) loc[k] = src[k];
    unsigned j = 0;
    long long t0 = clock64();
    _Pragma("unroll") for (int k = 0; k < CHAIN; ++k) j = loc[j];
    long long t1 = clock64();
    if (threadIdx.x == 0) { out[0] = t1 - t0; out[1] = j; }
}

__global__ void b_atom_global(long long* out, unsigned* p) {
    unsigned j = 0;
    long long t0 = clock64();
    _Pragma("unroll") for (int k = 0; k < CHAIN; ++k)
        asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(j) : "l"(p + (j & 0x100u)) : "memory");
    long long t1 = clock64();
    if (threadIdx.x == 0) { out[0] = t1 - t0; out[1] = j; }
}

__global__ void b_atom_shared(long long* out) {
    __shared__ unsigned s[512];
    for (int k = threadIdx.x; k < 512; k += blockDim.x) s[k] = 0;
    __syncthreads();
    unsigned j = 0;
    unsigned base = (unsigned)__cvta_generic_to_shared(s);
    long long t0 = clock64();
    _Pragma("unroll") for (int k = 0; k < CHAIN; ++k)
        asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(j) : "r"(base + 4 * (j & 0x100u)) : "memory");
    long long t1 = clock64();
    if (threadIdx.x == 0) { out[0] = t1 - t0; out[1] = j; }
}

__global__ void b_bar(long long* out) {
    long long t0 = clock64();
    _Pragma("unroll") for (int k = 0; k < CHAIN; ++k) __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0) { out[0] = t1 - t0; out[1] = 0; }
}

// A loop that is not unrolled: per iteration an add on the carried value, the counter's
// increment, its compare and the backward branch. The table derives `bra` from it.
__global__ void b_loop(long long* out, unsigned seed, unsigned y, int n) {
    unsigned x = seed;
    long long t0 = clock64();
#pragma unroll 1
    for (int k = 0; k < n; ++k) asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(y));
    long long t1 = clock64();
    if (threadIdx.x == 0) { out[0] = t1 - t0; out[1] = x; }
}

__global__ void spin(long long cycles, long long* out) {
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {}
    out[0] = clock64() - t0;
}

static long long* d_out;

template <typename F>
static double best(F launch) {
    long long h[2];
    double b = 1e300;
    for (int r = 0; r < REPS; ++r) {
        launch();
        CK(cudaGetLastError());
        CK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
        double v = (double)h[0] / CHAIN;
        if (v < b) b = v;
    }
    return b;
}

#define RUN1(NAME, T, SEED, Y, WHAT)                                                        \
    printf("%s\t%.2f\t%s\n", #NAME + 2, best([&] { NAME<<<1, 32>>>(d_out, (T)(SEED), (T)(Y)); }), WHAT)

int main() {
    CK(cudaMalloc(&d_out, 2 * sizeof(long long)));
    // chase buffers: element k holds k + 1 (a sequential walk); DRAM: stride of 1 MiB + 4 KiB
    unsigned h[CHAIN];
    for (int k = 0; k < CHAIN; ++k) h[k] = (k + 1) % CHAIN;
    unsigned* d_chain;
    CK(cudaMalloc(&d_chain, CHAIN * sizeof(unsigned)));
    CK(cudaMemcpy(d_chain, h, sizeof h, cudaMemcpyHostToDevice));
    CK(cudaMemcpyToSymbol(c_chain, h, sizeof h));
    const size_t big_n = (size_t)1 << 28;  // 1 GiB of u32: far beyond the 50 MB L2
    const size_t stride = (1u << 18) + 1031;  // elements (~1 MiB + 4 KiB)
    unsigned* d_big;
    CK(cudaMalloc(&d_big, big_n * sizeof(unsigned)));
    {
        unsigned* hb = (unsigned*)calloc(big_n, sizeof(unsigned));
        size_t j = 0;
        for (int k = 0; k < 128; ++k) {
            size_t nx = (j + stride) % big_n;
            hb[j] = (unsigned)nx;
            j = nx;
        }
        CK(cudaMemcpy(d_big, hb, big_n * sizeof(unsigned), cudaMemcpyHostToDevice));
        free(hb);
    }
    unsigned* d_scratch;
    CK(cudaMalloc(&d_scratch, 4096));
    CK(cudaMemset(d_scratch, 0, 4096));

    printf("# class\tcycles\twhat (dependent-chain latency, one warp, min of %d runs of %d links)\n", REPS, CHAIN);
    RUN1(b_int_add, unsigned, 1, 3, "add.u32");
    RUN1(b_int_logic, unsigned, 1, 3, "xor.b32");
    RUN1(b_int_shift, unsigned, 1, 3, "shl.b32");
    RUN1(b_int_minmax, int, 1, 3, "max.s32");
    RUN1(b_int_mul, unsigned, 1, 3, "mul.lo.u32");
    RUN1(b_int_mad, unsigned, 1, 3, "mad.lo.u32");
    RUN1(b_int_mul_wide, unsigned long long, 1, 3, "cvt.u32.u64 + mul.wide.u32 (pair)");
    RUN1(b_int64_add, unsigned long long, 1, 3, "add.u64");
    RUN1(b_int64_mul, unsigned long long, 1, 3, "mul.lo.u64");
    RUN1(b_int_div, unsigned, 1, 7, "div.u32");
    RUN1(b_int_rem, unsigned, 1, 7, "rem.u32");
    RUN1(b_int_div_s, int, 1, 7, "div.s32");
    RUN1(b_int64_div, unsigned long long, 1, 7, "div.u64");
    RUN1(b_int_bit, unsigned, 1, 3, "popc.b32");
    RUN1(b_int_brev, unsigned, 1, 3, "brev.b32");
    RUN1(b_setp_selp, unsigned, 1, 3, "setp.lt.u32 + selp.u32 (pair)");
    RUN1(b_fp32_add, float, 1, 0.5, "add.f32");
    RUN1(b_fp32_mul, float, 1, 0.999, "mul.f32");
    RUN1(b_fp32_fma, float, 1, 0.5, "fma.rn.f32");
    RUN1(b_fp32_minmax, float, 1, 0.5, "max.f32");
    RUN1(b_fp32_div, float, 1, 1.0001, "div.rn.f32");
    RUN1(b_fp32_div_approx, float, 1, 1.0001, "div.approx.f32");
    RUN1(b_fp32_sqrt, float, 2, 0, "sqrt.rn.f32");
    RUN1(b_fp32_rcp, float, 2, 0, "rcp.rn.f32");
    RUN1(b_sfu_rcp, float, 2, 0, "rcp.approx.f32");
    RUN1(b_sfu_sqrt, float, 2, 0, "sqrt.approx.f32");
    RUN1(b_sfu_rsqrt, float, 2, 0, "rsqrt.approx.f32");
    RUN1(b_sfu_sin, float, 0.5, 0, "sin.approx.f32");
    RUN1(b_sfu_ex2, float, 0.5, 0, "ex2.approx.f32");
    RUN1(b_sfu_lg2, float, 2, 0, "lg2.approx.f32");
    RUN1(b_sfu_tanh, float, 0.5, 0, "tanh.approx.f32");
    RUN1(b_fp64_add, double, 1, 0.5, "add.f64");
    RUN1(b_fp64_fma, double, 1, 0.5, "fma.rn.f64");
    RUN1(b_fp64_div, double, 1, 1.0001, "div.rn.f64");
    RUN1(b_fp64_sqrt, double, 2, 0, "sqrt.rn.f64");
    RUN1(b_cvt_pair, int, 1, 0, "cvt.rn.f32.s32 + cvt.rzi.s32.f32 (pair)");
    RUN1(b_cvt64_pair, float, 1, 0, "cvt.f64.f32 + cvt.rn.f32.f64 (pair)");
    RUN1(b_shfl, unsigned, 1, 0, "shfl.sync.bfly.b32");
    RUN1(b_vote, unsigned, 1, 0, "setp.ne.u32 + vote.sync.ballot.b32 (pair)");
    printf("ld_global_l1\t%.2f\tld.global.ca.u32 chase, L1 hit\n", best([&] { b_ld_global<<<1, 32>>>(d_out, d_chain, 0); }));
    printf("ld_global_l2\t%.2f\tld.global.cg.u32 chase, L2 hit\n", best([&] { b_ld_global<<<1, 32>>>(d_out, d_chain, 1); }));
    printf("ld_global_dram\t%.2f\tld.global.cg.u32 chase over 1 GiB, ~1 MiB stride\n", best([&] { b_ld_dram<<<1, 1>>>(d_out, d_big); }));
    printf("ld_shared\t%.2f\tld.shared.u32 chase\n", best([&] { b_ld_shared<<<1, 32>>>(d_out, d_chain); }));
    printf("st_ld_shared\t%.2f\tst.shared.u32 + ld.shared.u32 same word (pair)\n", best([&] { b_st_ld_shared<<<1, 32>>>(d_out, d_chain); }));
    printf("st_ld_global\t%.2f\tst.global.u32 + ld.global.ca.u32 same word (pair)\n", best([&] { b_st_ld_global<<<1, 32>>>(d_out, d_scratch); }));
    printf("ld_const\t%.2f\tld.const.u32 chase (constant cache hit)\n", best([&] { b_ld_const<<<1, 32>>>(d_out); }));
    printf("ld_local\t%.2f\tld.local.u32 chase (L1 hit)\n", best([&] { b_ld_local<<<1, 32>>>(d_out, d_chain); }));
    printf("atom_global\t%.2f\tatom.global.add.u32, result feeds the next address\n", best([&] { b_atom_global<<<1, 32>>>(d_out, d_scratch); }));
    printf("atom_shared\t%.2f\tatom.shared.add.u32, result feeds the next address\n", best([&] { b_atom_shared<<<1, 32>>>(d_out); }));
    printf("bar_sync\t%.2f\tbar.sync 0, one warp\n", best([&] { b_bar<<<1, 32>>>(d_out); }));
    printf("bar_sync_8w\t%.2f\tbar.sync 0, 8 warps\n", best([&] { b_bar<<<1, 256>>>(d_out); }));
    printf("loop_iteration\t%.2f\tnon-unrolled loop: add + counter add + setp + bra\n", best([&] { b_loop<<<1, 32>>>(d_out, 1u, 3u, CHAIN); }));

    // SM clock: time a spin of known clock64 cycles with events
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    const long long cyc = 200000000LL;
    spin<<<1, 1>>>(cyc / 10, d_out);  // warm up (clock ramps)
    CK(cudaDeviceSynchronize());
    CK(cudaEventRecord(a));
    spin<<<1, 1>>>(cyc, d_out);
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    printf("clock_mhz\t%.1f\tclock64 cycles per microsecond during a %lld-cycle spin\n", cyc / (ms * 1000.0), cyc);
    return 0;
}
