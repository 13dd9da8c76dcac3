// corpus/false_positive.cu -- index expressions that look non-affine or irregular but are coalesced
// (the false-positive classes GPUDrano reports in section 6: divide-then-multiply by the same
// constant, conditional assignment, __mul24, indirect-but-identity).
//
// geometry: div4_mul4 grid=256,1,1 block=256,1,1
// geometry: div_mod_width grid=256,1,1 block=256,1,1
// geometry: xor_pair grid=256,1,1 block=256,1,1
// geometry: cond_assign grid=256,1,1 block=256,1,1
// geometry: mul24_index grid=256,1,1 block=256,1,1
// geometry: identity_indirect grid=256,1,1 block=256,1,1
// assume: w=1024
//
// n = 65536 = 256 * 256. None of the direct index patterns is uncoalesced:
//  - (tid/4)*4 + tid%4 == tid: coalesced, no expectation.
//  - (i / w) * w + i % w with w = 1024: == i: coalesced, no expectation.
//  - i ^ 1 swaps neighbours inside each 8-byte pair: the warp reads the same 128 aligned bytes.
//  - (i & 1) ? i - 1 : i + 1: the same permutation written as a conditional assignment (selp in
//    PTX): coalesced.
//  - __mul24(blockIdx.x, blockDim.x) + threadIdx.x: coalesced.
//  - in[idx[i]] with idx = identity (iota): dynamically coalesced, but a gather through loaded
//    data can only be judged `possible` statically: uncoalesced-access, possible. (A dynamic
//    profile will show it coalesced; that is the point of keeping it.)
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void div4_mul4(const float* in, float* out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int idx = (tid / 4) * 4 + tid % 4;
    out[idx] = in[idx] * 2.0f;
}

__global__ void div_mod_width(const float* in, float* out, int w)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int row = i / w;
    int col = i % w;
    out[row * w + col] = in[row * w + col] + 1.0f;
}

__global__ void xor_pair(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i ^ 1];
}

__global__ void cond_assign(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j;
    if (i & 1)
        j = i - 1;
    else
        j = i + 1;
    out[i] = in[j] - 1.0f;
}

__global__ void mul24_index(const float* in, float* out)
{
    int i = __mul24(blockIdx.x, blockDim.x) + threadIdx.x;
    out[i] = in[i] * 0.5f;
}

__global__ void identity_indirect(const float* in, const int* idx, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[idx[i]] + 3.0f; // expect: uncoalesced-access possible
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
    std::vector<float> hin(n);
    std::vector<int> hidx(n);
    for (int i = 0; i < n; ++i) { hin[i] = (float)i; hidx[i] = i; }  // spec: iota, iota
    float *d_in, *d_o[6];
    int* d_idx;
    CK(cudaMalloc(&d_in, n * sizeof(float)));
    CK(cudaMalloc(&d_idx, n * sizeof(int)));
    for (int k = 0; k < 6; ++k) CK(cudaMalloc(&d_o[k], n * sizeof(float)));
    CK(cudaMemcpy(d_in, hin.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_idx, hidx.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    div4_mul4<<<256, 256>>>(d_in, d_o[0]);
    div_mod_width<<<256, 256>>>(d_in, d_o[1], 1024);
    xor_pair<<<256, 256>>>(d_in, d_o[2]);
    cond_assign<<<256, 256>>>(d_in, d_o[3]);
    mul24_index<<<256, 256>>>(d_in, d_o[4]);
    identity_indirect<<<256, 256>>>(d_in, d_idx, d_o[5]);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> o[6];
    int bad = 0;
    printf("false_positive:");
    for (int k = 0; k < 6; ++k) {
        o[k].resize(n);
        CK(cudaMemcpy(o[k].data(), d_o[k], n * sizeof(float), cudaMemcpyDeviceToHost));
        printf(" out%d=%.6e", k, checksum(o[k]));
    }
    for (int i = 0; i < n; ++i) {
        bad += o[0][i] != (float)i * 2.0f;
        bad += o[1][i] != (float)i + 1.0f;
        bad += o[2][i] != (float)(i ^ 1);
        bad += o[3][i] != (float)(i ^ 1) - 1.0f;
        bad += o[4][i] != (float)i * 0.5f;
        bad += o[5][i] != (float)i + 3.0f;
    }
    printf(" mismatches=%d\n", bad);
    return bad ? 1 : 0;
}
