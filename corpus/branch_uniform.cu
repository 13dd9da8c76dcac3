// corpus/branch_uniform.cu -- branches that depend on thread/block ids but are warp-uniform
// (negative cases: a real PTX branch, never divergent at the stated geometry).
//
// geometry: first_warp_only grid=256,1,1 block=256,1,1
// geometry: odd_blocks grid=256,1,1 block=256,1,1
// geometry: warp_parity grid=256,1,1 block=256,1,1
// geometry: mode_switch grid=256,1,1 block=256,1,1
// geometry: rows_of_32x8 grid=256,1,1 block=32,8,1
// assume: mode=2
//
// n = 65536 = 256 * 256, no guards. None of these branches diverges:
//  - `threadIdx.x / 32 == 0`: the warp index; whole warps agree. No expectation.
//  - `blockIdx.x % 2`: block-uniform. No expectation.
//  - `(threadIdx.x >> 5) & 1` (warp id parity): warp-uniform. No expectation.
//  - `mode == 2`: kernel parameter, grid-uniform. No expectation.
//  - rows_of_32x8: `threadIdx.y < 4` with a 32x8 block: each warp is exactly one row (one y), so
//    it is warp-uniform even though it depends on a thread index. No expectation.
// Each branch has different loads on its two sides so nvcc keeps a real `@p bra`.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void first_warp_only(const float* a, const float* b, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x / 32 == 0) {
        out[i] = a[i] * 2.0f;
    } else {
        out[i] = b[i] + 1.0f;
    }
}

__global__ void odd_blocks(const float* a, const float* b, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x % 2) {
        out[i] = a[i] - b[i];
    } else {
        out[i] = b[i] * 0.5f;
    }
}

__global__ void warp_parity(const float* a, const float* b, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int warp = threadIdx.x >> 5;
    if (warp & 1) {
        out[i] = a[i] + 10.0f;
    } else {
        out[i] = b[i] * 3.0f;
    }
}

__global__ void mode_switch(const float* a, const float* b, float* out, int mode)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (mode == 2) {
        out[i] = a[i] * a[i];
    } else {
        out[i] = b[i];
    }
}

__global__ void rows_of_32x8(const float* a, const float* b, float* out)
{
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int i = blockIdx.x * 256 + t;
    if (threadIdx.y < 4) {
        out[i] = a[i] + 0.5f;
    } else {
        out[i] = b[i] - 0.5f;
    }
}

static double checksum(const std::vector<float>& v)
{
    double s = 0.0;
    for (size_t i = 0; i < v.size(); ++i) s += (double)v[i] * (double)((i % 7) + 1);
    return s;
}

int main()
{
    const int n = 65536;
    std::vector<float> ha(n), hb(n);
    for (int i = 0; i < n; ++i) { ha[i] = (float)i; hb[i] = 3.0f; }  // spec: iota / constant 3.0
    float *d_a, *d_b, *d_o[5];
    CK(cudaMalloc(&d_a, n * sizeof(float)));
    CK(cudaMalloc(&d_b, n * sizeof(float)));
    for (int k = 0; k < 5; ++k) CK(cudaMalloc(&d_o[k], n * sizeof(float)));
    CK(cudaMemcpy(d_a, ha.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_b, hb.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    first_warp_only<<<256, 256>>>(d_a, d_b, d_o[0]);
    odd_blocks<<<256, 256>>>(d_a, d_b, d_o[1]);
    warp_parity<<<256, 256>>>(d_a, d_b, d_o[2]);
    mode_switch<<<256, 256>>>(d_a, d_b, d_o[3], 2);
    rows_of_32x8<<<256, dim3(32, 8)>>>(d_a, d_b, d_o[4]);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    printf("branch_uniform:");
    for (int k = 0; k < 5; ++k) {
        std::vector<float> o(n);
        CK(cudaMemcpy(o.data(), d_o[k], n * sizeof(float), cudaMemcpyDeviceToHost));
        printf(" out%d=%.6e", k, checksum(o));
    }
    printf("\n");
    return 0;
}
