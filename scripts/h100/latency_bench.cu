// scripts/h100/latency_bench.cu -- clock64 latency micro-benchmarks for warpscope's divergence
// performance model (Liang et al., paper 002; `warpscope model`).
//
// Each benchmark runs one warp through a chain of CHAIN dependent links written in inline PTX
// between two clock64() reads and reports the cycles per link: the latency a dependent
// instruction sees, like the paper's Table III (GTX480), measured the same way.
//
//   nvcc -O3 -arch=sm_90 scripts/h100/latency_bench.cu -o latency_bench && ./latency_bench
//
// Built with ptxas -O3, which sees only PTX (`asm volatile` binds nvcc, not ptxas): it folds
// constants, merges dependent adds into IADD3 / LOP3 / VIMNMX3, cancels x^y^y and moves
// code across the clock reads (validation/h100/model/latency_raw_ptxas_O3.tsv is what that
// did to an earlier version of this file). So that every link stays one SASS instruction:
//   * the operands are per-lane values read from global memory at run time (`in`), so
//     nothing is a constant and nothing goes to the uniform datapath;
//   * chains of ops ptxas would combine alternate operands or ops so that two links never
//     fold into one (min/max alternate, lop3 alternates operand pairs; one int_alu link is
//     two PTX adds, which ptxas makes one three-input IADD3, the instruction being timed);
//   * the chain starts after the first clock read (`if (t0 == 0) x = y;`) and the second
//     clock read is predicated on the chain's result, so neither end can move.
// The `// sass: REGEX [single]` line before each benchmark says what its timed chain must be;
// scripts/h100/latency_sass_check.py checks the built binary's SASS against them: the intended
// opcode CHAIN times between the clock reads and, for `single` (one SASS instruction per link),
// almost nothing else there.
//
// Output: tab-separated `class  cycles  what` lines (one per benchmark, the minimum of REPS
// runs), then `clock_mhz` measured by timing a clock64 spin with CUDA events.
// The classes are the ones crates/model/src/latency.rs maps PTX instructions to.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#ifndef CHAIN
#define CHAIN 256   // links per timed chain (unrolled)
#endif
#define REPS 7
#define LANES 32

typedef unsigned long long u64;

// The second clock read, predicated on the chain's final value (never equal to the sentinel in
// practice), so ptxas cannot schedule any link after it.
__device__ __forceinline__ long long clock_after(unsigned x) {
    long long t;
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0x7f3a5c1d; mov.u64 %0, 0; @p mov.u64 %0, %%clock64; }"
                 : "=l"(t) : "r"(x) : "memory");
    return t;
}
__device__ __forceinline__ long long clock_after(int x) { return clock_after((unsigned)x); }
__device__ __forceinline__ long long clock_after(float x) { return clock_after(__float_as_uint(x)); }
__device__ __forceinline__ long long clock_after(u64 x) {
    long long t;
    asm volatile("{ .reg .pred p; setp.ne.u64 p, %1, 0x7f3a5c1d7f3a5c1d; mov.u64 %0, 0; @p mov.u64 %0, %%clock64; }"
                 : "=l"(t) : "l"(x) : "memory");
    return t;
}
__device__ __forceinline__ long long clock_after(double x) { return clock_after((u64)__double_as_longlong(x)); }
__device__ __forceinline__ unsigned keep_bits(unsigned x) { return x; }
__device__ __forceinline__ unsigned keep_bits(int x) { return (unsigned)x; }
__device__ __forceinline__ unsigned keep_bits(float x) { return __float_as_uint(x); }
__device__ __forceinline__ unsigned keep_bits(u64 x) { return (unsigned)(x ^ (x >> 32)); }
__device__ __forceinline__ unsigned keep_bits(double x) { return keep_bits((u64)__double_as_longlong(x)); }

// A chain of CHAIN links of STEP on x; x, y, z, w, v are the lane's run-time operands
// in[0..4][lane]. Cycles go to out[0], the chain's value to out[1 + lane] (nothing is dead).
#define BENCH(NAME, T, STEP)                                                               \
    extern "C" __global__ void NAME(long long* out, const T* in) {                         \
        const unsigned l = threadIdx.x;                                                    \
        T x = in[l], y = in[LANES + l], z = in[2 * LANES + l], w = in[3 * LANES + l],      \
          v = in[4 * LANES + l];                                                           \
        (void)z; (void)w; (void)v;                                                         \
        __syncwarp();                                                                      \
        long long t0 = clock64();                                                          \
        if (t0 == 0) x = y;                                                                \
        _Pragma("unroll") for (int k = 0; k < CHAIN; ++k) { STEP; }                        \
        long long t1 = clock_after(x);                                                     \
        if (l == 0) out[0] = t1 - t0;                                                      \
        out[1 + l] = keep_bits(x);                                                         \
    }
