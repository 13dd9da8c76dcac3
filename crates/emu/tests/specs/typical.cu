// Instruction coverage for the emulator: the math, integer, half-precision, atomic, warp and
// block-level operations typical CUDA code compiles to (nvcc -O3). Every kernel writes its
// results per thread so the H100 run (scripts/h100/validate_all.sh) can check the emulator
// bit for bit (integers) or within ulp bounds (floats). Compiled to typical.ptx by
// crates/emu/tests/specs/regen.sh; run by typical.toml.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_pipeline.h>
#include <cstdio>
#include <cassert>

namespace cg = cooperative_groups;

#define N 8192

// Single-precision library math (accurate versions: polynomial + MUFU sequences).
__global__ void math_f32(const float* x, const float* y, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = x[i], b = y[i];
    float* o = out + 24 * i;
    o[0] = expf(a);
    o[1] = logf(fabsf(b) + 1e-3f);
    o[2] = sinf(a);
    o[3] = cosf(b);
    o[4] = tanf(a * 0.5f);
    o[5] = powf(fabsf(a) + 0.5f, b);
    o[6] = sqrtf(fabsf(b));
    o[7] = rsqrtf(fabsf(a) + 1.0f);
    o[8] = erff(a);
    o[9] = tanhf(b);
    o[10] = atan2f(a, b);
    o[11] = fmodf(a * 10.0f, b + 2.5f);
    o[12] = floorf(a * 3.3f) + ceilf(b * 1.7f) + roundf(a * 7.1f) + truncf(b * 5.5f);
    o[13] = fminf(a, b) - fmaxf(a, b) + copysignf(a, b);
    o[14] = exp2f(a) + log2f(fabsf(b) + 1.0f) + log10f(fabsf(a) + 1.0f);
    o[15] = sinhf(a) + coshf(b) + cbrtf(a) + hypotf(a, b);
    o[16] = a / (b + 3.0f);
    o[17] = __expf(a) + __logf(fabsf(b) + 1.0f);
    o[18] = __sinf(a) + __cosf(b);
    o[19] = __fdividef(a, b + 3.0f);
    o[20] = __fadd_rz(a, b) + __fmul_ru(a, b) + __fmaf_rd(a, b, 1.0f) + __fsqrt_rd(fabsf(a));
    o[21] = __frcp_rn(b + 3.0f) + __fdiv_rz(a, b + 3.0f);
    o[22] = __saturatef(a) + fabsf(b);
    o[23] = erfcf(b) + expm1f(a * 0.1f) + log1pf(fabsf(b));
}

// Double precision.
__global__ void math_f64(const double* x, const double* y, double* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double a = x[i], b = y[i];
    double* o = out + 8 * i;
    o[0] = exp(a);
    o[1] = log(fabs(b) + 1e-3);
    o[2] = sin(a) + cos(b);
    o[3] = sqrt(fabs(b)) + rsqrt(fabs(a) + 1.0);
    o[4] = pow(fabs(a) + 0.5, b);
    o[5] = a / (b + 3.0);
    o[6] = fma(a, b, 1.0) + __dadd_rz(a, b) + __dmul_ru(a, b);
    o[7] = floor(a * 3.3) + tanh(b);
}

// Conversions and rounding.
__global__ void conversions(const float* x, const double* d, int* iout, float* fout)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = x[i] * 3.0e9f;
    double b = d[i] * 1.0e12;
    int* o = iout + 16 * i;
    o[0] = __float2int_rn(a);
    o[1] = __float2int_rz(a);
    o[2] = __float2int_rd(a);
    o[3] = __float2int_ru(a);
    o[4] = (int)__float2uint_rz(a);
    o[5] = (int)__double2int_rn(b);
    long long ll = __double2ll_rz(b);
    o[6] = (int)ll;
    o[7] = (int)(ll >> 32);
    unsigned long long ull = __float2ull_rn(fabsf(a));
    o[8] = (int)ull;
    o[9] = (int)(ull >> 32);
    o[10] = (int)(signed char)(int)(x[i] * 300.0f);
    o[11] = (int)(unsigned short)(int)(x[i] * 100000.0f);
    o[12] = __float_as_int(__int2float_rd(o[0]));
    o[13] = __float_as_int(__ll2float_rn(ll));
    o[14] = __float_as_int(__double2float_rz(b));
    o[15] = __float_as_int((float)(x[i] * 1e-40f));
    float* f = fout + 4 * i;
    f[0] = __uint2float_rn((unsigned)i * 2654435761u);
    f[1] = (float)(d[i] * 1e300);
    f[2] = rintf(a * 1e-9f);
    f[3] = nearbyintf(x[i] * 2.5f);
}

