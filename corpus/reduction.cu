// corpus/reduction.cu -- block sum reductions, from the naive interleaved version to shuffles.
//
// geometry: fill_mod17 grid=1024,1,1 block=256,1,1
// geometry: reduce_divergent grid=1024,1,1 block=256,1,1
// geometry: reduce_strided_index grid=1024,1,1 block=256,1,1
// geometry: reduce_sequential grid=1024,1,1 block=256,1,1
// geometry: reduce_shfl grid=512,1,1 block=256,1,1
//
// n = 262144 inputs with value (i % 17), written by fill_mod17 (small integers, so every summation order gives the same
// exact float result and the four kernels can be compared bit for bit). Each block writes one
// partial sum; reduce_shfl adds two inputs per thread on load, so it uses half the blocks.
//  - reduce_divergent: `if (t % (2*s) == 0)`: for s = 1 only even lanes work, etc.: divergent,
//    definite. Its shared accesses sdata[t], sdata[t + s] by the active lanes stay within one
//    32-word window per warp, so they are conflict-free (no bank-conflict expectation).
//  - reduce_strided_index: idx = 2*s*t, `if (idx < blockDim.x)`: for s = 1, 2, 4 the cut falls on
//    warp boundaries, for s >= 8 (t < 16, 8, ...) inside warp 0: divergent, definite. The accesses
//    sdata[idx], sdata[idx + s] have a stride of 2*s words: s = 1 is 2-way, s = 2 4-way, ...,
//    s = 16 is 32-way bank conflict: definite.
//  - reduce_sequential: `if (t < s)` with s = 128, 64, 32 (warp-uniform), then 16, 8, 4, 2, 1
//    (inside warp 0): divergent, definite. sdata[t + s] is contiguous: no conflict.
//  - reduce_shfl: the shared loop stops at s = 32 (`t < s` warp-uniform, no expectation); warp 0
//    (`t < 32`, uniform) finishes with __shfl_down_sync: no divergence, no shared traffic.
//  - every kernel ends with `if (t == 0) partial[blockIdx.x] = ...`: lane 0 alone in warp 0:
//    divergent, definite (nvcc keeps a real branch around the store here).
// All global loads in[i], in[i + blockDim.x] are coalesced; one store per block.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define BLOCK 256

__global__ void fill_mod17(float* in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    in[i] = (float)(i % 17);
}

__global__ void reduce_divergent(const float* in, float* partial)
{
    __shared__ float sdata[BLOCK];
    unsigned t = threadIdx.x;
    sdata[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (t % (2 * s) == 0) { // expect: divergent-branch definite
            sdata[t] += sdata[t + s];
        }
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = sdata[0]; // expect: divergent-branch definite
}

__global__ void reduce_strided_index(const float* in, float* partial)
{
    __shared__ float sdata[BLOCK];
    unsigned t = threadIdx.x;
    sdata[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        unsigned idx = 2 * s * t;
        if (idx < blockDim.x) { // expect: divergent-branch definite
            sdata[idx] += sdata[idx + s]; // expect: bank-conflict definite
        }
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = sdata[0]; // expect: divergent-branch definite
}

__global__ void reduce_sequential(const float* in, float* partial)
{
    __shared__ float sdata[BLOCK];
    unsigned t = threadIdx.x;
    sdata[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) { // expect: divergent-branch definite
            sdata[t] += sdata[t + s];
        }
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = sdata[0]; // expect: divergent-branch definite
}

__global__ void reduce_shfl(const float* in, float* partial)
{
    __shared__ float sdata[BLOCK];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * (2 * blockDim.x) + t;
    sdata[t] = in[i] + in[i + blockDim.x];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s >= 32; s >>= 1) {
        if (t < s) {
            sdata[t] += sdata[t + s];
        }
        __syncthreads();
    }
    if (t < 32) {
        float v = sdata[t];
        for (int off = 16; off > 0; off >>= 1) {
            v += __shfl_down_sync(0xffffffffu, v, off);
        }
        if (t == 0) partial[blockIdx.x] = v; // expect: divergent-branch definite
    }
}

int main()
{
    const int n = 262144;
    std::vector<float> hin(n);
    for (int i = 0; i < n; ++i) hin[i] = (float)(i % 17);
    float *d_in, *d_p[4];
    CK(cudaMalloc(&d_in, n * sizeof(float)));
    for (int k = 0; k < 4; ++k) CK(cudaMalloc(&d_p[k], 1024 * sizeof(float)));

    fill_mod17<<<1024, 256>>>(d_in);
    reduce_divergent<<<1024, 256>>>(d_in, d_p[0]);
    reduce_strided_index<<<1024, 256>>>(d_in, d_p[1]);
    reduce_sequential<<<1024, 256>>>(d_in, d_p[2]);
    reduce_shfl<<<512, 256>>>(d_in, d_p[3]);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    double expect = 0.0;
    for (int i = 0; i < n; ++i) expect += hin[i];
    int bad = 0;
    printf("reduction:");
    for (int k = 0; k < 4; ++k) {
        int nb = k == 3 ? 512 : 1024;
        std::vector<float> p(nb);
        CK(cudaMemcpy(p.data(), d_p[k], nb * sizeof(float), cudaMemcpyDeviceToHost));
        double tot = 0.0;
        for (int b = 0; b < nb; ++b) tot += p[b];
        bad += tot != expect;
        printf(" sum%d=%.1f", k, tot);
    }
    printf(" expected=%.1f mismatches=%d\n", expect, bad);
    return bad ? 1 : 0;
}
