// corpus/liang_heldout11.cu -- an eleventh set of divergent kernels held out from the design of
// `warpscope model`'s H100 throughput estimate (docs/accuracy.md, "eleventh held-out test"):
// written after the estimate's thirteenth version (predicate latencies, register-bank conflicts)
// was frozen; its estimates were committed before any of these kernels ran on a GPU (an H200,
// the same GH100 SM as the H100). Each kernel runs tens of microseconds at the validation size
// (262144 threads). Kinds not in corpus/liang*.cu before:
//
// geometry: h11_fill_u32 grid=64,1,1 block=256,1,1
// geometry: h11_cheb grid=64,1,1 block=256,1,1
// geometry: h11_udiv grid=64,1,1 block=256,1,1
// geometry: h11_montexp grid=64,1,1 block=256,1,1
// geometry: h11_cordic grid=64,1,1 block=256,1,1
// assume: n=16384
//
//  - h11_cheb: Clenshaw summation of a Chebyshev series whose degree is chosen per thread, at
//    several points per thread (fp64: a dependent multiply-add recurrence).
//  - h11_udiv: unsigned 32-bit division without the divide sequence: the divisor normalized by
//    a leading-zero count, its reciprocal refined by fixed-point Newton steps until the error is
//    one unit, then the quotient corrected up or down; a per-thread number of pairs.
//  - h11_montexp: 64-bit modular exponentiation by Montgomery multiplication (64-bit products'
//    high halves, a carry and a conditional subtract), square-and-multiply over a per-thread
//    number of exponent bits.
//  - h11_cordic: fixed-point CORDIC rotations (shifts, adds and subtracts whose signs follow the
//    residual angle, an arctangent table in constant memory), a per-thread number of angles,
//    each to a per-angle number of iterations.
// The fill kernel is straight-line (no branch).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__host__ __device__ inline unsigned h11mix(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// atan(2^-k) in units of 2^-30 radians
__constant__ int h11_atan[24] = {
    843314857, 497837829, 263043837, 133525159, 67021687, 33543516, 16775851, 8388437,
    4194283,   2097149,   1048576,   524288,    262144,   131072,   65536,    32768,
    16384,     8192,      4096,      2048,      1024,     512,      256,      128};

__global__ void h11_fill_u32(unsigned* a, unsigned seed)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = h11mix(i * 0x9e3779b9u + seed);
}

__global__ void h11_cheb(const unsigned* seed, double* out, int maxdeg, int points)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    int deg = 4 + (int)(s % (unsigned)maxdeg);
    double acc = 0.0;
    for (int p = 0; p < points; ++p) {
        double x = -0.95 + 1.9 * (double)(((s >> 8) + 97u * (unsigned)p) & 1023u) * (1.0 / 1023.0);
        double x2 = 2.0 * x, b1 = 0.0, b2 = 0.0;
        for (int k = deg; k >= 1; --k) { // expect: divergent-branch possible
            double b0 = x2 * b1 - b2 + (1.0 + 0.001 * (double)k);
            b2 = b1;
            b1 = b0;
        }
        acc += x * b1 - b2 + 0.5;
    }
    out[i] = acc;
}

__global__ void h11_udiv(const unsigned* seed, unsigned* out, int maxpairs)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    int pairs = 1 + (int)(s % (unsigned)maxpairs);
    unsigned acc = 0u;
    for (int j = 0; j < pairs; ++j) { // expect: divergent-branch possible
        unsigned n = h11mix(s + (unsigned)j * 0x85ebca6bu);
        unsigned d = (h11mix(n ^ 0x5bd1e995u) >> (n & 15u)) | 1u;
        int sh = __clz(d);
        unsigned dn = d << sh; // 2^31 <= dn < 2^32: f = dn / 2^32 in [0.5, 1)
        // X ~ 2^30 / f (Q30), first guess 48/17 - 32/17 f, then X <- X (2 - f X)
        unsigned X = 3031741620u - (unsigned)((2021161080ull * dn) >> 32);
        for (int it = 0; it < 6; ++it) {
            unsigned E = (unsigned)(((unsigned long long)dn * X) >> 32); // f X in Q30
            if (E >= (1u << 30) - 1u && E <= (1u << 30)) break; // expect: divergent-branch possible
            X = (unsigned)(((unsigned long long)X * ((1u << 31) - E)) >> 30);
        }
        unsigned q = (unsigned)(((unsigned long long)n * X) >> (62 - sh));
        while ((unsigned long long)q * d > n) --q; // expect: divergent-branch possible
        while ((unsigned long long)(q + 1u) * d <= n) ++q; // expect: divergent-branch possible
        acc += q ^ (n - q * d);
    }
    out[i] = acc;
}

