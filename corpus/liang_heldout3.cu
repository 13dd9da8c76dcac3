// corpus/liang_heldout3.cu -- a third set of divergent kernels held out from the design of
// `warpscope model`'s H100 throughput estimate (docs/accuracy.md, "third held-out test"): written
// after the estimate's third version (ptxas's instruction mix, per-request local sectors, the
// measured local-memory curve); its estimates were committed before any of these kernels ran on a
// GPU. Kinds not in corpus/liang*.cu before:
//
// geometry: h3_fill_u32 grid=64,1,1 block=256,1,1
// geometry: h3_gcd grid=64,1,1 block=256,1,1
// geometry: h3_rows grid=64,1,1 block=256,1,1
// geometry: h3_emit grid=64,1,1 block=256,1,1
// geometry: h3_tiles grid=64,1,1 block=256,1,1
// geometry: h3_mixed grid=64,1,1 block=256,1,1
// assume: n=16384
//
//  - h3_gcd: Euclid's algorithm on a loaded number of hashed pairs per thread: a while loop whose
//    exit depends on the data (the remainder reaching zero), an integer remainder per step.
//  - h3_rows: a sparse-row walk with per-row lengths (loaded): each entry's column comes from a
//    hash of (row, entry), its value is gathered from a small table that stays in the L1, the
//    product accumulated with a decay; row-major per thread.
//  - h3_emit: marching-cubes-like variable vertex emission: 8 corner samples (hashed) against an
//    iso level give a case, a per-case vertex count from a __constant__ table, and one
//    interpolated vertex per count written out at vertex-major positions (coalesced per vertex).
//  - h3_tiles: shared-memory tiles: the block stages 256 points in shared memory; each thread
//    scans a tile for points within its own radius and leaves the tile as soon as it has found
//    K of them (a data-dependent exit inside a barrier-delimited loop over tiles).
//  - h3_mixed: mixed fp32 and integer work: each of a loaded number of steps takes an integer
//    (LCG and xor-shift) or a floating-point (fma chain and __sinf) path by a bit of the state.
// The fill kernel is straight-line (no branch).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__host__ __device__ inline unsigned h3mix(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

__global__ void h3_fill_u32(unsigned* a, unsigned seed, unsigned lo, unsigned span)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = lo + h3mix(i ^ seed) % span;
}

__global__ void h3_gcd(const unsigned* cnt, unsigned* g, int* steps, int maxpairs)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int pairs = 1 + (int)(cnt[i] % (unsigned)maxpairs);
    unsigned acc = 0u;
    int k = 0;
    for (int p = 0; p < pairs; ++p) { // expect: divergent-branch possible
        unsigned x = (h3mix((unsigned)i * 131u + (unsigned)p) >> 8) | 1u;
        unsigned y = (h3mix((unsigned)i * 137u + (unsigned)p + 7u) >> 12) | 1u;
        while (y != 0u) { // expect: divergent-branch possible
            unsigned r = x % y;
            x = y;
            y = r;
            ++k;
        }
        acc += x;
    }
    g[i] = acc;
    steps[i] = k;
}

#define H3_TABLE 2048

__global__ void h3_rows(const unsigned* len, const float* table, float* y, int maxlen)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    int m = (int)(len[r] % (unsigned)(maxlen + 1));
    float acc = 0.0f;
    unsigned h = h3mix((unsigned)r);
    for (int j = 0; j < m; ++j) { // expect: divergent-branch possible
        h = h * 1664525u + 1013904223u;
        unsigned col = (h >> 8) % H3_TABLE;
        float v = (float)(h & 0xffu) * (1.0f / 256.0f);
        acc = fmaf(acc, 0.999f, v * table[col]); // expect: uncoalesced-access possible
    }
    y[r] = acc;
}

__constant__ int h3_case_verts[16] = {0, 3, 3, 6, 3, 6, 6, 9, 3, 6, 6, 9, 6, 9, 9, 12};

#define H3_MAXV 15

__global__ void h3_emit(const float* iso, float* vx, int* nv, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float level = iso[i];
    float c[8];
    unsigned cs = 0u;
#pragma unroll
    for (int k = 0; k < 8; ++k) {
        c[k] = (float)(h3mix((unsigned)i * 8u + (unsigned)k) >> 8) * (1.0f / 16777216.0f);
        cs |= (c[k] < level ? 1u : 0u) << k;
    }
    int count = h3_case_verts[cs & 15u] + (__popc(cs >> 4) > 2 ? 3 : 0);
    for (int v = 0; v < count; ++v) { // expect: divergent-branch possible
        int a = (v * 5 + (int)cs) & 7, b = (a + 1 + (v & 3)) & 7;
        float t = (level - c[a]) / (c[b] - c[a] + 1e-6f);
        t = fminf(fmaxf(t, 0.0f), 1.0f);
        vx[v * n + i] = (float)(a & 1) + t * (float)((b & 1) - (a & 1)) + 0.5f * (float)(a >> 1) * t;
    }
    nv[i] = count;
}

