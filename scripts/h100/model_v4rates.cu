// Machine facts the fourth version of `warpscope model`'s H100 estimate needed and did not have
// (docs/accuracy.md, "fourth version"): global loads served by the L1 (a gathered table of 8 KB
// to 2 MB, so that it goes from well inside the L1 to well beyond it), global stores at 32 and at
// 4 sectors per request, the conversions and MUFU.RCP that a 32-bit division by a run-time
// divisor issues (do they share a pipe?), the whole unsigned remainder, and a data-dependent
// if/else inside a loop, divergent (half of each warp's lanes on each side) and warp-uniform
// (the same SASS, BSSY/BSYNC included, every warp on one side). Same method as model_rates.cu:
// independent chains, operands read at run time; scripts/h100/model_v4rates.py times them (8
// blocks of 256 per SM) and counts each kernel's loop SASS.
#define CHAINS(OP) OP(0) OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7)

// gather: each warp loads 8 independent words per step from a table of `mask + 1` words, lane
// `l` at word `(h + 8 l) & mask` with `h` the same for the warp: 32 lanes 32 bytes apart, 32
// sectors per request; `h` moves by a hash each step, so the warps sweep the whole table
extern "C" __global__ void wv_gather(const float *t, const unsigned *a, float *out, int iters,
                                     unsigned mask, unsigned z) {
    unsigned lane = threadIdx.x & 31u;
    unsigned h = a[threadIdx.x >> 5] * 2654435761u + blockIdx.x * 40503u;
    float acc[8];
#define G0(c) acc[c] = 0.0f;
    CHAINS(G0)
    for (int k = 0; k < iters; ++k) {
#define G1(c) acc[c] += t[(h + (c) * 2711u * 8u + lane * 8u) & mask];
        CHAINS(G1)
        h = h * 1664525u + z;
    }
    float s = acc[0] + acc[1] + acc[2] + acc[3] + acc[4] + acc[5] + acc[6] + acc[7];
    if (s == 123456.0f) out[0] = s;
}

// stores at 32 sectors per request: lane `l` writes word `(h + 8 l) & mask` of an L2-resident
// buffer (16 MB), 8 stores per step
extern "C" __global__ void wv_store_scatter(const unsigned *a, unsigned *out, int iters,
                                            unsigned mask, unsigned z) {
    unsigned lane = threadIdx.x & 31u;
    unsigned h = a[threadIdx.x >> 5] * 2654435761u + blockIdx.x * 40503u;
    for (int k = 0; k < iters; ++k) {
#define S1(c) out[(h + (c) * 2711u * 8u + lane * 8u) & mask] = h + (c);
        CHAINS(S1)
        h = h * 1664525u + z;
    }
}

// stores at 4 sectors per request: lane `l` writes word `(32 h + l) & mask`
extern "C" __global__ void wv_store_coal(const unsigned *a, unsigned *out, int iters,
                                         unsigned mask, unsigned z) {
    unsigned lane = threadIdx.x & 31u;
    unsigned h = a[threadIdx.x >> 5] * 2654435761u + blockIdx.x * 40503u;
    for (int k = 0; k < iters; ++k) {
#define S2(c) out[((h + (c) * 2711u) * 32u + lane) & mask] = h + (c);
        CHAINS(S2)
        h = h * 1664525u + z;
    }
}

// conversions: 8 chains of F2I (rz) , LOP3, I2F
extern "C" __global__ void wv_conv(const unsigned *a, unsigned *out, int iters, unsigned y,
                                   unsigned z) {
    float f[8];
#define C0(c) f[c] = (float)(a[threadIdx.x] + (c));
    CHAINS(C0)
    for (int k = 0; k < iters; ++k) {
#define C1(c) f[c] = __uint2float_rn(__float2uint_rz(f[c]) ^ z);
        CHAINS(C1)
    }
    float s = f[0] + f[1] + f[2] + f[3] + f[4] + f[5] + f[6] + f[7];
    if (s == 123456.0f) out[0] = y;
}

