// Machine facts for a fourteenth version of `warpscope model`'s H100 estimate (docs/accuracy.md,
// "Fourteenth version (or v13.1) and a twelfth held-out test"), measured by
// scripts/h100/model_v14rates.py on an H200 (the same GH100 SM). Measured in the same device call
// as the twelfth held-out timing, after its estimates were committed: no estimate of that test
// comes from them. Written for what the thirteenth version left open:
//
//  * conversions: I2F.F64 (int -> fp64), I2F (int -> fp32), F2I (fp32 -> int), F2I.F64
//    (fp64 -> int), F2F.F64.F32, as dependent round trips (latency) and as 8 independent chains
//    (rate); the round trip int -> fp -> int as the link, so that ptxas keeps every conversion;
//    I2F.F64 also beside a DADD only (x + 1 on the ALU, I2F.F64, DADD into an accumulator);
//  * IMAD.WIDE.U32 with a 64-bit addend (d = lo(d) * a + d, as in Montgomery reduction): one chain
//    and 4 independent chains, a uniform / per-thread vector register (the bank rule skips pairs);
//  * mul.hi.u64 (IMAD.WIDE.U32 / IMAD.WIDE.U32.X / IMAD.HI.U32 sequences), one chain and 4
//    chains.
//
// As in model_v13rates.cu each kernel runs ITERS source iterations; every link is inline PTX, at
// 1, 2, 4, 8 and 16 warps per scheduler.
#define KARGS const unsigned *ua, float *out, int iters, float p, float q, unsigned z, unsigned w, double dp, double dq

#define L4(A) A A A A
#define L8(A) L4(A) L4(A)
#define L16(A) L4(A) L4(A) L4(A) L4(A)

#define UOUT(x) if ((unsigned)(x) == 123456u) out[0] = (float)(x);
#define U8INIT unsigned x0 = ua[threadIdx.x] | 1u, x1 = x0 * 3u, x2 = x0 * 5u, x3 = x0 * 7u, x4 = x0 * 9u, \
    x5 = x0 * 11u, x6 = x0 * 13u, x7 = x0 * 15u;
#define U8OUT UOUT(x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7)
#define K8(M) M(x0) M(x1) M(x2) M(x3) M(x4) M(x5) M(x6) M(x7)

// int -> fp64 -> int (I2F.F64.U32, F2I.U32.F64.TRUNC), then + 1 so the value moves
#define RT64_(x) asm volatile("{.reg .f64 d; cvt.rn.f64.u32 d, %0; cvt.rzi.u32.f64 %0, d; add.u32 %0, %0, 1;}" : "+r"(x));
extern "C" __global__ void v14_rt_f64_dep(KARGS) {
    unsigned x = ua[threadIdx.x] | 1u;
    for (int k = 0; k < iters; ++k) { L8(RT64_(x)) }
    UOUT(x) }
extern "C" __global__ void v14_rt_f64_k8(KARGS) {
    U8INIT
    for (int k = 0; k < iters; ++k) { L4(K8(RT64_)) }
    U8OUT }

// int -> fp32 -> int (I2F.U32, F2I.U32.TRUNC)
#define RT32_(x) asm volatile("{.reg .f32 f; cvt.rn.f32.u32 f, %0; cvt.rzi.u32.f32 %0, f; add.u32 %0, %0, 1;}" : "+r"(x));
extern "C" __global__ void v14_rt_f32_dep(KARGS) {
    unsigned x = ua[threadIdx.x] | 1u;
    for (int k = 0; k < iters; ++k) { L8(RT32_(x)) }
    UOUT(x) }
extern "C" __global__ void v14_rt_f32_k8(KARGS) {
    U8INIT
    for (int k = 0; k < iters; ++k) { L4(K8(RT32_)) }
    U8OUT }

// int -> fp32 -> fp64 -> int (I2F, F2F.F64.F32, F2I.F64)
#define RTF2F_(x) asm volatile("{.reg .f32 f; .reg .f64 d; cvt.rn.f32.u32 f, %0; cvt.f64.f32 d, f; cvt.rzi.u32.f64 %0, d; add.u32 %0, %0, 1;}" : "+r"(x));
extern "C" __global__ void v14_rt_f2f_k8(KARGS) {
    U8INIT
    for (int k = 0; k < iters; ++k) { L4(K8(RTF2F_)) }
    U8OUT }

