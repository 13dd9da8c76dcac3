// corpus/liang_heldout5.cu -- a fifth set of divergent kernels held out from the design of
// `warpscope model`'s H100 throughput estimate (docs/accuracy.md, "fifth held-out test"): written
// after the estimate's fifth version (the measured rate of a 32-bit division or remainder by a
// run-time divisor, the L1's request rate and the latency of an L1 hit's further sectors in a
// dependent chain); its estimates were committed before any of these kernels ran on a GPU. Kinds
// not in corpus/liang*.cu before:
//
// geometry: h5_fill_u32 grid=64,1,1 block=256,1,1
// geometry: h5_bisect grid=64,1,1 block=256,1,1
// geometry: h5_prime grid=64,1,1 block=256,1,1
// geometry: h5_bounce grid=64,1,1 block=256,1,1
// geometry: h5_digits grid=64,1,1 block=256,1,1
// geometry: h5_horner grid=64,1,1 block=256,1,1
// assume: n=16384
//
//  - h5_bisect: bisection for the root of a per-thread cubic on [0, 4], each step an if/else on
//    the sign of f(mid), until the bracket is narrower than a per-thread tolerance (2^-6 to
//    2^-20: 8 to 22 steps), fp32.
//  - h5_prime: trial division of a hashed odd number by the odd divisors up to its square root,
//    stopping at the first divisor found (a composite stops early, a prime runs to the end):
//    a data-dependent loop of 32-bit remainders by a run-time divisor.
//  - h5_bounce: a particle in a unit box stepped until it has hit the walls a per-thread number of
//    times or run out of steps; each step tests the four walls (if per wall, reflecting the
//    velocity), fp32.
//  - h5_digits: the decimal digits of a hashed number (1 to 10 of them), each classified by a
//    switch (even, odd prime, other odd) and summed with different weights; the quotient by 10 is
//    a constant division.
//  - h5_horner: a polynomial of per-thread degree (2 to 17) evaluated by Horner's rule, then one of
//    two transcendental tails chosen by the sign of the result (exp or log), fp32.
// The fill kernel is straight-line (no branch).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__host__ __device__ inline unsigned h5mix(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

__global__ void h5_fill_u32(unsigned* a, unsigned seed)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = h5mix(i * 2654435761u ^ seed);
}

__global__ void h5_bisect(const unsigned* seed, float* root, int* steps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    // f(x) = x^3 - a x - b with a in [0, 4), b in [1, 9): one root in (0, 4)
    float a = (float)(s & 1023u) * (4.0f / 1024.0f);
    float b = 1.0f + (float)((s >> 10) & 1023u) * (8.0f / 1024.0f);
    float tol = __int_as_float((127 - 6 - (int)((s >> 20) % 15u)) << 23);
    float lo = 0.0f, hi = 4.0f;
    int k = 0;
    while (hi - lo > tol) { // expect: divergent-branch possible
        float mid = 0.5f * (lo + hi);
        float f = (mid * mid - a) * mid - b;
        if (f < 0.0f) { // nvcc selects (no branch in the PTX)
            lo = mid;
        } else {
            hi = mid;
        }
        ++k;
    }
    root[i] = 0.5f * (lo + hi);
    steps[i] = k;
}

__global__ void h5_prime(const unsigned* seed, unsigned* factor, int cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = (seed[i] & 0x3fffffu) | 0x100001u; // odd, 2^20 .. 2^22
    unsigned f = v;
    unsigned d = 3u;
    int t = 0;
    while (d * d <= v && t < cap) { // expect: divergent-branch possible
        if (v % d == 0u) { // expect: divergent-branch possible
            f = d;
            break;
        }
        d += 2u;
        ++t;
    }
    factor[i] = f;
}

