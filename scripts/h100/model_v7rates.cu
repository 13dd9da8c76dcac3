// Machine facts for the seventh version of `warpscope model`'s H100 estimate (docs/accuracy.md,
// "seventh version"), measured by scripts/h100/model_v7rates.py (on an H200 in this session:
// the same GH100 SM):
//
// 1. Which pipes the bit and conversion instructions use, and at what rate (the sixth version's
//    `h6_bits` miss: BREV, FLO and I2FP charged to one conversion unit at the published 16
//    lanes). Each kernel runs 8 independent chains per thread (16 links per chain and
//    iteration, inline PTX), 8 blocks of 256 per SM; pairs put two instructions side by side
//    (one link of each per chain step), and `_lop` pairs put one beside LOP3 (integer ALU).
//    v7_brev BREV; v7_flo FLO.U32 (bfind.u32); v7_flosh FLO.U32.SH (bfind.shiftamt.u32);
//    v7_popc POPC; v7_i2f I2FP.F32.S32 (cvt.rn.f32.s32); v7_f2i F2I (cvt.rzi.s32.f32);
//    v7_brev_flosh (what __ffs lowers to); v7_flosh_i2f; v7_brev_i2f; v7_popc_i2f; v7_brev_lop,
//    v7_flosh_lop, v7_popc_lop, v7_i2f_lop.
// 2. MUFU beside other work (the sixth version's `h6_kepler` miss): v7_sin (FMUL.RZ + MUFU.SIN),
//    v7_sin_ffma (each sine beside 4 FFMA of other chains), v7_rcp_ffma (MUFU.RCP and an FFMA that keeps ptxas from folding
//    two reciprocals, beside 4 FFMA),
//    v7_ex2_lop (MUFU.EX2 beside 2 LOP3), to see whether a MUFU instruction holds its
//    scheduler's issue beyond one cycle.
// 3. v7_newton: h6_kepler's Newton step (E -= (E - e sin E - m) / (1 - e cos E), the fast sine,
//    cosine and divide) as one dependent chain per thread, a fixed `iters` steps, run at 4, 16,
//    32 and 64 warps per SM: clocks per step per warp (the chain's latency) and per SM.
#define CH8(OP) OP(0) OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7)
#define UINIT unsigned u[8], v[8]; CH8(UI)
#define UI(c) u[c] = ua[threadIdx.x] + c; v[c] = ua[threadIdx.x] * 3u + c;
#define UOUT { unsigned s = 0u; for (int c = 0; c < 8; ++c) s ^= u[c] ^ v[c]; if (s == 123456u) out[1] = (float)s; }
#define FINIT float x[8], y[8]; CH8(FI)
#define FI(c) x[c] = a[threadIdx.x] + (float)c; y[c] = a[threadIdx.x] * 0.5f + (float)c;
#define FOUT { float s = 0.f; for (int c = 0; c < 8; ++c) s += x[c] + y[c]; if (s == 123.456f) out[0] = s; }
#define KARGS const float *a, const unsigned *ua, float *out, int iters, float p, float q, unsigned z, unsigned w

#define BREV(c) asm volatile("brev.b32 %0, %0;" : "+r"(u[c]));
#define FLO(c) asm volatile("bfind.u32 %0, %0;" : "+r"(u[c]));
#define FLOSH(c) asm volatile("bfind.shiftamt.u32 %0, %0;" : "+r"(u[c]));
#define POPC(c) asm volatile("popc.b32 %0, %0;" : "+r"(u[c]));
#define I2F(c) asm volatile("{.reg .f32 t; cvt.rn.f32.s32 t, %0; mov.b32 %0, t;}" : "+r"(u[c]));
#define F2I(c) asm volatile("{.reg .f32 t; mov.b32 t, %0; cvt.rzi.s32.f32 %0, t;}" : "+r"(u[c]));
#define LOPV(c) asm volatile("lop3.b32 %0, %0, %1, %2, 0x6a;" : "+r"(v[c]) : "r"(z), "r"(w));
#define BREV_V(c) asm volatile("brev.b32 %0, %0;" : "+r"(v[c]));
#define I2F_V(c) asm volatile("{.reg .f32 t; cvt.rn.f32.s32 t, %0; mov.b32 %0, t;}" : "+r"(v[c]));

