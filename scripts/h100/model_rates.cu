// Rates the H100 estimate of `warpscope model` needed and did not have (docs/accuracy.md, "third
// version"): the warp shuffle, the integer add ptxas emits as VIADD (beside IMAD), IMAD beside FFMA,
// shared-memory loads and stores, and local memory accessed at a per-lane offset (32 sectors per
// request) for per-thread tables of 8 to 96 words, so that the resident threads' tables go from
// well inside the L1 to well beyond it. Same method as model_pipes.cu: independent chains,
// operands read at run time; scripts/h100/model_rates.py times them (8 blocks of 256 per SM) and
// counts each kernel's loop SASS.
#define CHAINS(OP) OP(x0) OP(x1) OP(x2) OP(x3) OP(x4) OP(x5) OP(x6) OP(x7)
#define INIT(T, a)                                                                            \
    T x0 = a[threadIdx.x], x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3, x4 = x0 + 4, x5 = x0 + 5,       \
      x6 = x0 + 6, x7 = x0 + 7;

// SHFL.BFLY, two lane masks alternating
extern "C" __global__ void wr_shfl(const float *a, float *out, int iters, float y, float z) {
    INIT(float, a)
#define SHF2(x) x = __shfl_xor_sync(0xffffffffu, x, 1); x = __shfl_xor_sync(0xffffffffu, x, 2);
    for (int k = 0; k < iters; ++k) {
        CHAINS(SHF2)
    }
    float s = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 + y + z;
    if (s == 123456.0f) out[0] = s;
}

// IMAD chains beside VIADD + LOP3 chains (x + y then x ^ z, as model_pipes.cu's wp_add_xor):
// does VIADD share IMAD's pipe? (24 warp instructions per iteration: 6 clocks at the issue rate
// if it does not, 8 if VIADD and IMAD share a 2-per-clock pipe)
extern "C" __global__ void wr_imad_viadd(const unsigned *a, unsigned *out, int iters, unsigned y,
                                         unsigned z) {
    INIT(unsigned, a)
    unsigned w0 = x0 * 3u, w1 = w0 + 1, w2 = w0 + 2, w3 = w0 + 3, w4 = w0 + 4, w5 = w0 + 5,
             w6 = w0 + 6, w7 = w0 + 7;
#define IMV(x, w) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(y), "r"(z)); w = w + y; w = w ^ z;
    for (int k = 0; k < iters; ++k) {
        IMV(x0, w0) IMV(x1, w1) IMV(x2, w2) IMV(x3, w3) IMV(x4, w4) IMV(x5, w5) IMV(x6, w6) IMV(x7, w7)
    }
    unsigned t = x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7 ^ w0 ^ w1 ^ w2 ^ w3 ^ w4 ^ w5 ^ w6 ^ w7;
    if (t == 123456u) out[0] = t;
}

// FFMA and IMAD chains side by side (IMAD's pipe against FFMA's)
extern "C" __global__ void wr_imad_ffma(const unsigned *a, unsigned *out, int iters, unsigned y,
                                        unsigned z) {
    INIT(unsigned, a)
    float f0 = x0 * 0.5f, f1 = f0 + 1, f2 = f0 + 2, f3 = f0 + 3, f4 = f0 + 4, f5 = f0 + 5,
          f6 = f0 + 6, f7 = f0 + 7;
    float fy = __uint_as_float(y), fz = __uint_as_float(z);
#define FF(f) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(f) : "f"(fy), "f"(fz));
#define IM(x) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(y), "r"(z));
    for (int k = 0; k < iters; ++k) {
        IM(x0) FF(f0) IM(x1) FF(f1) IM(x2) FF(f2) IM(x3) FF(f3)
        IM(x4) FF(f4) IM(x5) FF(f5) IM(x6) FF(f6) IM(x7) FF(f7)
    }
    float s = f0 + f1 + f2 + f3 + f4 + f5 + f6 + f7;
    unsigned t = x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7;
    if (s == 123456.0f || t == 7u) out[0] = t;
}

// shared loads: 8 independent chains of loads whose address comes from the last value
extern "C" __global__ void wr_lds(const unsigned *a, unsigned *out, int iters, unsigned y,
                                  unsigned z) {
    __shared__ unsigned s[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = (i * 7u + y) & 1023u;
    __syncthreads();
    INIT(unsigned, a)
#define LDS(x) x = s[x & 1023u];
    for (int k = 0; k < iters; ++k) {
        CHAINS(LDS) CHAINS(LDS)
    }
    unsigned t = x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7;
    if (t == 123456u + z) out[0] = t;
}

// shared stores, one per lane at distinct words (no bank conflict)
extern "C" __global__ void wr_sts(const unsigned *a, unsigned *out, int iters, unsigned y,
                                  unsigned z) {
    __shared__ unsigned s[2048];
    unsigned x = a[threadIdx.x], b = threadIdx.x & 255u;
    for (int k = 0; k < iters; ++k) {
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            asm volatile("st.shared.u32 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(&s[b + j * 256u])), "r"(x + j));
        }
        x += y;
    }
    __syncthreads();
    if (s[threadIdx.x] == 123456u + z) out[0] = x;
}

// local memory: a per-thread table of S words, each step a load and a store at offset
// (h + lane) mod S, h the same for the warp: with S >= 32 the 32 lanes touch 32 distinct words,
// 32 sectors per request (local memory interleaves the threads' words 4 bytes apart)
template <int S>
__device__ __forceinline__ void local_table(const unsigned *a, unsigned *out, int iters,
                                            unsigned y) {
    unsigned t[S];
    for (int s = 0; s < S; ++s) t[s] = a[(threadIdx.x + s) & 255u];
    unsigned lane = threadIdx.x & 31u, h = y;
    for (int k = 0; k < iters; ++k) {
        unsigned s = (h + lane) % S;
        t[s] += k;
        h += 7u;
    }
    unsigned r = 0;
    for (int s = 0; s < S; ++s) r = r * 31u + t[s];
    out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}
#define LOCAL(S)                                                                              \
    extern "C" __global__ void wr_local##S(const unsigned *a, unsigned *out, int iters,        \
                                           unsigned y, unsigned z) {                          \
        local_table<S>(a, out, iters, y);                                                     \
    }
LOCAL(8)
LOCAL(16)
LOCAL(24)
LOCAL(32)
LOCAL(40)
LOCAL(48)
LOCAL(64)
LOCAL(96)
