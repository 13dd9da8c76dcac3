// Machine facts for the ninth version of `warpscope model`'s H100 estimate (docs/accuracy.md,
// "ninth version"), measured by scripts/h100/model_v9rates.py (on an H200: the same GH100 SM).
// Written to test what the issue-rate bound misses for issue-bound integer kernels:
//
// 1. The rate of IMAD's wide and high forms (the machine table's IMAD rate was measured with
//    IMAD.MOV/IMAD alone): each kernel runs 8 independent chains per thread (16 links per chain
//    and iteration, inline PTX), 8 blocks of 256 per SM. v9_imad mul.lo.u32 (IMAD);
//    v9_imadhi mul.hi.u32 (IMAD.HI.U32); v9_imadwide mul.wide.u32 (IMAD.WIDE.U32);
//    v9_imadhi_lop IMAD.HI beside LOP3; v9_imad_lop IMAD beside LOP3 (both at full rate would
//    need 4 issues per clock per SM); v9_shf SHF.R.U32 alone; v9_lop_shf LOP3 beside SHF.
// 2. Dependent chains with few warps: one chain per thread, a fixed `iters` steps, at 4, 8, 16,
//    32 and 64 warps per SM: clocks per step per warp, to compare with max(chain latency,
//    warps x issue slots per scheduler). v9_chain_mix: x = umulhi(x, a) ^ (x >> 7), then
//    x += k, a 3-deep chain of IMAD.HI, SHF/LOP3 and IADD3 per step with the loop's counter,
//    compare and branch; v9_chain_alu: x = ((x << 3) ^ x) + k: ALU only.
#define CH8(OP) OP(0) OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7)
#define UINIT unsigned u[8], v[8]; CH8(UI)
#define UI(c) u[c] = ua[threadIdx.x] + c; v[c] = ua[threadIdx.x] * 3u + c;
#define DI(c) d[c] = ua[threadIdx.x] + c;
#define UOUT { unsigned s = 0u; for (int c = 0; c < 8; ++c) s ^= u[c] ^ v[c]; if (s == 123456u) out[1] = (float)s; }
#define KARGS const float *a, const unsigned *ua, float *out, int iters, float p, float q, unsigned z, unsigned w

#define IMADLO(c) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(u[c]) : "r"(z), "r"(w));
#define IMADHI(c) asm volatile("mul.hi.u32 %0, %0, %1;" : "+r"(u[c]) : "r"(w));
#define IMADWIDE(c) asm volatile("{.reg .u32 l; cvt.u32.u64 l, %0; mad.wide.u32 %0, l, %1, %0;}" : "+l"(d[c]) : "r"(w));
#define LOPV(c) asm volatile("lop3.b32 %0, %0, %1, %2, 0x6a;" : "+r"(v[c]) : "r"(z), "r"(w));
#define SHF(c) asm volatile("shf.r.wrap.b32 %0, %0, %0, %1;" : "+r"(u[c]) : "r"(z));
#define SHFV(c) asm volatile("shf.r.wrap.b32 %0, %0, %0, %1;" : "+r"(v[c]) : "r"(z));
#define LOPU(c) asm volatile("lop3.b32 %0, %0, %1, %2, 0x6a;" : "+r"(u[c]) : "r"(z), "r"(w));

#define ONE(NAME, OP) extern "C" __global__ void NAME(KARGS) { UINIT \
    for (int k = 0; k < iters; ++k) { CH8(OP) CH8(OP) } UOUT }
#define TWO(NAME, A, B) extern "C" __global__ void NAME(KARGS) { UINIT \
    for (int k = 0; k < iters; ++k) { CH8(A) CH8(B) CH8(A) CH8(B) } UOUT }

ONE(v9_imad, IMADLO)
ONE(v9_imadhi, IMADHI)
extern "C" __global__ void v9_imadwide(KARGS) {
    unsigned long long d[8]; CH8(DI)
    for (int k = 0; k < iters; ++k) { CH8(IMADWIDE) CH8(IMADWIDE) }
    unsigned long long s = 0; for (int c = 0; c < 8; ++c) s ^= d[c]; if (s == 123456u) out[1] = (float)s; }
ONE(v9_shf, SHF)
ONE(v9_lop, LOPU)
TWO(v9_imadhi_lop, IMADHI, LOPV)
TWO(v9_imad_lop, IMADLO, LOPV)
TWO(v9_lop_shf, LOPU, SHFV)

extern "C" __global__ void v9_chain_mix(KARGS) {
    unsigned x = ua[threadIdx.x] | 1u;
    for (int k = 0; k < iters; ++k) {
        x = __umulhi(x, w) ^ (x >> 7);
        x += z;
    }
    if (x == 123456u) out[0] = (float)x;
}

extern "C" __global__ void v9_chain_alu(KARGS) {
    unsigned x = ua[threadIdx.x] | 1u;
    for (int k = 0; k < iters; ++k) {
        x = ((x << 3) ^ x) + z;
    }
    if (x == 123456u) out[0] = (float)x;
}
