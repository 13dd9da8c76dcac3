// corpus/liang_heldout.cu -- divergent kernels held out from the design of `warpscope model`'s
// H100 throughput estimate (docs/accuracy.md, "held-out kernels"): written after the estimate
// was built, estimated and the estimates committed before any of them ran on the GPU. Shapes
// unlike corpus/liang.cu's:
//
// geometry: ho_fill_u32 grid=64,1,1 block=256,1,1
// geometry: ho_fill_f32 grid=64..1536,1,1 block=256,1,1
// geometry: ho_collatz grid=128,1,1 block=128,1,1
// geometry: ho_switch grid=64,1,1 block=256,1,1
// geometry: ho_walk grid=32,1,1 block=512,1,1
// geometry: ho_pair grid=64,1,1 block=256,1,1
// assume: n=16384
// assume: ho_collatz cap=512
// assume: ho_switch rounds=24
// assume: ho_walk width=24
// assume: ho_pair rounds=48
//
//  - ho_collatz: a Collatz-like integer loop per thread (x -> x/2 or 3x+1 until 1, at most
//    `cap` steps) from a loaded start value: trip counts from 1 to hundreds, integer only.
//  - ho_switch: a switch over a loaded key (8 cases), each case a different kind and amount of
//    arithmetic (fp32 polynomial, MUFU sine/exp, integer hashing, fp64, a short loop, nothing).
//  - ho_walk: a sparse-row walk whose data are coalesced (column-major slots, the weight
//    a small table every thread reads) and whose row lengths are loaded: regrouping the rows
//    makes the loads scattered, so a regrouping pays in memory what it saves in divergence.
//  - ho_pair: the same kernel launched twice, on classes grouped by warp (warp-uniform branch)
//    and per thread (divergent branch): the regrouped divergent launch should approach the
//    uniform one.
// The fill kernels are straight-line (no branch).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__host__ __device__ inline unsigned hmix(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// a[i] = lo + hash(i / group) % span: group 1 gives every thread its own value, group 32 one per
// warp
__global__ void ho_fill_u32(unsigned* a, unsigned seed, unsigned lo, unsigned span, unsigned group)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = lo + hmix((i / group) ^ seed) % span;
}

__global__ void ho_fill_f32(float* a, unsigned seed, float lo, float hi)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = lo + (hi - lo) * (float)(hmix(i ^ seed) >> 8) * (1.0f / 16777216.0f);
}

__global__ void ho_collatz(const unsigned* start, unsigned* steps, int cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = start[i];
    int k = 0;
    while (x != 1u && k < cap) { // expect: divergent-branch possible
        x = (x & 1u) ? 3u * x + 1u : x >> 1; // a select (no branch) in the PTX
        ++k;
    }
    steps[i] = (unsigned)k;
}

__global__ void ho_switch(const unsigned* key, const float* in, float* out, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    float r = 0.0f;
    switch (key[i] & 7u) { // expect: divergent-branch possible, uncoalesced-access definite
    case 0:
        for (int k = 0; k < rounds; ++k) r = fmaf(r, v, 0.5f) * 0.75f + v;
        break;
    case 1:
        for (int k = 0; k < rounds; ++k) r += __sinf(v + r) * __expf(-r * r);
        break;
    case 2: {
        unsigned h = __float_as_uint(v);
        for (int k = 0; k < rounds; ++k) h = hmix(h + (unsigned)k);
        r = (float)(h >> 8);
        break;
    }
    case 3: {
        double d = v;
        for (int k = 0; k < rounds / 4; ++k) d = fma(d, 0.999, 0.001 * k);
        r = (float)d;
        break;
    }
    case 4:
        r = v * 2.0f;
        break;
    case 5:
        for (int k = 0; k < 2 * rounds; ++k) r = fmaf(r, 0.5f, v);
        break;
    case 6:
        for (int k = 0; k < rounds / 2; ++k) r = sqrtf(fabsf(r) + v * v);
        break;
    default:
        r = -v;
        break;
    }
    out[i] = r;
}

__global__ void ho_walk(const unsigned* len, const float* val, const float* w, float* y, int n,
                        int width)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    int m = min((int)len[r], width);
    float s = 0.0f;
    for (int p = 0; p < m; ++p) { // expect: divergent-branch possible
        s = fmaf(val[p * n + r], w[p], s);
    }
    y[r] = s;
}

__global__ void ho_pair(const unsigned* cls, const float* in, float* out, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    float r = v;
    if (cls[i] & 1u) { // expect: divergent-branch possible
        for (int k = 0; k < rounds; ++k) r = fmaf(r, 0.999f, __sinf(r));
    } else {
        for (int k = 0; k < rounds; ++k) r = fmaf(r, r, -0.5f) * 0.5f;
    }
    out[i] = r;
}

int main()
{
    const int n = 16384, T = 256, G = n / T;
    unsigned *start, *steps, *key, *len, *cls_warp, *cls_thread;
    float *in, *out, *val, *w, *y, *pw, *pt;
    CK(cudaMalloc(&start, n * sizeof(unsigned)));
    CK(cudaMalloc(&steps, n * sizeof(unsigned)));
    CK(cudaMalloc(&key, n * sizeof(unsigned)));
    CK(cudaMalloc(&len, n * sizeof(unsigned)));
    CK(cudaMalloc(&cls_warp, n * sizeof(unsigned)));
    CK(cudaMalloc(&cls_thread, n * sizeof(unsigned)));
    CK(cudaMalloc(&in, n * sizeof(float)));
    CK(cudaMalloc(&out, n * sizeof(float)));
    CK(cudaMalloc(&val, 24 * n * sizeof(float)));
    CK(cudaMalloc(&w, 32 * sizeof(float)));
    CK(cudaMalloc(&y, n * sizeof(float)));
    CK(cudaMalloc(&pw, n * sizeof(float)));
    CK(cudaMalloc(&pt, n * sizeof(float)));
    ho_fill_u32<<<G, T>>>(start, 11u, 1u, 65535u, 1u);
    ho_fill_u32<<<G, T>>>(key, 12u, 0u, 8u, 1u);
    ho_fill_u32<<<G, T>>>(len, 13u, 0u, 25u, 1u);
    ho_fill_u32<<<G, T>>>(cls_warp, 14u, 0u, 2u, 32u);
    ho_fill_u32<<<G, T>>>(cls_thread, 15u, 0u, 2u, 1u);
    ho_fill_f32<<<G, T>>>(in, 16u, -1.0f, 1.0f);
    ho_fill_f32<<<24 * G, T>>>(val, 17u, -1.0f, 1.0f);
    ho_fill_f32<<<1, 32>>>(w, 18u, 0.0f, 1.0f);
    ho_collatz<<<n / 128, 128>>>(start, steps, 512);
    ho_switch<<<G, T>>>(key, in, out, 24);
    ho_walk<<<n / 512, 512>>>(len, val, w, y, n, 24);
    ho_pair<<<G, T>>>(cls_warp, in, pw, 48);
    ho_pair<<<G, T>>>(cls_thread, in, pt, 48);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<unsigned> h(n);
    CK(cudaMemcpy(h.data(), steps, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (unsigned v : h) {
        if (v > 512) { fprintf(stderr, "bad step count %u\n", v); return 1; }
        sum += v;
    }
    printf("liang_heldout checksum %lld\n", sum);
    return 0;
}
