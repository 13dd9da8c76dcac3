// corpus/liang_heldout4.cu -- a fourth set of divergent kernels held out from the design of
// `warpscope model`'s H100 throughput estimate (docs/accuracy.md, "fourth held-out test"): written
// after the estimate's fourth version (SIMT block counts from the profile, BSSY/BSYNC and the
// divergent-visit cost, L1-resident global buffers, the measured store rates); its estimates were
// committed before any of these kernels ran on a GPU. Kinds not in corpus/liang*.cu before:
//
// geometry: h4_fill_u32 grid=64,1,1 block=256,1,1
// geometry: h4_fill_sorted grid=16,1,1 block=256,1,1
// geometry: h4_fill_next grid=8,1,1 block=256,1,1
// geometry: h4_mandel grid=64,1,1 block=256,1,1
// geometry: h4_bsearch grid=64,1,1 block=256,1,1
// geometry: h4_reject grid=64,1,1 block=256,1,1
// geometry: h4_align grid=64,1,1 block=256,1,1
// geometry: h4_chain grid=64,1,1 block=256,1,1
// assume: n=16384
//
//  - h4_mandel: escape-time iteration of z = z^2 + c with a per-pixel iteration cap read from the
//    data (so two pixels of one warp may stop for different reasons), fp32.
//  - h4_bsearch: a binary search per thread over a sorted 4096-entry table (16 KB, read by every
//    thread: an if/else per probe on the comparison), then a forward scan while the entries stay
//    within a per-thread tolerance (a data-dependent count).
//  - h4_reject: rejection sampling: hashed points in the unit square are drawn until one falls
//    inside a per-thread circle (acceptance from the data), at most a cap; the accepted point is
//    transformed with a logarithm.
//  - h4_align: a short Smith-Waterman row per thread: a query of per-thread length (loaded) scored
//    against a fixed 16-letter reference, with per-cell branches for match, mismatch and gaps.
//  - h4_chain: a bucket walk: each thread starts at a hashed bucket head of a small next-table
//    (8 KB) and follows `next` links until an end mark or its own step cap, accumulating values.
// The fill kernels are straight-line (no branch).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__host__ __device__ inline unsigned h4mix(unsigned x)
{
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    x *= 0x297a2d39u;
    x ^= x >> 15;
    return x;
}

__global__ void h4_fill_u32(unsigned* a, unsigned seed, unsigned lo, unsigned span)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = lo + h4mix(i ^ seed) % span;
}

// the sorted table: entry i is i << shift
__global__ void h4_fill_sorted(unsigned* a, unsigned shift)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = i << shift;
}

#define H4_END 0xffffffffu

// the next-table of h4_chain: about one node in 16 ends a chain, the others link to a hashed node
__global__ void h4_fill_next(unsigned* a, unsigned nodes)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned e = h4mix(i * 7u + 1u) & 15u;
    unsigned to = h4mix(i) % nodes;
    a[i] = e == 0u ? H4_END : to;
}

__global__ void h4_mandel(const unsigned* cap, int* iters, float* mag, int width, int height, int maxcap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float cr = -2.0f + 2.5f * (float)(i % width) / (float)width;
    float ci = -1.25f + 2.5f * (float)(i / width) / (float)height;
    int limit = 8 + (int)(cap[i] % (unsigned)maxcap);
    float zr = 0.0f, zi = 0.0f;
    int k = 0;
    while (k < limit && zr * zr + zi * zi < 4.0f) { // expect: divergent-branch possible
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        ++k;
    }
    iters[i] = k;
    mag[i] = zr * zr + zi * zi;
}

#define H4_TABLE 4096

