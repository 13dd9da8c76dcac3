#include <cstdio>
__device__ __noinline__ float helper(float a, float b) { return a * b + 1.0f; }
__global__ void saxpy(float a, const float* __restrict__ x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void reduce(const float* in, float* out, int n) {
  __shared__ float sm[256];
  int t = threadIdx.x;
  float v = 0;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) v += in[i];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  if ((t & 31) == 0) sm[t >> 5] = v;
  __syncthreads();
  if (t < 8) { v = sm[t]; v = helper(v, 2.0f); atomicAdd(out, v); }
}
__global__ void vec4(const float4* in, float4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float4 v = in[i]; v.x += v.w; out[i] = v; }
}
__global__ void halfk(unsigned short* a, const unsigned short* b, int n) {
  int i = threadIdx.x;
  unsigned short r;
  asm("{.reg .f16 x, y;\n\tmov.b16 x, %1;\n\tmov.b16 y, %2;\n\tfma.rn.f16 x, x, y, y;\n\tmov.b16 %0, x;}" : "=h"(r) : "h"(a[i]), "h"(b[i]));
  unsigned h2; asm("fma.rn.f16x2 %0, %1, %1, %1;" : "=r"(h2) : "r"((unsigned)r));
  a[i] = r + h2;
}
__global__ void pf(int x) { printf("hello %d %f\n", x, 1.5); }
__global__ void sw(int* a, int k) {
  int r;
  switch (a[threadIdx.x] + k) {
    case 0: r = 5; break; case 1: r = 17; break; case 2: r = 33; break; case 3: r = 1; break;
    case 4: r = 99; break; case 5: r = 7; break; case 6: r = 123; break; default: r = -1;
  }
  a[threadIdx.x] = r;
}
__global__ void inl(unsigned* o) {
  unsigned lane; asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  unsigned r; asm("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r) : "r"(lane));
  o[threadIdx.x] = r + __popc(lane) + __clz(lane) + __brev(lane) + __ballot_sync(~0u, lane&1) + __activemask();
  unsigned m = __match_any_sync(~0u, lane);
  o[0] = m + atomicCAS(o, 1, 2) + atomicExch(o+1, 3) + atomicMax(o+2, 4) + atomicInc(o+3, 9);
  long long c = clock64(); o[1] = (unsigned)c;
  __nanosleep(100);
  __threadfence(); __threadfence_block();
}
__device__ int gcount;
__constant__ float ctab[4] = {1.0f, 2.0f, 3.0f, 4.0f};
extern __shared__ float dyn[];
__global__ void dynk(float* o) {
  dyn[threadIdx.x] = ctab[threadIdx.x & 3];
  __syncwarp();
  o[threadIdx.x] = dyn[threadIdx.x ^ 1] + atomicAdd(&gcount, 1) + sqrtf(o[0]) + __expf(o[1]) + rsqrtf(o[2]) + __fdividef(o[3], o[4]) + sinf(o[5]);
  double d = o[6]; o[7] = (float)(d / 3.0 + sqrt(d));
}
