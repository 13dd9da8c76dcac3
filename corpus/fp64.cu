// corpus/fp64.cu -- double-precision kernels: daxpy, a block dot product with a shared-memory tree and
// a 64-bit shuffle finish, Horner polynomial with sqrt/division, and a 16-byte AoS of doubles.
//
// geometry: fill_samples grid=256,1,1 block=256,1,1
// geometry: daxpy grid=256,1,1 block=256,1,1
// geometry: dot_f64 grid=128,1,1 block=256,1,1
// geometry: horner_f64 grid=256,1,1 block=256,1,1
// geometry: sample_aos_x grid=256,1,1 block=256,1,1
// assume: daxpy a=2.0
//
// n = 65536 doubles, x[i] = i (iota), y[i] = 0.5 (constant).
//  - fill_samples: the 16-byte struct store is split by nvcc into st.global.f64 (bytes 0-7) and
//    st.global.v2.u32 (bytes 8-15): each instruction writes 8 of every 16 bytes: 16 sectors for
//    8 ideal: uncoalesced, definite (although the two together fill the lines).
//  - daxpy: 8-byte elements, 256 contiguous bytes per warp (8 sectors): coalesced.
//  - dot_f64: per-block partial of x[i]*y[i] over 512 elements (2 per thread). The shared tree
//    `if (t < s)` runs s = 128, 64, 32 (warp-uniform); warp 0 then finishes with
//    __shfl_down_sync on doubles (two 32-bit shuffles each in SASS). `if (t == 0)` writes the
//    partial: lane 0 alone: divergent, definite. sd[t + s] (doubles, contiguous): no conflict.
//  - horner_f64: fma.rn.f64 chain, sqrt.rn.f64, div.rn.f64, all branch-free in PTX.
//  - sample_aos_x: struct Sample { double x; float w; int tag; } is 16 bytes; reading .x moves 8
//    useful bytes per 16: a warp spans 512 bytes, 16 sectors for 8 ideal: uncoalesced, definite.
//    The .w read (4 of 16 bytes) is worse: uncoalesced, definite.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

struct Sample {
    double x;
    float w;
    int tag;
};
static_assert(sizeof(Sample) == 16, "Sample must be 16 bytes");

__global__ void fill_samples(Sample* s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Sample v;
    v.x = (double)i * 0.25;
    v.w = (float)(i % 3 + 1);
    v.tag = i;
    s[i] = v; // expect: uncoalesced-access definite
}

__global__ void daxpy(double a, const double* x, double* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = a * x[i] + y[i];
}

__global__ void dot_f64(const double* x, const double* y, double* partial)
{
    __shared__ double sd[256];
    int t = threadIdx.x;
    int i = blockIdx.x * 512 + t;
    sd[t] = x[i] * y[i] + x[i + 256] * y[i + 256];
    __syncthreads();
    for (int s = 128; s >= 32; s >>= 1) {
        if (t < s) {
            sd[t] += sd[t + s];
        }
        __syncthreads();
    }
    if (t < 32) {
        double v = sd[t];
        for (int off = 16; off > 0; off >>= 1) {
            v += __shfl_down_sync(0xffffffffu, v, off);
        }
        if (t == 0) { // expect: divergent-branch definite
            partial[blockIdx.x] = v;
        }
    }
}

__global__ void horner_f64(const double* x, double* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double v = x[i] * 1.0e-4;
    double p = 0.5;
    p = fma(p, v, -1.25);
    p = fma(p, v, 2.0);
    p = fma(p, v, 0.75);
    p = fma(p, v, 1.0);
    out[i] = sqrt(p * p + 1.0) / (1.0 + v);
}

__global__ void sample_aos_x(Sample* s, double* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double x = s[i].x; // expect: uncoalesced-access definite
    float w = s[i].w; // expect: uncoalesced-access definite
    out[i] = x * (double)w;
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
    std::vector<double> hx(n), hy(n, 0.5);
    for (int i = 0; i < n; ++i) hx[i] = (double)i;
    double *d_x, *d_y, *d_p, *d_h, *d_o;
    Sample* d_s;
    CK(cudaMalloc(&d_x, n * sizeof(double)));
    CK(cudaMalloc(&d_y, n * sizeof(double)));
    CK(cudaMalloc(&d_p, 128 * sizeof(double)));
    CK(cudaMalloc(&d_h, n * sizeof(double)));
    CK(cudaMalloc(&d_o, n * sizeof(double)));
    CK(cudaMalloc(&d_s, n * sizeof(Sample)));
    CK(cudaMemcpy(d_x, hx.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_y, hy.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    fill_samples<<<256, 256>>>(d_s);
    dot_f64<<<128, 256>>>(d_x, d_y, d_p);
    daxpy<<<256, 256>>>(2.0, d_x, d_y);
    horner_f64<<<256, 256>>>(d_x, d_h);
    sample_aos_x<<<256, 256>>>(d_s, d_o);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<double> y(n), p(128), h(n), o(n);
    CK(cudaMemcpy(y.data(), d_y, n * sizeof(double), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(p.data(), d_p, 128 * sizeof(double), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h.data(), d_h, n * sizeof(double), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(o.data(), d_o, n * sizeof(double), cudaMemcpyDeviceToHost));
    int bad = 0;
    double dot = 0.0;
    for (int b = 0; b < 128; ++b) dot += p[b];
    bad += dot != 0.5 * (double)n * (double)(n - 1) / 2.0;
    for (int i = 0; i < n; ++i) bad += y[i] != 2.0 * i + 0.5 || o[i] != (double)i * 0.25 * (double)(i % 3 + 1);
    printf("fp64: dot=%.6f y=%.6e horner=%.9e aos=%.6e mismatches=%d\n", dot, checksum(y), checksum(h), checksum(o), bad);
    return bad ? 1 : 0;
}