#define ODD (k & 1)

// ---- integer ALU
// one link = two PTX adds = one IADD3 x, y, z (ptxas merges any two dependent adds)
// sass: IADD3 single
BENCH(b_int_add, unsigned, asm volatile("add.u32 %0, %0, %1; add.u32 %0, %0, %2;" : "+r"(x) : "r"(y), "r"(z)))
// lop3 with alternating operand pairs (two links over the same pair would fold into one)
// sass: LOP3\.LUT single
BENCH(b_int_logic, unsigned,
      if (ODD) asm volatile("lop3.b32 %0, %0, %1, %2, 0x6c;" : "+r"(x) : "r"(y), "r"(z));
      else asm volatile("lop3.b32 %0, %0, %1, %2, 0x6c;" : "+r"(x) : "r"(w), "r"(v)))
// sass: SHF\.L.* single
BENCH(b_int_shift, unsigned, asm volatile("shl.b32 %0, %0, %1;" : "+r"(x) : "r"(y)))
// sass: VIMNMX single
BENCH(b_int_minmax, int,
      if (ODD) asm volatile("max.s32 %0, %0, %1;" : "+r"(x) : "r"(y));
      else asm volatile("min.s32 %0, %0, %1;" : "+r"(x) : "r"(z)))
// sass: IMAD single
BENCH(b_int_mul, unsigned, asm volatile("mul.lo.u32 %0, %0, %1;" : "+r"(x) : "r"(y)))
// sass: IMAD single
BENCH(b_int_mad, unsigned, asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(y), "r"(z)))
// sass: IMAD\.HI.* single
BENCH(b_int_mul_hi, unsigned, asm volatile("mul.hi.u32 %0, %0, %1;" : "+r"(x) : "r"(y)))
// x = lo(x) * hi(x) in 64 bits: both halves of each product feed the next, so it stays IMAD.WIDE
// sass: IMAD\.WIDE.* single
BENCH(b_int_mul_wide, u64,
      asm volatile("{ .reg .u32 lo, hi; mov.b64 {lo, hi}, %0; mul.wide.u32 %0, lo, hi; }" : "+l"(x)))
// a 64-bit add is two SASS instructions (IADD3 + IADD3.X through the carry)
// sass: IADD3\.X
BENCH(b_int64_add, u64, asm volatile("add.u64 %0, %0, %1; add.u64 %0, %0, %2;" : "+l"(x) : "l"(y), "l"(z)))
// sass: IMAD\.WIDE\.U32
BENCH(b_int64_mul, u64, asm volatile("mul.lo.u64 %0, %0, %1;" : "+l"(x) : "l"(y)))
// sass: MUFU\.RCP
// divisions: x = y / x, the chain value is the divisor (a divisor that is the same in every link
// has its reciprocal hoisted out of the chain by ptxas)
BENCH(b_int_div, unsigned, asm volatile("div.u32 %0, %1, %0;" : "+r"(x) : "r"(y)))
// sass: MUFU\.RCP
BENCH(b_int_rem, unsigned, asm volatile("rem.u32 %0, %1, %0;" : "+r"(x) : "r"(y)))
// sass: MUFU\.RCP
BENCH(b_int_div_s, int, asm volatile("div.s32 %0, %1, %0;" : "+r"(x) : "r"(y)))
// sass: CALL\.REL.*
BENCH(b_int64_div, u64, asm volatile("div.u64 %0, %1, %0;" : "+l"(x) : "l"(y)))
// sass: POPC single
BENCH(b_int_bit, unsigned, asm volatile("popc.b32 %0, %0;" : "+r"(x)))
// sass: BREV single
BENCH(b_int_brev, unsigned, asm volatile("brev.b32 %0, %0;" : "+r"(x)))
// setp + selp pair (per pair; the table halves it)
// sass: ISETP\.GE\.U32\.AND
BENCH(b_setp_selp, unsigned,
      asm volatile("{ .reg .pred p; setp.lt.u32 p, %0, %1; selp.u32 %0, %2, %0, p; }" : "+r"(x) : "r"(y), "r"(z)))
