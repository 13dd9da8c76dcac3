// corpus/liang_heldout2.cu -- a second set of divergent kernels held out from the design of
// `warpscope model`'s H100 throughput estimate (docs/accuracy.md, "fresh held-out test"):
// written after the estimate's second version (the stall model) was built; its estimates were
// committed before any of these kernels ran on a GPU. Shapes unlike corpus/liang.cu's and
// corpus/liang_heldout.cu's:
//
// geometry: h2_fill_u32 grid=4..64,1,1 block=256,1,1
// geometry: h2_fill_f32 grid=64,1,1 block=256,1,1
// geometry: h2_newton grid=64,1,1 block=256,1,1
// geometry: h2_shfl grid=64,1,1 block=256,1,1
// geometry: h2_local grid=128,1,1 block=128,1,1
// geometry: h2_wave grid=16,1,1 block=64,1,1
// assume: n=16384
// assume: h2_newton maxit=48
// assume: h2_shfl rounds=16
// assume: h2_local steps=32
//
//  - h2_newton: fp64 Newton iteration for a cube root from a loaded value, until the step is
//    below a tolerance or `maxit` steps: a path-dependent trip count, fp64 divide and fma in a
//    dependent chain.
//  - h2_shfl: a shuffle-heavy warp reduction: each warp runs as many rounds as its lane 0's
//    count (loaded: warps run different trip counts), every round a 5-step butterfly over the
//    warp; the lanes whose own count is not reached yet add a term (a divergent branch inside a
//    warp-uniform loop).
//  - h2_local: a per-thread table of 24 counters indexed by a hash (a local-memory array), a
//    loaded number of steps per thread: local loads and stores in a divergent loop.
//  - h2_wave: a Smith-Waterman-like wavefront: each block aligns two sequences of blockDim.x
//    characters along anti-diagonals in shared memory, one barrier per diagonal; thread i works
//    on the diagonal only where its cell exists (divergent, definite: lane 0 and the last
//    lanes differ on most diagonals).
// The fill kernels are straight-line (no branch).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__host__ __device__ inline unsigned h2mix(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

__global__ void h2_fill_u32(unsigned* a, unsigned seed, unsigned lo, unsigned span)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = lo + h2mix(i ^ seed) % span;
}

__global__ void h2_fill_f32(float* a, unsigned seed, float lo, float hi)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = lo + (hi - lo) * (float)(h2mix(i ^ seed) >> 8) * (1.0f / 16777216.0f);
}

__global__ void h2_newton(const float* a, double* root, int* steps, int maxit)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double v = (double)a[i];
    double x = v > 1.0 ? v : 1.0;
    int k = 0;
    while (k < maxit) { // a uniform bound: the break below diverges
        double fx = x * x * x - v;
        double step = fx / (3.0 * x * x);
        x -= step;
        ++k;
        if (fabs(step) < 1e-12 * x) break; // expect: divergent-branch possible
    }
    root[i] = x;
    steps[i] = k;
}

__global__ void h2_shfl(const unsigned* cnt, const float* in, float* out, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int m = (int)(cnt[i] % (unsigned)(rounds + 1));
    int mw = __shfl_sync(0xffffffffu, m, 0); // the warp's trip count: its lane 0's
    float v = in[i], acc = 0.0f;
    for (int r = 0; r < mw; ++r) {
        float s = v;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
        if (r < m) acc = fmaf(acc, 0.5f, s * v); // expect: divergent-branch possible
        v = v * 0.999f + 0.001f * s;
    }
    out[i] = acc;
}

#define H2_SLOTS 24

__global__ void h2_local(const unsigned* cnt, unsigned* out, int steps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned t[H2_SLOTS];
    for (int s = 0; s < H2_SLOTS; ++s) t[s] = 0u;
    int m = (int)(cnt[i] % (unsigned)(steps + 1));
    unsigned h = h2mix((unsigned)i);
    for (int k = 0; k < m; ++k) { // expect: divergent-branch possible
        h = h2mix(h + (unsigned)k);
        unsigned s = h % H2_SLOTS;
        t[s] += h >> 20;
    }
    unsigned r = 0u;
    for (int s = 0; s < H2_SLOTS; ++s) r = r * 31u + t[s];
    out[i] = r;
}

