// corpus/gemv.cu -- matrix-vector products on a 1024 x 256 row-major matrix: one thread per row
// (uncoalesced), one warp per row (coalesced, shuffle reduction), and the transposed product with
// one thread per column (coalesced).
//
// geometry: fill_gemv grid=1024,1,1 block=256,1,1
// geometry: gemv_row_per_thread grid=8,1,1 block=128,1,1
// geometry: gemv_warp_per_row grid=128,1,1 block=256,1,1
// geometry: gemv_t_col_per_thread grid=2,1,1 block=128,1,1
// assume: rows=1024 cols=256
//
// A[r][c] = ((r * 3 + c * 7) % 11) - 5, x[c] = (c % 4) - 1.5, u[r] = (r % 3) - 1 (fill_gemv).
//  - gemv_row_per_thread: A[r*cols + j] with one row per lane: lanes 1024 bytes apart, 32 sectors
//    per request: uncoalesced, definite. x[j] is a broadcast. The j loop is uniform.
//  - gemv_warp_per_row: 8 warps per block, warp w takes row blockIdx.x*8 + w; lane l reads
//    A[r*cols + l + 32k] (k = 0..7): one aligned 128-byte run per request: coalesced. x[l + 32k]:
//    coalesced. Shuffle-xor reduction, then `if (lane == 0)` writes y[r]: divergent, definite.
//  - gemv_t_col_per_thread: y_t[c] = sum_r A[r*cols + c] * u[r]: lanes read consecutive columns:
//    coalesced; u[r] broadcast.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void fill_gemv(float* A, float* x, float* u, int rows, int cols)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int r = i / cols, c = i % cols;
    A[i] = (float)((r * 3 + c * 7) % 11 - 5);
    if (i < cols) x[i] = (float)(i % 4) - 1.5f;
    if (i < rows) u[i] = (float)(i % 3 - 1);
}

__global__ void gemv_row_per_thread(const float* A, const float* x, float* y, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int j = 0; j < cols; ++j) {
        acc += A[r * cols + j] * x[j]; // expect: uncoalesced-access definite
    }
    y[r] = acc;
}

__global__ void gemv_warp_per_row(const float* A, const float* x, float* y, int cols)
{
    int lane = threadIdx.x & 31;
    int r = blockIdx.x * (blockDim.x / 32) + (threadIdx.x >> 5);
    float acc = 0.0f;
    for (int j = lane; j < cols; j += 32) {
        acc += A[r * cols + j] * x[j];
    }
    for (int m = 16; m > 0; m >>= 1) {
        acc += __shfl_xor_sync(0xffffffffu, acc, m);
    }
    if (lane == 0) { // expect: divergent-branch definite
        y[r] = acc;
    }
}

__global__ void gemv_t_col_per_thread(const float* A, const float* u, float* yt, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int r = 0; r < rows; ++r) {
        acc += A[r * cols + c] * u[r];
    }
    yt[c] = acc;
}

int main()
{
    const int rows = 1024, cols = 256;
    float *d_A, *d_x, *d_u, *d_y1, *d_y2, *d_yt;
    CK(cudaMalloc(&d_A, rows * cols * sizeof(float)));
    CK(cudaMalloc(&d_x, cols * sizeof(float)));
    CK(cudaMalloc(&d_u, rows * sizeof(float)));
    CK(cudaMalloc(&d_y1, rows * sizeof(float)));
    CK(cudaMalloc(&d_y2, rows * sizeof(float)));
    CK(cudaMalloc(&d_yt, cols * sizeof(float)));
    fill_gemv<<<rows * cols / 256, 256>>>(d_A, d_x, d_u, rows, cols);
    gemv_row_per_thread<<<rows / 128, 128>>>(d_A, d_x, d_y1, cols);
    gemv_warp_per_row<<<rows / 8, 256>>>(d_A, d_x, d_y2, cols);
    gemv_t_col_per_thread<<<cols / 128, 128>>>(d_A, d_u, d_yt, rows, cols);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> y1(rows), y2(rows), yt(cols);
    CK(cudaMemcpy(y1.data(), d_y1, rows * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(y2.data(), d_y2, rows * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(yt.data(), d_yt, cols * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    double cs = 0.0;
    for (int r = 0; r < rows; ++r) {
        double ref = 0.0;
        for (int c = 0; c < cols; ++c) ref += (double)((r * 3 + c * 7) % 11 - 5) * ((c % 4) - 1.5);
        bad += (double)y1[r] != ref || (double)y2[r] != ref;
        cs += ref * ((r % 7) + 1);
    }
    for (int c = 0; c < cols; ++c) {
        double ref = 0.0;
        for (int r = 0; r < rows; ++r) ref += (double)((r * 3 + c * 7) % 11 - 5) * (double)(r % 3 - 1);
        bad += (double)yt[c] != ref;
    }
    printf("gemv: y=%.6e mismatches=%d\n", cs, bad);
    return bad ? 1 : 0;
}
