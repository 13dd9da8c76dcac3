// Machine facts for the sixth version of `warpscope model`'s H100 estimate (docs/accuracy.md,
// "sixth version"), measured by scripts/h100/model_v6rates.py:
//
// 1. Which pipe fp32 compares and selects use. The estimate puts every `setp` and `selp` on the
//    integer ALU (64 lanes per SM: 2 warp instructions per clock), as measured for ISETP and SEL
//    (model_pipes.tsv, wp_setp_sel); FSETP, FSEL and FMNMX were never measured. Each kernel runs 8
//    independent chains per thread (16 links per chain and iteration, inline PTX), 8 blocks of 256 per SM;
//    kernels pair the instruction with LOP3 (integer ALU) to see whether the two share a pipe.
//    v6_fsel:       FSEL (x = p ? -x : x, p a run-time predicate)
//    v6_fsel_lop:   FSEL chains beside LOP3 chains, one of each per link
//    v6_fsetp_fsel: FSETP + FSEL (x = x > y ? -x : x); v6_fsetp_fsel_lop: the same beside LOP3
//    v6_fmnmx:      FMNMX (x = fmaxf(-x, y))
//    v6_fmnmx_lop:  FMNMX beside LOP3
//    v6_lop:        LOP3 alone (the integer ALU's rate, for reference)
// 2. v6_chase: the fifth version's v5_chase (dependent loads through a 32 KB L1-resident table,
//    lane l reading word x + l * spread), run with spreads whose 32 lanes' words fall in distinct
//    banks (5, 17, 33: about 5, 17 and 32 lines per request) against spreads of as many lines in
//    shared banks (4, 16, 32), to tell whether the L1 serves global loads at one line per clock
//    or is slowed by bank conflicts (v5 could not: its 32 lines shared one bank).
#define CH8(OP) OP(0) OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7)
#define FINIT float x[8]; CH8(FI)
#define FI(c) x[c] = a[threadIdx.x] + (float)c;
#define UINIT unsigned u[8]; CH8(UI)
#define UI(c) u[c] = ua[threadIdx.x] + c;
#define FOUT { float s = 0.f; for (int c = 0; c < 8; ++c) s += x[c]; if (s == 123.456f) out[0] = s; }
#define UOUT { unsigned s = 0u; for (int c = 0; c < 8; ++c) s ^= u[c]; if (s == 123456u) out[1] = (float)s; }

// inline PTX, so that ptxas keeps every link (plain C lets it fold the repeated selects and
// logic into closed forms); the selects' predicate is set inside each asm from a run-time value
#define SELP(c) asm volatile("{.reg .pred q; .reg .f32 t; setp.ne.u32 q, %1, 0; neg.f32 t, %0; selp.f32 %0, t, %0, q;}" : "+f"(x[c]) : "r"(z));
#define SETSELP(c) asm volatile("{.reg .pred q; .reg .f32 t; setp.gt.f32 q, %0, %1; neg.f32 t, %0; selp.f32 %0, t, %0, q;}" : "+f"(x[c]) : "f"(y));
#define MNMX(c) asm volatile("{.reg .f32 t; neg.f32 t, %0; max.f32 %0, t, %1;}" : "+f"(x[c]) : "f"(y));
#define LOP(c) asm volatile("lop3.b32 %0, %0, %1, %2, 0x6a;" : "+r"(u[c]) : "r"(z), "r"(w));

extern "C" __global__ void v6_fsel(const float *a, const unsigned *ua, float *out, int iters, float y, unsigned z, unsigned w) {
    FINIT
    for (int k = 0; k < iters; ++k) { CH8(SELP) CH8(SELP) }
    FOUT
}

extern "C" __global__ void v6_fsel_lop(const float *a, const unsigned *ua, float *out, int iters, float y, unsigned z, unsigned w) {
    FINIT UINIT
#define SELP_LOP(c) SELP(c) LOP(c)
    for (int k = 0; k < iters; ++k) { CH8(SELP_LOP) CH8(SELP_LOP) }
    FOUT UOUT
}

extern "C" __global__ void v6_fsetp_fsel(const float *a, const unsigned *ua, float *out, int iters, float y, unsigned z, unsigned w) {
    FINIT
    for (int k = 0; k < iters; ++k) { CH8(SETSELP) CH8(SETSELP) }
    FOUT
}

extern "C" __global__ void v6_fsetp_fsel_lop(const float *a, const unsigned *ua, float *out, int iters, float y, unsigned z, unsigned w) {
    FINIT UINIT
#define SETSELP_LOP(c) SETSELP(c) LOP(c)
    for (int k = 0; k < iters; ++k) { CH8(SETSELP_LOP) CH8(SETSELP_LOP) }
    FOUT UOUT
}

extern "C" __global__ void v6_fmnmx(const float *a, const unsigned *ua, float *out, int iters, float y, unsigned z, unsigned w) {
    FINIT
    for (int k = 0; k < iters; ++k) { CH8(MNMX) CH8(MNMX) }
    FOUT
}

extern "C" __global__ void v6_fmnmx_lop(const float *a, const unsigned *ua, float *out, int iters, float y, unsigned z, unsigned w) {
    FINIT UINIT
#define MNMX_LOP(c) MNMX(c) LOP(c)
    for (int k = 0; k < iters; ++k) { CH8(MNMX_LOP) CH8(MNMX_LOP) }
    FOUT UOUT
}

extern "C" __global__ void v6_lop(const float *a, const unsigned *ua, float *out, int iters, float y, unsigned z, unsigned w) {
    UINIT
    for (int k = 0; k < iters; ++k) { CH8(LOP) CH8(LOP) }
    UOUT
}

extern "C" __global__ void v6_chase(const unsigned *t, unsigned *out, int steps, unsigned mask,
                                    unsigned spread) {
    unsigned lane = threadIdx.x & 31u;
    unsigned x = ((blockIdx.x * 977u + (threadIdx.x >> 5) * 131u) * 32u * (spread | 1u)) & mask;
    unsigned off = lane * spread;
    for (int k = 0; k < steps; ++k) {
        x = t[(x + off) & mask];
    }
    if (x == 0xffffffffu) out[0] = x;
}
