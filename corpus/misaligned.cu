// corpus/misaligned.cu -- contiguous but misaligned global accesses.
//
// geometry: shift1_f32 grid=1024,1,1 block=256,1,1
// geometry: shift1_f64 grid=1024,1,1 block=256,1,1
// geometry: shift32_f32 grid=1024,1,1 block=256,1,1
// geometry: store_shift1 grid=1024,1,1 block=256,1,1
// geometry: shift_param grid=1024,1,1 block=256,1,1
// geometry: copy_view grid=1024,1,1 block=256,1,1
// assume: off=5
//
// n = 262144 outputs, 1024 blocks * 256 threads, exact cover (no guards). Buffers come from
// cudaMalloc (256-byte aligned). Patterns and why each expectation holds:
//  - in[i + 1] (float): the warp reads 128 contiguous bytes starting 4 bytes past a 128-byte
//    boundary: 5 sectors instead of 4, no gaps: misaligned, definite (not uncoalesced).
//  - in[i + 1] (double): 256 contiguous bytes 8 bytes off: 9 sectors instead of 8: misaligned, definite.
//  - in[i + 32] (float): shifted by exactly 128 bytes: aligned, no expectation.
//  - out[i + 1] = ...: the misaligned store, definite.
//  - in[i + off] with off=5 (what main passes): 20 bytes off, misaligned, definite under
//    `assume: off=5`.
//  - copy_view(view, ...) is launched with view = in + 3 (an interior pointer 12 bytes into the
//    allocation; the spec passes { buffer = "in", offset = 12 }). The kernel text is a plain
//    view[i]: nothing in the kernel says the pointer is misaligned, so only `possible` (dynamically
//    it is 5 sectors per request).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void shift1_f32(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + 1] * 2.0f; // expect: misaligned-access definite
}

__global__ void shift1_f64(const double* in, double* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + 1] * 0.5; // expect: misaligned-access definite
}

__global__ void shift32_f32(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + 32] + 1.0f;
}

__global__ void store_shift1(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i + 1] = in[i] - 1.0f; // expect: misaligned-access definite
}

__global__ void shift_param(const float* in, float* out, int off)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + off]; // expect: misaligned-access definite
}

__global__ void copy_view(const float* view, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = view[i]; // expect: misaligned-access possible
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
    const int n = 262144;
    const int nin = n + 64;
    std::vector<float> h_in(nin);
    std::vector<double> h_ind(nin);
    for (int i = 0; i < nin; ++i) { h_in[i] = (float)i; h_ind[i] = (double)i; }  // spec: iota
    float *d_in, *d_a, *d_c, *d_st, *d_p, *d_v;
    double *d_ind, *d_b;
    CK(cudaMalloc(&d_in, nin * sizeof(float)));
    CK(cudaMalloc(&d_ind, nin * sizeof(double)));
    CK(cudaMalloc(&d_a, n * sizeof(float)));
    CK(cudaMalloc(&d_b, n * sizeof(double)));
    CK(cudaMalloc(&d_c, n * sizeof(float)));
    CK(cudaMalloc(&d_st, (n + 1) * sizeof(float)));
    CK(cudaMalloc(&d_p, n * sizeof(float)));
    CK(cudaMalloc(&d_v, n * sizeof(float)));
    CK(cudaMemcpy(d_in, h_in.data(), nin * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_ind, h_ind.data(), nin * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_st, 0, (n + 1) * sizeof(float)));

    shift1_f32<<<1024, 256>>>(d_in, d_a);
    shift1_f64<<<1024, 256>>>(d_ind, d_b);
    shift32_f32<<<1024, 256>>>(d_in, d_c);
    store_shift1<<<1024, 256>>>(d_in, d_st);
    shift_param<<<1024, 256>>>(d_in, d_p, 5);
    copy_view<<<1024, 256>>>(d_in + 3, d_v);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<float> a(n), c(n), st(n + 1), p(n), v(n);
    std::vector<double> b(n);
    CK(cudaMemcpy(a.data(), d_a, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b.data(), d_b, n * sizeof(double), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(c.data(), d_c, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(st.data(), d_st, (n + 1) * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(p.data(), d_p, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(v.data(), d_v, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        bad += a[i] != (float)(i + 1) * 2.0f;
        bad += b[i] != (double)(i + 1) * 0.5;
        bad += c[i] != (float)(i + 32) + 1.0f;
        bad += st[i + 1] != (float)i - 1.0f;
        bad += p[i] != (float)(i + 5);
        bad += v[i] != (float)(i + 3);
    }
    printf("misaligned: a=%.6e b=%.6e c=%.6e st=%.6e p=%.6e v=%.6e mismatches=%d\n",
           checksum(a), checksum(b), checksum(c), checksum(st), checksum(p), checksum(v), bad);
    return bad ? 1 : 0;
}