__global__ void h5_bounce(const unsigned* seed, float* pos, int* hits, int maxsteps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    float x = (float)(s & 255u) * (1.0f / 256.0f);
    float y = (float)((s >> 8) & 255u) * (1.0f / 256.0f);
    float vx = 0.01f + (float)((s >> 16) & 63u) * (0.05f / 64.0f);
    float vy = 0.01f + (float)((s >> 22) & 63u) * (0.05f / 64.0f);
    int want = 1 + (int)(s >> 28);
    int h = 0, k = 0;
    while (h < want && k < maxsteps) { // expect: divergent-branch possible
        x += vx;
        y += vy;
        if (x > 1.0f) { // nvcc selects (no branch in the PTX)
            x = 2.0f - x;
            vx = -vx;
            ++h;
        }
        if (x < 0.0f) { // nvcc selects (no branch in the PTX)
            x = -x;
            vx = -vx;
            ++h;
        }
        if (y > 1.0f) { // nvcc selects (no branch in the PTX)
            y = 2.0f - y;
            vy = -vy;
            ++h;
        }
        if (y < 0.0f) { // nvcc selects (no branch in the PTX)
            y = -y;
            vy = -vy;
            ++h;
        }
        ++k;
    }
    pos[i] = x + 2.0f * y;
    hits[i] = h * 65536 + k;
}

__global__ void h5_digits(const unsigned* seed, unsigned* score)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    unsigned v = s >> (s & 31u);
    unsigned acc = 0u;
    do {
        unsigned d = v % 10u;
        switch (d) { // expect: divergent-branch possible
        case 0: case 2: case 4: case 6: case 8:
            acc = acc * 3u + d;
            break;
        case 3: case 5: case 7:
            acc = (acc ^ (d << 7)) * 5u;
            break;
        default:
            acc = acc + (d << 3) + 1u;
            break;
        }
        v /= 10u;
    } while (v != 0u); // expect: divergent-branch possible
    score[i] = acc;
}

__global__ void h5_horner(const unsigned* seed, float* out, int maxdeg)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    int deg = 2 + (int)(s % (unsigned)maxdeg);
    float x = -1.0f + (float)((s >> 8) & 1023u) * (2.0f / 1024.0f);
    unsigned c = s;
    float p = 0.0f;
    for (int k = 0; k <= deg; ++k) { // expect: divergent-branch possible
        c = c * 1664525u + 1013904223u;
        p = p * x + ((float)(c >> 16) * (1.0f / 32768.0f) - 1.0f);
    }
    float r;
    if (p > 0.0f) { // expect: divergent-branch possible
        r = __expf(-p) * p + __sinf(p);
    } else {
        r = __logf(1.0f - p) - __cosf(p);
    }
    out[i] = r;
}

int main()
{
    const int n = 16384, T = 256, G = n / T;
    unsigned *seed, *factor, *score;
    float *root, *pos, *out;
    int *steps, *hits;
    CK(cudaMalloc(&seed, n * sizeof(unsigned)));
    CK(cudaMalloc(&factor, n * sizeof(unsigned)));
    CK(cudaMalloc(&score, n * sizeof(unsigned)));
    CK(cudaMalloc(&root, n * sizeof(float)));
    CK(cudaMalloc(&pos, n * sizeof(float)));
    CK(cudaMalloc(&out, n * sizeof(float)));
    CK(cudaMalloc(&steps, n * sizeof(int)));
    CK(cudaMalloc(&hits, n * sizeof(int)));
    h5_fill_u32<<<G, T>>>(seed, 51u);
    h5_bisect<<<G, T>>>(seed, root, steps);
    h5_prime<<<G, T>>>(seed, factor, 256);
    h5_bounce<<<G, T>>>(seed, pos, hits, 64);
    h5_digits<<<G, T>>>(seed, score);
    h5_horner<<<G, T>>>(seed, out, 16);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<int> h(n);
    CK(cudaMemcpy(h.data(), steps, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int k = 0; k < n; ++k) sum += h[k];
    printf("steps %lld\n", sum);
    return 0;
}