#define H3_TILE 256
#define H3_K 12

__global__ void h3_tiles(const unsigned* seed, const float* radius, int* found, int tiles)
{
    __shared__ float px[H3_TILE], py[H3_TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    float qx = (float)(h3mix(s) >> 8) * (1.0f / 16777216.0f);
    float qy = (float)(h3mix(s + 1u) >> 8) * (1.0f / 16777216.0f);
    float r2 = radius[i] * radius[i];
    int total = 0;
    for (int t = 0; t < tiles; ++t) {
        unsigned hp = h3mix((unsigned)(t * H3_TILE + threadIdx.x) * 2654435761u);
        px[threadIdx.x] = (float)(hp >> 8) * (1.0f / 16777216.0f);
        py[threadIdx.x] = (float)(h3mix(hp) >> 8) * (1.0f / 16777216.0f);
        __syncthreads();
        int got = 0;
        for (int k = 0; k < H3_TILE && got < H3_K; ++k) { // expect: divergent-branch possible
            float dx = px[k] - qx, dy = py[k] - qy;
            got += (dx * dx + dy * dy < r2) ? 1 : 0;
        }
        total += got;
        __syncthreads();
    }
    found[i] = total;
}

__global__ void h3_mixed(const unsigned* cnt, unsigned* iout, float* fout, int maxsteps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int m = (int)(cnt[i] % (unsigned)(maxsteps + 1));
    unsigned h = h3mix((unsigned)i ^ 0x5bd1e995u);
    float f = (float)(h & 0xffffu) * (1.0f / 65536.0f);
    unsigned acc = 0u;
    for (int k = 0; k < m; ++k) { // expect: divergent-branch possible
        if (h & 1u) { // expect: divergent-branch possible
            h = h * 1664525u + 1013904223u;
            acc ^= h >> 7;
            acc += acc << 3;
        } else {
            f = fmaf(f, 1.0001f, 0.25f);
            f = f - __sinf(f) * 0.5f;
            h = (h >> 1) ^ (h << 5) ^ (unsigned)k;
        }
    }
    iout[i] = acc;
    fout[i] = f;
}

int main()
{
    const int n = 16384, T = 256, G = n / T;
    unsigned *cnt, *len, *seed, *gout, *iout;
    float *table, *y, *iso, *vx, *radius, *fout;
    int *steps, *nv, *found;
    CK(cudaMalloc(&cnt, n * sizeof(unsigned)));
    CK(cudaMalloc(&len, n * sizeof(unsigned)));
    CK(cudaMalloc(&seed, n * sizeof(unsigned)));
    CK(cudaMalloc(&gout, n * sizeof(unsigned)));
    CK(cudaMalloc(&iout, n * sizeof(unsigned)));
    CK(cudaMalloc(&table, H3_TABLE * sizeof(float)));
    CK(cudaMalloc(&y, n * sizeof(float)));
    CK(cudaMalloc(&iso, n * sizeof(float)));
    CK(cudaMalloc(&vx, H3_MAXV * n * sizeof(float)));
    CK(cudaMalloc(&radius, n * sizeof(float)));
    CK(cudaMalloc(&fout, n * sizeof(float)));
    CK(cudaMalloc(&steps, n * sizeof(int)));
    CK(cudaMalloc(&nv, n * sizeof(int)));
    CK(cudaMalloc(&found, n * sizeof(int)));
    h3_fill_u32<<<G, T>>>(cnt, 31u, 0u, 1u << 20);
    h3_fill_u32<<<G, T>>>(len, 32u, 0u, 1u << 20);
    h3_fill_u32<<<G, T>>>(seed, 33u, 0u, 1u << 30);
    h3_fill_u32<<<H3_TABLE / T, T>>>((unsigned*)table, 34u, 0x3f000000u, 0x00800000u);
    h3_fill_u32<<<G, T>>>((unsigned*)iso, 35u, 0x3e800000u, 0x00800000u);
    h3_fill_u32<<<G, T>>>((unsigned*)radius, 36u, 0x3d800000u, 0x01800000u);
    h3_gcd<<<G, T>>>(cnt, gout, steps, 2);
    h3_rows<<<G, T>>>(len, table, y, 16);
    h3_emit<<<G, T>>>(iso, vx, nv, n);
    h3_tiles<<<G, T>>>(seed, radius, found, 1);
    h3_mixed<<<G, T>>>(cnt, iout, fout, 16);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<int> h(n);
    CK(cudaMemcpy(h.data(), nv, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int v : h) {
        if (v < 0 || v > H3_MAXV) { fprintf(stderr, "bad vertex count %d\n", v); return 1; }
        sum += v;
    }
    printf("liang_heldout3 checksum %lld\n", sum);
    return 0;
}
