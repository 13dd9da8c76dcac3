// corpus/bank_conflicts.cu -- shared-memory access patterns with and without bank conflicts.
//
// geometry: smem_stride2 grid=256,1,1 block=256,1,1
// geometry: smem_column32 grid=64,1,1 block=256,1,1
// geometry: smem_column33 grid=64,1,1 block=256,1,1
// geometry: smem_stride3 grid=256,1,1 block=256,1,1
// geometry: smem_broadcast grid=256,1,1 block=256,1,1
// geometry: smem_f64_contig grid=256,1,1 block=256,1,1
// geometry: smem_f64_stride2 grid=256,1,1 block=256,1,1
// geometry: smem_bytes grid=256,1,1 block=256,1,1
//
// Shared memory has 32 banks of 4 bytes; a warp request costs one wavefront per distinct word
// address in the busiest bank (64-bit accesses are served per half-warp: 2 wavefronts is ideal).
// Every kernel stages in[] (65536 floats/doubles/bytes, coalesced) through shared memory and
// writes out[] (coalesced); only the shared read pattern differs.
//  - smem_stride2: s[(2t) & 255]: lanes 0..31 hit words 0,2,..,62: two lanes per even bank: 2-way
//    conflict, definite.
//  - smem_column32: a 32x32 tile read down a column, s[(t % 32)*32 + t/32]: all 32 lanes in one
//    bank: 32-way conflict, definite.
//  - smem_column33: the same walk with a row pitch of 33 words: 32 distinct banks: none.
//  - smem_stride3: s[(3t) % 768]: 3 is odd, so 32 lanes map to 32 distinct banks: none (a
//    checker that flags every non-unit stride reports a false positive).
//  - smem_broadcast: every lane reads s[5]: one word, broadcast: none.
//  - smem_f64_contig: double d[t]: 256 contiguous bytes, 2 wavefronts = ideal for 8-byte accesses:
//    none.
//  - smem_f64_stride2: double d[(2t) & 255]: 16-byte stride, each half-warp spans 256 bytes and
//    needs 2 wavefronts (4 in total instead of 2): 2-way conflict, definite.
//  - smem_bytes: char c[t]: four lanes share each word (same word = no conflict): none.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void smem_stride2(const float* in, float* out)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * 256 + t;
    s[t] = in[i];
    __syncthreads();
    out[i] = s[(2 * t) & 255]; // expect: bank-conflict definite
}

__global__ void smem_column32(const float* in, float* out)
{
    __shared__ float s[32 * 32];
    int t = threadIdx.x;
    int base = blockIdx.x * 1024;
    for (int k = 0; k < 4; ++k) {
        s[k * 256 + t] = in[base + k * 256 + t];
    }
    __syncthreads();
    for (int k = 0; k < 4; ++k) {
        int e = k * 256 + t;
        out[base + e] = s[(e % 32) * 32 + e / 32]; // expect: bank-conflict definite
    }
}

__global__ void smem_column33(const float* in, float* out)
{
    __shared__ float s[32 * 33];
    int t = threadIdx.x;
    int base = blockIdx.x * 1024;
    for (int k = 0; k < 4; ++k) {
        int e = k * 256 + t;
        s[(e / 32) * 33 + e % 32] = in[base + e];
    }
    __syncthreads();
    for (int k = 0; k < 4; ++k) {
        int e = k * 256 + t;
        out[base + e] = s[(e % 32) * 33 + e / 32];
    }
}

__global__ void smem_stride3(const float* in, float* out)
{
    __shared__ float s[768];
    int t = threadIdx.x;
    int i = blockIdx.x * 256 + t;
    s[t] = in[i];
    s[t + 256] = in[i] + 1.0f;
    s[t + 512] = in[i] + 2.0f;
    __syncthreads();
    out[i] = s[(3 * t) % 768];
}

__global__ void smem_broadcast(const float* in, float* out)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * 256 + t;
    s[t] = in[i];
    __syncthreads();
    out[i] = s[t] * s[5];
}

__global__ void smem_f64_contig(const double* in, double* out)
{
    __shared__ double d[256];
    int t = threadIdx.x;
    int i = blockIdx.x * 256 + t;
    d[t] = in[i];
    __syncthreads();
    out[i] = d[255 - t] * 2.0;
}

