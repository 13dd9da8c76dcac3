// corpus/grab_matmul.cu -- GRAB's matrix-multiply case study (paper 001, §5 RQ2): basic -> modified
// -> best, each step the fix `warpscope cache` names for the previous version's top root cause.
//
// geometry: fill_ab grid=256,1,1 block=256,1,1
// geometry: matmul_basic grid=16,16,1 block=16,16,1
// geometry: matmul_modified grid=16,16,1 block=16,16,1
// geometry: matmul_best grid=16,16,1 block=16,16,1
//
// C = A x B for 256 x 256 floats, one thread per element of C.
//  - matmul_basic accumulates into C[row][col] in global memory through a helper that is not
//    inlined, so every iteration re-loads and re-stores C. The reloads miss when the other warps'
//    A and B lines evict C's line between two iterations (GRAB: "the multiplication result is
//    repeatedly being written to the global-memory").
//  - matmul_modified keeps the running sum in a register and stores C once (GRAB's first fix).
//    The remaining misses are A's and B's lines, re-read by other warps after the resident
//    blocks' working set (8 blocks x 48 KiB per SM with the spec's SM count) overflowed the L1.
//  - matmul_best stages 16 x 16 tiles of A and B in shared memory (GRAB's second fix).
// All global accesses are row-contiguous across threadIdx.x (16 lanes, 64 bytes, two rows per
// warp): no static expectations beyond the tiled kernel's shared reads, which are conflict-free.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define N 256
#define TILE 16

__global__ void fill_ab(float* a, float* b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = (float)(i % 7) - 3.0f;
    b[i] = (float)(i % 5) - 2.0f;
}

// A helper that accumulates into memory: not inlined, so every call re-loads the element.
__device__ __noinline__ void accumulate(float* dst, float v)
{
    *dst += v;
}

__global__ void matmul_basic(const float* a, const float* b, float* c)
{
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    c[row * N + col] = 0.0f;
    for (int k = 0; k < N; ++k) {
        accumulate(&c[row * N + col], a[row * N + k] * b[k * N + col]);
    }
}

__global__ void matmul_modified(const float* a, const float* b, float* c)
{
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < N; ++k) {
        sum += a[row * N + k] * b[k * N + col];
    }
    c[row * N + col] = sum;
}

__global__ void matmul_best(const float* a, const float* b, float* c)
{
    __shared__ float ta[TILE][TILE];
    __shared__ float tb[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < N; t += TILE) {
        ta[ty][tx] = a[row * N + t + tx];
        tb[ty][tx] = b[(t + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            sum += ta[ty][k] * tb[k][tx];
        }
        __syncthreads();
    }
    c[row * N + col] = sum;
}

static double checksum(const std::vector<float>& v)
{
    double s = 0.0;
    for (size_t i = 0; i < v.size(); ++i) s += v[i] * (double)((i % 13) + 1);
    return s;
}

int main()
{
    const int n = N * N;
    float *d_a, *d_b, *d_c1, *d_c2, *d_c3;
    CK(cudaMalloc(&d_a, n * sizeof(float)));
    CK(cudaMalloc(&d_b, n * sizeof(float)));
    CK(cudaMalloc(&d_c1, n * sizeof(float)));
    CK(cudaMalloc(&d_c2, n * sizeof(float)));
    CK(cudaMalloc(&d_c3, n * sizeof(float)));
    fill_ab<<<n / 256, 256>>>(d_a, d_b);
    dim3 grid(N / TILE, N / TILE), block(TILE, TILE);
    matmul_basic<<<grid, block>>>(d_a, d_b, d_c1);
    matmul_modified<<<grid, block>>>(d_a, d_b, d_c2);
    matmul_best<<<grid, block>>>(d_a, d_b, d_c3);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> c1(n), c2(n), c3(n);
    CK(cudaMemcpy(c1.data(), d_c1, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(c2.data(), d_c2, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(c3.data(), d_c3, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += c1[i] != c2[i] || c2[i] != c3[i];
    printf("grab_matmul: basic=%.6e modified=%.6e best=%.6e mismatches=%d\n", checksum(c1),
           checksum(c2), checksum(c3), bad);
    return bad ? 1 : 0;
}
