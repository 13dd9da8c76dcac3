typedef float (*fn_t)(float);
__device__ float f1(float x) { return x * 2; }
__device__ float f2(float x) { return x + 3; }
__device__ fn_t table[2] = {f1, f2};
__device__ int arr[3][2] = {{1,2},{3,4},{5,6}};
__device__ int* parr = &arr[1][0];
__global__ void __launch_bounds__(128) ind(float* o, int k) {
  o[threadIdx.x] = table[k & 1](o[threadIdx.x]) + *parr;
  if (o[0] < 0) __trap();
  if (o[1] < 0) asm("exit;");
  __brkpt();
}
struct S { double a; int b[3]; };
__global__ void byval(S s, float4 v, float* o) { o[0] = s.a + s.b[2] + v.z; }
__device__ __noinline__ S retstruct(int x) { S s; s.a = x; s.b[0] = x; s.b[1] = 2; s.b[2] = x*x; return s; }
__global__ void callstruct(S* o, int x) { o[threadIdx.x] = retstruct(x + threadIdx.x); }
__device__ __noinline__ void rec(int* o, int n) { if (n > 0) { o[n] = n; rec(o, n - 1); } }
__global__ void callrec(int* o) { rec(o, threadIdx.x); }