__global__ void smem_f64_stride2(const double* in, double* out)
{
    __shared__ double d[256];
    int t = threadIdx.x;
    int i = blockIdx.x * 256 + t;
    d[t] = in[i];
    __syncthreads();
    out[i] = d[(2 * t) & 255] + 1.0; // expect: bank-conflict definite
}

__global__ void smem_bytes(const unsigned char* in, unsigned char* out)
{
    __shared__ unsigned char c[256];
    int t = threadIdx.x;
    int i = blockIdx.x * 256 + t;
    c[t] = in[i];
    __syncthreads();
    out[i] = (unsigned char)(c[t ^ 1] + 1);
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
    std::vector<float> hf(n);
    std::vector<double> hd(n);
    std::vector<unsigned char> hb(n);
    for (int i = 0; i < n; ++i) { hf[i] = (float)i; hd[i] = (double)i; hb[i] = (unsigned char)i; }  // spec: iota
    float *d_f, *d_of[5];
    double *d_d, *d_od[2];
    unsigned char *d_b, *d_ob;
    CK(cudaMalloc(&d_f, n * sizeof(float)));
    CK(cudaMalloc(&d_d, n * sizeof(double)));
    CK(cudaMalloc(&d_b, n));
    CK(cudaMalloc(&d_ob, n));
    for (int k = 0; k < 5; ++k) CK(cudaMalloc(&d_of[k], n * sizeof(float)));
    for (int k = 0; k < 2; ++k) CK(cudaMalloc(&d_od[k], n * sizeof(double)));
    CK(cudaMemcpy(d_f, hf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_d, hd.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_b, hb.data(), n, cudaMemcpyHostToDevice));

    smem_stride2<<<256, 256>>>(d_f, d_of[0]);
    smem_column32<<<64, 256>>>(d_f, d_of[1]);
    smem_column33<<<64, 256>>>(d_f, d_of[2]);
    smem_stride3<<<256, 256>>>(d_f, d_of[3]);
    smem_broadcast<<<256, 256>>>(d_f, d_of[4]);
    smem_f64_contig<<<256, 256>>>(d_d, d_od[0]);
    smem_f64_stride2<<<256, 256>>>(d_d, d_od[1]);
    smem_bytes<<<256, 256>>>(d_b, d_ob);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<float> of[5];
    for (int k = 0; k < 5; ++k) {
        of[k].resize(n);
        CK(cudaMemcpy(of[k].data(), d_of[k], n * sizeof(float), cudaMemcpyDeviceToHost));
    }
    std::vector<double> od0(n), od1(n);
    std::vector<unsigned char> ob(n);
    CK(cudaMemcpy(od0.data(), d_od[0], n * sizeof(double), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(od1.data(), d_od[1], n * sizeof(double), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ob.data(), d_ob, n, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        int t = i % 256, b = i / 256;
        bad += of[0][i] != (float)(b * 256 + ((2 * t) & 255));
        int blk = i / 1024, e = i % 1024;
        bad += of[1][i] != (float)(blk * 1024 + (e % 32) * 32 + e / 32);
        bad += of[2][i] != of[1][i];
        int k3 = (3 * t) % 768;
        bad += of[3][i] != (float)(b * 256 + k3 % 256) + (float)(k3 / 256);
        bad += of[4][i] != (float)i * (float)(b * 256 + 5);
        bad += od0[i] != (double)(b * 256 + 255 - t) * 2.0;
        bad += od1[i] != (double)(b * 256 + ((2 * t) & 255)) + 1.0;
        bad += ob[i] != (unsigned char)((unsigned char)(b * 256 + (t ^ 1)) + 1);
    }
    printf("bank_conflicts: f0=%.6e f1=%.6e f3=%.6e f4=%.6e d0=%.6e d1=%.6e b=%.6e mismatches=%d\n",
           checksum(of[0]), checksum(of[1]), checksum(of[3]), checksum(of[4]), checksum(od0), checksum(od1),
           checksum(ob), bad);
    return bad ? 1 : 0;
}
