// corpus/bitonic.cu -- bitonic sort of 256-key segments in shared memory, two formulations.
//
// geometry: fill_keys grid=256,1,1 block=256,1,1
// geometry: bitonic_naive grid=256,1,1 block=256,1,1
// geometry: bitonic_pairs grid=256,1,1 block=128,1,1
//
// 65536 keys = 256 segments of 256; each block sorts one segment ascending in shared memory.
// fill_keys makes keys[i] = ((i * 7919) % 10007) * 0.5 (distinct-ish, no NaNs).
//  - bitonic_naive: one thread per key; at each (k, j) step thread t pairs with p = t ^ j and acts
//    only if p > t. For j < 32 that splits every warp (e.g. j = 1: even lanes act, odd lanes
//    idle): divergent, definite. Whether to swap depends on the keys: `if (swap)` is data
//    dependent: divergent, possible. Shared accesses s[t] and s[t ^ j] hit 32 distinct banks per
//    warp (t ^ j permutes lanes within an aligned group of 32, or moves whole warps): no conflict.
//  - bitonic_pairs: one thread per compare-exchange pair (128 threads), no idle threads and a
//    branch-free min/max exchange, but the pair index lo = 2*t - (t & (j-1)) is strided for small
//    j: j = 1 gives lo = 2t (stride 2 words: two lanes per bank, 2-way conflict) and hi = lo + 1
//    (also stride 2): bank-conflict, definite, on the lines that read and write s[lo] / s[hi].
//    For j >= 32, lo is contiguous within a warp and conflict-free.
// The k/j loops have uniform trip counts.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define SEG 256

__global__ void fill_keys(float* keys)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    keys[i] = (float)((i * 7919) % 10007) * 0.5f;
}

__global__ void bitonic_naive(const float* keys, float* sorted)
{
    __shared__ float s[SEG];
    unsigned t = threadIdx.x;
    unsigned base = blockIdx.x * SEG;
    s[t] = keys[base + t];
    __syncthreads();
    for (unsigned k = 2; k <= SEG; k <<= 1) {
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
            unsigned p = t ^ j;
            if (p > t) { // expect: divergent-branch definite
                float a = s[t];
                float b = s[p];
                bool ascending = (t & k) == 0;
                bool swap = ascending ? (a > b) : (a < b);
                if (swap) { // expect: divergent-branch possible
                    s[t] = b;
                    s[p] = a;
                }
            }
            __syncthreads();
        }
    }
    sorted[base + t] = s[t];
}

__global__ void bitonic_pairs(const float* keys, float* sorted)
{
    __shared__ float s[SEG];
    unsigned t = threadIdx.x;
    unsigned base = blockIdx.x * SEG;
    s[t] = keys[base + t];
    s[t + SEG / 2] = keys[base + t + SEG / 2];
    __syncthreads();
    for (unsigned k = 2; k <= SEG; k <<= 1) {
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
            unsigned lo = 2 * t - (t & (j - 1));
            unsigned hi = lo + j;
            float a = s[lo]; // expect: bank-conflict definite
            float b = s[hi]; // expect: bank-conflict definite
            bool ascending = (lo & k) == 0;
            float mn = fminf(a, b);
            float mx = fmaxf(a, b);
            s[lo] = ascending ? mn : mx; // expect: bank-conflict definite
            s[hi] = ascending ? mx : mn; // expect: bank-conflict definite
            __syncthreads();
        }
    }
    sorted[base + t] = s[t];
    sorted[base + t + SEG / 2] = s[t + SEG / 2];
}

int main()
{
    const int n = 65536;
    float *d_keys, *d_a, *d_b;
    CK(cudaMalloc(&d_keys, n * sizeof(float)));
    CK(cudaMalloc(&d_a, n * sizeof(float)));
    CK(cudaMalloc(&d_b, n * sizeof(float)));
    fill_keys<<<256, 256>>>(d_keys);
    bitonic_naive<<<256, 256>>>(d_keys, d_a);
    bitonic_pairs<<<256, 128>>>(d_keys, d_b);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<float> keys(n), a(n), b(n);
    CK(cudaMemcpy(keys.data(), d_keys, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(a.data(), d_a, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b.data(), d_b, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int seg = 0; seg < n / SEG; ++seg) {
        std::sort(keys.begin() + seg * SEG, keys.begin() + (seg + 1) * SEG);
    }
    double cs = 0.0;
    for (int i = 0; i < n; ++i) {
        bad += a[i] != keys[i];
        bad += b[i] != keys[i];
        cs += (double)a[i] * (double)((i % 7) + 1);
    }
    printf("bitonic: sorted=%.6e mismatches=%d\n", cs, bad);
    return bad ? 1 : 0;
}
