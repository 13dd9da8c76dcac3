// corpus/branch_tid.cu -- branches whose condition depends on threadIdx.x within a warp.
//
// geometry: odd_even grid=256,1,1 block=256,1,1
// geometry: first_half_warp grid=256,1,1 block=256,1,1
// geometry: single_lane grid=256,1,1 block=256,1,1
// geometry: half_warps grid=256,1,1 block=256,1,1
// geometry: half_block grid=256,1,1 block=256,1,1
// geometry: rows_of_16x16 grid=256,1,1 block=16,16,1
//
// n = 65536 = 256 blocks * 256 threads, no guards. Branch bodies do different memory work on each
// side so nvcc keeps a real branch (checked in the PTX: each expectation line holds an `@p bra`).
//  - `threadIdx.x % 2`: odd and even lanes split in every warp: divergent, definite.
//    Inside each arm only every other lane is active, so out[i], a[i], b[i], aux[i] there are
//    stride-2 accesses for the active lanes: 4 sectors for 64 useful bytes (ideal 2):
//    uncoalesced, definite (confirmed by Nsight Compute's L2 excessive-sector counter).
//  - `threadIdx.x < 16`: lanes 0-15 of warp 0 of each block vs lanes 16-31: divergent, definite
//    (only warp 0 diverges; the other 7 warps are uniformly false).
//  - `(threadIdx.x & 31) == 5`: one lane per warp: divergent, definite.
//  - `(threadIdx.x / 16) % 2 == 0`: half-warps: divergent, definite. In the else arm the upper
//    16 lanes read b[i + 7]: 64 contiguous bytes starting 28 bytes into a sector, 3 sectors for 2:
//    misaligned, definite. Accesses by a contiguous half-warp (a[i], b[i]) are fine.
//  - `threadIdx.x < blockDim.x / 2`: 128 with block 256, a multiple of 32: warp-uniform, no
//    expectation (needs the geometry to prove).
//  - rows_of_16x16: `threadIdx.y % 2` with a 16x16 block: a warp holds rows y and y+1, so it is
//    divergent, definite, although the condition does not mention threadIdx.x.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void odd_even(const float* a, const float* b, float* out, float* aux)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x % 2) { // expect: divergent-branch definite
        out[i] = a[i] * 3.0f + 1.0f; // expect: uncoalesced-access definite
    } else {
        out[i] = b[i] * 0.5f; // expect: uncoalesced-access definite
        aux[i] = b[i] - a[i]; // expect: uncoalesced-access definite
    }
}

__global__ void first_half_warp(const float* a, float* out, float* aux)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    if (threadIdx.x < 16) { // expect: divergent-branch definite
        aux[i] = v * v;
    }
    out[i] = v + 1.0f;
}

__global__ void single_lane(const float* a, float* out, float* aux)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    if ((threadIdx.x & 31) == 5) { // expect: divergent-branch definite
        aux[i / 32] = v;
        out[i] = v * 2.0f;
    } else {
        out[i] = v;
    }
}

__global__ void half_warps(const float* a, const float* b, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float r;
    if ((threadIdx.x / 16) % 2 == 0) { // expect: divergent-branch definite
        r = a[i] + b[i];
    } else {
        r = a[i] - b[(i + 7) & 65535]; // expect: misaligned-access definite
    }
    out[i] = r;
}

__global__ void half_block(const float* a, const float* b, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < blockDim.x / 2) {
        out[i] = a[i] * 2.0f;
    } else {
        out[i] = b[i] + 1.0f;
    }
}

__global__ void rows_of_16x16(const float* a, const float* b, float* out)
{
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int i = blockIdx.x * 256 + t;
    if (threadIdx.y % 2) { // expect: divergent-branch definite
        out[i] = a[i] * 4.0f;
    } else {
        out[i] = b[i] * 0.25f;
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
    float *d_a, *d_b, *d_o[6], *d_aux[3];
    CK(cudaMalloc(&d_a, n * sizeof(float)));
    CK(cudaMalloc(&d_b, n * sizeof(float)));
    for (int k = 0; k < 6; ++k) { CK(cudaMalloc(&d_o[k], n * sizeof(float))); CK(cudaMemset(d_o[k], 0, n * sizeof(float))); }
    for (int k = 0; k < 3; ++k) { CK(cudaMalloc(&d_aux[k], n * sizeof(float))); CK(cudaMemset(d_aux[k], 0, n * sizeof(float))); }
    CK(cudaMemcpy(d_a, ha.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_b, hb.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    odd_even<<<256, 256>>>(d_a, d_b, d_o[0], d_aux[0]);
    first_half_warp<<<256, 256>>>(d_a, d_o[1], d_aux[1]);
    single_lane<<<256, 256>>>(d_a, d_o[2], d_aux[2]);
    half_warps<<<256, 256>>>(d_a, d_b, d_o[3]);
    half_block<<<256, 256>>>(d_a, d_b, d_o[4]);
    rows_of_16x16<<<256, dim3(16, 16)>>>(d_a, d_b, d_o[5]);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    printf("branch_tid:");
    for (int k = 0; k < 6; ++k) {
        std::vector<float> o(n);
        CK(cudaMemcpy(o.data(), d_o[k], n * sizeof(float), cudaMemcpyDeviceToHost));
        printf(" out%d=%.6e", k, checksum(o));
    }
    for (int k = 0; k < 3; ++k) {
        std::vector<float> o(n);
        CK(cudaMemcpy(o.data(), d_aux[k], n * sizeof(float), cudaMemcpyDeviceToHost));
        printf(" aux%d=%.6e", k, checksum(o));
    }
    printf("\n");
    return 0;
}
