// corpus/liang_heldout7.cu -- a seventh set of divergent kernels held out from the design of
// `warpscope model`'s H100 throughput estimate (docs/accuracy.md, "seventh held-out test"): written
// after the estimate's seventh version (bit and conversion pipes, the fast divide's SASS, measured
// on an H200, the same GH100 SM); its estimates were committed before any of these kernels ran on a
// GPU. Each kernel runs tens of microseconds at the validation size (262144 threads). Kinds not in
// corpus/liang*.cu before:
//
// geometry: h7_fill_u32 grid=64,1,1 block=256,1,1
// geometry: h7_crc grid=64,1,1 block=256,1,1
// geometry: h7_modpow grid=64,1,1 block=256,1,1
// geometry: h7_lfsr grid=64,1,1 block=256,1,1
// geometry: h7_pendulum grid=64,1,1 block=256,1,1
// geometry: h7_halton grid=64,1,1 block=256,1,1
// assume: n=16384
//
//  - h7_crc: a bitwise CRC-32 (reflected polynomial, branch-free per bit) of a per-thread message
//    of 4 to 35 xorshift words: integer shifts and logic, the word count sets the trip count.
//  - h7_modpow: modular exponentiation modulo the Mersenne prime 2^31 - 1 by square-and-multiply
//    (64-bit products folded twice), for 4 bases per thread with exponents of 1 to 31 bits: the
//    multiply is taken on the exponent's set bits only.
//  - h7_lfsr: a 32-bit Fibonacci LFSR (parity of the tapped bits by population count) stepped
//    until its low bits match a per-thread target of 3 to 10 bits, or a cap: the expected trip
//    count doubles with each bit of the target.
//  - h7_pendulum: a damped pendulum by semi-implicit Euler steps with the fast sine and cosine,
//    until its energy falls below a per-thread threshold or a cap: the damping (per thread) sets
//    the trip count.
//  - h7_halton: points of the (2, 3) Halton sequence (base 2 by bit reversal, base 3 by a digit
//    loop) from a per-thread start index, each tested against a per-thread disc, until a
//    per-thread number of hits or a cap: integer-to-float conversions, a digit loop whose length
//    grows with the index.
// The fill kernel is straight-line (no branch).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__host__ __device__ inline unsigned h7mix(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

__global__ void h7_fill_u32(unsigned* a, unsigned seed)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = h7mix(i * 0x9e3779b9u + seed);
}

__global__ void h7_crc(const unsigned* seed, unsigned* out, int maxwords)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    int len = 4 + (int)(s % (unsigned)maxwords);
    unsigned x = s | 1u;
    unsigned crc = 0xffffffffu;
    for (int w = 0; w < len; ++w) { // expect: divergent-branch possible
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        crc ^= x;
        for (int b = 0; b < 32; ++b) {
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
        }
    }
    out[i] = ~crc;
}

__device__ inline unsigned h7_mulmod(unsigned a, unsigned b)
{
    unsigned long long t = (unsigned long long)a * b;
    t = (t & 0x7fffffffull) + (t >> 31);
    t = (t & 0x7fffffffull) + (t >> 31);
    return (unsigned)t;
}

__global__ void h7_modpow(const unsigned* seed, unsigned* out, int bases)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    unsigned acc = 0u;
    for (int k = 0; k < bases; ++k) {
        unsigned h = h7mix(s + (unsigned)k * 0x632be5abu);
        unsigned b = (h & 0x7fffffffu) | 2u;
        unsigned e = h >> (1 + (h & 31u) % 31u);
        unsigned r = 1u;
        while (e != 0u) { // expect: divergent-branch possible
            if (e & 1u) { // expect: divergent-branch possible
                r = h7_mulmod(r, b);
            }
            b = h7_mulmod(b, b);
            e >>= 1;
        }
        acc ^= r;
    }
    out[i] = acc;
}

__global__ void h7_lfsr(const unsigned* seed, unsigned* out, int cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    unsigned width = 3u + (s & 7u);
    unsigned mask = (1u << width) - 1u;
    unsigned target = (s >> 8) & mask;
    unsigned r = h7mix(s) | 1u;
    int k = 0;
    while ((r & mask) != target && k < cap) { // expect: divergent-branch possible
        unsigned bit = __popc(r & 0x80200003u) & 1u;
        r = (r << 1) | bit;
        ++k;
    }
    out[i] = r ^ (unsigned)k;
}

__global__ void h7_pendulum(const unsigned* seed, float* out, int cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    float th = 0.5f + (float)(s & 1023u) * (2.5f / 1024.0f);
    float w = 0.0f;
    float damp = 0.02f + (float)((s >> 10) & 255u) * (0.3f / 256.0f);
    float rest = 0.01f + (float)((s >> 18) & 63u) * (0.05f / 64.0f);
    const float dt = 0.05f, g = 4.0f;
    float energy = g * (1.0f - __cosf(th));
    int k = 0;
    while (energy > rest && k < cap) { // expect: divergent-branch possible
        w -= dt * (g * __sinf(th) + damp * w);
        th += dt * w;
        energy = 0.5f * w * w + g * (1.0f - __cosf(th));
        ++k;
    }
    out[i] = th + (float)k;
}

__global__ void h7_halton(const unsigned* seed, float* out, int cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    unsigned idx = 1u + (s & 0xfffffu);
    float cx = 0.25f + (float)((s >> 20) & 15u) * (0.5f / 16.0f);
    float r2 = 0.005f + (float)(s >> 24) * (0.04f / 256.0f);
    int want = 1 + (int)((s >> 4) & 3u);
    int hits = 0, k = 0;
    float sx = 0.0f;
    while (hits < want && k < cap) { // expect: divergent-branch possible
        float x = (float)(__brev(idx) >> 8) * (1.0f / 16777216.0f);
        unsigned n = idx;
        float y = 0.0f, f = 1.0f / 3.0f;
        while (n != 0u) { // expect: divergent-branch possible
            y += f * (float)(n % 3u);
            n /= 3u;
            f *= 1.0f / 3.0f;
        }
        float dx = x - cx, dy = y - 0.5f;
        if (dx * dx + dy * dy < r2) { // nvcc selects (no branch in the PTX)
            ++hits;
            sx += x;
        }
        ++idx;
        ++k;
    }
    out[i] = sx + (float)k;
}

int main()
{
    const int n = 16384, T = 256, G = n / T;
    unsigned *seed, *crc, *pw, *lf;
    float *pend, *hal;
    CK(cudaMalloc(&seed, n * sizeof(unsigned)));
    CK(cudaMalloc(&crc, n * sizeof(unsigned)));
    CK(cudaMalloc(&pw, n * sizeof(unsigned)));
    CK(cudaMalloc(&lf, n * sizeof(unsigned)));
    CK(cudaMalloc(&pend, n * sizeof(float)));
    CK(cudaMalloc(&hal, n * sizeof(float)));
    h7_fill_u32<<<G, T>>>(seed, 71u);
    h7_crc<<<G, T>>>(seed, crc, 32);
    h7_modpow<<<G, T>>>(seed, pw, 4);
    h7_lfsr<<<G, T>>>(seed, lf, 256);
    h7_pendulum<<<G, T>>>(seed, pend, 256);
    h7_halton<<<G, T>>>(seed, hal, 64);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<unsigned> h(n);
    CK(cudaMemcpy(h.data(), crc, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned x = 0;
    for (int k = 0; k < n; ++k) x ^= h[k];
    printf("crc xor %08x\n", x);
    return 0;
}