// Each block aligns query[blockIdx.x*L ..] with ref[blockIdx.x*L ..] (L = blockDim.x <= 128):
// thread i owns row i; on diagonal d it computes cell (i, d - i) when 0 <= d - i < L, from the
// previous two diagonals kept in shared memory.
__global__ void h2_wave(const unsigned* query, const unsigned* ref, int* best)
{
    __shared__ int prev2[129], prev1[129], cur[129];
    int L = blockDim.x, i = threadIdx.x;
    const unsigned* q = query + blockIdx.x * L;
    const unsigned* r = ref + blockIdx.x * L;
    unsigned qi = q[i] & 3u;
    int mine = 0;
    prev2[i + 1] = 0;
    prev1[i + 1] = 0;
    if (i == 0) { prev2[0] = 0; prev1[0] = 0; cur[0] = 0; } // expect: divergent-branch definite
    __syncthreads();
    for (int d = 0; d < 2 * L - 1; ++d) {
        int j = d - i;
        int h = 0;
        if (j >= 0 && j < L) { // expect: divergent-branch definite
            unsigned rj = r[j] & 3u; // expect: misaligned-access definite
            int diag = (i > 0 && j > 0) ? prev2[i] : 0; // expect: divergent-branch definite
            int up = (i > 0) ? prev1[i] : 0; // expect: divergent-branch definite
            int left = (j > 0) ? prev1[i + 1] : 0; // expect: divergent-branch definite
            h = max(0, max(diag + (qi == rj ? 3 : -1), max(up - 2, left - 2)));
            mine = max(mine, h);
        }
        cur[i + 1] = h;
        __syncthreads();
        prev2[i + 1] = prev1[i + 1];
        prev1[i + 1] = cur[i + 1];
        __syncthreads();
    }
    // the block's best score: a shared max over the threads
    cur[i + 1] = mine;
    __syncthreads();
    if (i == 0) { // expect: divergent-branch definite
        int b = 0;
        for (int k = 1; k <= L; ++k) b = max(b, cur[k]);
        best[blockIdx.x] = b;
    }
}

int main()
{
    const int n = 16384, T = 256, G = n / T, L = 64, B = 16;
    unsigned *cnt, *lcnt, *lout, *query, *ref;
    float *a, *in, *sout;
    double *root;
    int *steps, *best;
    CK(cudaMalloc(&cnt, n * sizeof(unsigned)));
    CK(cudaMalloc(&lcnt, n * sizeof(unsigned)));
    CK(cudaMalloc(&lout, n * sizeof(unsigned)));
    CK(cudaMalloc(&query, B * L * sizeof(unsigned)));
    CK(cudaMalloc(&ref, B * L * sizeof(unsigned)));
    CK(cudaMalloc(&a, n * sizeof(float)));
    CK(cudaMalloc(&in, n * sizeof(float)));
    CK(cudaMalloc(&sout, n * sizeof(float)));
    CK(cudaMalloc(&root, n * sizeof(double)));
    CK(cudaMalloc(&steps, n * sizeof(int)));
    CK(cudaMalloc(&best, B * sizeof(int)));
    h2_fill_u32<<<G, T>>>(cnt, 21u, 0u, 1u << 20);
    h2_fill_u32<<<G, T>>>(lcnt, 22u, 0u, 1u << 20);
    h2_fill_u32<<<B * L / T, T>>>(query, 23u, 0u, 4u);
    h2_fill_u32<<<B * L / T, T>>>(ref, 24u, 0u, 4u);
    h2_fill_f32<<<G, T>>>(a, 25u, 0.0f, 1000000.0f);
    h2_fill_f32<<<G, T>>>(in, 26u, -1.0f, 1.0f);
    h2_newton<<<G, T>>>(a, root, steps, 48);
    h2_shfl<<<G, T>>>(cnt, in, sout, 16);
    h2_local<<<n / 128, 128>>>(lcnt, lout, 32);
    h2_wave<<<B, L>>>(query, ref, best);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<int> h(n);
    CK(cudaMemcpy(h.data(), steps, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int v : h) {
        if (v < 1 || v > 48) { fprintf(stderr, "bad step count %d\n", v); return 1; }
        sum += v;
    }
    printf("liang_heldout2 checksum %lld\n", sum);
    return 0;
}