// ---- fp32
// sass: FADD single
BENCH(b_fp32_add, float, asm volatile("add.f32 %0, %0, %1;" : "+f"(x) : "f"(y)))
// sass: FMUL single
BENCH(b_fp32_mul, float, asm volatile("mul.f32 %0, %0, %1;" : "+f"(x) : "f"(y)))
// sass: FFMA single
BENCH(b_fp32_fma, float, asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(y), "f"(z)))
// sass: FMNMX single
BENCH(b_fp32_minmax, float,
      if (ODD) asm volatile("max.f32 %0, %0, %1;" : "+f"(x) : "f"(y));
      else asm volatile("min.f32 %0, %0, %1;" : "+f"(x) : "f"(z)))
// sass: MUFU\.RCP
BENCH(b_fp32_div, float, asm volatile("div.rn.f32 %0, %1, %0;" : "+f"(x) : "f"(y)))
// sass: MUFU\.RCP
BENCH(b_fp32_div_approx, float, asm volatile("div.approx.f32 %0, %1, %0;" : "+f"(x) : "f"(y)))
// sass: MUFU\.RSQ
BENCH(b_fp32_sqrt, float, asm volatile("sqrt.rn.f32 %0, %0;" : "+f"(x)))
// sass: MUFU\.RCP
BENCH(b_fp32_rcp, float, asm volatile("rcp.rn.f32 %0, %0;" : "+f"(x)))
// sass: MUFU\.RCP
BENCH(b_sfu_rcp, float, asm volatile("rcp.approx.f32 %0, %0;" : "+f"(x)))
// sass: MUFU\.SQRT
BENCH(b_sfu_sqrt, float, asm volatile("sqrt.approx.f32 %0, %0;" : "+f"(x)))
// sass: MUFU\.RSQ
BENCH(b_sfu_rsqrt, float, asm volatile("rsqrt.approx.f32 %0, %0;" : "+f"(x)))
// sass: MUFU\.SIN
BENCH(b_sfu_sin, float, asm volatile("sin.approx.f32 %0, %0;" : "+f"(x)))
// sass: MUFU\.EX2
BENCH(b_sfu_ex2, float, asm volatile("ex2.approx.f32 %0, %0;" : "+f"(x)))
// sass: MUFU\.LG2
BENCH(b_sfu_lg2, float, asm volatile("lg2.approx.f32 %0, %0;" : "+f"(x)))
// sass: MUFU\.TANH single
BENCH(b_sfu_tanh, float, asm volatile("tanh.approx.f32 %0, %0;" : "+f"(x)))
// sass: MUFU\.EX2 single
BENCH(b_sfu_ex2_ftz, float, asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x)))
// ---- fp64
// sass: DADD single
BENCH(b_fp64_add, double, asm volatile("add.f64 %0, %0, %1;" : "+d"(x) : "d"(y)))
// sass: DFMA single
BENCH(b_fp64_fma, double, asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(x) : "d"(y), "d"(z)))
// sass: MUFU\.RCP64H
BENCH(b_fp64_div, double, asm volatile("div.rn.f64 %0, %1, %0;" : "+d"(x) : "d"(y)))
// sass: MUFU\.RSQ64H
BENCH(b_fp64_sqrt, double, asm volatile("sqrt.rn.f64 %0, %0;" : "+d"(x)))
// ---- conversions: pairs (per pair; the table halves them)
// sass: F2I.*
BENCH(b_cvt_pair, int,
      asm volatile("{ .reg .f32 f; cvt.rn.f32.s32 f, %0; cvt.rzi.s32.f32 %0, f; }" : "+r"(x)))
// sass: F2F\.F32\.F64
BENCH(b_cvt64_pair, float,
      asm volatile("{ .reg .f64 d; cvt.f64.f32 d, %0; cvt.rn.f32.f64 %0, d; }" : "+f"(x)))
// ---- warp-level
// sass: SHFL\.BFLY single
BENCH(b_shfl, unsigned, asm volatile("shfl.sync.bfly.b32 %0, %0, 1, 0x1f, 0xffffffff;" : "+r"(x)))
// sass: VOTE\.ANY
BENCH(b_vote, unsigned,
      asm volatile("{ .reg .pred p; setp.ne.u32 p, %0, %1; vote.sync.ballot.b32 %0, p, 0xffffffff; }"
                   : "+r"(x) : "r"(y)))

// ---- memory: pointer chases (each element holds the address of the next), one load per link
// Global: u64 pointers; `cg` bypasses L1 (L2 hit). The lines are warmed by one pass first.
#define CHASE_BODY(LOADASM)                                                                \
    const unsigned l = threadIdx.x;                                                        \
    u64 p = start;                                                                         \
    __syncwarp();                                                                          \
    long long t0 = clock64();                                                              \
    if (t0 == 0) p = 0;                                                                    \
    _Pragma("unroll") for (int k = 0; k < CHAIN; ++k) asm volatile(LOADASM : "+l"(p) :: "memory"); \
    long long t1 = clock_after(p);                                                         \
    if (l == 0) out[0] = t1 - t0;                                                          \
    out[1 + l] = keep_bits(p);

