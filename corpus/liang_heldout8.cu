// corpus/liang_heldout8.cu -- an eighth set of divergent kernels held out from the design of
// `warpscope model`'s H100 throughput estimate (docs/accuracy.md, "eighth held-out test"): written
// after the estimate's eighth version (instruction counts from the SASS ptxas emits for each PTX
// basic block); its estimates were committed before any of these kernels ran on a GPU (an H200,
// the same GH100 SM as the H100). Each kernel runs tens of microseconds at the validation size
// (262144 threads). Kinds not in corpus/liang*.cu before:
//
// geometry: h8_fill_u32 grid=64,1,1 block=256,1,1
// geometry: h8_chacha grid=64,1,1 block=256,1,1
// geometry: h8_isqrt grid=64,1,1 block=256,1,1
// geometry: h8_logistic grid=64,1,1 block=256,1,1
// geometry: h8_lorenz grid=64,1,1 block=256,1,1
// geometry: h8_digits grid=64,1,1 block=256,1,1
// assume: n=16384
//
//  - h8_chacha: ChaCha quarter rounds (32-bit add, xor, rotate) over a per-thread state, for 1 to
//    16 double rounds chosen per thread: funnel-shift rotates and integer adds.
//  - h8_isqrt: the integer square root of per-thread 64-bit values, bit by bit (two bits of the
//    radicand per step, as many steps as the value's length needs): 64-bit shifts, compares and
//    subtractions, several values per thread.
//  - h8_logistic: the logistic map in Q0.32 fixed point (x <- r x (1 - x) with 64-bit products'
//    high words), iterated until x enters a per-thread window or a cap: IMAD.WIDE / IMAD.HI work.
//  - h8_lorenz: the Lorenz system by explicit Euler steps in fp32 from a per-thread start, until
//    the trajectory leaves a per-thread box or a cap: fp32 multiply-adds only.
//  - h8_digits: parsing a per-thread run of decimal digits packed four to a word (bytes '0'..'9',
//    ended by a non-digit byte) into a value, then its digit sum: byte extraction and compares.
// The fill kernel is straight-line (no branch).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__host__ __device__ inline unsigned h8mix(unsigned x)
{
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    x *= 0x297a2d39u;
    x ^= x >> 15;
    return x;
}

__global__ void h8_fill_u32(unsigned* a, unsigned seed)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = h8mix(i * 0x85ebca6bu + seed);
}

__device__ inline unsigned h8_rotl(unsigned x, int n)
{
    return __funnelshift_l(x, x, n);
}

#define H8_QR(a, b, c, d) \
    a += b; d ^= a; d = h8_rotl(d, 16); \
    c += d; b ^= c; b = h8_rotl(b, 12); \
    a += b; d ^= a; d = h8_rotl(d, 8); \
    c += d; b ^= c; b = h8_rotl(b, 7);

__global__ void h8_chacha(const unsigned* seed, unsigned* out, int maxrounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    int rounds = 1 + (int)(s % (unsigned)maxrounds);
    unsigned x0 = 0x61707865u, x1 = 0x3320646eu, x2 = 0x79622d32u, x3 = 0x6b206574u;
    unsigned x4 = s, x5 = s ^ 0x9e3779b9u, x6 = h8mix(s), x7 = (unsigned)i;
    unsigned x8 = ~s, x9 = s * 3u, x10 = s + 0x7f4a7c15u, x11 = s >> 3;
    unsigned x12 = (unsigned)i * 0x01000193u, x13 = 0u, x14 = s << 5, x15 = 0xdeadbeefu;
    for (int r = 0; r < rounds; ++r) { // expect: divergent-branch possible
        H8_QR(x0, x4, x8, x12)
        H8_QR(x1, x5, x9, x13)
        H8_QR(x2, x6, x10, x14)
        H8_QR(x3, x7, x11, x15)
        H8_QR(x0, x5, x10, x15)
        H8_QR(x1, x6, x11, x12)
        H8_QR(x2, x7, x8, x13)
        H8_QR(x3, x4, x9, x14)
    }
    out[i] = x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7 ^ x8 ^ x9 ^ x10 ^ x11 ^ x12 ^ x13 ^ x14 ^ x15;
}

