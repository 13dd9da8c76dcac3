// Machine facts for the thirteenth version of `warpscope model`'s H100 estimate (docs/accuracy.md,
// "Thirteenth version"), measured by scripts/h100/model_v13rates.py on an H200 (the same GH100 SM).
// Written to separate the causes that can make dependent integer chains run further from their
// issue and pipe bounds than the twelfth version allows (v9_chain_mix: 28% slower than its pipe):
//
//  * the carry chain: 64-bit adds (IADD3 writing a carry predicate, IADD3.X / IMAD.X reading it);
//  * predicate write -> read: a compare whose predicate selects (ISETP -> SEL), 32- and 64-bit
//    (ISETP + ISETP.EX);
//  * 64-bit multiplies (IMAD.WIDE.U32 and IMADs for the high half);
//  * register-bank conflicts of 3-source instructions: IMAD and FFMA whose three sources are
//    per-thread vector registers, against the same chains with uniform or constant sources
//    (model_v12rates: v12_dep_imad, v12_dep_ffma), dependent and as 8 independent chains;
//  * ALU-heavy chains across pipes: (LOP3, LOP3, IMAD) repeated, dependent and as 4 independent
//    chains; an xorshift32 step (shifts and xors);
//  * the instruction cache: 4 independent IMAD -> LOP3 chains in a body of 4096 instructions.
//
// As in model_v12rates.cu each kernel runs ITERS source iterations; every link is inline PTX
// (ptxas keeps its SASS, checked from the loop's SASS written next to the timings), at 1, 2, 4,
// 8 and 16 warps per scheduler.
#define KARGS const unsigned *ua, float *out, int iters, float p, float q, unsigned z, unsigned w, double dp, double dq

#define L4(A) A A A A
#define L8(A) L4(A) L4(A)
#define L16(A) L4(A) L4(A) L4(A) L4(A)
#define L32(A) L16(A) L16(A)

#define UOUT(x) if ((unsigned)(x) == 123456u) out[0] = (float)(x);

// 64-bit add of a per-thread value: IADD3 (carry out) -> IADD3.X/IMAD.X (carry in)
#define ADD64_(d) asm volatile("add.u64 %0, %0, %1;" : "+l"(d) : "l"(e));
extern "C" __global__ void v13_add64(KARGS) {
    unsigned long long d = ua[threadIdx.x], e = ((unsigned long long)ua[threadIdx.x ^ 1] << 32) | ua[threadIdx.x ^ 3];
    for (int k = 0; k < iters; ++k) { L32(ADD64_(d)) }
    if (d == 123456u) out[0] = (float)d; }

// compare -> select, 32-bit: x = (x > a) ? x ^ b : x + c  (ISETP, LOP3, IADD3 in parallel, SEL)
#define SEL_(x) asm volatile("{.reg .pred p; .reg .u32 s, t; setp.gt.u32 p, %0, %1; xor.b32 s, %0, %2; add.u32 t, %0, %3; selp.b32 %0, s, t, p;}" : "+r"(x) : "r"(a), "r"(b), "r"(c));
extern "C" __global__ void v13_sel(KARGS) {
    unsigned x = ua[threadIdx.x] | 1u, a = ua[threadIdx.x ^ 1], b = ua[threadIdx.x ^ 2], c = ua[threadIdx.x ^ 3];
    for (int k = 0; k < iters; ++k) { L8(SEL_(x)) }
    UOUT(x) }

// compare -> select, 64-bit: d = (d > e) ? d ^ f : d + f  (ISETP + ISETP.EX, then two SELs)
#define SEL64_(d) asm volatile("{.reg .pred p; .reg .u64 s, t; setp.gt.u64 p, %0, %1; xor.b64 s, %0, %2; add.u64 t, %0, %2; selp.b64 %0, s, t, p;}" : "+l"(d) : "l"(e), "l"(f));
extern "C" __global__ void v13_sel64(KARGS) {
    unsigned long long d = ua[threadIdx.x], e = ((unsigned long long)ua[threadIdx.x ^ 1] << 32) | ua[threadIdx.x ^ 3],
        f = ((unsigned long long)ua[threadIdx.x ^ 2] << 32) | ua[threadIdx.x ^ 5];
    for (int k = 0; k < iters; ++k) { L8(SEL64_(d)) }
    if (d == 123456u) out[0] = (float)d; }

// 64-bit multiply: d = d * e (IMAD.WIDE.U32 for the low product, IMADs for the cross terms)
#define MUL64_(d) asm volatile("mul.lo.u64 %0, %0, %1;" : "+l"(d) : "l"(e));
extern "C" __global__ void v13_mul64(KARGS) {
    unsigned long long d = ua[threadIdx.x] | 1u, e = (((unsigned long long)ua[threadIdx.x ^ 1] << 32) | ua[threadIdx.x ^ 3]) | 1u;
    for (int k = 0; k < iters; ++k) { L16(MUL64_(d)) }
    if (d == 123456u) out[0] = (float)d; }