// sass: LDG\.E\.64 single
extern "C" __global__ void b_ld_global(long long* out, u64 start) {
    { u64 q = start; for (int k = 0; k < CHAIN; ++k) asm volatile("ld.global.u64 %0, [%0];" : "+l"(q) :: "memory");
      if (q == 1) out[0] = 0; }
    CHASE_BODY("ld.global.u64 %0, [%0];")
}
// sass: LDG\.E\.64\.STRONG\.GPU single
extern "C" __global__ void b_ld_global_cg(long long* out, u64 start) {
    { u64 q = start; for (int k = 0; k < CHAIN; ++k) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(q) :: "memory");
      if (q == 1) out[0] = 0; }
    CHASE_BODY("ld.global.cg.u64 %0, [%0];")
}
// DRAM: a chase over a large buffer with a ~1 MiB stride (every load misses L1 and L2), cold
// sass: LDG\.E\.64\.STRONG\.GPU single
extern "C" __global__ void b_ld_dram(long long* out, u64 start) { CHASE_BODY("ld.global.cg.u64 %0, [%0];") }

// Atomics: each element holds its own address; adding the run-time zero keeps it, and the
// returned old value is the next link's address.
// sass: ATOMG\.E\.ADD\.64.* single
extern "C" __global__ void b_atom_global(long long* out, u64 start, const u64* zero) {
    const unsigned l = threadIdx.x;
    u64 p = start + 8 * l, z = zero[l];  // one element per lane: no same-address serialisation
    __syncwarp();
    long long t0 = clock64();
    if (t0 == 0) p = 0;
    _Pragma("unroll") for (int k = 0; k < CHAIN; ++k)
        asm volatile("atom.global.add.u64 %0, [%0], %1;" : "+l"(p) : "l"(z) : "memory");
    long long t1 = clock_after(p);
    if (l == 0) out[0] = t1 - t0;
    out[1 + l] = keep_bits(p);
}

// Shared: element k holds the shared address of element k+1 (32-bit addresses).
#define SHARED_SETUP                                                                       \
    __shared__ unsigned s[CHAIN];                                                          \
    const unsigned l = threadIdx.x;                                                        \
    const unsigned base = (unsigned)__cvta_generic_to_shared(s);                           \
    for (unsigned k = l; k < CHAIN; k += blockDim.x) s[k] = base + 4 * ((k + 1) % CHAIN);  \
    __syncthreads();

// sass: LDS single
extern "C" __global__ void b_ld_shared(long long* out, const unsigned* in) {
    SHARED_SETUP
    unsigned j = base + 4 * (in[l] % CHAIN);
    long long t0 = clock64();
    if (t0 == 0) j = 0;
    _Pragma("unroll") for (int k = 0; k < CHAIN; ++k) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(j) :: "memory");
    long long t1 = clock_after(j);
    if (l == 0) out[0] = t1 - t0;
    out[1 + l] = j;
}
// store then load of the same word through two addresses ptxas cannot prove equal (a == b at
// run time), chained through the value: per pair; the table subtracts ld_shared.
// sass: LDS
extern "C" __global__ void b_st_ld_shared(long long* out, const unsigned* in) {
    SHARED_SETUP
    unsigned a = base + 4 * (in[l] % CHAIN), b = base + 4 * (in[LANES + l] % CHAIN);
    unsigned j = in[2 * LANES + l];
    long long t0 = clock64();
    if (t0 == 0) j = 0;
    _Pragma("unroll") for (int k = 0; k < CHAIN; ++k)
        asm volatile("st.shared.u32 [%1], %0; ld.shared.u32 %0, [%2];" : "+r"(j) : "r"(a), "r"(b) : "memory");
    long long t1 = clock_after(j);
    if (l == 0) out[0] = t1 - t0;
    out[1 + l] = j;
}
// sass: ATOMS\.ADD single
extern "C" __global__ void b_atom_shared(long long* out, const unsigned* in) {
    __shared__ unsigned s[LANES];
    const unsigned l = threadIdx.x;
    const unsigned base = (unsigned)__cvta_generic_to_shared(s);
    s[l] = base + 4 * l;  // each element holds its own address
    __syncthreads();
    unsigned j = base + 4 * ((in[l] + l) % LANES), z = in[LANES + l];  // one word per lane
    long long t0 = clock64();
    if (t0 == 0) j = 0;
    _Pragma("unroll") for (int k = 0; k < CHAIN; ++k)
        asm volatile("atom.shared.add.u32 %0, [%0], %1;" : "+r"(j) : "r"(z) : "memory");
    long long t1 = clock_after(j);
    if (l == 0) out[0] = t1 - t0;
    out[1 + l] = j;
}
// global store then load of the same word (a == b at run time): per pair; minus ld_global
// sass: LDG\.E
extern "C" __global__ void b_st_ld_global(long long* out, unsigned* buf, const unsigned* in) {
    const unsigned l = threadIdx.x;
    unsigned* a = buf + in[l];
    unsigned* b = buf + in[LANES + l];
    unsigned j = in[2 * LANES + l];
    { unsigned q; asm volatile("ld.global.u32 %0, [%1];" : "=r"(q) : "l"(b) : "memory"); j += q & in[3 * LANES + l]; }
    long long t0 = clock64();
    if (t0 == 0) j = 0;
    _Pragma("unroll") for (int k = 0; k < CHAIN; ++k)
        asm volatile("st.global.u32 [%1], %0; ld.global.u32 %0, [%2];" : "+r"(j) : "l"(a), "l"(b) : "memory");
    long long t1 = clock_after(j);
    if (l == 0) out[0] = t1 - t0;
    out[1 + l] = j;
}

