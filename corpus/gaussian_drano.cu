// corpus/gaussian_drano.cu -- GPUDrano's Fan2 example (figure 2a/2b): the original 1-D kernel in
// which each thread owns a ROW and loops over columns (uncoalesced), and the fix in which each
// thread owns a COLUMN and loops over rows (coalesced). Both pipelines eliminate the same system
// on separate copies; the results must be bitwise identical (same operations per element).
//
// geometry: fill_pair grid=16,1,1 block=256,1,1
// geometry: drano_fan1 grid=1,1,1 block=64,1,1
// geometry: fan2_rows grid=1,1,1 block=64,1,1
// geometry: fan2_cols grid=1,1,1 block=64,1,1
// assume: n=64
// assume: t=0..62
// (main runs drano_fan1(t), fan2_rows(t) on copy 1 for every t in 0..62, then drano_fan1(t),
// fan2_cols(t) on copy 2 for every t)
//
// n = 64; A is row-major n x n (diagonally dominant), B has n entries, M holds multipliers.
//  - fill_pair: `if (r == c)` is thread dependent (one lane of some warps) but nvcc if-converts
//    it (selp), so the PTX has no branch there: no expectation.
//  - drano_fan1: one thread per row below t: `if (tid + t + 1 >= n)` cuts warp 0 or 1 for every
//    t except t = 31: divergent, definite. M[n*x + t] and A[n*x + t] walk a column (256 bytes per
//    lane): uncoalesced, definite.
//  - fan2_rows (figure 2a): `if (tid + t + 1 >= n) return;` as above: divergent, definite. The
//    y loop has a uniform trip count. A[xy] = A[n*x + y] and M[xt] = M[n*x + t] put lanes n*4 =
//    256 bytes apart: uncoalesced, definite (GPUDrano's two reports). A[ty] is one address for
//    the warp (broadcast). `if (y == t)` depends only on the loop variable: uniform. In it,
//    B[x] (x = tid + t + 1, contiguous but t+1 floats off) is misaligned for most t, and M[xt] is
//    column-strided again: uncoalesced, definite and misaligned, definite on that line.
//  - fan2_cols (figure 2b, the fix): y = tid + t, so A[xy] = A[n*x + tid + t] is contiguous across
//    lanes: no longer uncoalesced. It starts t floats into the row, so for t % 8 != 0 the warp's
//    run straddles a sector boundary: misaligned, definite (the fix trades the column stride for
//    a small alignment cost; GPUDrano does not model alignment). Same for A[ty]. M[xt] is now a
//    broadcast. `if (tid + t >= n)` cuts warp 1 (and warp 0 for t > 32): divergent, definite.
//    `if (y == t)` is true for tid 0 only: divergent, definite.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void fill_pair(float* A1, float* A2, float* B1, float* B2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int r = i / n, c = i % n;
    float v = (float)((5 * r + 11 * c) % 13) * 0.125f;
    if (r == c) v += 4.0f * (float)n; // (thread dependent, but nvcc emits selp: no PTX branch, no expectation)
    A1[i] = v;
    A2[i] = v;
    if (i < n) { // (i < 64: warps 0-1 of block 0, uniform)
        B1[i] = (float)(i % 7);
        B2[i] = (float)(i % 7);
    }
}

__global__ void drano_fan1(const float* A, float* M, int n, int t)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid + t + 1 >= n) return; // expect: divergent-branch definite
    int x = tid + t + 1;
    M[n * x + t] = A[n * x + t] / A[n * t + t]; // expect: uncoalesced-access definite
}

__global__ void fan2_rows(float* A, float* B, const float* M, int n, int t)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid + t + 1 >= n) return; // expect: divergent-branch definite
    int x = tid + t + 1;
    for (int y = t; y < n; y++) {
        int xt = n * x + t;
        int xy = n * x + y;
        int ty = n * t + y;
        A[xy] -= M[xt] * A[ty]; // expect: uncoalesced-access definite
        if (y == t)
            B[x] -= M[xt] * B[t]; // expect: uncoalesced-access definite, misaligned-access definite
    }
}

__global__ void fan2_cols(float* A, float* B, const float* M, int n, int t)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid + t >= n) return; // expect: divergent-branch definite
    int y = tid + t;
    for (int x = t + 1; x < n; x++) {
        int xt = n * x + t;
        int xy = n * x + y;
        int ty = n * t + y;
        A[xy] -= M[xt] * A[ty]; // expect: misaligned-access definite
        if (y == t) // expect: divergent-branch definite
            B[x] -= M[xt] * B[t];
    }
}

int main()
{
    const int n = 64, nn = n * n;
    float *d_A1, *d_A2, *d_B1, *d_B2, *d_M1, *d_M2;
    CK(cudaMalloc(&d_A1, nn * sizeof(float)));
    CK(cudaMalloc(&d_A2, nn * sizeof(float)));
    CK(cudaMalloc(&d_M1, nn * sizeof(float)));
    CK(cudaMalloc(&d_M2, nn * sizeof(float)));
    CK(cudaMalloc(&d_B1, n * sizeof(float)));
    CK(cudaMalloc(&d_B2, n * sizeof(float)));
    CK(cudaMemset(d_M1, 0, nn * sizeof(float)));
    CK(cudaMemset(d_M2, 0, nn * sizeof(float)));
    fill_pair<<<nn / 256, 256>>>(d_A1, d_A2, d_B1, d_B2, n);
    for (int t = 0; t < n - 1; ++t) {
        drano_fan1<<<1, 64>>>(d_A1, d_M1, n, t);
        fan2_rows<<<1, 64>>>(d_A1, d_B1, d_M1, n, t);
    }
    for (int t = 0; t < n - 1; ++t) {
        drano_fan1<<<1, 64>>>(d_A2, d_M2, n, t);
        fan2_cols<<<1, 64>>>(d_A2, d_B2, d_M2, n, t);
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> A1(nn), A2(nn), B1(n), B2(n);
    CK(cudaMemcpy(A1.data(), d_A1, nn * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(A2.data(), d_A2, nn * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(B1.data(), d_B1, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(B2.data(), d_B2, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    double cs = 0.0;
    for (int i = 0; i < nn; ++i) { bad += A1[i] != A2[i]; cs += (double)A1[i] * ((i % 7) + 1); }
    for (int i = 0; i < n; ++i) { bad += B1[i] != B2[i]; cs += B1[i]; }
    printf("gaussian_drano: A=%.6e rows_vs_cols_mismatches=%d\n", cs, bad);
    return bad ? 1 : 0;
}