// IMAD with three per-thread vector sources (register banks), one dependent chain
#define IMADV_(x) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(a), "r"(b));
extern "C" __global__ void v13_dep_imad_vreg(KARGS) {
    unsigned x = ua[threadIdx.x] | 1u, a = ua[threadIdx.x ^ 1] | 1u, b = ua[threadIdx.x ^ 2];
    for (int k = 0; k < iters; ++k) { L32(IMADV_(x)) }
    UOUT(x) }
// the same with two distinct sources (x * a + a)
#define IMADV2_(x) asm volatile("mad.lo.u32 %0, %0, %1, %1;" : "+r"(x) : "r"(a));
extern "C" __global__ void v13_dep_imad_vreg2(KARGS) {
    unsigned x = ua[threadIdx.x] | 1u, a = ua[threadIdx.x ^ 1] | 1u;
    for (int k = 0; k < iters; ++k) { L32(IMADV2_(x)) }
    UOUT(x) }

// 8 independent FFMA chains, sources per-thread vector registers / uniform parameters
#define FFMAV_(f) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(f) : "f"(fa), "f"(fb));
#define FFMAU_(f) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(f) : "f"(p), "f"(q));
#define K8(M) M(f0) M(f1) M(f2) M(f3) M(f4) M(f5) M(f6) M(f7)
#define F8INIT float f0 = (float)ua[threadIdx.x] * 1e-9f, f1 = f0 + 1e-3f, f2 = f0 + 2e-3f, f3 = f0 + 3e-3f, \
    f4 = f0 + 4e-3f, f5 = f0 + 5e-3f, f6 = f0 + 6e-3f, f7 = f0 + 7e-3f;
#define F8OUT if (f0 + f1 + f2 + f3 + f4 + f5 + f6 + f7 == 123456.f) out[0] = f0;
extern "C" __global__ void v13_k8_ffma_vreg(KARGS) {
    float fa = 0.999f + (float)ua[threadIdx.x ^ 1] * 1e-12f, fb = (float)ua[threadIdx.x ^ 2] * 1e-12f;
    F8INIT
    for (int k = 0; k < iters; ++k) { L4(K8(FFMAV_)) }
    F8OUT }
// each chain its own two sources (24 registers: no operand shared for the reuse cache)
#define FF3_(f, a, b) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(f) : "f"(a), "f"(b));
#define K8D FF3_(f0, a0, b0) FF3_(f1, a1, b1) FF3_(f2, a2, b2) FF3_(f3, a3, b3) FF3_(f4, a4, b4) FF3_(f5, a5, b5) FF3_(f6, a6, b6) FF3_(f7, a7, b7)
#define AB8 float a0 = 0.999f + (float)ua[threadIdx.x ^ 1] * 1e-12f, b0 = (float)ua[threadIdx.x ^ 2] * 1e-12f, \
    a1 = a0 - 1e-6f, a2 = a0 - 2e-6f, a3 = a0 - 3e-6f, a4 = a0 - 4e-6f, a5 = a0 - 5e-6f, a6 = a0 - 6e-6f, a7 = a0 - 7e-6f, \
    b1 = b0 * 1.5f, b2 = b0 * 2.5f, b3 = b0 * 3.5f, b4 = b0 * 4.5f, b5 = b0 * 5.5f, b6 = b0 * 6.5f, b7 = b0 * 7.5f;
extern "C" __global__ void v13_k8_ffma_vreg3(KARGS) {
    AB8
    F8INIT
    for (int k = 0; k < iters; ++k) { L4(K8D) }
    F8OUT }
extern "C" __global__ void v13_k8_ffma_ureg(KARGS) {
    F8INIT
    for (int k = 0; k < iters; ++k) { L4(K8(FFMAU_)) }
    F8OUT }

// 8 independent IMAD chains with vector sources beside 8 LOP3 chains: the issue and both pipes
// saturated together, 3-source instructions reading the register file
#define IMADK_(x) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(a), "r"(b));
#define LOPK_(x) asm volatile("lop3.b32 %0, %0, %1, %2, 0x6a;" : "+r"(x) : "r"(z), "r"(w));
#define U4INIT unsigned x0 = ua[threadIdx.x] | 1u, x1 = x0 * 3u, x2 = x0 * 5u, x3 = x0 * 7u;
#define U4OUT UOUT(x0 ^ x1 ^ x2 ^ x3)
extern "C" __global__ void v13_k4_imad_lop_vreg(KARGS) {
    unsigned a = ua[threadIdx.x ^ 1] | 1u, b = ua[threadIdx.x ^ 2];
    U4INIT
    for (int k = 0; k < iters; ++k) { L8(IMADK_(x0) IMADK_(x1) IMADK_(x2) IMADK_(x3) LOPK_(x0) LOPK_(x1) LOPK_(x2) LOPK_(x3)) }
    U4OUT }