// I2F.F64 feeding a DADD only: x += 1 (ALU), d = (double)x (I2F.F64), acc += d (DADD); 8 chains
#define I2FADD_(x, a) asm volatile("{.reg .f64 d; add.u32 %0, %0, 1; cvt.rn.f64.u32 d, %0; add.f64 %1, %1, d;}" : "+r"(x), "+d"(a));
#define D8INIT double a0 = dp, a1 = dp * 2.0, a2 = dp * 3.0, a3 = dp * 4.0, a4 = dp * 5.0, a5 = dp * 6.0, a6 = dp * 7.0, a7 = dp * 8.0;
#define D8OUT if (a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 == 123456.0) out[0] = (float)a0;
extern "C" __global__ void v14_i2f64_dadd_k8(KARGS) {
    U8INIT
    D8INIT
    for (int k = 0; k < iters; ++k) { L4(I2FADD_(x0, a0) I2FADD_(x1, a1) I2FADD_(x2, a2) I2FADD_(x3, a3)
                                         I2FADD_(x4, a4) I2FADD_(x5, a5) I2FADD_(x6, a6) I2FADD_(x7, a7)) }
    U8OUT
    D8OUT }
// the same with one chain (latency of ALU -> I2F.F64 -> DADD is not on the chain: the DADD chain is)
extern "C" __global__ void v14_i2f64_dadd_dep(KARGS) {
    unsigned x0 = ua[threadIdx.x] | 1u;
    double a0 = dp;
    for (int k = 0; k < iters; ++k) { L16(I2FADD_(x0, a0)) }
    UOUT(x0)
    if (a0 == 123456.0) out[0] = (float)a0; }

// IMAD.WIDE.U32 with a 64-bit addend: d = lo(d) * a + d (written as mul.wide + add.u64, which ptxas
// fuses into one IMAD.WIDE.U32 Rd, Ra, Rd_lo, Rd; mad.wide.u32 with a loop-invariant product is
// hoisted, and with lo(d) as its source is split into IMAD.WIDE.U32 ..., RZ and an add); b unused
#define MADW_(d, a, b) asm volatile("{.reg .u32 t; .reg .u64 m; cvt.u32.u64 t, %0; mul.wide.u32 m, t, %1; add.u64 %0, %0, m;}" : "+l"(d) : "r"(a), "r"(b));
extern "C" __global__ void v14_madwide_dep_ureg(KARGS) {
    unsigned long long d = ua[threadIdx.x];
    for (int k = 0; k < iters; ++k) { L16(MADW_(d, z, w)) }
    if (d == 123456u) out[0] = (float)d; }
#define D4INIT unsigned long long d0 = ua[threadIdx.x], d1 = d0 * 3u, d2 = d0 * 5u, d3 = d0 * 7u;
#define D4OUT if ((d0 ^ d1 ^ d2 ^ d3) == 123456u) out[0] = (float)d0;
extern "C" __global__ void v14_madwide_k4_ureg(KARGS) {
    D4INIT
    for (int k = 0; k < iters; ++k) { L4(MADW_(d0, z, w) MADW_(d1, z, w) MADW_(d2, z, w) MADW_(d3, z, w)) }
    D4OUT }
extern "C" __global__ void v14_madwide_k4_vreg(KARGS) {
    unsigned a0 = ua[threadIdx.x ^ 1] | 1u, b0 = ua[threadIdx.x ^ 2], a1 = a0 * 3u, b1 = b0 * 5u, a2 = a0 * 7u, b2 = b0 * 9u,
        a3 = a0 * 11u, b3 = b0 * 13u;
    D4INIT
    for (int k = 0; k < iters; ++k) { L4(MADW_(d0, a0, b0) MADW_(d1, a1, b1) MADW_(d2, a2, b2) MADW_(d3, a3, b3)) }
    D4OUT }

// mul.hi.u64: d = hi(d * e) ^ d (the high half of a 64-bit product, as in Montgomery multiplication)
#define MULHI64_(d) asm volatile("{.reg .u64 t; mul.hi.u64 t, %0, %1; xor.b64 %0, %0, t;}" : "+l"(d) : "l"(e));
extern "C" __global__ void v14_mulhi64_dep(KARGS) {
    unsigned long long d = ua[threadIdx.x] | 1u, e = (((unsigned long long)ua[threadIdx.x ^ 1] << 32) | ua[threadIdx.x ^ 3]) | 1u;
    for (int k = 0; k < iters; ++k) { L8(MULHI64_(d)) }
    if (d == 123456u) out[0] = (float)d; }
extern "C" __global__ void v14_mulhi64_k4(KARGS) {
    unsigned long long e = (((unsigned long long)ua[threadIdx.x ^ 1] << 32) | ua[threadIdx.x ^ 3]) | 1u;
    D4INIT
    for (int k = 0; k < iters; ++k) { L4(MULHI64_(d0) MULHI64_(d1) MULHI64_(d2) MULHI64_(d3)) }
    D4OUT }
