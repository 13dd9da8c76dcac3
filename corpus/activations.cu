// corpus/activations.cu -- elementwise activations and a row normalisation, for realistic math
// instruction mixes: tanhf (GELU), __expf (sigmoid/SiLU), rsqrtf (RMS norm), sinf/cosf versus
// __sinf/__cosf (positional encoding), __logf and erff.
//
// geometry: fill_act grid=256,1,1 block=256,1,1
// geometry: gelu_tanh grid=256,1,1 block=256,1,1
// geometry: silu_fast grid=256,1,1 block=256,1,1
// geometry: rms_norm_rows grid=256,1,1 block=256,1,1
// geometry: posenc_precise grid=256,1,1 block=256,1,1
// geometry: posenc_fast grid=256,1,1 block=256,1,1
// geometry: softplus_erf grid=256,1,1 block=256,1,1
//
// n = 65536 = 256 rows x 256 columns; x[i] = ((i % 200) - 100) * 0.05 (fill_act).
//  - gelu_tanh: tanhf compiles to a branch-free polynomial/ex2 sequence (selp): no expectation.
//  - silu_fast: __expf -> ex2.approx.ftz.f32, __fdividef -> div.approx: branch-free.
//  - rms_norm_rows: one block per row; warp sums with __shfl_xor_sync, 8 warp partials in shared
//    memory, rsqrtf (rsqrt.approx.f32). `if (lane == 0)` stores a warp partial: lane 0 alone:
//    divergent, definite. `if (warp == 0)` is warp-uniform: none. In warp 0 the ternary
//    `lane < 8 ? partial[lane] : 0` is compiled to a real branch around the shared load (lanes
//    0-7 vs 8-31): divergent, definite; so is `if (lane == 0)` storing the total.
//  - posenc_precise: sinf/cosf with the accurate range reduction. In PTX they contain real branches
//    on the argument (quadrant selection, and the Payne-Hanek slow path for |x| > 105615 using
//    local memory), attributed to the line of the call: data dependent: divergent, possible.
//  - posenc_fast: __sinf/__cosf -> sin.approx/cos.approx: no branches, no expectation.
//  - softplus_erf: __logf (lg2.approx) is branch-free, but erff's inlined implementation branches
//    on |x| (two polynomial ranges) in the PTX, attributed to the call line: divergent, possible
//    (both ranges occur within warps for this input).
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define ROW 256

__global__ void fill_act(float* x)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = (float)((i % 200) - 100) * 0.05f;
}

__global__ void gelu_tanh(const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    float u = 0.7978845608f * (v + 0.044715f * v * v * v);
    y[i] = 0.5f * v * (1.0f + tanhf(u));
}

__global__ void silu_fast(const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    y[i] = __fdividef(v, 1.0f + __expf(-v));
}

__global__ void rms_norm_rows(const float* x, const float* gain, float* y)
{
    __shared__ float partial[ROW / 32];
    __shared__ float total;
    int t = threadIdx.x;
    int lane = t & 31, warp = t >> 5;
    int i = blockIdx.x * ROW + t;
    float v = x[i];
    float s = v * v;
    for (int m = 16; m > 0; m >>= 1) {
        s += __shfl_xor_sync(0xffffffffu, s, m);
    }
    if (lane == 0) { // expect: divergent-branch definite
        partial[warp] = s;
    }
    __syncthreads();
    if (warp == 0) {
        float p = lane < ROW / 32 ? partial[lane] : 0.0f; // expect: divergent-branch definite
        for (int m = 16; m > 0; m >>= 1) {
            p += __shfl_xor_sync(0xffffffffu, p, m);
        }
        if (lane == 0) { // expect: divergent-branch definite
            total = p;
        }
    }
    __syncthreads();
    float inv = rsqrtf(total / (float)ROW + 1e-5f);
    y[i] = v * inv * gain[t];
}

__global__ void posenc_precise(const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float pos = x[i] * 40.0f;
    float freq = __expf(-0.036f * (float)(threadIdx.x & 63));
    float a = sinf(pos * freq); // expect: divergent-branch possible
    float b = cosf(pos * freq); // expect: divergent-branch possible
    y[i] = (threadIdx.x & 1) ? a : b;
}

__global__ void posenc_fast(const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float pos = x[i] * 40.0f;
    float freq = __expf(-0.036f * (float)(threadIdx.x & 63));
    float a = __sinf(pos * freq);
    float b = __cosf(pos * freq);
    y[i] = (threadIdx.x & 1) ? a : b;
}

__global__ void softplus_erf(const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    float sp = __logf(1.0f + __expf(v));
    y[i] = sp + 0.5f * erff(v * 0.70710678f); // expect: divergent-branch possible
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
    std::vector<float> hg(ROW, 1.5f);   // spec: { constant = 1.5 }
    float *d_x, *d_g, *d_y[6];
    CK(cudaMalloc(&d_x, n * sizeof(float)));
    CK(cudaMalloc(&d_g, ROW * sizeof(float)));
    for (int k = 0; k < 6; ++k) CK(cudaMalloc(&d_y[k], n * sizeof(float)));
    CK(cudaMemcpy(d_g, hg.data(), ROW * sizeof(float), cudaMemcpyHostToDevice));
    fill_act<<<256, 256>>>(d_x);
    gelu_tanh<<<256, 256>>>(d_x, d_y[0]);
    silu_fast<<<256, 256>>>(d_x, d_y[1]);
    rms_norm_rows<<<256, 256>>>(d_x, d_g, d_y[2]);
    posenc_precise<<<256, 256>>>(d_x, d_y[3]);
    posenc_fast<<<256, 256>>>(d_x, d_y[4]);
    softplus_erf<<<256, 256>>>(d_x, d_y[5]);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    printf("activations:");
    double maxdiff = 0.0;
    std::vector<float> y[6];
    for (int k = 0; k < 6; ++k) {
        y[k].resize(n);
        CK(cudaMemcpy(y[k].data(), d_y[k], n * sizeof(float), cudaMemcpyDeviceToHost));
        printf(" y%d=%.6e", k, checksum(y[k]));
    }
    for (int i = 0; i < n; ++i) {
        double v = (double)((i % 200) - 100) * 0.05;
        double g = 0.5 * v * (1.0 + tanh(0.7978845608 * (v + 0.044715 * v * v * v)));
        maxdiff = fmax(maxdiff, fabs(g - y[0][i]));
        double d = fabs((double)y[3][i] - (double)y[4][i]);
        maxdiff = fmax(maxdiff, d > 1e-2 ? d : 0.0);
    }
    printf(" max_ref_diff=%.3e\n", maxdiff);
    return maxdiff > 1e-3;
}