// the same, each IMAD chain its own two sources
#define IM3_(x, a, b) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(a), "r"(b));
extern "C" __global__ void v13_k4_imad_lop_vreg3(KARGS) {
    unsigned a0 = ua[threadIdx.x ^ 1] | 1u, b0 = ua[threadIdx.x ^ 2], a1 = a0 * 3u, b1 = b0 * 5u, a2 = a0 * 7u, b2 = b0 * 9u,
        a3 = a0 * 11u, b3 = b0 * 13u;
    U4INIT
    for (int k = 0; k < iters; ++k) { L8(IM3_(x0, a0, b0) IM3_(x1, a1, b1) IM3_(x2, a2, b2) IM3_(x3, a3, b3) LOPK_(x0) LOPK_(x1) LOPK_(x2) LOPK_(x3)) }
    U4OUT }

// ALU-heavy chain across pipes: LOP3, LOP3, IMAD (2:1), dependent, and as 4 independent chains
#define IMADU_(x) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(z), "r"(w));
#define LOPB_(x) asm volatile("lop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(x) : "r"(w), "r"(z));
extern "C" __global__ void v13_dep_lop_lop_imad(KARGS) {
    unsigned x = ua[threadIdx.x] | 1u;
    for (int k = 0; k < iters; ++k) { L8(LOPK_(x) LOPB_(x) IMADU_(x)) }
    UOUT(x) }
extern "C" __global__ void v13_k4_lop_lop_imad(KARGS) {
    U4INIT
    for (int k = 0; k < iters; ++k) { L8(LOPK_(x0) LOPK_(x1) LOPK_(x2) LOPK_(x3) LOPB_(x0) LOPB_(x1) LOPB_(x2) LOPB_(x3)
                                          IMADU_(x0) IMADU_(x1) IMADU_(x2) IMADU_(x3)) }
    U4OUT }

// xorshift32: r ^= r << 13; r ^= r >> 17; r ^= r << 5 (shifts on both pipes, xors on the ALU)
#define XS_(r) asm volatile("{.reg .u32 t; shl.b32 t, %0, 13; xor.b32 %0, %0, t; shr.u32 t, %0, 17; xor.b32 %0, %0, t; shl.b32 t, %0, 5; xor.b32 %0, %0, t;}" : "+r"(r));
extern "C" __global__ void v13_xorshift(KARGS) {
    unsigned x = ua[threadIdx.x] | 1u;
    for (int k = 0; k < iters; ++k) { L8(XS_(x)) }
    UOUT(x) }

// the instruction cache: 4 independent IMAD -> LOP3 chains (v12_k4_imad_lop) in a body of
// 32 x 128 = 4096 instructions (64 KiB of SASS)
extern "C" __global__ void v13_long_k4_imad_lop(KARGS) {
    U4INIT
    for (int k = 0; k < iters; k += 32) { L32(L16(IMADU_(x0) IMADU_(x1) IMADU_(x2) IMADU_(x3) LOPK_(x0) LOPK_(x1) LOPK_(x2) LOPK_(x3))) }
    U4OUT }
extern "C" __global__ void v13_k4_imad_lop(KARGS) {
    U4INIT
    for (int k = 0; k < iters; ++k) { L16(IMADU_(x0) IMADU_(x1) IMADU_(x2) IMADU_(x3) LOPK_(x0) LOPK_(x1) LOPK_(x2) LOPK_(x3)) }
    U4OUT }

// a 64-bit bisection step as a loop of our own (fixed trip count, no divergence): mid = (lo + hi) / 2,
// mid^3 <= v ? lo = mid : hi = mid; 64-bit adds with carries, IMAD.WIDE, compares, selects
extern "C" __global__ void v13_bisect64(KARGS) {
    unsigned long long v = ((unsigned long long)ua[threadIdx.x] << 20) | 12345u, acc = 0;
    for (int k = 0; k < iters; ++k) {
        unsigned long long lo = k & 7, hi = (1ull << 21) + k;
#pragma unroll 1
        for (int s = 0; s < 32; ++s) {
            unsigned long long mid = (lo + hi) >> 1;
            if (mid * mid * mid <= v) lo = mid; else hi = mid;
        }
        acc += lo;
    }
    if (acc == 123456u) out[0] = (float)acc; }
