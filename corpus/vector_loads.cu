// corpus/vector_loads.cu -- vectorised float2/float4 global accesses, aligned and misaligned.
//
// geometry: copy_f4 grid=256,1,1 block=256,1,1
// geometry: scale_f2 grid=512,1,1 block=256,1,1
// geometry: copy_f4_off1 grid=256,1,1 block=256,1,1
// geometry: scale_f2_off1 grid=512,1,1 block=256,1,1
// geometry: dot_f4_stride2 grid=128,1,1 block=256,1,1
// assume: s=0.5
//
// The float arrays hold n = 262144 floats (+8 spare so the shifted reads stay in bounds):
// 65536 float4 or 131072 float2. Every grid covers its vector count exactly (no guards).
//  - copy_f4: ld.global.v4.f32 of in4[i]: a warp moves 512 contiguous 128-byte-aligned bytes,
//    16 sectors = ideal. No expectation. (A checker comparing a vector access with a 4-byte
//    stride-1 pattern must scale by the access width.)
//  - scale_f2: ld/st .v2.f32, 256 contiguous bytes: ideal, no expectation.
//  - copy_f4_off1: in4[i + 1]: every float4 is still 16-byte aligned (legal vector load) but the
//    warp's 512 bytes start 16 bytes into a sector: 17 sectors for 16: misaligned, definite.
//  - scale_f2_off1: in2[i + 1]: 256 bytes starting 8 bytes off: 9 sectors for 8: misaligned,
//    definite.
//  - dot_f4_stride2: in4[2*i] and in4[2*i+1]: each float4 load has a 32-byte stride between lanes,
//    so each instruction touches 32 half-used sectors (ideal 16): uncoalesced, definite.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void copy_f4(const float4* __restrict__ in4, float4* __restrict__ out4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = in4[i];
    v.x += 1.0f; v.y += 2.0f; v.z += 3.0f; v.w += 4.0f;
    out4[i] = v;
}

__global__ void scale_f2(const float2* __restrict__ in2, float2* __restrict__ out2, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float2 v = in2[i];
    out2[i] = make_float2(v.x * s, v.y * s);
}

__global__ void copy_f4_off1(const float4* __restrict__ in4, float4* __restrict__ out4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out4[i] = in4[i + 1]; // expect: misaligned-access definite
}

__global__ void scale_f2_off1(const float2* __restrict__ in2, float2* __restrict__ out2, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float2 v = in2[i + 1]; // expect: misaligned-access definite
    out2[i] = make_float2(v.x * s, v.y * s);
}

__global__ void dot_f4_stride2(const float4* __restrict__ in4, float* __restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 a = in4[2 * i];     // expect: uncoalesced-access definite
    float4 b = in4[2 * i + 1]; // expect: uncoalesced-access definite
    out[i] = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

static double checksum(const std::vector<float>& v)
{
    double s = 0.0;
    for (size_t i = 0; i < v.size(); ++i) s += (double)v[i] * (double)((i % 7) + 1);
    return s;
}

int main()
{
    const int n = 262144;
    const int nin = n + 8;
    std::vector<float> hin(nin);
    for (int i = 0; i < nin; ++i) hin[i] = (float)i;  // spec: iota
    float *d_in, *d_a, *d_b, *d_c, *d_d, *d_e;
    CK(cudaMalloc(&d_in, nin * sizeof(float)));
    CK(cudaMalloc(&d_a, n * sizeof(float)));
    CK(cudaMalloc(&d_b, n * sizeof(float)));
    CK(cudaMalloc(&d_c, n * sizeof(float)));
    CK(cudaMalloc(&d_d, n * sizeof(float)));
    CK(cudaMalloc(&d_e, (n / 8) * sizeof(float)));
    CK(cudaMemcpy(d_in, hin.data(), nin * sizeof(float), cudaMemcpyHostToDevice));

    copy_f4<<<256, 256>>>((const float4*)d_in, (float4*)d_a);
    scale_f2<<<512, 256>>>((const float2*)d_in, (float2*)d_b, 0.5f);
    copy_f4_off1<<<256, 256>>>((const float4*)d_in, (float4*)d_c);
    scale_f2_off1<<<512, 256>>>((const float2*)d_in, (float2*)d_d, 0.5f);
    dot_f4_stride2<<<128, 256>>>((const float4*)d_in, d_e);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<float> a(n), b(n), c(n), d(n), e(n / 8);
    CK(cudaMemcpy(a.data(), d_a, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b.data(), d_b, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(c.data(), d_c, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(d.data(), d_d, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(e.data(), d_e, (n / 8) * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        bad += a[i] != hin[i] + (float)(i % 4 + 1);
        bad += b[i] != hin[i] * 0.5f;
        bad += c[i] != hin[i + 4];
        bad += d[i] != hin[i + 2] * 0.5f;
    }
    printf("vector_loads: f4=%.6e f2=%.6e f4off=%.6e f2off=%.6e dot=%.6e mismatches=%d\n",
           checksum(a), checksum(b), checksum(c), checksum(d), checksum(e), bad);
    return bad ? 1 : 0;
}
