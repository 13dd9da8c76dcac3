// corpus/bounds.cu -- boundary checks and early returns, with and without a partial last warp.
//
// geometry: bounds_exact grid=4,1,1 block=256,1,1
// geometry: bounds_partial grid=4,1,1 block=256,1,1
// geometry: bounds_warp_multiple grid=4,1,1 block=256,1,1
// geometry: early_return_partial grid=4,1,1 block=256,1,1
// geometry: bounds_2d_partial grid=7,7,1 block=16,16,1
// geometry: bounds_2d_exact grid=8,8,1 block=16,8,1
// assume: bounds_exact n=1024
// assume: bounds_partial n=1000
// assume: bounds_warp_multiple n=992
// assume: early_return_partial n=1000
// assume: bounds_2d_partial w=100 h=100
// assume: bounds_2d_exact w=128 h=64
//
// All 1-D launches use 4 blocks * 256 threads = 1024 threads (ids 0..1023).
//  - bounds_exact, n = 1024: every thread passes `i < n`: uniform, no expectation.
//  - bounds_partial, n = 1000: warp 31 (ids 992..1023) has 8 lanes in range and 24 out: that one
//    warp diverges: divergent, definite.
//  - bounds_warp_multiple, n = 992 = 31*32: the grid over-covers n but the boundary falls between
//    warps (ids 992..1023 are one whole warp, all out): no divergence, no expectation.
//  - early_return_partial, n = 1000: `if (i >= n) return;` splits warp 31 the same way: definite.
//  - bounds_2d_partial: a 100x100 image with 16x16 blocks on a 7x7 grid (112x112 threads). In
//    blocks with blockIdx.x == 6, x runs 96..111, so each 16-lane row splits 4 in / 12 out:
//    divergent, definite. Its rows are 100 floats = 400 bytes apart (400 mod 32 = 16), so in every
//    warp the odd row's 64-byte piece starts mid-sector: 5 sectors instead of 4 for the load and the
//    store (dense runs): misaligned, definite.
//  - bounds_2d_exact: a 128x64 image with 16x8 blocks on an 8x8 grid: exact, no expectation;
//    512-byte rows keep every access aligned.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void bounds_exact(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * 2.0f + 1.0f;
    }
}

__global__ void bounds_partial(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { // expect: divergent-branch definite
        out[i] = in[i] * 2.0f + 1.0f;
    }
}

__global__ void bounds_warp_multiple(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * 2.0f + 1.0f;
    }
}

__global__ void early_return_partial(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return; // expect: divergent-branch definite
    float v = in[i];
    out[i] = v * v - 1.0f;
}

__global__ void bounds_2d_partial(const float* img, float* out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) { // expect: divergent-branch definite
        out[y * w + x] = img[y * w + x] * 0.5f; // expect: misaligned-access definite
    }
}

__global__ void bounds_2d_exact(const float* img, float* out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        out[y * w + x] = img[y * w + x] * 0.5f;
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
    const int img_len = 128 * 100;
    std::vector<float> hin(img_len);
    for (int i = 0; i < img_len; ++i) hin[i] = (float)i;  // spec: iota
    float *d_in, *d_o[6];
    CK(cudaMalloc(&d_in, img_len * sizeof(float)));
    for (int k = 0; k < 6; ++k) { CK(cudaMalloc(&d_o[k], img_len * sizeof(float))); CK(cudaMemset(d_o[k], 0, img_len * sizeof(float))); }
    CK(cudaMemcpy(d_in, hin.data(), img_len * sizeof(float), cudaMemcpyHostToDevice));

    bounds_exact<<<4, 256>>>(d_in, d_o[0], 1024);
    bounds_partial<<<4, 256>>>(d_in, d_o[1], 1000);
    bounds_warp_multiple<<<4, 256>>>(d_in, d_o[2], 992);
    early_return_partial<<<4, 256>>>(d_in, d_o[3], 1000);
    bounds_2d_partial<<<dim3(7, 7), dim3(16, 16)>>>(d_in, d_o[4], 100, 100);
    bounds_2d_exact<<<dim3(8, 8), dim3(16, 8)>>>(d_in, d_o[5], 128, 64);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    printf("bounds:");
    for (int k = 0; k < 6; ++k) {
        std::vector<float> o(img_len);
        CK(cudaMemcpy(o.data(), d_o[k], img_len * sizeof(float), cudaMemcpyDeviceToHost));
        printf(" out%d=%.6e", k, checksum(o));
    }
    printf("\n");
    return 0;
}
