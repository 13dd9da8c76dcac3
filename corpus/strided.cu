// corpus/strided.cu -- strided global loads and stores (stride 2, 3, 32 and a runtime stride).
//
// geometry: stride2_load grid=128,1,1 block=256,1,1
// geometry: stride3_load grid=128,1,1 block=256,1,1
// geometry: stride32_load grid=128,1,1 block=256,1,1
// geometry: pair_sum grid=128,1,1 block=256,1,1
// geometry: stride2_store grid=128,1,1 block=256,1,1
// geometry: stride_param_load grid=128,1,1 block=256,1,1
// assume: s=4
//
// n = 32768 outputs (128 blocks * 256 threads, exact cover, no guards); `in` holds 32*n floats.
// Patterns and why each expectation holds (4-byte elements, a warp is 32 consecutive lanes):
//  - in[2*i]: a warp spans 256 bytes = 8 sectors for 128 useful bytes (ideal 4): uncoalesced, definite.
//  - in[3*i]: 384-byte span, 12 sectors for 4 ideal: uncoalesced, definite.
//  - in[32*i]: every lane in its own 128-byte line: 32 sectors for 4 ideal: uncoalesced, definite.
//  - pair_sum reads in[2*i] and in[2*i+1]: each load instruction alone is stride 2 (8 sectors,
//    ideal 4) even though together they cover the span (the second mostly hits L1): definite.
//  - out[2*i] = ...: strided store, 8 sectors per request: uncoalesced, definite. Its load in[i] is
//    coalesced.
//  - in[s*i] with s=4 (the value main passes): 16 sectors for 4 ideal: definite under `assume: s=4`
//    (a checker that does not read the assumption can only say possible).
// All output writes out[i] are coalesced.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void stride2_load(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[2 * i] + 1.0f; // expect: uncoalesced-access definite
}

__global__ void stride3_load(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[3 * i] * 2.0f; // expect: uncoalesced-access definite
}

__global__ void stride32_load(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[32 * i] - 3.0f; // expect: uncoalesced-access definite
}

__global__ void pair_sum(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float lo = in[2 * i];     // expect: uncoalesced-access definite
    float hi = in[2 * i + 1]; // expect: uncoalesced-access definite
    out[i] = lo + hi;
}

__global__ void stride2_store(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[2 * i] = in[i] * 0.5f; // expect: uncoalesced-access definite
}

__global__ void stride_param_load(const float* in, float* out, int s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[s * i]; // expect: uncoalesced-access definite
}

static double checksum(const std::vector<float>& v)
{
    double s = 0.0;
    for (size_t i = 0; i < v.size(); ++i) s += (double)v[i] * (double)((i % 7) + 1);
    return s;
}

int main()
{
    const int n = 32768;
    const int nin = 32 * n;
    std::vector<float> h_in(nin);
    for (int i = 0; i < nin; ++i) h_in[i] = (float)i;  // spec: iota
    float *d_in, *d_o2, *d_o3, *d_o32, *d_pair, *d_st2, *d_sp;
    CK(cudaMalloc(&d_in, nin * sizeof(float)));
    CK(cudaMalloc(&d_o2, n * sizeof(float)));
    CK(cudaMalloc(&d_o3, n * sizeof(float)));
    CK(cudaMalloc(&d_o32, n * sizeof(float)));
    CK(cudaMalloc(&d_pair, n * sizeof(float)));
    CK(cudaMalloc(&d_st2, 2 * n * sizeof(float)));
    CK(cudaMalloc(&d_sp, n * sizeof(float)));
    CK(cudaMemcpy(d_in, h_in.data(), nin * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_st2, 0, 2 * n * sizeof(float)));

    stride2_load<<<128, 256>>>(d_in, d_o2);
    stride3_load<<<128, 256>>>(d_in, d_o3);
    stride32_load<<<128, 256>>>(d_in, d_o32);
    pair_sum<<<128, 256>>>(d_in, d_pair);
    stride2_store<<<128, 256>>>(d_in, d_st2);
    stride_param_load<<<128, 256>>>(d_in, d_sp, 4);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<float> o2(n), o3(n), o32(n), pair(n), st2(2 * n), sp(n);
    CK(cudaMemcpy(o2.data(), d_o2, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(o3.data(), d_o3, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(o32.data(), d_o32, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(pair.data(), d_pair, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(st2.data(), d_st2, 2 * n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(sp.data(), d_sp, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        bad += o2[i] != (float)(2 * i) + 1.0f;
        bad += o3[i] != (float)(3 * i) * 2.0f;
        bad += o32[i] != (float)(32 * i) - 3.0f;
        bad += pair[i] != (float)(4 * i + 1);
        bad += st2[2 * i] != (float)i * 0.5f || st2[2 * i + 1] != 0.0f;
        bad += sp[i] != (float)(4 * i);
    }
    printf("strided: o2=%.6e o3=%.6e o32=%.6e pair=%.6e st2=%.6e sp=%.6e mismatches=%d\n",
           checksum(o2), checksum(o3), checksum(o32), checksum(pair), checksum(st2), checksum(sp), bad);
    return bad ? 1 : 0;
}
