// corpus/half_precision.cu -- fp16 and bf16 arithmetic (packed half2 FMA, scalar bf16 FMA, f16 max,
// conversions), written with inline PTX so the file needs no cuda_fp16.h (which in CUDA 13 pulls
// in the CCCL <nv/target> headers that the pinned pip toolchain does not ship). The PTX these
// helpers produce is what cuda_fp16.hpp's own intrinsics emit.
//
// geometry: fill_half grid=256,1,1 block=256,1,1
// geometry: axpy_half2 grid=128,1,1 block=256,1,1
// geometry: bf16_dot8 grid=32,1,1 block=256,1,1
// geometry: bf16_fma grid=256,1,1 block=256,1,1
// geometry: half_relu_max grid=256,1,1 block=256,1,1
// assume: axpy_half2 a2=0x38003800
// assume: bf16_fma alpha=1.5
//
// n = 65536 elements of each 16-bit type. fill_half writes exactly representable values
// ((i % 64) * 0.125 - 4) as f16 and bf16, so the results are reproducible everywhere.
//  - axpy_half2 handles two halves per 32-bit word (32768 words): ld/st .b32 per lane,
//    contiguous: coalesced. fma.rn.f16x2.
//  - bf16_dot8: each thread reads 8 consecutive bf16 of x and y as one 16-byte vector (uint4):
//    a warp moves 512 contiguous bytes: coalesced; cvt.f32.bf16 and f32 accumulation.
//  - bf16_fma: scalar fma.rn.bf16 on 2-byte elements, contiguous: coalesced (64 bytes per warp,
//    2 sectors).
//  - half_relu_max: max.f16 against zero (branch-free ReLU), cvt.f32.f16 for a float side output.
// No expectations in this file.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

typedef unsigned short h16;   // raw IEEE binary16 bits
typedef unsigned short bf16;  // raw bfloat16 bits

__device__ __forceinline__ h16 f32_to_f16(float f)
{
    h16 h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
}

__device__ __forceinline__ float f16_to_f32(h16 h)
{
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
}

__device__ __forceinline__ bf16 f32_to_bf16(float f)
{
    bf16 h;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
}

__device__ __forceinline__ float bf16_to_f32(bf16 h)
{
    float f;
    asm("cvt.f32.bf16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
}

__device__ __forceinline__ unsigned fma_f16x2(unsigned a, unsigned b, unsigned c)
{
    unsigned d;
    asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

__device__ __forceinline__ bf16 fma_bf16(bf16 a, bf16 b, bf16 c)
{
    bf16 d;
    asm("fma.rn.bf16 %0, %1, %2, %3;" : "=h"(d) : "h"(a), "h"(b), "h"(c));
    return d;
}

__device__ __forceinline__ h16 max_f16(h16 a, h16 b)
{
    h16 d;
    asm("max.f16 %0, %1, %2;" : "=h"(d) : "h"(a), "h"(b));
    return d;
}

__global__ void fill_half(h16* xh, h16* yh, bf16* xb, bf16* yb)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (float)(i % 64) * 0.125f - 4.0f;
    float w = (float)((i * 5) % 32) * 0.25f;
    xh[i] = f32_to_f16(v);
    yh[i] = f32_to_f16(w);
    xb[i] = f32_to_bf16(v);
    yb[i] = f32_to_bf16(w);
}

__global__ void axpy_half2(unsigned a2, const unsigned* x2, unsigned* y2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y2[i] = fma_f16x2(a2, x2[i], y2[i]);
}

__global__ void bf16_dot8(const uint4* x8, const uint4* y8, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    uint4 a = x8[i];
    uint4 b = y8[i];
    unsigned aw[4] = {a.x, a.y, a.z, a.w};
    unsigned bw[4] = {b.x, b.y, b.z, b.w};
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        acc += bf16_to_f32((bf16)(aw[k] & 0xffffu)) * bf16_to_f32((bf16)(bw[k] & 0xffffu));
        acc += bf16_to_f32((bf16)(aw[k] >> 16)) * bf16_to_f32((bf16)(bw[k] >> 16));
    }
    out[i] = acc;
}

__global__ void bf16_fma(const bf16* x, const bf16* y, bf16* out, float alpha)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = fma_bf16(f32_to_bf16(alpha), x[i], y[i]);
}

__global__ void half_relu_max(const h16* x, h16* out, float* outf)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    h16 r = max_f16(x[i], (h16)0);
    out[i] = r;
    outf[i] = f16_to_f32(r) * 2.0f;
}

template <typename T>
static double checksum(const std::vector<T>& v)
{
    double s = 0.0;
    for (size_t i = 0; i < v.size(); ++i) s += (double)v[i] * (double)((i % 7) + 1);
    return s;
}

int main()
{
    const int n = 65536;
    h16 *d_xh, *d_yh, *d_rh;
    bf16 *d_xb, *d_yb, *d_ob;
    float *d_dot, *d_rf;
    CK(cudaMalloc(&d_xh, n * 2));
    CK(cudaMalloc(&d_yh, n * 2));
    CK(cudaMalloc(&d_rh, n * 2));
    CK(cudaMalloc(&d_xb, n * 2));
    CK(cudaMalloc(&d_yb, n * 2));
    CK(cudaMalloc(&d_ob, n * 2));
    CK(cudaMalloc(&d_dot, n / 8 * sizeof(float)));
    CK(cudaMalloc(&d_rf, n * sizeof(float)));
    fill_half<<<256, 256>>>(d_xh, d_yh, d_xb, d_yb);
    const unsigned a2 = 0x38003800u;  // half2(0.5, 0.5)
    axpy_half2<<<128, 256>>>(a2, (const unsigned*)d_xh, (unsigned*)d_yh);
    bf16_dot8<<<32, 256>>>((const uint4*)d_xb, (const uint4*)d_yb, d_dot);
    bf16_fma<<<256, 256>>>(d_xb, d_yb, d_ob, 1.5f);
    half_relu_max<<<256, 256>>>(d_xh, d_rh, d_rf);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<h16> yh(n), rh(n);
    std::vector<bf16> ob(n);
    std::vector<float> dot(n / 8), rf(n);
    CK(cudaMemcpy(yh.data(), d_yh, n * 2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(rh.data(), d_rh, n * 2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ob.data(), d_ob, n * 2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(dot.data(), d_dot, n / 8 * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(rf.data(), d_rf, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float v = (float)(i % 64) * 0.125f - 4.0f;
        bad += rf[i] != (v > 0.0f ? v : 0.0f) * 2.0f;
    }
    printf("half_precision: y_bits=%.6e relu_bits=%.6e fma_bits=%.6e dot=%.6e relu_f32=%.6e mismatches=%d\n",
           checksum(yh), checksum(rh), checksum(ob), checksum(dot), checksum(rf), bad);
    return bad ? 1 : 0;
}