__global__ void h4_bsearch(const unsigned* keys, const unsigned* table, int* pos, unsigned* span)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned key = keys[i];
    int lo = 0, hi = H4_TABLE;
    while (lo < hi) { // expect: divergent-branch possible
        int mid = (lo + hi) >> 1;
        if (table[mid] < key) { // expect: uncoalesced-access possible
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    unsigned tol = (key & 0x3fu) << 18;
    int j = lo;
    unsigned acc = 0u;
    while (j < H4_TABLE && table[j] - key <= tol) { // expect: divergent-branch possible, uncoalesced-access possible
        acc ^= table[j] * 2654435761u;
        ++j;
    }
    pos[i] = lo;
    span[i] = acc + (unsigned)(j - lo);
}

__global__ void h4_reject(const unsigned* seed, float* out, int* tries, int cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    float r = 0.15f + 0.85f * (float)(s & 1023u) * (1.0f / 1024.0f);
    float r2 = r * r;
    float x = 0.0f, y = 0.0f;
    int t = 0;
    unsigned h = h4mix(s ^ (unsigned)i);
    do {
        h = h4mix(h + 0x9e3779b9u);
        x = (float)(h & 0xffffu) * (1.0f / 65536.0f);
        y = (float)(h >> 16) * (1.0f / 65536.0f);
        ++t;
    } while (x * x + y * y >= r2 && t < cap); // expect: divergent-branch possible
    out[i] = (x * x + y * y) * __logf(1.0f + x + y);
    tries[i] = t;
}

#define H4_REF 16

__global__ void h4_align(const unsigned* qlen, const unsigned* qseed, int* best)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int m = 4 + (int)(qlen[i] % 21u);
    unsigned qs = qseed[i];
    int h[H4_REF + 1];
#pragma unroll
    for (int j = 0; j <= H4_REF; ++j) h[j] = 0;
    int top = 0;
    for (int a = 0; a < m; ++a) { // expect: divergent-branch possible
        unsigned q = (h4mix(qs + (unsigned)a) >> 7) & 3u;
        int diag = 0, left = 0;
#pragma unroll
        for (int j = 1; j <= H4_REF; ++j) {
            unsigned r = (0xb61e4d93u >> (2 * (j - 1))) & 3u;
            int up = h[j];
            int v;
            if (q == r) { // expect: divergent-branch possible
                v = diag + 3;
            } else if (up > left) { // expect: divergent-branch possible
                v = up - 2;
            } else {
                v = max(diag - 1, left - 2);
            }
            v = max(v, 0);
            diag = up;
            h[j] = v;
            left = v;
            top = max(top, v);
        }
    }
    best[i] = top;
}

#define H4_NODES 2048

__global__ void h4_chain(const unsigned* start, const unsigned* next, const float* val, float* sum, int maxsteps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned j = h4mix(start[i]) % H4_NODES;
    int cap = 1 + (int)(start[i] % (unsigned)maxsteps);
    float acc = 0.0f;
    int k = 0;
    while (j != H4_END && k < cap) { // expect: divergent-branch possible
        acc = acc * 0.75f + val[j]; // expect: uncoalesced-access possible
        j = next[j]; // expect: uncoalesced-access possible
        ++k;
    }
    sum[i] = acc + (float)k;
}

int main()
{
    const int n = 16384, T = 256, G = n / T;
    unsigned *cap, *keys, *table, *seed, *qlen, *qseed, *start, *next, *span;
    float *mag, *rout, *val, *csum;
    int *iters, *pos, *tries, *best;
    CK(cudaMalloc(&cap, n * sizeof(unsigned)));
    CK(cudaMalloc(&keys, n * sizeof(unsigned)));
    CK(cudaMalloc(&table, H4_TABLE * sizeof(unsigned)));
    CK(cudaMalloc(&seed, n * sizeof(unsigned)));
    CK(cudaMalloc(&qlen, n * sizeof(unsigned)));
    CK(cudaMalloc(&qseed, n * sizeof(unsigned)));
    CK(cudaMalloc(&start, n * sizeof(unsigned)));
    CK(cudaMalloc(&next, H4_NODES * sizeof(unsigned)));
    CK(cudaMalloc(&val, H4_NODES * sizeof(float)));
    CK(cudaMalloc(&span, n * sizeof(unsigned)));
    CK(cudaMalloc(&mag, n * sizeof(float)));
    CK(cudaMalloc(&rout, n * sizeof(float)));
    CK(cudaMalloc(&csum, n * sizeof(float)));
    CK(cudaMalloc(&iters, n * sizeof(int)));
    CK(cudaMalloc(&pos, n * sizeof(int)));
    CK(cudaMalloc(&tries, n * sizeof(int)));
    CK(cudaMalloc(&best, n * sizeof(int)));
    h4_fill_sorted<<<H4_TABLE / T, T>>>(table, 20u);
    h4_fill_next<<<H4_NODES / T, T>>>(next, H4_NODES);
    h4_fill_u32<<<G, T>>>(cap, 41u, 0u, 1u << 20);
    h4_fill_u32<<<G, T>>>(keys, 42u, 0u, 0xfffffff0u);
    h4_fill_u32<<<G, T>>>(seed, 43u, 0u, 1u << 30);
    h4_fill_u32<<<G, T>>>(qlen, 44u, 0u, 1u << 20);
    h4_fill_u32<<<G, T>>>(qseed, 45u, 0u, 1u << 30);
    h4_fill_u32<<<G, T>>>(start, 46u, 0u, 1u << 30);
    h4_fill_u32<<<H4_NODES / T, T>>>((unsigned*)val, 47u, 0x3f000000u, 0x00800000u);
    h4_mandel<<<G, T>>>(cap, iters, mag, 128, n / 128, 64);
    h4_bsearch<<<G, T>>>(keys, table, pos, span);
    h4_reject<<<G, T>>>(seed, rout, tries, 48);
    h4_align<<<G, T>>>(qlen, qseed, best);
    h4_chain<<<G, T>>>(start, next, val, csum, 32);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<int> h(n);
    CK(cudaMemcpy(h.data(), tries, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int k = 0; k < n; ++k) sum += h[k];
    printf("tries %lld\n", sum);
    return 0;
}
