// corpus/liang.cu -- compute-bound divergent kernels in the spirit of the benchmarks of Liang et
// al. (paper 002), for `warpscope model` and its H100 validation (docs/accuracy.md): a
// marching-cubes-like vertex count, a Needleman-Wunsch-like alignment per thread, an
// escape-time loop with a path-dependent trip count, and a sparse-row (ELL) walk.
//
// geometry: liang_fill_f32 grid=256..4096,1,1 block=256,1,1
// geometry: liang_fill_i32 grid=256..4096,1,1 block=256,1,1
// geometry: liang_mc grid=256,1,1 block=256,1,1
// geometry: liang_nw grid=256,1,1 block=256,1,1
// geometry: liang_escape grid=256,1,1 block=256,1,1
// geometry: liang_ell grid=256,1,1 block=256,1,1
// assume: n=65536
// assume: liang_mc work=4
// assume: liang_escape maxit=64
// assume: liang_ell width=16
//
// Every kernel reads per-thread inputs filled by liang_fill_* (a hash of the index, so the work
// of neighbouring threads is uncorrelated) and does a data-dependent amount of arithmetic:
//  - liang_mc: one thread per cube; the 8 corner samples (structure of arrays, coalesced) give
//    the cube's configuration, and every one of the 12 edges whose corners lie on different
//    sides of the iso value gets an interpolated vertex (`work` rounds of math each). Whether
//    an edge is crossed depends on the data: divergent, possible (one `if`, the edge loop is
//    unrolled into 12 copies on that line).
//  - liang_nw: one thread per (query, read) pair of lengths la, lb (loaded: 4..11 here, longer in the H100 validation specs; at most 31) scores a
//    global alignment with a dynamic-programming row in local memory; characters are a hash of
//    the thread and position. Both loop bounds are loaded: divergent, possible.
//  - liang_escape: z = z² + c until |z| > 2 or maxit iterations, c loaded: the trip count
//    depends on the data: divergent, possible.
//  - liang_ell: row r of an ELL matrix (column-major slots, coalesced) walks its len[r]
//    (loaded) nonzeros with a few rounds of math per nonzero; x[col] is a data-dependent
//    gather: uncoalesced, possible. The row loop: divergent, possible.
// The fill kernels are straight-line (no branch).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__host__ __device__ inline unsigned mix32(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

__global__ void liang_fill_f32(float* a, unsigned seed, float lo, float hi)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = lo + (hi - lo) * (float)(mix32(i ^ seed) >> 8) * (1.0f / 16777216.0f);
}

__global__ void liang_fill_i32(int* a, unsigned seed, int lo, int span)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = lo + (int)(mix32(i ^ seed) % (unsigned)span);
}

__global__ void liang_mc(const float* field, float* out, int n, float iso, int work)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) v[k] = field[k * n + i];
    // the 12 edges of a cube: corners (e, e+1 mod 4) on two faces, then the 4 verticals
    const int ea[12] = {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3};
    const int eb[12] = {1, 2, 3, 0, 5, 6, 7, 4, 4, 5, 6, 7};
    float acc = 0.0f;
#pragma unroll
    for (int e = 0; e < 12; ++e) {
        float a = v[ea[e]], b = v[eb[e]];
        if ((a < iso) != (b < iso)) { // expect: divergent-branch possible
            float t = (iso - a) / (b - a);
            float p = t;
            for (int w = 0; w < work; ++w) {
                p = sqrtf(p * p + t) * 0.5f + __sinf(p) * 0.25f;
            }
            acc += p;
        }
    }
    out[i] = acc;
}

#define NW_MAX 32

__global__ void liang_nw(const int* lens_a, const int* lens_b, int* score)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int la = lens_a[i], lb = lens_b[i];
    int row[NW_MAX];
    for (int b = 0; b <= lb; ++b) row[b] = -b; // expect: divergent-branch possible
    unsigned sa = mix32(2u * i), sb = mix32(2u * i + 1u);
    for (int a = 1; a <= la; ++a) { // expect: divergent-branch possible
        unsigned ca = mix32(sa + a) & 3u;
        int diag = row[0];
        row[0] = -a;
        for (int b = 1; b <= lb; ++b) { // expect: divergent-branch possible
            unsigned cb = mix32(sb + b) & 3u;
            int m = diag + (ca == cb ? 2 : -1);
            int up = row[b] - 1, left = row[b - 1] - 1;
            diag = row[b];
            row[b] = max(m, max(up, left));
        }
    }
    score[i] = row[lb];
}