// Integer arithmetic and bit manipulation.
__global__ void integers(const int* x, const int* y, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int a = x[i], b = y[i] | 1;
    unsigned ua = (unsigned)a, ub = (unsigned)b;
    long long la = (long long)a * 1000003LL, lb = (long long)b;
    int* o = out + 24 * i;
    o[0] = a / b;
    o[1] = a % b;
    o[2] = (int)(ua / ub);
    o[3] = (int)(ua % ub);
    o[4] = (int)(la / lb);
    o[5] = (int)(la % lb);
    o[6] = __popc(ua) + __popcll((unsigned long long)la);
    o[7] = __clz(a) + __clzll(la);
    o[8] = __ffs(a) + __ffsll(la);
    o[9] = (int)__brev(ua);
    o[10] = (int)__byte_perm(ua, ub, 0x5140);
    o[11] = (int)__funnelshift_l(ua, ub, i & 31);
    o[12] = (int)__funnelshift_r(ua, ub, i & 63);
    o[13] = __mulhi(a, b);
    o[14] = (int)(__umul64hi((unsigned long long)la, (unsigned long long)lb * 977));
    o[15] = (int)__sad(a, b, 7u);
    o[16] = __dp4a(a, b, 3);
    o[17] = min(a, b) * 3 + max(a, b) + abs(a);
    o[18] = (int)(la >> (i & 63)) ^ (int)((unsigned long long)la >> (i & 31));
    o[19] = __mul24(a, b) + __umul24(ua, ub);
    o[20] = (a > b) ? a - b : b - a;
    o[21] = __hadd(a, b) + __rhadd(a, b) + (int)__uhadd(ua, ub);
    o[22] = (int)((unsigned long long)la * (unsigned long long)lb >> 17);
    o[23] = __dp2a_lo(a, b, 5) + __dp2a_hi(ua, ub, 9u);
}

// Half and bfloat16.
__global__ void halves(const float* x, const float* y, unsigned short* hout, float* fout)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __half ha = __float2half_rn(x[i]), hb = __float2half_rn(y[i]);
    __half2 h2 = __halves2half2(ha, hb);
    __half2 g2 = __floats2half2_rn(y[i], x[i] * 0.5f);
    __nv_bfloat16 ba = __float2bfloat16_rn(x[i]), bb = __float2bfloat16_rn(y[i]);
    unsigned short* o = hout + 12 * i;
    o[0] = __half_as_ushort(__hadd(ha, hb));
    o[1] = __half_as_ushort(__hmul(ha, hb));
    o[2] = __half_as_ushort(__hfma(ha, hb, __float2half_rn(0.25f)));
    __half2 s = __hadd2(h2, g2);
    __half2 p = __hmul2(h2, g2);
    o[3] = __half_as_ushort(__low2half(s));
    o[4] = __half_as_ushort(__high2half(p));
    o[5] = __bfloat16_as_ushort(__hadd(ba, bb));
    o[6] = __bfloat16_as_ushort(__hmul(ba, bb));
    o[7] = __bfloat16_as_ushort(__hfma(ba, bb, __float2bfloat16_rn(0.5f)));
    o[8] = __half_as_ushort(__hmax(ha, hb));
    o[9] = __half_as_ushort(hexp(ha));
    o[10] = __half_as_ushort(__float2half_rz(x[i] * 70000.0f));
    o[11] = __hlt(ha, hb) ? 1 : 0;
    float* f = fout + 3 * i;
    f[0] = __half2float(ha) + __bfloat162float(bb);
    f[1] = __low2float(p) + __high2float(s);
    f[2] = __half2float(__hsub(ha, hb));
}

