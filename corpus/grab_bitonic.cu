// corpus/grab_bitonic.cu -- GRAB's bitonic-sort case study (paper 001, §5 RQ2): basic -> best, the
// step `warpscope cache` names for the basic version's top root cause.
//
// geometry: bitonic_basic grid=256,1,1 block=256,1,1
// geometry: bitonic_best grid=256,1,1 block=256,1,1
//
// 262144 float keys = 256 segments of SEG = 1024; each block sorts its segment ascending with a
// bitonic network, 256 threads doing two compare-exchanges each per (k, j) step: pair number
// p = t + 256 * r (r = 0, 1) exchanges lo = 2p - (p & (j - 1)) and hi = lo + j.
//  - bitonic_basic sorts the segment in place in global memory (a __syncthreads between steps):
//    every step re-reads all 4 KiB of the segment. With the 8 blocks resident per SM that is
//    32 KiB of lines the SM's L1 must keep across 55 steps.
//  - bitonic_best copies the segment into shared memory, sorts it there and writes it back
//    (GRAB's fix: "move this array into shared memory").
// For j = 1, lo = 2p and hi = 2p + 1: each load touches 8 sectors where 4 would do (stride 2,
// uncoalesced-access, definite: every k reaches j = 1); the stores run only where the keys say
// swap (possible). In shared memory the same stride is a 2-way bank conflict. The swap `if` is
// data dependent: divergent-branch possible.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define SEG 1024
#define THREADS 256
#define BLOCKS 256

__global__ void bitonic_basic(float* keys)
{
    float* seg = keys + blockIdx.x * SEG;
    for (unsigned k = 2; k <= SEG; k <<= 1) {
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
            for (unsigned p = threadIdx.x; p < SEG / 2; p += THREADS) {
                unsigned lo = 2 * p - (p & (j - 1));
                unsigned hi = lo + j;
                bool up = (lo & k) == 0;
                float a = seg[lo]; // expect: uncoalesced-access definite
                float b = seg[hi]; // expect: uncoalesced-access definite
                if ((a > b) == up) { // expect: divergent-branch possible
                    seg[lo] = b; // expect: uncoalesced-access possible
                    seg[hi] = a; // expect: uncoalesced-access possible
                }
            }
            __syncthreads();
        }
    }
}

__global__ void bitonic_best(float* keys)
{
    __shared__ float s[SEG];
    float* seg = keys + blockIdx.x * SEG;
    for (unsigned i = threadIdx.x; i < SEG; i += THREADS) s[i] = seg[i];
    __syncthreads();
    for (unsigned k = 2; k <= SEG; k <<= 1) {
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
            for (unsigned p = threadIdx.x; p < SEG / 2; p += THREADS) {
                unsigned lo = 2 * p - (p & (j - 1));
                unsigned hi = lo + j;
                bool up = (lo & k) == 0;
                float a = s[lo]; // expect: bank-conflict definite
                float b = s[hi]; // expect: bank-conflict definite
                if ((a > b) == up) { // expect: divergent-branch possible
                    s[lo] = b; // expect: bank-conflict possible
                    s[hi] = a; // expect: bank-conflict possible
                }
            }
            __syncthreads();
        }
    }
    for (unsigned i = threadIdx.x; i < SEG; i += THREADS) seg[i] = s[i];
}

int main()
{
    const int n = SEG * BLOCKS;
    std::vector<float> h(n);
    unsigned x = 12345;
    for (int i = 0; i < n; ++i) {
        x = x * 1664525u + 1013904223u;
        h[i] = (float)(x >> 8) / 16777216.0f;
    }
    float *d_a, *d_b;
    CK(cudaMalloc(&d_a, n * sizeof(float)));
    CK(cudaMalloc(&d_b, n * sizeof(float)));
    CK(cudaMemcpy(d_a, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_b, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    bitonic_basic<<<BLOCKS, THREADS>>>(d_a);
    bitonic_best<<<BLOCKS, THREADS>>>(d_b);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> a(n), b(n);
    CK(cudaMemcpy(a.data(), d_a, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b.data(), d_b, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int s = 0; s < BLOCKS; ++s) std::sort(h.begin() + s * SEG, h.begin() + (s + 1) * SEG);
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += a[i] != h[i] || b[i] != h[i];
    printf("grab_bitonic: mismatches=%d\n", bad);
    return bad ? 1 : 0;
}