// Constant: element k holds the constant-space address of element k+1 (filled by the host
// after c_base gives it the array's address).
__constant__ unsigned c_chain[CHAIN];
extern "C" __global__ void c_base(unsigned* out) {
    unsigned a;
    asm("mov.u32 %0, c_chain;" : "=r"(a));
    out[0] = a;
}
// sass: LDC single
extern "C" __global__ void b_ld_const(long long* out, const unsigned* in) {
    const unsigned l = threadIdx.x;
    unsigned j = in[l];
    for (int k = 0; k < CHAIN; ++k) asm volatile("ld.const.u32 %0, [%0];" : "+r"(j) :: "memory");  // warm
    j = in[l];
    long long t0 = clock64();
    if (t0 == 0) j = 0;
    _Pragma("unroll") for (int k = 0; k < CHAIN; ++k) asm volatile("ld.const.u32 %0, [%0];" : "+r"(j) :: "memory");
    long long t1 = clock_after(j);
    if (l == 0) out[0] = t1 - t0;
    out[1 + l] = j;
}
// Local: a per-thread array whose element k holds the local address of element k+1.
// sass: LDL single
extern "C" __global__ void b_ld_local(long long* out, const unsigned* in) {
    const unsigned l = threadIdx.x;
    unsigned loc[CHAIN];
    const unsigned base = (unsigned)__cvta_generic_to_local(loc);
    for (int k = 0; k < CHAIN; ++k)
        asm volatile("st.local.u32 [%0], %1;" :: "r"(base + 4 * k), "r"(base + 4 * ((k + 1) % CHAIN)) : "memory");
    unsigned j = base + 4 * (in[l] % CHAIN);
    for (int k = 0; k < CHAIN; ++k) asm volatile("ld.local.u32 %0, [%0];" : "+r"(j) :: "memory");  // warm
    long long t0 = clock64();
    if (t0 == 0) j = 0;
    _Pragma("unroll") for (int k = 0; k < CHAIN; ++k) asm volatile("ld.local.u32 %0, [%0];" : "+r"(j) :: "memory");
    long long t1 = clock_after(j);
    if (l == 0) out[0] = t1 - t0;
    out[1 + l] = j + loc[in[LANES + l] % CHAIN];
}

// sass: BAR\.SYNC.* single
extern "C" __global__ void b_bar(long long* out, const unsigned* in) {
    long long t0 = clock64();
    _Pragma("unroll") for (int k = 0; k < CHAIN; ++k) __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0) { out[0] = t1 - t0; out[1] = in[0]; }
}

// A loop that is not unrolled, with a run-time trip count: per iteration an add on the carried
// value, the counter's increment, its compare and the backward branch. The table derives `bra`.
extern "C" __global__ void b_loop(long long* out, const unsigned* in) {
    const unsigned l = threadIdx.x;
    unsigned x = in[l], y = in[LANES + l];
    int n = (int)in[2 * LANES + l];
    long long t0 = clock64();
    if (t0 == 0) x = y;
#pragma unroll 1
    for (int k = 0; k < n; ++k) asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(y));
    long long t1 = clock_after(x);
    if (l == 0) out[0] = t1 - t0;
    out[1 + l] = x;
}