// (a b) / 2^64 mod m for odd m < 2^63, a, b < m; mi = -m^-1 mod 2^64
__device__ inline unsigned long long h11_mont(unsigned long long a, unsigned long long b,
                                              unsigned long long m, unsigned long long mi)
{
    unsigned long long lo = a * b, hi = __umul64hi(a, b);
    unsigned long long u = lo * mi;
    unsigned long long t = hi + __umul64hi(u, m) + (lo != 0ull ? 1ull : 0ull);
    return t >= m ? t - m : t;
}

__global__ void h11_montexp(const unsigned* seed, unsigned long long* out, int minbits, int spread)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    unsigned long long m = ((((unsigned long long)h11mix(s ^ 0x1234567u) << 32) | h11mix(s)) >> 2) | 1ull;
    m |= 1ull << 61;
    unsigned long long inv = m; // Newton: inv <- inv (2 - m inv), 5 steps from m (3 bits) to 64
    for (int k = 0; k < 5; ++k) inv *= 2ull - m * inv;
    unsigned long long mi = 0ull - inv;
    unsigned long long e = ((unsigned long long)h11mix(s + 7u) << 32) | h11mix(s + 11u);
    int bits = minbits + (int)(h11mix(s + 3u) % (unsigned)spread);
    unsigned long long base = (((unsigned long long)s << 20) ^ 0x9e3779b97f4a7c15ull) & ((1ull << 60) - 1ull); // < m
    unsigned long long x = base;
    for (int k = bits - 2; k >= 0; --k) { // expect: divergent-branch possible
        x = h11_mont(x, x, m, mi);
        if ((e >> (k & 63)) & 1ull) x = h11_mont(x, base, m, mi); // expect: divergent-branch possible
    }
    out[i] = x;
}

__global__ void h11_cordic(const unsigned* seed, int* out, int maxangles)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    int angles = 1 + (int)(s % (unsigned)maxangles);
    int acc = 0;
    for (int j = 0; j < angles; ++j) { // expect: divergent-branch possible
        unsigned h = h11mix(s + (unsigned)j * 0xc2b2ae35u);
        int z = (int)(h >> 2) - (1 << 29); // a residual angle in [-0.5, 0.5) rad, Q30
        int x = 652032874, y = 0;          // the CORDIC gain 0.6072529 in Q30
        int n = 8 + (int)(h & 15u);        // 8..23 iterations
        for (int k = 0; k < n; ++k) { // expect: divergent-branch possible
            int dx = x >> k, dy = y >> k, t = h11_atan[k];
            if (z >= 0) { // expect: divergent-branch possible
                x -= dy;
                y += dx;
                z -= t;
            } else {
                x += dy;
                y -= dx;
                z += t;
            }
        }
        acc += x ^ y;
    }
    out[i] = acc;
}

int main()
{
    const int n = 16384, T = 256, G = n / T;
    unsigned *seed, *ud;
    double* ch;
    unsigned long long* me;
    int* co;
    CK(cudaMalloc(&seed, n * sizeof(unsigned)));
    CK(cudaMalloc(&ch, n * sizeof(double)));
    CK(cudaMalloc(&ud, n * sizeof(unsigned)));
    CK(cudaMalloc(&me, n * sizeof(unsigned long long)));
    CK(cudaMalloc(&co, n * sizeof(int)));
    h11_fill_u32<<<G, T>>>(seed, 202u);
    h11_cheb<<<G, T>>>(seed, ch, 16, 2);
    h11_udiv<<<G, T>>>(seed, ud, 8);
    h11_montexp<<<G, T>>>(seed, me, 8, 16);
    h11_cordic<<<G, T>>>(seed, co, 4);
    CK(cudaDeviceSynchronize());
    std::vector<double> hd(n);
    CK(cudaMemcpy(hd.data(), ch, n * sizeof(double), cudaMemcpyDeviceToHost));
    double t = 0.0;
    for (int k = 0; k < n; ++k) t += hd[k];
    printf("cheb sum %.6f\n", t);
    std::vector<unsigned> hu(n);
    CK(cudaMemcpy(hu.data(), ud, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned x = 0;
    for (int k = 0; k < n; ++k) x ^= hu[k];
    printf("udiv xor %08x\n", x);
    std::vector<unsigned long long> hm(n);
    CK(cudaMemcpy(hm.data(), me, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    unsigned long long y = 0;
    for (int k = 0; k < n; ++k) y ^= hm[k];
    printf("montexp xor %016llx\n", y);
    std::vector<int> hi(n);
    CK(cudaMemcpy(hi.data(), co, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long z = 0;
    for (int k = 0; k < n; ++k) z += hi[k];
    printf("cordic sum %lld\n", z);
    return 0;
}