// Atomics of every type on global and shared memory.
__global__ void atomics(const int* x, int* gi, unsigned* gu, float* gf, double* gd,
                        unsigned long long* gl, __half2* gh)
{
    __shared__ int si[8];
    __shared__ float sf[8];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (t < 8) { si[t] = 0; sf[t] = 0.0f; }
    __syncthreads();
    int v = x[i];
    atomicAdd(&gi[0], v & 255);
    atomicSub(&gi[1], 1);
    atomicMax(&gi[2], v);
    atomicMin(&gi[3], v);
    atomicAnd(&gi[4], v | 0x0fffffff);
    atomicOr(&gi[5], 1 << (v & 31));
    atomicXor(&gi[6], v);
    atomicInc(&gu[0], 1000u);
    atomicDec(&gu[1], 77u);
    atomicMax(&gu[2], (unsigned)v);
    atomicMin(&gu[3], (unsigned)v);
    atomicAdd(&gf[0], 0.5f);
    atomicAdd(&gd[0], 0.25);
    atomicAdd(&gl[0], 3ull);
    atomicMax(&gl[1], (unsigned long long)(unsigned)v);
    if (i == 5) atomicCAS(&gl[2], 0ull, 99ull);
    atomicAdd(&gh[0], __floats2half2_rn(0.125f, 0.0625f));
    atomicAdd(&si[v & 7], 1);
    atomicAdd(&sf[v & 7], 0.5f);
    atomicExch(&gi[7], 42);
    __syncthreads();
    if (t < 8) {
        atomicAdd(&gi[8 + t], si[t]);
        atomicAdd(&gf[1 + t], sf[t]);
    }
}

// Warp-level primitives.
__global__ void warps(const int* x, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = x[i];
    int* o = out + 16 * i;
    unsigned ballot = __ballot_sync(0xffffffffu, v > 0);
    o[0] = (int)ballot;
    o[1] = __any_sync(0xffffffffu, v > 1000000) + 2 * __all_sync(0xffffffffu, v != 0);
    o[2] = __shfl_sync(0xffffffffu, v, (lane * 7) & 31);
    o[3] = __shfl_up_sync(0xffffffffu, v, 3, 16);
    o[4] = __shfl_down_sync(0xffffffffu, v, 5, 8);
    o[5] = __shfl_xor_sync(0xffffffffu, v, 6);
    double d = (double)v * 1.5;
    o[6] = (int)__shfl_xor_sync(0xffffffffu, d, 1);
    o[7] = (int)__match_any_sync(0xffffffffu, v & 3);
    int pred;
    o[8] = (int)__match_all_sync(0xffffffffu, v & 0, &pred) + pred;
    o[9] = __reduce_add_sync(0xffffffffu, v & 0xffff);
    o[10] = __reduce_min_sync(0xffffffffu, v);
    o[11] = (int)__reduce_or_sync(0xffffffffu, (unsigned)v);
    o[12] = (int)__activemask();
    if (lane & 1) {
        o[13] = (int)__activemask() + __popc(__ballot_sync(0xaaaaaaaau, v & 1));
    } else {
        o[13] = 0;
    }
    __syncwarp();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
    o[14] = cg::reduce(tile, v & 0xff, cg::plus<int>());
    o[15] = tile.shfl_down(v, 1);
}

// Block-level: barriers with reductions, dynamic shared memory, local arrays, switch.
__global__ void blocks(const int* x, int* out, int k)
{
    extern __shared__ int dyn[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int v = x[i];
    dyn[t] = v;
    int cnt = __syncthreads_count(v > 0);
    int all = __syncthreads_and(v != 12345);
    int any = __syncthreads_or(v == 7);
    int local[16];
    for (int j = 0; j < 16; ++j) local[j] = dyn[(t + j * 3) % blockDim.x] ^ j;
    int r = local[(v & 15)] + local[(k + t) & 15];
    switch ((v >> 4) & 7) {
    case 0: r += 11; break;
    case 1: r *= 3; break;
    case 2: r -= 5; break;
    case 3: r ^= 0x55; break;
    case 4: r = r >> 1; break;
    case 5: r = -r; break;
    case 6: r += t; break;
    default: r += 1000; break;
    }
    __threadfence_block();
    out[4 * i] = cnt;
    out[4 * i + 1] = all + 2 * any;
    out[4 * i + 2] = r;
    out[4 * i + 3] = (int)(clock64() >= 0);
}

// Asynchronous copies into shared memory (cp.async), vector loads and cache hints.
__global__ void async_copy(const float4* in, float4* out)
{
    __shared__ float4 tile[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    __pipeline_memcpy_async(&tile[t], &in[i], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    float4 a = tile[(t + 1) % blockDim.x];
    float4 b = __ldg(&in[i]);
    float4 c = __ldcs(&in[(i + 7) % (gridDim.x * blockDim.x)]);
    float4 r = make_float4(a.x + b.y, a.y * c.z, a.z - c.w, a.w + b.x);
    __stcs(&out[i], r);
}

// printf and a passing assert.
__global__ void messages(const int* x)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(x[i] != 0x7fffffff);
    if (i < 2) printf("thread %d sees %d (%5.2f) %s\n", i, x[i] & 0xff, (double)(x[i] & 0xff) / 3.0, "ok");
}