#define ONE(NAME, OP) extern "C" __global__ void NAME(KARGS) { UINIT \
    for (int k = 0; k < iters; ++k) { CH8(OP) CH8(OP) } UOUT }
#define TWO(NAME, A, B) extern "C" __global__ void NAME(KARGS) { UINIT \
    for (int k = 0; k < iters; ++k) { CH8(A) CH8(B) CH8(A) CH8(B) } UOUT }

ONE(v7_brev, BREV)
ONE(v7_flo, FLO)
ONE(v7_flosh, FLOSH)
ONE(v7_popc, POPC)
ONE(v7_i2f, I2F)
ONE(v7_f2i, F2I)
ONE(v7_lop, LOPV)
TWO(v7_brev_flosh, BREV_V, FLOSH)
TWO(v7_flosh_i2f, FLOSH, I2F_V)
TWO(v7_brev_i2f, BREV, I2F_V)
TWO(v7_popc_i2f, POPC, I2F_V)
TWO(v7_brev_lop, BREV, LOPV)
TWO(v7_flosh_lop, FLOSH, LOPV)
TWO(v7_popc_lop, POPC, LOPV)
TWO(v7_i2f_lop, I2F, LOPV)

#define SIN(c) asm volatile("sin.approx.f32 %0, %0;" : "+f"(x[c]));
#define RCP(c) asm volatile("{.reg .f32 t; rcp.approx.ftz.f32 t, %0; fma.rn.f32 %0, t, %1, %2;}" : "+f"(x[c]) : "f"(p), "f"(q));
#define EX2(c) asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x[c]));
#define FMA4(c) asm volatile("fma.rn.f32 %0, %0, %1, %2; fma.rn.f32 %0, %0, %1, %2; fma.rn.f32 %0, %0, %1, %2; fma.rn.f32 %0, %0, %1, %2;" : "+f"(y[c]) : "f"(p), "f"(q));
#define LOP2(c) asm volatile("lop3.b32 %0, %0, %1, %2, 0x6a; lop3.b32 %0, %0, %2, %1, 0x96;" : "+r"(v[c]) : "r"(z), "r"(w));
#define SIN_FMA(c) SIN(c) FMA4(c)
#define RCP_FMA(c) RCP(c) FMA4(c)
#define EX2_LOP(c) EX2(c) LOP2(c)

extern "C" __global__ void v7_sin(KARGS) { FINIT for (int k = 0; k < iters; ++k) { CH8(SIN) CH8(SIN) } FOUT }
extern "C" __global__ void v7_sin_ffma(KARGS) { FINIT for (int k = 0; k < iters; ++k) { CH8(SIN_FMA) CH8(SIN_FMA) } FOUT }
extern "C" __global__ void v7_rcp_ffma(KARGS) { FINIT for (int k = 0; k < iters; ++k) { CH8(RCP_FMA) CH8(RCP_FMA) } FOUT }
extern "C" __global__ void v7_ex2_lop(KARGS) { FINIT UINIT for (int k = 0; k < iters; ++k) { CH8(EX2_LOP) CH8(EX2_LOP) } FOUT UOUT }

// h6_kepler's step without its exit test: one dependent chain per thread
extern "C" __global__ void v7_newton(KARGS) {
    float e = a[threadIdx.x] * 0.5f;
    float m = a[threadIdx.x] * 3.0f;
    float E = m;
    for (int k = 0; k < iters; ++k) {
        float f = E - e * __sinf(E) - m;
        float d = __fdividef(f, 1.0f - e * __cosf(E));
        E -= d * p;
    }
    if (E == 123.456f) out[0] = E;
}