// the same conversion chains beside 8 chains of MUFU.RCP (rcp.approx): does MUFU share their pipe?
extern "C" __global__ void wv_conv_rcp(const unsigned *a, unsigned *out, int iters, unsigned y,
                                       unsigned z) {
    float f[8], g[8];
#define R0(c) f[c] = (float)(a[threadIdx.x] + (c)); g[c] = f[c] + 0.5f;
    CHAINS(R0)
    for (int k = 0; k < iters; ++k) {
#define R1(c) f[c] = __uint2float_rn(__float2uint_rz(f[c]) ^ z); \
    asm volatile("rcp.approx.ftz.f32 %0, %0;" : "+f"(g[c]));
        CHAINS(R1)
    }
    float s = f[0] + f[1] + f[2] + f[3] + f[4] + f[5] + f[6] + f[7] + g[0] + g[1] + g[2] + g[3] +
              g[4] + g[5] + g[6] + g[7];
    if (s == 123456.0f) out[0] = y;
}

// MUFU.RCP alone, 16 chains
extern "C" __global__ void wv_rcp(const unsigned *a, unsigned *out, int iters, unsigned y,
                                  unsigned z) {
    float g[16];
    for (int c = 0; c < 16; ++c) g[c] = (float)(a[threadIdx.x] + c) + 0.5f;
    for (int k = 0; k < iters; ++k) {
#pragma unroll
        for (int c = 0; c < 16; ++c) asm volatile("rcp.approx.ftz.f32 %0, %0;" : "+f"(g[c]));
    }
    float s = 0.0f;
    for (int c = 0; c < 16; ++c) s += g[c];
    if (s == 123456.0f) out[0] = y + z;
}

// the unsigned 32-bit remainder by a run-time divisor (the divisor changes every step, as in
// Euclid's algorithm, so that ptxas cannot hoist its reciprocal), 8 chains
extern "C" __global__ void wv_urem(const unsigned *a, unsigned *out, int iters, unsigned y,
                                   unsigned z) {
    unsigned p[8], q[8];
#define U0(c) p[c] = a[threadIdx.x] * 7919u + (c) * 104729u + y; q[c] = (p[c] >> 9) | 0x100u;
    CHAINS(U0)
    for (int k = 0; k < iters; ++k) {
#define U1(c) { unsigned r = p[c] % q[c]; p[c] = q[c] ^ (r << 7) ^ z; q[c] = (r + z) | 0x100u; }
        CHAINS(U1)
    }
    unsigned t = p[0] ^ p[1] ^ p[2] ^ p[3] ^ p[4] ^ p[5] ^ p[6] ^ p[7];
    if (t == 123456u) out[0] = t;
}

// an if/else per step whose condition is a bit of `h ^ sel` (sel: the lane for the divergent
// kernel, the warp for the uniform one); each side 12 independent IMAD or FFMA chains' links
__device__ __forceinline__ void branchy(const unsigned *a, unsigned *out, int iters, unsigned y,
                                        unsigned z, unsigned sel) {
    unsigned u[12];
    float f[12];
    for (int c = 0; c < 12; ++c) {
        u[c] = a[threadIdx.x] + c;
        f[c] = (float)u[c];
    }
    float fy = __uint_as_float(0x3f800347u), fz = __uint_as_float(z | 0x3e000000u);
    unsigned h = a[threadIdx.x >> 5] * 2654435761u;
    for (int k = 0; k < iters; ++k) {
        if ((h ^ sel) & 1u) {
#pragma unroll
            for (int c = 0; c < 12; ++c) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(u[c]) : "r"(y), "r"(z));
        } else {
#pragma unroll
            for (int c = 0; c < 12; ++c) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(f[c]) : "f"(fy), "f"(fz));
        }
        h = h * 1664525u + 1013904223u;
        h ^= h >> 13;
    }
    unsigned t = 0;
    float s = 0.0f;
    for (int c = 0; c < 12; ++c) {
        t ^= u[c];
        s += f[c];
    }
    if (t == 123456u || s == 1.5f) out[0] = t;
}

extern "C" __global__ void wv_branch_div(const unsigned *a, unsigned *out, int iters, unsigned y,
                                         unsigned z) {
    branchy(a, out, iters, y, z, threadIdx.x & 31u);
}

extern "C" __global__ void wv_branch_uni(const unsigned *a, unsigned *out, int iters, unsigned y,
                                         unsigned z) {
    branchy(a, out, iters, y, z, threadIdx.x >> 5);
}
