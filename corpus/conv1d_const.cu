// corpus/conv1d_const.cu -- 9-tap 1-D convolution with the taps in __constant__ memory (statically
// initialised, so no cudaMemcpyToSymbol is needed and the PTX carries the values), a direct
// version that reads shifted windows from global memory, and a shared-memory tile with halo.
//
// geometry: fill_signal grid=256,1,1 block=256,1,1
// geometry: conv_direct grid=256,1,1 block=256,1,1
// geometry: conv_shared grid=256,1,1 block=256,1,1
// geometry: conv_taps_by_lane grid=256,1,1 block=256,1,1
// assume: n=65536
//
// n = 65536, in[i] = i % 13 written by fill_signal (integers: the two convolutions agree bitwise; both sum the taps in
// the same order), R = 4 (taps -4..4).
//  - conv_direct: in[j] with j = clamp(i + k - R, 0, n-1) for k = 0..8 (unrolled, one source line):
//    for every k != R the warp's 128-byte run is shifted by a non-multiple of 32 bytes (k - R in
//    -4..4 floats): misaligned, definite. taps[k] is a uniform constant load (ld.const).
//  - conv_shared: tile[R + t] = in[i]; the halo `if (t < R)` (lanes 0-3 of warp 0) loads 4 floats
//    on each side: divergent, definite. Those halo loads are 4 contiguous floats within one sector:
//    not uncoalesced. Reads tile[t + k] are 32 consecutive words: no bank conflict.
//  - conv_taps_by_lane: taps[threadIdx.x % 9] - a constant-memory read with a lane-dependent
//    address (the constant cache serialises the 9 distinct addresses; outside the four rules, no
//    expectation, but worth a cost model).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define R 4
#define NT 256

__constant__ float taps[2 * R + 1] = {0.0625f, 0.125f, 0.25f, 0.5f, 1.0f, 0.5f, 0.25f, 0.125f, 0.0625f};

__global__ void fill_signal(float* in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    in[i] = (float)(i % 13);
}

__global__ void conv_direct(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < 2 * R + 1; ++k) {
        int j = min(max(i + k - R, 0), n - 1);
        acc += taps[k] * in[j]; // expect: misaligned-access definite
    }
    out[i] = acc;
}

__global__ void conv_shared(const float* in, float* out, int n)
{
    __shared__ float tile[NT + 2 * R];
    int t = threadIdx.x;
    int i = blockIdx.x * NT + t;
    tile[R + t] = in[i];
    if (t < R) { // expect: divergent-branch definite
        tile[t] = in[max(i - R, 0)];
        tile[NT + R + t] = in[min(i + NT, n - 1)];
    }
    __syncthreads();
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < 2 * R + 1; ++k) {
        acc += taps[k] * tile[t + k];
    }
    out[i] = acc;
}

__global__ void conv_taps_by_lane(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * taps[threadIdx.x % 9];
}

int main()
{
    const int n = 65536;
    std::vector<float> hin(n);
    for (int i = 0; i < n; ++i) hin[i] = (float)(i % 13);
    float *d_in, *d_a, *d_b, *d_c;
    CK(cudaMalloc(&d_in, n * sizeof(float)));
    CK(cudaMalloc(&d_a, n * sizeof(float)));
    CK(cudaMalloc(&d_b, n * sizeof(float)));
    CK(cudaMalloc(&d_c, n * sizeof(float)));
    fill_signal<<<n / NT, NT>>>(d_in);
    conv_direct<<<n / NT, NT>>>(d_in, d_a, n);
    conv_shared<<<n / NT, NT>>>(d_in, d_b, n);
    conv_taps_by_lane<<<n / NT, NT>>>(d_in, d_c);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> a(n), b(n), c(n);
    CK(cudaMemcpy(a.data(), d_a, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b.data(), d_b, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(c.data(), d_c, n * sizeof(float), cudaMemcpyDeviceToHost));
    const float ht[9] = {0.0625f, 0.125f, 0.25f, 0.5f, 1.0f, 0.5f, 0.25f, 0.125f, 0.0625f};
    int bad = 0;
    double cs = 0.0;
    for (int i = 0; i < n; ++i) {
        float acc = 0.0f;
        for (int k = 0; k < 9; ++k) {
            int j = i + k - R;
            j = j < 0 ? 0 : (j > n - 1 ? n - 1 : j);
            acc += ht[k] * hin[j];
        }
        bad += a[i] != acc || b[i] != acc || c[i] != hin[i] * ht[(i % 256) % 9];
        cs += (double)acc * ((i % 7) + 1);
    }
    printf("conv1d_const: out=%.6e mismatches=%d\n", cs, bad);
    return bad ? 1 : 0;
}
