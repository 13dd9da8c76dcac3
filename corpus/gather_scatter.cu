// corpus/gather_scatter.cu -- indirect accesses through an index array.
//
// geometry: make_perm grid=1024,1,1 block=256,1,1
// geometry: gather grid=1024,1,1 block=256,1,1
// geometry: scatter grid=1024,1,1 block=256,1,1
// geometry: gather_block_uniform grid=1024,1,1 block=256,1,1
// assume: n=262144
//
// n = 262144 = 1024 * 256 exactly (no guards). make_perm builds idx[i] = (i*7919 + 13) mod n,
// a permutation (7919 is odd, n a power of two), on the device so the spec needs no data file.
// Patterns and why each expectation holds:
//  - idx[i] itself is read coalesced (no expectation).
//  - gather: in[j] with j = idx[i] is data dependent: uncoalesced, possible (with this permutation
//    neighbouring lanes land 7919 elements apart, so dynamically it is fully scattered).
//  - scatter: out[idx[i]] = ...: the store is data dependent: uncoalesced, possible.
//  - gather_block_uniform: the index is loaded once per block (idx[blockIdx.x]) and then offset by
//    threadIdx.x: every warp reads 128 contiguous aligned bytes. Indirect but coalesced: no
//    expectation (a checker that flags every load through loaded data reports a false positive).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void make_perm(int* idx, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    idx[i] = (int)(((unsigned)i * 7919u + 13u) & (unsigned)(n - 1));
}

__global__ void gather(const float* in, const int* idx, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = idx[i];
    out[i] = in[j]; // expect: uncoalesced-access possible
}

__global__ void scatter(const float* in, const int* idx, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = idx[i];
    out[j] = in[i] + 1.0f; // expect: uncoalesced-access possible
}

__global__ void gather_block_uniform(const float* in, const int* idx, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int blk = idx[blockIdx.x] & (gridDim.x - 1);
    out[i] = in[blk * blockDim.x + threadIdx.x] * 2.0f;
}

static double checksum(const std::vector<float>& v)
{
    double s = 0.0;
    for (size_t i = 0; i < v.size(); ++i) s += (double)v[i] * (double)((i % 7) + 1);
    return s;
}

int main()
{
    const int n = 262144;
    std::vector<float> h_in(n);
    for (int i = 0; i < n; ++i) h_in[i] = (float)i;  // spec: iota
    float *d_in, *d_g, *d_s, *d_u;
    int* d_idx;
    CK(cudaMalloc(&d_in, n * sizeof(float)));
    CK(cudaMalloc(&d_g, n * sizeof(float)));
    CK(cudaMalloc(&d_s, n * sizeof(float)));
    CK(cudaMalloc(&d_u, n * sizeof(float)));
    CK(cudaMalloc(&d_idx, n * sizeof(int)));
    CK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    make_perm<<<1024, 256>>>(d_idx, n);
    gather<<<1024, 256>>>(d_in, d_idx, d_g);
    scatter<<<1024, 256>>>(d_in, d_idx, d_s);
    gather_block_uniform<<<1024, 256>>>(d_in, d_idx, d_u);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<float> g(n), s(n), u(n);
    CK(cudaMemcpy(g.data(), d_g, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(s.data(), d_s, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(u.data(), d_u, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        int j = (int)(((unsigned)i * 7919u + 13u) & (unsigned)(n - 1));
        bad += g[i] != (float)j;
        bad += s[j] != (float)i + 1.0f;
        int blk = (int)(((unsigned)(i / 256) * 7919u + 13u) & (unsigned)(n - 1)) & 1023;
        bad += u[i] != (float)(blk * 256 + i % 256) * 2.0f;
    }
    printf("gather_scatter: gather=%.6e scatter=%.6e block_uniform=%.6e mismatches=%d\n",
           checksum(g), checksum(s), checksum(u), bad);
    return bad ? 1 : 0;
}
