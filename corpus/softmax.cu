// corpus/softmax.cu -- row softmax with one warp per row (max and sum by shuffles, __expf), and a
// causal (lower-triangular) variant whose per-lane loop length depends on the row.
//
// geometry: fill_logits grid=256,1,1 block=256,1,1
// geometry: softmax_warp grid=64,1,1 block=256,1,1
// geometry: softmax_causal grid=64,1,1 block=256,1,1
//
// 512 rows x 128 columns; logits[i] = ((i * 13) % 29) * 0.25 - 3 (fill_logits). 8 warps per block,
// warp w of block b handles row 8b + w; lane l handles columns l, l+32, l+64, l+96.
//  - softmax_warp: four coalesced loads per lane (one aligned 128-byte run per request), max and
//    sum with __shfl_xor_sync, __expf, one division, four coalesced stores. The k loop is fully
//    unrolled. No expectations.
//  - softmax_causal: row r attends to columns 0..min(r, 127). `for (j = lane; j <= last; j += 32)`
//    gives lanes different trip counts whenever (last + 1) % 32 != 0: divergent, definite (both
//    the max and the sum loop). The output loop `for (j = lane; j < COLS; j += 32)` is uniform (4
//    trips); inside it `if (j <= last)` computes the probability or leaves 0 (masked): it splits
//    the warp in the same way: divergent, definite.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define COLS 128

__global__ void fill_logits(float* x)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = (float)((i * 13) % 29) * 0.25f - 3.0f;
}

__global__ void softmax_warp(const float* x, float* y)
{
    int lane = threadIdx.x & 31;
    int row = blockIdx.x * 8 + (threadIdx.x >> 5);
    const float* xr = x + row * COLS;
    float v[4];
    float m = -INFINITY;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        v[k] = xr[lane + 32 * k];
        m = fmaxf(m, v[k]);
    }
    for (int s = 16; s > 0; s >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, s));
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        v[k] = __expf(v[k] - m);
        sum += v[k];
    }
    for (int s = 16; s > 0; s >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, s);
    float inv = 1.0f / sum;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        y[row * COLS + lane + 32 * k] = v[k] * inv;
    }
}

__global__ void softmax_causal(const float* x, float* y)
{
    int lane = threadIdx.x & 31;
    int row = blockIdx.x * 8 + (threadIdx.x >> 5);
    int last = min(row, COLS - 1);
    const float* xr = x + row * COLS;
    float m = -INFINITY;
    for (int j = lane; j <= last; j += 32) { // expect: divergent-branch definite
        m = fmaxf(m, xr[j]);
    }
    for (int s = 16; s > 0; s >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, s));
    float sum = 0.0f;
    for (int j = lane; j <= last; j += 32) { // expect: divergent-branch definite
        sum += __expf(xr[j] - m);
    }
    for (int s = 16; s > 0; s >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, s);
    float inv = 1.0f / sum;
    for (int j = lane; j < COLS; j += 32) {
        float p = 0.0f;
        if (j <= last) { // expect: divergent-branch definite
            p = __expf(xr[j] - m) * inv;
        }
        y[row * COLS + j] = p;
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
    const int rows = 512, n = rows * COLS;
    float *d_x, *d_y1, *d_y2;
    CK(cudaMalloc(&d_x, n * sizeof(float)));
    CK(cudaMalloc(&d_y1, n * sizeof(float)));
    CK(cudaMalloc(&d_y2, n * sizeof(float)));
    fill_logits<<<n / 256, 256>>>(d_x);
    softmax_warp<<<rows / 8, 256>>>(d_x, d_y1);
    softmax_causal<<<rows / 8, 256>>>(d_x, d_y2);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> y1(n), y2(n);
    CK(cudaMemcpy(y1.data(), d_y1, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(y2.data(), d_y2, n * sizeof(float), cudaMemcpyDeviceToHost));
    double worst = 0.0;
    for (int r = 0; r < rows; ++r) {
        double s1 = 0.0, s2 = 0.0;
        for (int c = 0; c < COLS; ++c) { s1 += y1[r * COLS + c]; s2 += y2[r * COLS + c]; }
        worst = fmax(worst, fmax(fabs(s1 - 1.0), fabs(s2 - 1.0)));
    }
    printf("softmax: y=%.6e causal=%.6e worst_row_sum_error=%.3e\n", checksum(y1), checksum(y2), worst);
    return worst > 1e-4;
}
