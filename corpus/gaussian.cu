// corpus/gaussian.cu -- Gaussian elimination in the shape of GPUCheck's gaussian case study
// (figure 11): Fan1 computes the multipliers of column t (one thread per row), Fan2 updates the
// trailing matrix with a 2-D grid whose x dimension walks ROWS (the uncoalesced layout the paper
// reports).
//
// geometry: fill_system grid=16,1,1 block=256,1,1
// geometry: fan1 grid=1,1,1 block=64,1,1
// geometry: fan2 grid=4,4,1 block=16,16,1
// assume: size=64
// assume: t=0..62
// (main launches fan1(t) then fan2(t) for every t in 0..62)
//
// size = 64, a is row-major size x size, diagonally dominant (a[i][i] = 2*size, off-diagonal
// ((7i + 3j) % 10) * 0.1), b[i] = i % 5. The host back-substitutes and checks the residual.
//  - fill_system: the diagonal test `(r == c) ? .. : ..` is compiled to a real branch (the other
//    arm has an integer remainder): one lane in some warps takes it: divergent, definite.
//    `if (i < size)` covers exactly warps 0-1 of block 0: uniform.
//  - fan1 `if (r >= size - 1 - t) return;`: 64 threads, 63 - t rows in range: for every t the
//    cut falls inside a warp except t = 31 (32 rows: exactly warp 0): divergent, definite.
//  - fan1 m[row*size + t] and a[row*size + t]: lanes walk a column, size*4 = 256 bytes apart:
//    uncoalesced, definite (GPUCheck's Fan1 line 72). a[t*size + t] is one address: broadcast.
//  - fan2: xidx (threadIdx.x) picks the row, yidx (threadIdx.y) the column. The two early
//    returns of the paper's version are written as one condition because nvcc merges them into a
//    single branch anyway (or.pred): `xidx >= size-1-t` cuts the 16 lanes of a row for most t, and
//    `yidx >= size - t` cuts between the two threadIdx.y rows of a warp when size - t is odd:
//    divergent, definite.
//    a[row*size + col] (load and store) and m[row*size + t]: lanes 256 bytes apart:
//    uncoalesced, definite (GPUCheck's Fan2 lines 80-81). a[t*size + col]: two addresses per warp,
//    broadcast: none.
//  - `if (yidx == 0)`: true for the threadIdx.y == 0 half of warp 0 in blockIdx.y == 0 blocks:
//    divergent, definite. In it b[row] (row = xidx + 1 + t: 16 consecutive floats) is coalesced
//    but starts at a t-dependent offset (misaligned for most t): misaligned, definite; m[row*size
//    + t] again column-strided: uncoalesced, definite (GPUCheck's line 85).
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void fill_system(float* a, float* b, float* m, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int r = i / size, c = i % size;
    a[i] = (r == c) ? 2.0f * (float)size : (float)((7 * r + 3 * c) % 10) * 0.1f; // expect: divergent-branch definite
    m[i] = 0.0f;
    if (i < size) b[i] = (float)(i % 5);
}

__global__ void fan1(const float* a, float* m, int size, int t)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= size - 1 - t) return; // expect: divergent-branch definite
    int row = t + 1 + r;
    m[row * size + t] = a[row * size + t] / a[t * size + t]; // expect: uncoalesced-access definite
}

__global__ void fan2(float* a, float* b, const float* m, int size, int t)
{
    int xidx = blockIdx.x * blockDim.x + threadIdx.x;
    int yidx = blockIdx.y * blockDim.y + threadIdx.y;
    if (xidx >= size - 1 - t || yidx >= size - t) return; // expect: divergent-branch definite
    int row = xidx + 1 + t;
    int col = yidx + t;
    a[row * size + col] -= m[row * size + t] * a[t * size + col]; // expect: uncoalesced-access definite
    if (yidx == 0) { // expect: divergent-branch definite
        b[row] -= m[row * size + t] * b[t]; // expect: uncoalesced-access definite, misaligned-access definite
    }
}

int main()
{
    const int size = 64, n = size * size;
    float *d_a, *d_b, *d_m;
    CK(cudaMalloc(&d_a, n * sizeof(float)));
    CK(cudaMalloc(&d_b, size * sizeof(float)));
    CK(cudaMalloc(&d_m, n * sizeof(float)));
    fill_system<<<n / 256, 256>>>(d_a, d_b, d_m, size);
    for (int t = 0; t < size - 1; ++t) {
        fan1<<<1, 64>>>(d_a, d_m, size, t);
        fan2<<<dim3(4, 4), dim3(16, 16)>>>(d_a, d_b, d_m, size, t);
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> a(n), b(size), m(n);
    CK(cudaMemcpy(a.data(), d_a, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b.data(), d_b, size * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(m.data(), d_m, n * sizeof(float), cudaMemcpyDeviceToHost));
    // back substitution on the upper-triangular result, then residual against the original system
    std::vector<double> x(size);
    for (int r = size - 1; r >= 0; --r) {
        double s = b[r];
        for (int c = r + 1; c < size; ++c) s -= (double)a[r * size + c] * x[c];
        x[r] = s / a[r * size + r];
    }
    double res = 0.0, cs = 0.0;
    for (int r = 0; r < size; ++r) {
        double s = 0.0;
        for (int c = 0; c < size; ++c)
            s += ((r == c) ? 2.0 * size : (double)((float)((7 * r + 3 * c) % 10) * 0.1f)) * x[c];
        res = fmax(res, fabs(s - (double)(r % 5)));
    }
    for (int i = 0; i < n; ++i) cs += (double)a[i] * ((i % 7) + 1) + (double)m[i];
    int bad = res > 1e-3;
    printf("gaussian: a=%.6e max_residual=%.3e %s\n", cs, res, bad ? "FAIL" : "ok");
    return bad;
}
