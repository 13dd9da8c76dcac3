// corpus/device_calls.cu -- indices and accesses computed in __noinline__ device functions, so the
// PTX keeps `call` instructions and an analysis has to be inter-procedural (GPUCheck figures 7, 9).
//
// geometry: call_swizzle grid=256,1,1 block=256,1,1
// geometry: call_scaled grid=128,1,1 block=256,1,1
// geometry: call_load_at grid=128,1,1 block=256,1,1
// geometry: call_clamped grid=256,1,1 block=256,1,1
// geometry: call_chain grid=256,1,1 block=256,1,1
// geometry: call_branchy grid=256,1,1 block=256,1,1
//
// n = 65536 floats in `in` (plus 64 spare); outputs have one element per thread.
//  - swizzle4(i) = (i & ~3) | (3 - (i & 3)) reverses each group of 4: a warp still reads one
//    aligned 128-byte run: coalesced, no expectation (non-affine, a GPUDrano-style false positive).
//  - scaled_index(i, 2) = 2*i, used by the caller for in[...]: stride 2 through a call:
//    uncoalesced, definite (on the caller's load line).
//  - load_at(p, idx) performs the load itself. call_load_at calls it with idx = i (coalesced)
//    and idx = 2*i (stride 2): the load line inside load_at is uncoalesced in the second context:
//    definite (a context-sensitive analysis can attribute it to the second call site).
//  - clamp_index(tx, 200) (GPUCheck figure 7's bounded read): lanes above 200 all read element
//    200: contiguous plus broadcast, coalesced, no expectation.
//  - offset_a(offset_b(i)) + 9 = i - 16 + 8 + 9 = i + 1 (GPUCheck figure 9's chain): the load is
//    misaligned by 4 bytes: definite.
//  - branchy(p, lane): `if (lane < 8)` inside the callee, called with lane = threadIdx.x & 31:
//    divergent, definite (on the callee's branch line).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __noinline__ int swizzle4(int i)
{
    return (i & ~3) | (3 - (i & 3));
}

__device__ __noinline__ int scaled_index(int i, int s)
{
    return i * s;
}

__device__ __noinline__ float load_at(const float* p, int idx)
{
    return p[idx]; // expect: uncoalesced-access definite
}

__device__ __noinline__ int clamp_index(int i, int hi)
{
    return i > hi ? hi : i;
}

__device__ __noinline__ int offset_b(int j)
{
    return j + 8;
}

__device__ __noinline__ int offset_a(int i)
{
    return i - 16;
}

__device__ __noinline__ float branchy(const float* p, int lane, int i)
{
    float r;
    if (lane < 8) { // expect: divergent-branch definite
        r = p[i] * 2.0f;
    } else {
        r = p[(i + 64) & 65535] + 1.0f;
    }
    return r;
}

__global__ void call_swizzle(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[swizzle4(i)];
}

__global__ void call_scaled(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = scaled_index(i, 2);
    out[i] = in[j]; // expect: uncoalesced-access definite
}

__global__ void call_load_at(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = load_at(in, i);
    float b = load_at(in, 2 * i);
    out[i] = a - b;
}

__global__ void call_clamped(const float* in, float* out)
{
    int tx = clamp_index(threadIdx.x, 200);
    out[blockIdx.x * blockDim.x + threadIdx.x] = in[blockIdx.x * blockDim.x + tx];
}

__global__ void call_chain(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = offset_a(offset_b(i)) + 9;
    out[i] = in[j]; // expect: misaligned-access definite
}

__global__ void call_branchy(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = branchy(in, threadIdx.x & 31, i);
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
    const int nin = n + 64;
    std::vector<float> hin(nin);
    for (int i = 0; i < nin; ++i) hin[i] = (float)i;  // spec: iota
    float *d_in, *d_o[6];
    CK(cudaMalloc(&d_in, nin * sizeof(float)));
    for (int k = 0; k < 6; ++k) { CK(cudaMalloc(&d_o[k], n * sizeof(float))); CK(cudaMemset(d_o[k], 0, n * sizeof(float))); }
    CK(cudaMemcpy(d_in, hin.data(), nin * sizeof(float), cudaMemcpyHostToDevice));
    call_swizzle<<<256, 256>>>(d_in, d_o[0]);
    call_scaled<<<128, 256>>>(d_in, d_o[1]);
    call_load_at<<<128, 256>>>(d_in, d_o[2]);
    call_clamped<<<256, 256>>>(d_in, d_o[3]);
    call_chain<<<256, 256>>>(d_in, d_o[4]);
    call_branchy<<<256, 256>>>(d_in, d_o[5]);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> o[6];
    int bad = 0;
    for (int k = 0; k < 6; ++k) {
        o[k].resize(n);
        CK(cudaMemcpy(o[k].data(), d_o[k], n * sizeof(float), cudaMemcpyDeviceToHost));
    }
    for (int i = 0; i < n; ++i) {
        bad += o[0][i] != (float)((i & ~3) | (3 - (i & 3)));
        if (i < 32768) {
            bad += o[1][i] != (float)(2 * i);
            bad += o[2][i] != (float)i - (float)(2 * i);
        }
        int t = i % 256;
        bad += o[3][i] != (float)(i - t + (t > 200 ? 200 : t));
        bad += o[4][i] != (float)(i + 1);
        bad += o[5][i] != ((i % 32) < 8 ? (float)i * 2.0f : (float)((i + 64) & 65535) + 1.0f);
    }
    printf("device_calls:");
    for (int k = 0; k < 6; ++k) printf(" out%d=%.6e", k, checksum(o[k]));
    printf(" mismatches=%d\n", bad);
    return bad ? 1 : 0;
}
