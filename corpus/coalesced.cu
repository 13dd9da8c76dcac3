// corpus/coalesced.cu -- baseline global accesses that are coalesced (negative cases).
//
// geometry: copy_coalesced grid=4096,1,1 block=256,1,1
// geometry: saxpy_grid_stride grid=1024,1,1 block=256,1,1
// geometry: broadcast_scale grid=4096,1,1 block=256,1,1
// assume: n=1048576
// assume: a=2.5
//
// Patterns exercised:
//  - copy_coalesced: out[i] = in[i]; one 4-byte element per lane, consecutive lanes consecutive
//    addresses: 4 sectors per warp request, the ideal. The `if (i < n)` guard is uniform because
//    grid*block == n exactly (4096*256 = 1048576): no expectation.
//  - saxpy_grid_stride: grid-stride loop. 1024*256 = 262144 threads, n = 4*262144, so every thread
//    runs exactly 4 iterations: the loop condition is warp-uniform (no expectation).
//  - broadcast_scale: scale[4] (all lanes one address) and scale[blockIdx.x % 4] (block-uniform
//    address) are broadcasts: one sector per request, not uncoalesced.
// Expected findings: none in this file.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void copy_coalesced(const float* __restrict__ in, float* __restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i];
    }
}

__global__ void saxpy_grid_stride(float a, const float* x, float* y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        y[i] = a * x[i] + y[i];
    }
}

__global__ void broadcast_scale(const float* in, const float* scale, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = scale[4];
    float b = scale[blockIdx.x % 4];
    out[i] = in[i] * s + b;
}

static double checksum(const std::vector<float>& v)
{
    double s = 0.0;
    for (size_t i = 0; i < v.size(); ++i) s += (double)v[i] * (double)((i % 7) + 1);
    return s;
}

int main()
{
    const int n = 1 << 20;
    std::vector<float> h_in(n), h_scale(8);
    for (int i = 0; i < n; ++i) h_in[i] = (float)i;          // spec: iota
    for (int i = 0; i < 8; ++i) h_scale[i] = (float)i;       // spec: iota

    float *d_in, *d_out, *d_y, *d_scale, *d_out2;
    CK(cudaMalloc(&d_in, n * sizeof(float)));
    CK(cudaMalloc(&d_out, n * sizeof(float)));
    CK(cudaMalloc(&d_y, n * sizeof(float)));
    CK(cudaMalloc(&d_out2, n * sizeof(float)));
    CK(cudaMalloc(&d_scale, 8 * sizeof(float)));
    CK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_scale, h_scale.data(), 8 * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_out, 0, n * sizeof(float)));
    CK(cudaMemset(d_out2, 0, n * sizeof(float)));
    std::vector<float> ones(n, 1.0f);                        // spec: { constant = 1.0 }
    CK(cudaMemcpy(d_y, ones.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    copy_coalesced<<<4096, 256>>>(d_in, d_out, n);
    CK(cudaGetLastError());
    saxpy_grid_stride<<<1024, 256>>>(2.5f, d_in, d_y, n);
    CK(cudaGetLastError());
    broadcast_scale<<<4096, 256>>>(d_in, d_scale, d_out2);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<float> out(n), y(n), out2(n);
    CK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(out2.data(), d_out2, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        if (out[i] != (float)i) ++bad;
        if (y[i] != 2.5f * (float)i + 1.0f) ++bad;
        if (out2[i] != (float)i * 4.0f + (float)((i / 256) % 4)) ++bad;
    }
    printf("coalesced: out=%.6e y=%.6e out2=%.6e mismatches=%d\n",
           checksum(out), checksum(y), checksum(out2), bad);
    cudaFree(d_in); cudaFree(d_out); cudaFree(d_y); cudaFree(d_scale); cudaFree(d_out2);
    return bad ? 1 : 0;
}