__global__ void h8_isqrt(const unsigned* seed, unsigned long long* out, int values)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    unsigned long long acc = 0ull;
    for (int k = 0; k < values; ++k) {
        unsigned h = h8mix(s + (unsigned)k * 0x27d4eb2fu);
        unsigned long long v = ((unsigned long long)h8mix(h) << 32 | h) >> (h & 63u);
        unsigned long long res = 0ull;
        unsigned long long bit = 1ull << 62;
        while (bit > v) { // expect: divergent-branch possible
            bit >>= 2;
        }
        while (bit != 0ull) { // expect: divergent-branch possible
            if (v >= res + bit) { // nvcc selects (no branch in the PTX)
                v -= res + bit;
                res = (res >> 1) + bit;
            } else {
                res >>= 1;
            }
            bit >>= 2;
        }
        acc += res;
    }
    out[i] = acc;
}

__global__ void h8_logistic(const unsigned* seed, unsigned* out, int cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    // r in [3.6, 4) as Q2.30: r * x * (1 - x) with x in Q0.32
    unsigned r = 0xe6666666u + (s & 0x19999999u);
    unsigned x = h8mix(s) | 0x100u;
    unsigned lo = s & 0xff000000u;
    unsigned width = 0x00200000u << ((s >> 4) & 7u);
    int k = 0;
    while ((x - lo) >= width && k < cap) { // expect: divergent-branch possible
        unsigned p = __umulhi(x, ~x);   // x (1 - x), Q0.32
        x = __umulhi(p, r) << 2;        // times r (Q2.30)
        x ^= (unsigned)k & 1u;
        ++k;
    }
    out[i] = x + (unsigned)k;
}

__global__ void h8_lorenz(const unsigned* seed, float* out, int cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    float x = 1.0f + (float)(s & 255u) * (1.0f / 64.0f);
    float y = 1.0f + (float)((s >> 8) & 255u) * (1.0f / 128.0f);
    float z = 20.0f + (float)((s >> 16) & 63u) * 0.25f;
    float box = 8.0f + (float)(s >> 26) * 0.4f;
    const float sg = 10.0f, rho = 28.0f, beta = 8.0f / 3.0f, dt = 0.004f;
    int k = 0;
    while (x * x + y * y < box * box && k < cap) { // expect: divergent-branch possible
        float dx = sg * (y - x);
        float dy = x * (rho - z) - y;
        float dz = x * y - beta * z;
        x += dt * dx;
        y += dt * dy;
        z += dt * dz;
        ++k;
    }
    out[i] = x + y + z + (float)k;
}

__global__ void h8_digits(const unsigned* seed, unsigned* out, int maxwords)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    int ndig = 1 + (int)(s % (unsigned)(4 * maxwords - 1));
    unsigned x = h8mix(s);
    unsigned value = 0u, sum = 0u;
    int pos = 0;
    bool done = false;
    while (!done) { // expect: divergent-branch possible
        // the next word of the string: four digit bytes, or the terminator past ndig
        x = x * 1664525u + 1013904223u;
        unsigned w = 0u;
        for (int b = 0; b < 4; ++b) {
            unsigned d = pos + b < ndig ? 0x30u + ((x >> (8 * b)) & 0xffu) % 10u : 0x20u;
            w |= d << (8 * b);
        }
        for (int b = 0; b < 4; ++b) {
            unsigned c = (w >> (8 * b)) & 0xffu;
            unsigned d = c - 0x30u;
            if (d > 9u) { // expect: divergent-branch possible
                done = true;
                break;
            }
            value = value * 10u + d;
            sum += d;
        }
        pos += 4;
    }
    out[i] = value ^ (sum << 24);
}

int main()
{
    const int n = 16384, T = 256, G = n / T;
    unsigned *seed, *cc, *lg, *dg;
    unsigned long long* sq;
    float* lz;
    CK(cudaMalloc(&seed, n * sizeof(unsigned)));
    CK(cudaMalloc(&cc, n * sizeof(unsigned)));
    CK(cudaMalloc(&sq, n * sizeof(unsigned long long)));
    CK(cudaMalloc(&lg, n * sizeof(unsigned)));
    CK(cudaMalloc(&lz, n * sizeof(float)));
    CK(cudaMalloc(&dg, n * sizeof(unsigned)));
    h8_fill_u32<<<G, T>>>(seed, 83u);
    h8_chacha<<<G, T>>>(seed, cc, 16);
    h8_isqrt<<<G, T>>>(seed, sq, 4);
    h8_logistic<<<G, T>>>(seed, lg, 256);
    h8_lorenz<<<G, T>>>(seed, lz, 256);
    h8_digits<<<G, T>>>(seed, dg, 8);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<unsigned> h(n);
    CK(cudaMemcpy(h.data(), cc, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned x = 0;
    for (int k = 0; k < n; ++k) x ^= h[k];
    printf("chacha xor %08x\n", x);
    return 0;
}
