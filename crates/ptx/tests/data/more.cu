#include <cassert>
#include <cstdio>
__global__ void texk(cudaTextureObject_t t, cudaSurfaceObject_t s, float* o) {
  float v = tex2D<float>(t, threadIdx.x + 0.5f, 0.5f);
  float4 v4 = tex1Dfetch<float4>(t, threadIdx.x);
  surf2Dwrite(v, s, threadIdx.x * 4, 0);
  float r; surf2Dread(&r, s, 0, 0);
  o[threadIdx.x] = v + v4.y + r;
}
__global__ void atomk(double* d, unsigned long long* u, int* i, float* f, unsigned short* h) {
  atomicAdd(d, 1.0);
  atomicAdd(u, 2ull);
  atomicMin(i, threadIdx.x); atomicAnd(i + 1, 3); atomicOr(i + 2, 4); atomicXor(i + 3, 5); atomicDec((unsigned*)i + 4, 9u);
  atomicAdd_block(f, 1.f); atomicAdd_system(f + 1, 2.f);
  atomicCAS(h, (unsigned short)1, (unsigned short)2);
  unsigned c = __syncthreads_count(threadIdx.x & 1) + __syncthreads_and(threadIdx.x > 3) + __syncthreads_or(threadIdx.x == 7);
  i[5] = c + __reduce_add_sync(~0u, threadIdx.x) + __reduce_max_sync(~0u, (unsigned)threadIdx.x) + __reduce_or_sync(~0u, threadIdx.x);
  assert(c < 1000);
  int* p = (int*)malloc(16); p[0] = 1; i[6] = p[0]; free(p);
  __shared__ int sh[32];
  i[7] = __isShared(sh) + __isGlobal(i) + (int)__cvta_generic_to_shared(sh + threadIdx.x);
  __prof_trigger(3);
  i[8] = (int)clock() + __all_sync(~0u, c) + __any_sync(~0u, c) + __uni_sync(~0u, c);
  i[9] = __shfl_sync(~0u, c, 3) + __shfl_up_sync(~0u, c, 1) + __shfl_xor_sync(~0u, c, 2, 16);
  __syncwarp(0xffff);
  i[10] = __match_all_sync(~0u, c, (int*)&c);
  __threadfence_system();
}
struct Base { __device__ virtual int f(int x) { return x; } };
struct Der : Base { __device__ int f(int x) override { return x * 3; } };
__global__ void virt(int* o, int k) {
  Base b; Der d; Base* p = k ? (Base*)&d : &b;
  o[0] = p->f(k);
  int n = o[1] & 15;
  int* arr = (int*)alloca(n * sizeof(int));
  for (int j = 0; j < n; j++) arr[j] = j * k;
  o[2] = arr[n - 1];
}
__global__ void ldk(const float4* __restrict__ a, const double2* __restrict__ b, float* o) {
  float4 x = __ldg(a + threadIdx.x); double2 y = __ldg(b + threadIdx.x);
  o[threadIdx.x] = x.x + x.w + y.x + __ldca(o + 1) + __ldcg(o + 2);
  __stcg(o + 3, 1.f); __stwb(o + 4, 2.f);
  long long* ll = (long long*)o; __stcs(ll + 8, 5ll);
}
