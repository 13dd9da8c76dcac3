// corpus/liang_heldout9.cu -- a ninth set of divergent kernels held out from the design of
// `warpscope model`'s H100 throughput estimate (docs/accuracy.md, "ninth held-out test"): written
// after the estimate's ninth version (SASS loop depths for hoisted code, IMAD.HI/IMAD.WIDE at
// half rate); its estimates were committed before any of these kernels ran on a GPU (an H200,
// the same GH100 SM as the H100). Each kernel runs tens of microseconds at the validation size
// (262144 threads). Kinds not in corpus/liang*.cu before:
//
// geometry: h9_fill_u32 grid=64,1,1 block=256,1,1
// geometry: h9_kahan grid=64,1,1 block=256,1,1
// geometry: h9_fib64 grid=64,1,1 block=256,1,1
// geometry: h9_dnewton grid=64,1,1 block=256,1,1
// geometry: h9_splitmix grid=64,1,1 block=256,1,1
// assume: n=16384
//
//  - h9_kahan: Kahan-compensated fp32 summation of a per-thread harmonic-like series whose
//    length is chosen per thread: dependent fp32 adds and subtracts.
//  - h9_fib64: Fibonacci numbers modulo 2^64 stepped a per-thread number of times, with a
//    64-bit compare against a per-thread bound that can stop it early: 64-bit adds and compares.
//  - h9_dnewton: fp64 Newton iterations for the cube roots of several per-thread values, each
//    until the step is below a per-value tolerance (or 64 steps): DFMA, DMUL and fp64 divides.
//  - h9_splitmix: splitmix64 steps (64-bit multiplies, shifts, xors) until the output's low byte
//    hits a per-thread target or a cap: IMAD.WIDE / IMAD.HI work.
// The fill kernel is straight-line (no branch).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__host__ __device__ inline unsigned h9mix(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

__global__ void h9_fill_u32(unsigned* a, unsigned seed)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = h9mix(i * 0x9e3779b9u + seed);
}

__global__ void h9_kahan(const unsigned* seed, float* out, int maxterms)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    int terms = 1 + (int)(s % (unsigned)maxterms);
    float a = 1.0f + (float)(s >> 24) * (1.0f / 256.0f);
    float sum = 0.0f, c = 0.0f, t = a;
    for (int k = 0; k < terms; ++k) { // expect: divergent-branch possible
        float y = t - c;
        float z = sum + y;
        c = (z - sum) - y;
        sum = z;
        t = t * 0.999f + 0.001f;
    }
    out[i] = sum + c;
}

__global__ void h9_fib64(const unsigned* seed, unsigned long long* out, int maxsteps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    int steps = 1 + (int)(s % (unsigned)maxsteps);
    unsigned long long bound = ((unsigned long long)h9mix(s) << 32) | h9mix(s ^ 0x5bd1e995u);
    unsigned long long f0 = s, f1 = (unsigned long long)s * 3u + 1u;
    int k = 0;
    while (k < steps) { // expect: divergent-branch possible
        unsigned long long f2 = f0 + f1;
        f0 = f1;
        f1 = f2;
        ++k;
        if (f2 > bound && (f2 & 0xfffull) == 0ull) break; // expect: divergent-branch possible
    }
    out[i] = f1 ^ (unsigned long long)k;
}

__global__ void h9_dnewton(const unsigned* seed, double* out, int nvals)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    double acc = 0.0;
    for (int j = 0; j < nvals; ++j) {
        unsigned h = h9mix(s + (unsigned)j * 0x632be5abu);
        double v = 1.0 + (double)(h & 0xffffu) * 37.0;
        double tol = 1e-12 * (double)(1u << ((h >> 16) & 31u));
        double x = v > 1000.0 ? 100.0 : 1.0 + v * 0.1;
        int k = 0;
        while (k < 64) { // expect: divergent-branch possible
            double d = (x * x * x - v) / (3.0 * x * x);
            x -= d;
            ++k;
            if (fabs(d) < tol) break; // expect: divergent-branch possible
        }
        acc += x + (double)k;
    }
    out[i] = acc;
}

__global__ void h9_splitmix(const unsigned* seed, unsigned long long* out, int cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    unsigned long long st = ((unsigned long long)s << 32) ^ 0x9e3779b97f4a7c15ull;
    unsigned target = h9mix(s) & 0xffu;
    unsigned long long acc = 0ull;
    int k = 0;
    while (k < cap) { // expect: divergent-branch possible
        st += 0x9e3779b97f4a7c15ull;
        unsigned long long z = st;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        acc += z;
        ++k;
        if ((unsigned)(z & 0xffull) == target) break; // expect: divergent-branch possible
    }
    out[i] = acc ^ (unsigned long long)k;
}

int main()
{
    const int n = 16384, T = 256, G = n / T;
    unsigned* seed;
    float* kh;
    unsigned long long *fb, *sm;
    double* dn;
    CK(cudaMalloc(&seed, n * sizeof(unsigned)));
    CK(cudaMalloc(&kh, n * sizeof(float)));
    CK(cudaMalloc(&fb, n * sizeof(unsigned long long)));
    CK(cudaMalloc(&dn, n * sizeof(double)));
    CK(cudaMalloc(&sm, n * sizeof(unsigned long long)));
    h9_fill_u32<<<G, T>>>(seed, 97u);
    h9_kahan<<<G, T>>>(seed, kh, 256);
    h9_fib64<<<G, T>>>(seed, fb, 128);
    h9_dnewton<<<G, T>>>(seed, dn, 4);
    h9_splitmix<<<G, T>>>(seed, sm, 128);
    CK(cudaDeviceSynchronize());
    std::vector<float> hf(n);
    CK(cudaMemcpy(hf.data(), kh, n * sizeof(float), cudaMemcpyDeviceToHost));
    double t = 0.0;
    for (int k = 0; k < n; ++k) t += hf[k];
    printf("kahan sum %.3f\n", t);
    std::vector<unsigned long long> hu(n);
    CK(cudaMemcpy(hu.data(), fb, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    unsigned long long x = 0;
    for (int k = 0; k < n; ++k) x ^= hu[k];
    printf("fib64 xor %016llx\n", x);
    CK(cudaMemcpy(hu.data(), sm, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    x = 0;
    for (int k = 0; k < n; ++k) x ^= hu[k];
    printf("splitmix xor %016llx\n", x);
    std::vector<double> hd(n);
    CK(cudaMemcpy(hd.data(), dn, n * sizeof(double), cudaMemcpyDeviceToHost));
    t = 0.0;
    for (int k = 0; k < n; ++k) t += hd[k];
    printf("dnewton sum %.3f\n", t);
    return 0;
}
