// corpus/liang_heldout10.cu -- a tenth set of divergent kernels held out from the design of
// `warpscope model`'s H100 throughput estimate (docs/accuracy.md, "tenth held-out test"): written
// after the estimate's twelfth version (a SASS dependency bound, a dependence factor on the
// pipes) was frozen; its estimates were committed before any of these kernels ran on a GPU (an
// H200, the same GH100 SM as the H100). Each kernel runs tens of microseconds at the validation
// size (262144 threads). Kinds not in corpus/liang*.cu before:
//
// geometry: h10_fill_u32 grid=64,1,1 block=256,1,1
// geometry: h10_setbits grid=64,1,1 block=256,1,1
// geometry: h10_cbrt64 grid=64,1,1 block=256,1,1
// geometry: h10_halley grid=64,1,1 block=256,1,1
// geometry: h10_polar grid=64,1,1 block=256,1,1
// assume: n=16384
//
//  - h10_setbits: a bit-serial walk over a per-thread number of hashed words, one step per set
//    bit (the lowest set bit found, cleared, its position hashed in): the inner trip count is the
//    word's population count.
//  - h10_cbrt64: integer cube roots of 64-bit values by bisection, the search interval's width
//    (hence the step count) chosen per thread: 64-bit multiplies and compares.
//  - h10_halley: Halley's method on a polynomial whose degree is chosen per thread (Horner for
//    the value and both derivatives, fp32), until the step is small or a cap.
//  - h10_polar: Marsaglia's polar method: pairs of xorshift32 uniforms are drawn until one falls
//    inside the unit circle (rejection), a per-thread number of Gaussian samples is summed:
//    logarithms and reciprocal square roots on the special-function unit.
// The fill kernel is straight-line (no branch).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__host__ __device__ inline unsigned h10mix(unsigned x)
{
    x ^= x >> 17;
    x *= 0xed5ad4bbu;
    x ^= x >> 11;
    x *= 0xac4c1b51u;
    x ^= x >> 15;
    return x;
}

__global__ void h10_fill_u32(unsigned* a, unsigned seed)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = h10mix(i * 0x61c88647u + seed);
}

__global__ void h10_setbits(const unsigned* seed, unsigned* out, int maxwords)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    int words = 1 + (int)(s % (unsigned)maxwords);
    unsigned acc = s;
    for (int j = 0; j < words; ++j) { // expect: divergent-branch possible
        unsigned w = h10mix(s + (unsigned)j * 0x9e3779b9u);
        while (w != 0u) { // expect: divergent-branch possible
            int b = __ffs(w) - 1;
            acc = (acc ^ (unsigned)b) * 0x01000193u;
            w &= w - 1u;
        }
    }
    out[i] = acc;
}

__global__ void h10_cbrt64(const unsigned* seed, unsigned long long* out, int values)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    unsigned long long acc = 0ull;
    for (int j = 0; j < values; ++j) {
        unsigned h = h10mix(s ^ (unsigned)(j * 0x27d4eb2d));
        unsigned long long v = ((unsigned long long)h << 20) | (h >> 12);
        // the search interval: [0, 2^bits), bits per thread (the step count)
        unsigned bits = 8u + h10mix(h) % 14u;
        unsigned long long lo = 0ull, hi = 1ull << bits;
        while (hi - lo > 1ull) { // expect: divergent-branch possible
            unsigned long long mid = (lo + hi) >> 1;
            if (mid * mid * mid <= v) lo = mid; else hi = mid;
        }
        acc += lo;
    }
    out[i] = acc;
}

__global__ void h10_halley(const unsigned* seed, float* out, int maxdeg, int cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    int deg = 2 + (int)(s % (unsigned)(maxdeg - 1));
    float x = 1.5f + (float)(s >> 28) * 0.125f;
    int k = 0;
    while (k < cap) {
        // p(x) = sum_{j<=deg} c_j x^j with c_j = 1 + j/8, minus a per-thread constant
        float p = 1.0f + (float)deg * 0.125f, d1 = 0.0f, d2 = 0.0f;
        for (int j = deg - 1; j >= 0; --j) { // expect: divergent-branch possible
            d2 = d2 * x + d1;
            d1 = d1 * x + p;
            p = p * x + (1.0f + (float)j * 0.125f);
        }
        p -= 2.0f + (float)(s & 255u);
        float step = __fdividef(2.0f * p * d1, 2.0f * d1 * d1 - p * 2.0f * d2);
        x -= step;
        ++k;
        if (fabsf(step) < 1e-5f * fabsf(x)) break; // expect: divergent-branch possible
    }
    out[i] = x + (float)k;
}

__global__ void h10_polar(const unsigned* seed, float* out, int samples)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned r = seed[i] | 1u;
    int n = 1 + (int)(r % (unsigned)samples);
    float acc = 0.0f;
    for (int j = 0; j < n; ++j) { // expect: divergent-branch possible
        float u, v, q;
        do {
            r ^= r << 13; r ^= r >> 17; r ^= r << 5;
            u = (float)(r >> 8) * (2.0f / 16777216.0f) - 1.0f;
            r ^= r << 13; r ^= r >> 17; r ^= r << 5;
            v = (float)(r >> 8) * (2.0f / 16777216.0f) - 1.0f;
            q = u * u + v * v;
        } while (q >= 1.0f || q == 0.0f); // expect: divergent-branch possible
        float m = -2.0f * __logf(q);
        acc += u * m * rsqrtf(m * q);
    }
    out[i] = acc;
}

int main()
{
    const int n = 16384, T = 256, G = n / T;
    unsigned *seed, *sb;
    unsigned long long* cb;
    float *hl, *pl;
    CK(cudaMalloc(&seed, n * sizeof(unsigned)));
    CK(cudaMalloc(&sb, n * sizeof(unsigned)));
    CK(cudaMalloc(&cb, n * sizeof(unsigned long long)));
    CK(cudaMalloc(&hl, n * sizeof(float)));
    CK(cudaMalloc(&pl, n * sizeof(float)));
    h10_fill_u32<<<G, T>>>(seed, 101u);
    h10_setbits<<<G, T>>>(seed, sb, 8);
    h10_cbrt64<<<G, T>>>(seed, cb, 4);
    h10_halley<<<G, T>>>(seed, hl, 12, 16);
    h10_polar<<<G, T>>>(seed, pl, 8);
    CK(cudaDeviceSynchronize());
    std::vector<unsigned> hu(n);
    CK(cudaMemcpy(hu.data(), sb, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned x = 0;
    for (int k = 0; k < n; ++k) x ^= hu[k];
    printf("setbits xor %08x\n", x);
    std::vector<unsigned long long> hc(n);
    CK(cudaMemcpy(hc.data(), cb, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    unsigned long long y = 0;
    for (int k = 0; k < n; ++k) y += hc[k];
    printf("cbrt64 sum %llu\n", y);
    std::vector<float> hf(n);
    CK(cudaMemcpy(hf.data(), hl, n * sizeof(float), cudaMemcpyDeviceToHost));
    double t = 0.0;
    for (int k = 0; k < n; ++k) t += hf[k];
    printf("halley sum %.3f\n", t);
    CK(cudaMemcpy(hf.data(), pl, n * sizeof(float), cudaMemcpyDeviceToHost));
    t = 0.0;
    for (int k = 0; k < n; ++k) t += hf[k];
    printf("polar sum %.3f\n", t);
    return 0;
}