extern "C" __global__ void spin(long long cycles, long long* out) {
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {}
    out[0] = clock64() - t0;
}

static long long* d_out;

template <typename F>
static double best(F launch, double links = CHAIN) {
    long long h;
    double b = 1e300;
    for (int r = 0; r < REPS; ++r) {
        launch();
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(&h, d_out, sizeof h, cudaMemcpyDeviceToHost));
        double v = (double)h / links;
        if (v < b) b = v;
    }
    return b;
}

// Upload five per-lane operand rows (x0, y, z, w, v) of type T.
template <typename T>
static const T* operands(T x, T y, T z, T w, T v) {
    static void* buf = nullptr;
    if (!buf) CK(cudaMalloc(&buf, 5 * LANES * 8));
    T h[5 * LANES];
    T vals[5] = {x, y, z, w, v};
    for (int r = 0; r < 5; ++r)
        for (int l = 0; l < LANES; ++l) h[r * LANES + l] = vals[r];
    CK(cudaMemcpy(buf, h, sizeof h, cudaMemcpyHostToDevice));
    return (const T*)buf;
}

#define ALU(NAME, T, X, Y, Z, W, V, WHAT)                                                  \
    do {                                                                                   \
        const T* in_ = operands<T>((T)(X), (T)(Y), (T)(Z), (T)(W), (T)(V));                \
        printf("%s\t%.2f\t%s\n", #NAME, best([&] { b_##NAME<<<1, LANES>>>(d_out, in_); }), WHAT); \
        fflush(stdout);                                                                    \
    } while (0)

int main() {
    CK(cudaMalloc(&d_out, (1 + LANES) * sizeof(long long)));
    printf("# class\tcycles\twhat (dependent-chain latency, one warp, min of %d runs of %d links)\n", REPS, CHAIN);
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
    fflush(stdout);
    printf("clock_mhz\t%.1f\tclock64 cycles per microsecond during a %lld-cycle spin\n", cyc / (ms * 1000.0), cyc);
    fflush(stdout);
    ALU(int_add, unsigned, 1, 3, 5, 0, 0, "add.u32 + add.u32 = IADD3 (per IADD3)");
    ALU(int_logic, unsigned, 0x1234567, 0xf0f0f0f, 0x3c3c3c3, 0x5a5a5a5, 0x7777777, "lop3.b32");
    ALU(int_shift, unsigned, 0x1234567, 1, 0, 0, 0, "shl.b32 by a run-time amount");
    ALU(int_minmax, int, 5, 3, 100, 0, 0, "max.s32 / min.s32 alternating");
    ALU(int_mul, unsigned, 1, 3, 0, 0, 0, "mul.lo.u32");
    ALU(int_mad, unsigned, 1, 3, 5, 0, 0, "mad.lo.u32");
    ALU(int_mul_hi, unsigned, 0x12345678, 0x9abcdef1, 0, 0, 0, "mul.hi.u32");
    ALU(int_mul_wide, u64, 0x0000000300000005ull, 0, 0, 0, 0, "mul.wide.u32 (x = lo(x) * hi(x))");
    ALU(int64_add, u64, 1, 3, 5, 0, 0, "add.u64 + add.u64 (per IADD3 + IADD3.X pair)");
    ALU(int64_mul, u64, 1, 3, 0, 0, 0, "mul.lo.u64");
    ALU(int_div, unsigned, 1000, 0xfffffff0u, 0, 0, 0, "div.u32 (y / x)");
    ALU(int_rem, unsigned, 1000003, 0xfffffff0u, 0, 0, 0, "rem.u32 (y % x)");
    ALU(int_div_s, int, 1000, 0x7ffffff0, 0, 0, 0, "div.s32 (y / x)");
    ALU(int64_div, u64, 1000000, 0xfffffffffff0ull, 0, 0, 0, "div.u64 (y / x)");
    ALU(int_bit, unsigned, 0x1234567, 0, 0, 0, 0, "popc.b32");
    ALU(int_brev, unsigned, 0x1234567, 0, 0, 0, 0, "brev.b32");
    ALU(setp_selp, unsigned, 5, 3, 7, 0, 0, "setp.lt.u32 + selp.u32 (pair)");
    ALU(fp32_add, float, 1, 0.5, 0, 0, 0, "add.f32");
    ALU(fp32_mul, float, 1, 0.999, 0, 0, 0, "mul.f32");
    ALU(fp32_fma, float, 1, 0.5, 0.25, 0, 0, "fma.rn.f32");
    ALU(fp32_minmax, float, 1, 0.5, 2, 0, 0, "max.f32 / min.f32 alternating");
    ALU(fp32_div, float, 1.5, 3, 0, 0, 0, "div.rn.f32 (y / x)");
    ALU(fp32_div_approx, float, 1.5, 3, 0, 0, 0, "div.approx.f32 (y / x)");
    ALU(fp32_sqrt, float, 2, 0, 0, 0, 0, "sqrt.rn.f32");
    ALU(fp32_rcp, float, 2, 0, 0, 0, 0, "rcp.rn.f32");
    ALU(sfu_rcp, float, 2, 0, 0, 0, 0, "rcp.approx.f32");
    ALU(sfu_sqrt, float, 2, 0, 0, 0, 0, "sqrt.approx.f32");
    ALU(sfu_rsqrt, float, 2, 0, 0, 0, 0, "rsqrt.approx.f32");
    ALU(sfu_sin, float, 0.5, 0, 0, 0, 0, "sin.approx.f32");
    ALU(sfu_ex2, float, -1, 0, 0, 0, 0, "ex2.approx.f32");
    ALU(sfu_ex2_ftz, float, -1, 0, 0, 0, 0, "ex2.approx.ftz.f32");
    ALU(sfu_lg2, float, 2, 0, 0, 0, 0, "lg2.approx.f32");
    ALU(sfu_tanh, float, 0.5, 0, 0, 0, 0, "tanh.approx.f32");
    ALU(fp64_add, double, 1, 0.5, 0, 0, 0, "add.f64");
    ALU(fp64_fma, double, 1, 0.5, 0.25, 0, 0, "fma.rn.f64");
    ALU(fp64_div, double, 1.5, 3, 0, 0, 0, "div.rn.f64 (y / x)");
    ALU(fp64_sqrt, double, 2, 0, 0, 0, 0, "sqrt.rn.f64");
    ALU(cvt_pair, int, 12345, 0, 0, 0, 0, "cvt.rn.f32.s32 + cvt.rzi.s32.f32 (pair)");
    ALU(cvt64_pair, float, 1.5, 0, 0, 0, 0, "cvt.f64.f32 + cvt.rn.f32.f64 (pair)");
    ALU(shfl, unsigned, 1, 0, 0, 0, 0, "shfl.sync.bfly.b32");
    ALU(vote, unsigned, 1, 0, 0, 0, 0, "setp.ne.u32 + vote.sync.ballot.b32 (pair)");
    // the same chains with one active thread instead of a full warp (reference: does a warp's
    // width add to the dependent latency?)
    {
        const unsigned* in = operands<unsigned>(1, 3, 5, 0, 0);
        printf("int_add_1thread\t%.2f\tadd.u32 + add.u32 = IADD3, one thread\n", best([&] { b_int_add<<<1, 1>>>(d_out, in); }));
        const float* inf = operands<float>(1, 0.5, 0.25, 0, 0);
        printf("fp32_fma_1thread\t%.2f\tfma.rn.f32, one thread\n", best([&] { b_fp32_fma<<<1, 1>>>(d_out, inf); }));
    }

    // global chases: element k holds the address of element k+1 (u64)
    u64* d_chain;
    CK(cudaMalloc(&d_chain, CHAIN * sizeof(u64)));
    {
        u64 h[CHAIN];
        for (int k = 0; k < CHAIN; ++k) h[k] = (u64)(d_chain + (k + 1) % CHAIN);
        CK(cudaMemcpy(d_chain, h, sizeof h, cudaMemcpyHostToDevice));
    }
    // DRAM: 512 MiB, stride ~1 MiB + 8 KiB (odd, so no element repeats); each of the REPS runs
    // starts where the last one ended, so no run finds its lines in L2
    const size_t big_n = (size_t)1 << 26;  // u64 elements
    const size_t stride = (1u << 17) + 1031;
    u64* d_big;
    u64 dram_start[REPS];
    CK(cudaMalloc(&d_big, big_n * sizeof(u64)));
    {
        u64* hb = (u64*)calloc(big_n, sizeof(u64));
        size_t j = 0;
        for (int k = 0; k < REPS * CHAIN + 1; ++k) {
            if (k % CHAIN == 0 && k / CHAIN < REPS) dram_start[k / CHAIN] = (u64)(d_big + j);
            size_t nx = (j + stride) % big_n;
            hb[j] = (u64)(d_big + nx);
            j = nx;
        }
        CK(cudaMemcpy(d_big, hb, big_n * sizeof(u64), cudaMemcpyHostToDevice));
        free(hb);
    }
    // atomics: each element holds its own address
    u64* d_self;
    CK(cudaMalloc(&d_self, 4096));
    {
        u64 h[512];
        for (int k = 0; k < 512; ++k) h[k] = (u64)(d_self + k);
        CK(cudaMemcpy(d_self, h, sizeof h, cudaMemcpyHostToDevice));
    }
    const u64* zeros64 = nullptr;
    {
        u64* z;
        CK(cudaMalloc(&z, LANES * sizeof(u64)));
        CK(cudaMemset(z, 0, LANES * sizeof(u64)));
        zeros64 = z;
    }
    // constant chase
    unsigned* d_u;
    CK(cudaMalloc(&d_u, 4096));
    c_base<<<1, 1>>>(d_u);
    CK(cudaGetLastError());
    unsigned cbase;
    CK(cudaMemcpy(&cbase, d_u, 4, cudaMemcpyDeviceToHost));
    {
        unsigned h[CHAIN];
        for (int k = 0; k < CHAIN; ++k) h[k] = cbase + 4 * ((k + 1) % CHAIN);
        CK(cudaMemcpyToSymbol(c_chain, h, sizeof h));
    }
    CK(cudaMemset(d_u, 0, 4096));
    printf("ld_global_l1\t%.2f\tld.global.u64 pointer chase, L1 hit\n", best([&] { b_ld_global<<<1, LANES>>>(d_out, (u64)d_chain); }));
    printf("ld_global_l2\t%.2f\tld.global.cg.u64 pointer chase, L2 hit\n", best([&] { b_ld_global_cg<<<1, LANES>>>(d_out, (u64)d_chain); }));
    printf("ld_global_dram\t%.2f\tld.global.cg.u64 pointer chase over 512 MiB, ~1 MiB stride\n", best([&, rep = 0]() mutable { b_ld_dram<<<1, LANES>>>(d_out, dram_start[rep++ % REPS]); }));
    {
        const unsigned* in = operands<unsigned>(5, 0, 0, 0, 0);
        printf("ld_shared\t%.2f\tld.shared.u32 pointer chase\n", best([&] { b_ld_shared<<<1, LANES>>>(d_out, in); }));
    }
    {
        const unsigned* in = operands<unsigned>(7, 7, 1, 0, 0);  // a == b: word 7
        printf("st_ld_shared\t%.2f\tst.shared.u32 + ld.shared.u32 same word (pair)\n", best([&] { b_st_ld_shared<<<1, LANES>>>(d_out, in); }));
        printf("st_ld_global\t%.2f\tst.global.u32 + ld.global.u32 same word (pair)\n", best([&] { b_st_ld_global<<<1, LANES>>>(d_out, d_u, in); }));
    }
    {
        const unsigned* in = operands<unsigned>(3, 0, 0, 0, 0);  // atom.shared adds 0
        printf("atom_global\t%.2f\tatom.global.add.u64, the old value is the next address\n", best([&] { b_atom_global<<<1, LANES>>>(d_out, (u64)d_self, zeros64); }));
        printf("atom_shared\t%.2f\tatom.shared.add.u32, the old value is the next address\n", best([&] { b_atom_shared<<<1, LANES>>>(d_out, in); }));
        printf("bar_sync\t%.2f\tbar.sync 0, one warp\n", best([&] { b_bar<<<1, LANES>>>(d_out, in); }));
        printf("bar_sync_8w\t%.2f\tbar.sync 0, 8 warps\n", best([&] { b_bar<<<1, 8 * LANES>>>(d_out, in); }));
    }
    {
        const unsigned* in = operands<unsigned>(1, 3, CHAIN, 0, 0);
        printf("loop_iteration\t%.2f\tnon-unrolled loop: add + counter add + setp + bra\n", best([&] { b_loop<<<1, LANES>>>(d_out, in); }));
    }

    // last: the chases whose setup is the least ordinary
    {
        const unsigned* in = operands<unsigned>(5, 0, 0, 0, 0);
        printf("ld_local\t%.2f\tld.local.u32 pointer chase (L1 hit)\n", best([&] { b_ld_local<<<1, LANES>>>(d_out, in); }));
    }
    {
        const unsigned* in = operands<unsigned>(cbase, 0, 0, 0, 0);
        printf("ld_const\t%.2f\tld.const.u32 pointer chase (constant cache hit)\n", best([&] { b_ld_const<<<1, LANES>>>(d_out, in); }));
    }
    return 0;
}
