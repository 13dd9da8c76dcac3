// corpus/atomics_index.cu -- atomics whose returned value is used (thread-dependent values that
// do not come from threadIdx): stream compaction through atomicAdd, and a float max built on an
// atomicCAS retry loop.
//
// geometry: fill_values grid=256,1,1 block=256,1,1
// geometry: compact_positive grid=256,1,1 block=256,1,1
// geometry: block_max_cas grid=256,1,1 block=256,1,1
//
// n = 65536; fill_values writes v[i] = ((i * 37 + 11) % 101) - 50 (about half positive).
//  - compact_positive: `if (x > 0)` is data dependent: divergent, possible. pos = atomicAdd(count,
//    1) hands out slots in an order the hardware chooses; out[pos] / src[pos] use that returned
//    value as an index: uncoalesced, possible (lanes of a warp usually get consecutive slots, but
//    nothing guarantees it). The ORDER of `out`/`src` is nondeterministic: compare them as a set
//    of (src, out) pairs, not bitwise (main() sorts before checking; the spec says so too).
//    `count` itself is deterministic.
//  - block_max_cas: atomic max of a float through atomicCAS: the retry loop `while (assumed !=
//    old)` runs as long as other threads win the race: divergent, possible; so does the early
//    exit `if (__int_as_float(assumed) >= val) break;`: divergent, possible. The per-bucket
//    maxima are deterministic.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <utility>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void fill_values(float* v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    v[i] = (float)((i * 37 + 11) % 101 - 50);
}

__global__ void compact_positive(const float* v, float* out, int* src, int* count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = v[i];
    if (x > 0.0f) { // expect: divergent-branch possible
        int pos = atomicAdd(count, 1);
        out[pos] = x * 2.0f; // expect: uncoalesced-access possible
        src[pos] = i; // expect: uncoalesced-access possible
    }
}

__device__ __forceinline__ void atomic_max_float(float* addr, float val)
{
    int* a = reinterpret_cast<int*>(addr);
    int old = *reinterpret_cast<volatile int*>(a);  // relaxed read: no data race with the CAS
    int assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= val) break; // expect: divergent-branch possible
        old = atomicCAS(a, assumed, __float_as_int(val));
    } while (assumed != old); // expect: divergent-branch possible
}

__global__ void block_max_cas(const float* v, float* bmax)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = v[i] + (float)(blockIdx.x % 9);
    atomic_max_float(&bmax[blockIdx.x % 16], x);
}

int main()
{
    const int n = 65536;
    float *d_v, *d_out, *d_bmax;
    int *d_src, *d_count;
    CK(cudaMalloc(&d_v, n * sizeof(float)));
    CK(cudaMalloc(&d_out, n * sizeof(float)));
    CK(cudaMalloc(&d_src, n * sizeof(int)));
    CK(cudaMalloc(&d_count, sizeof(int)));
    CK(cudaMalloc(&d_bmax, 16 * sizeof(float)));
    CK(cudaMemset(d_out, 0, n * sizeof(float)));
    CK(cudaMemset(d_src, 0, n * sizeof(int)));
    CK(cudaMemset(d_count, 0, sizeof(int)));
    std::vector<float> init(16, -1000.0f);   // spec: { constant = -1000.0 }
    CK(cudaMemcpy(d_bmax, init.data(), 16 * sizeof(float), cudaMemcpyHostToDevice));

    fill_values<<<256, 256>>>(d_v);
    compact_positive<<<256, 256>>>(d_v, d_out, d_src, d_count);
    block_max_cas<<<256, 256>>>(d_v, d_bmax);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    int count = 0;
    std::vector<float> out(n), bmax(16);
    std::vector<int> src(n);
    CK(cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(src.data(), d_src, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(bmax.data(), d_bmax, 16 * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0, expect_count = 0;
    for (int i = 0; i < n; ++i) expect_count += ((i * 37 + 11) % 101 - 50) > 0;
    bad += count != expect_count;
    std::vector<std::pair<int, float>> pairs;
    for (int k = 0; k < count && k < n; ++k) pairs.push_back({src[k], out[k]});
    std::sort(pairs.begin(), pairs.end());
    int k = 0;
    for (int i = 0; i < n; ++i) {
        float x = (float)((i * 37 + 11) % 101 - 50);
        if (x > 0.0f) {
            bad += k >= (int)pairs.size() || pairs[k].first != i || pairs[k].second != x * 2.0f;
            ++k;
        }
    }
    double cs = 0.0;
    for (int b = 0; b < 16; ++b) {
        float m = -1000.0f;
        for (int blk = b; blk < 256; blk += 16)
            for (int t = 0; t < 256; ++t) {
                int i = blk * 256 + t;
                m = std::max(m, (float)((i * 37 + 11) % 101 - 50) + (float)(blk % 9));
            }
        bad += bmax[b] != m;
        cs += bmax[b] * (b + 1);
    }
    printf("atomics_index: count=%d maxima=%.6e mismatches=%d\n", count, cs, bad);
    return bad ? 1 : 0;
}
