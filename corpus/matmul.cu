// corpus/matmul.cu -- square SGEMM C = A*B: naive, naive with swapped thread roles, 16x16 tiled.
//
// geometry: fill_matrices grid=256,1,1 block=256,1,1
// geometry: matmul_naive grid=16,16,1 block=16,16,1
// geometry: matmul_naive_swapped grid=16,16,1 block=16,16,1
// geometry: matmul_tiled grid=16,16,1 block=16,16,1
// assume: n=256
//
// N = 256. A[i] = (i % 7) - 3, B[i] = (i % 5) - 2 (small integers: every summation order gives
// the same exact float result, so the three outputs must be bitwise identical). With 16x16 blocks
// a warp holds two rows (ty, ty+1) of 16 lanes.
//  - matmul_naive: row = by*16+ty, col = bx*16+tx. A[row*n+k]: 16 lanes share one address, the
//    warp touches 2 addresses (one per row): a broadcast, 2 sectors; B[k*n+col]: 16 consecutive
//    floats (64 bytes, both rows the same): coalesced; C[row*n+col]: 2 rows x 64 bytes = 4 aligned
//    sectors: coalesced. No expectations: the naive kernel wastes bandwidth through missing reuse,
//    not through uncoalesced requests.
//  - matmul_naive_swapped: the common bug of mapping threadIdx.x to the row: row = bx*16+tx,
//    col = by*16+ty. A[row*n+k]: 16 lanes n*4 = 1024 bytes apart: uncoalesced, definite.
//    B[k*n+col]: two adjacent floats per warp: fine. C[row*n+col]: lanes 1024 bytes apart:
//    uncoalesced, definite.
//  - matmul_tiled: As[ty][tx] = A[row*n + t*16+tx], Bs[ty][tx] = B[(t*16+ty)*n + col]: 2 rows x
//    64 bytes, coalesced. Inner product reads As[ty][k] (2 addresses, broadcast, different
//    banks) and Bs[k][tx] (16 consecutive words, both half-warps the same): no bank conflict.
//    No expectations.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define T 16

__global__ void fill_matrices(float* A, float* B)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    A[i] = (float)(i % 7 - 3);
    B[i] = (float)(i % 5 - 2);
}

__global__ void matmul_naive(const float* A, const float* B, float* C, int n)
{
    int row = blockIdx.y * T + threadIdx.y;
    int col = blockIdx.x * T + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < n; ++k) {
        acc += A[row * n + k] * B[k * n + col];
    }
    C[row * n + col] = acc;
}

__global__ void matmul_naive_swapped(const float* A, const float* B, float* C, int n)
{
    int row = blockIdx.x * T + threadIdx.x;
    int col = blockIdx.y * T + threadIdx.y;
    float acc = 0.0f;
    for (int k = 0; k < n; ++k) {
        float a = A[row * n + k]; // expect: uncoalesced-access definite
        acc += a * B[k * n + col];
    }
    C[row * n + col] = acc; // expect: uncoalesced-access definite
}

__global__ void matmul_tiled(const float* A, const float* B, float* C, int n)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty;
    int col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int t = 0; t < n / T; ++t) {
        As[ty][tx] = A[row * n + t * T + tx];
        Bs[ty][tx] = B[(t * T + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < T; ++k) {
            acc += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();
    }
    C[row * n + col] = acc;
}

int main()
{
    const int n = 256;
    float *d_A, *d_B, *d_C[3];
    CK(cudaMalloc(&d_A, n * n * sizeof(float)));
    CK(cudaMalloc(&d_B, n * n * sizeof(float)));
    for (int k = 0; k < 3; ++k) CK(cudaMalloc(&d_C[k], n * n * sizeof(float)));
    fill_matrices<<<n * n / 256, 256>>>(d_A, d_B);
    dim3 grid(n / T, n / T), block(T, T);
    matmul_naive<<<grid, block>>>(d_A, d_B, d_C[0], n);
    matmul_naive_swapped<<<grid, block>>>(d_A, d_B, d_C[1], n);
    matmul_tiled<<<grid, block>>>(d_A, d_B, d_C[2], n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<float> C[3];
    for (int k = 0; k < 3; ++k) {
        C[k].resize(n * n);
        CK(cudaMemcpy(C[k].data(), d_C[k], n * n * sizeof(float), cudaMemcpyDeviceToHost));
    }
    int bad = 0;
    double cs = 0.0;
    for (int r = 0; r < n; ++r) {
        for (int c = 0; c < n; ++c) {
            double ref = 0.0;
            for (int k = 0; k < n; ++k) ref += (double)((r * n + k) % 7 - 3) * (double)((k * n + c) % 5 - 2);
            float g0 = C[0][r * n + c];
            bad += (double)g0 != ref || C[1][r * n + c] != g0 || C[2][r * n + c] != g0;
            cs += g0 * (double)(((r * n + c) % 7) + 1);
        }
    }
    printf("matmul: C=%.6e mismatches=%d\n", cs, bad);
    return bad ? 1 : 0;
}
