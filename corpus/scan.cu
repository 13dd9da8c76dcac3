// corpus/scan.cu -- block-wide prefix sums: Hillis-Steele (inclusive, float) and Blelloch
// (work-efficient, exclusive, int, dynamic shared memory).
//
// geometry: fill_scan_inputs grid=512,1,1 block=256,1,1
// geometry: scan_hillis_steele grid=512,1,1 block=256,1,1
// geometry: scan_blelloch grid=256,1,1 block=256,1,1 shared_bytes=2048
//
// 131072 elements. Hillis-Steele scans 256-element segments (one per block), Blelloch 512-element
// segments (two per thread). Inputs are small integers (fin[i] = i % 3, iin[i] = i % 5) so the
// float scan is exact.
//  - Hillis-Steele: `if (t >= off)` for off = 1, 2, 4, 8, 16 splits warp 0 (lanes < off copy,
//    the others add); for off >= 32 it is warp-uniform: divergent, definite. The double buffer
//    reads buf[cur][t] and buf[cur][t - off] (contiguous per warp): no bank conflict.
//  - Blelloch up-sweep and down-sweep: `if (t < d)` with d going below 32: divergent, definite.
//    Indices ai = off*(2t+1)-1, bi = off*(2t+2)-1 have a stride of 2*off words between lanes:
//    off = 1 is a 2-way conflict, off = 16 a 32-way one: bank-conflict, definite, on every line
//    that touches temp[ai] / temp[bi].
//  - `if (t == 0) temp[2 * BLOCK - 1] = 0;`: lane 0 alone: divergent, definite.
// Global loads/stores are all contiguous per warp (coalesced).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define BLOCK 256

__global__ void fill_scan_inputs(float* fin, int* iin)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    fin[i] = (float)(i % 3);
    iin[i] = i % 5;
}

__global__ void scan_hillis_steele(const float* in, float* out)
{
    __shared__ float buf[2][BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    int cur = 0;
    buf[0][t] = in[i];
    __syncthreads();
    for (int off = 1; off < BLOCK; off <<= 1) {
        int nxt = 1 - cur;
        if (t >= off) { // expect: divergent-branch definite
            buf[nxt][t] = buf[cur][t] + buf[cur][t - off];
        } else {
            buf[nxt][t] = buf[cur][t];
        }
        cur = nxt;
        __syncthreads();
    }
    out[i] = buf[cur][t];
}

__global__ void scan_blelloch(const int* in, int* out)
{
    extern __shared__ int temp[];
    int t = threadIdx.x;
    int base = blockIdx.x * 2 * BLOCK;
    temp[t] = in[base + t];
    temp[t + BLOCK] = in[base + t + BLOCK];
    int off = 1;
    for (int d = BLOCK; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) { // expect: divergent-branch definite
            int ai = off * (2 * t + 1) - 1;
            int bi = off * (2 * t + 2) - 1;
            temp[bi] += temp[ai]; // expect: bank-conflict definite
        }
        off *= 2;
    }
    if (t == 0) temp[2 * BLOCK - 1] = 0; // expect: divergent-branch definite
    for (int d = 1; d < 2 * BLOCK; d *= 2) {
        off >>= 1;
        __syncthreads();
        if (t < d) { // expect: divergent-branch definite
            int ai = off * (2 * t + 1) - 1;
            int bi = off * (2 * t + 2) - 1;
            int v = temp[ai]; // expect: bank-conflict definite
            temp[ai] = temp[bi]; // expect: bank-conflict definite
            temp[bi] += v; // expect: bank-conflict definite
        }
    }
    __syncthreads();
    out[base + t] = temp[t];
    out[base + t + BLOCK] = temp[t + BLOCK];
}

int main()
{
    const int n = 131072;
    float *d_fin, *d_fout;
    int *d_iin, *d_iout;
    CK(cudaMalloc(&d_fin, n * sizeof(float)));
    CK(cudaMalloc(&d_fout, n * sizeof(float)));
    CK(cudaMalloc(&d_iin, n * sizeof(int)));
    CK(cudaMalloc(&d_iout, n * sizeof(int)));
    fill_scan_inputs<<<512, 256>>>(d_fin, d_iin);
    scan_hillis_steele<<<512, 256>>>(d_fin, d_fout);
    scan_blelloch<<<256, 256, 2 * BLOCK * sizeof(int)>>>(d_iin, d_iout);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<float> fout(n);
    std::vector<int> iout(n);
    CK(cudaMemcpy(fout.data(), d_fout, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(iout.data(), d_iout, n * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    double cf = 0.0, ci = 0.0;
    float run = 0.0f;
    int irun = 0;
    for (int i = 0; i < n; ++i) {
        if (i % BLOCK == 0) run = 0.0f;
        run += (float)(i % 3);
        bad += fout[i] != run;
        if (i % (2 * BLOCK) == 0) irun = 0;
        bad += iout[i] != irun;
        irun += i % 5;
        cf += (double)fout[i] * ((i % 7) + 1);
        ci += (double)iout[i] * ((i % 7) + 1);
    }
    printf("scan: hillis_steele=%.6e blelloch=%.6e mismatches=%d\n", cf, ci, bad);
    return bad ? 1 : 0;
}