__global__ void liang_escape(const float* cre, const float* cim, int* iters, int maxit)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float cr = cre[i], ci = cim[i];
    float x = 0.0f, y = 0.0f;
    int k = 0;
    while (k < maxit && x * x + y * y < 4.0f) { // expect: divergent-branch possible
        float t = x * x - y * y + cr;
        y = 2.0f * x * y + ci;
        x = t;
        ++k;
    }
    iters[i] = k;
}

__global__ void liang_ell(const int* len, const int* col, const float* val, const float* x,
                          float* y, int n, int width)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    int m = min(len[r], width);
    float s = 0.0f;
    for (int p = 0; p < m; ++p) { // expect: divergent-branch possible
        float v = val[p * n + r];
        float xv = x[col[p * n + r] & (n - 1)]; // expect: uncoalesced-access possible
        float q = v * xv;
        q = sqrtf(fabsf(q) + 1.0f) * q;
        s = fmaf(s, 0.999f, q);
    }
    y[r] = s;
}

int main()
{
    const int n = 65536, T = 256, G = n / T;
    float *field, *mc_out, *cre, *cim, *val, *x, *y;
    int *la, *lb, *score, *iters, *len, *col;
    CK(cudaMalloc(&field, 8 * n * sizeof(float)));
    CK(cudaMalloc(&mc_out, n * sizeof(float)));
    CK(cudaMalloc(&cre, n * sizeof(float)));
    CK(cudaMalloc(&cim, n * sizeof(float)));
    CK(cudaMalloc(&val, 16 * n * sizeof(float)));
    CK(cudaMalloc(&x, n * sizeof(float)));
    CK(cudaMalloc(&y, n * sizeof(float)));
    CK(cudaMalloc(&la, n * sizeof(int)));
    CK(cudaMalloc(&lb, n * sizeof(int)));
    CK(cudaMalloc(&score, n * sizeof(int)));
    CK(cudaMalloc(&iters, n * sizeof(int)));
    CK(cudaMalloc(&len, n * sizeof(int)));
    CK(cudaMalloc(&col, 16 * n * sizeof(int)));
    liang_fill_f32<<<8 * G, T>>>(field, 1u, 0.0f, 1.0f);
    liang_fill_i32<<<G, T>>>(la, 2u, 4, 8);
    liang_fill_i32<<<G, T>>>(lb, 3u, 4, 8);
    liang_fill_f32<<<G, T>>>(cre, 4u, -2.0f, 0.5f);
    liang_fill_f32<<<G, T>>>(cim, 5u, -1.25f, 1.25f);
    liang_fill_i32<<<G, T>>>(len, 6u, 0, 17);
    liang_fill_i32<<<16 * G, T>>>(col, 7u, 0, n);
    liang_fill_f32<<<16 * G, T>>>(val, 8u, -1.0f, 1.0f);
    liang_fill_f32<<<G, T>>>(x, 9u, -1.0f, 1.0f);
    liang_mc<<<G, T>>>(field, mc_out, n, 0.5f, 4);
    liang_nw<<<G, T>>>(la, lb, score);
    liang_escape<<<G, T>>>(cre, cim, iters, 64);
    liang_ell<<<G, T>>>(len, col, val, x, y, n, 16);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<int> h(n), hla(n), hlb(n);
    CK(cudaMemcpy(h.data(), iters, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int v : h) {
        if (v < 1 || v > 64) { fprintf(stderr, "bad iteration count %d\n", v); return 1; }
        sum += v;
    }
    // score of an alignment is at least -(la + lb) and at most 2 * min(la, lb)
    CK(cudaMemcpy(h.data(), score, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hla.data(), la, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hlb.data(), lb, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        if (h[i] < -(hla[i] + hlb[i]) || h[i] > 2 * std::min(hla[i], hlb[i])) {
            fprintf(stderr, "bad score %d at %d\n", h[i], i);
            return 1;
        }
        sum += h[i];
    }
    printf("liang checksum %lld\n", sum);
    return 0;
}
