// corpus/branch_data.cu -- data-dependent branches.
//
// geometry: fill_inputs grid=256,1,1 block=256,1,1
// geometry: relu_scale grid=256,1,1 block=256,1,1
// geometry: block_flag grid=256,1,1 block=256,1,1
// geometry: sparse_work grid=256,1,1 block=256,1,1
// geometry: nested_data grid=256,1,1 block=256,1,1
//
// n = 65536 = 256 * 256, no guards. fill_inputs writes a[i] = ((i*37 + 11) % 101) - 50 (signs mix
// within every warp), mask[i] = (i % 7 == 3), flags[b] = b % 3 on the device, so the spec needs no
// data files.
//  - `a[i] > 0.0f`: depends on loaded per-thread data: divergent, possible.
//  - `flags[blockIdx.x] != 0`: loaded data, but every lane of the block loads the same address,
//    so the condition is block-uniform: no expectation.
//  - `mask[i]` guarding a loop: divergent, possible. The loop inside runs a uniform 16 times.
//  - Memory accesses inside data-dependent arms run with a data-dependent active mask; where the
//    active lanes leave gaps the request touches more sectors than its active bytes need (this is
//    what Nsight Compute's excessive-sector counter reports on those lines): uncoalesced,
//    possible. sparse_work's `acc = a[i]` is written before the branch, but nvcc sinks the load
//    into the `mask[i]` arm (its only use), so in the PTX it runs under the mask too. Stores that
//    nvcc merges after the join (e.g. nested_data's two out[i] stores) run full-warp.
//  - nested: outer `a[i] < -20` and inner `(int)a[i] % 2 == 0`: both data dependent, possible.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void fill_inputs(float* a, int* mask, int* flags)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = (float)((i * 37 + 11) % 101) - 50.0f;
    mask[i] = (i % 7 == 3) ? 1 : 0;
    if (i < 256) flags[i] = i % 3;
}

__global__ void relu_scale(const float* a, const float* w, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i];
    if (x > 0.0f) { // expect: divergent-branch possible
        out[i] = x * w[i]; // expect: uncoalesced-access possible
    } else {
        out[i] = 0.0f; // expect: uncoalesced-access possible
    }
}

__global__ void block_flag(const float* a, const int* flags, const float* w, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (flags[blockIdx.x] != 0) {
        out[i] = a[i] + w[i];
    } else {
        out[i] = -a[i];
    }
}

__global__ void sparse_work(const float* a, const int* mask, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = a[i]; // expect: uncoalesced-access possible
    if (mask[i]) { // expect: divergent-branch possible
        for (int k = 0; k < 16; ++k) {
            acc = acc * 0.75f + (float)k;
        }
        out[i] = acc; // expect: uncoalesced-access possible
    }
}

__global__ void nested_data(const float* a, const float* w, float* out, float* aux)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i];
    if (x < -20.0f) { // expect: divergent-branch possible
        int k = (int)x;
        if (k % 2 == 0) { // expect: divergent-branch possible
            aux[i] = w[i] * x; // expect: uncoalesced-access possible
        }
        out[i] = -x;
    } else {
        out[i] = x + w[i]; // expect: uncoalesced-access possible
    }
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
    std::vector<float> hw(n);
    for (int i = 0; i < n; ++i) hw[i] = 0.5f;   // spec: { constant = 0.5 }
    float *d_a, *d_w, *d_o[4], *d_aux;
    int *d_mask, *d_flags;
    CK(cudaMalloc(&d_a, n * sizeof(float)));
    CK(cudaMalloc(&d_w, n * sizeof(float)));
    CK(cudaMalloc(&d_aux, n * sizeof(float)));
    CK(cudaMalloc(&d_mask, n * sizeof(int)));
    CK(cudaMalloc(&d_flags, 256 * sizeof(int)));
    for (int k = 0; k < 4; ++k) { CK(cudaMalloc(&d_o[k], n * sizeof(float))); CK(cudaMemset(d_o[k], 0, n * sizeof(float))); }
    CK(cudaMemset(d_aux, 0, n * sizeof(float)));
    CK(cudaMemcpy(d_w, hw.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    fill_inputs<<<256, 256>>>(d_a, d_mask, d_flags);
    relu_scale<<<256, 256>>>(d_a, d_w, d_o[0]);
    block_flag<<<256, 256>>>(d_a, d_flags, d_w, d_o[1]);
    sparse_work<<<256, 256>>>(d_a, d_mask, d_o[2]);
    nested_data<<<256, 256>>>(d_a, d_w, d_o[3], d_aux);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    printf("branch_data:");
    for (int k = 0; k < 4; ++k) {
        std::vector<float> o(n);
        CK(cudaMemcpy(o.data(), d_o[k], n * sizeof(float), cudaMemcpyDeviceToHost));
        printf(" out%d=%.6e", k, checksum(o));
    }
    std::vector<float> aux(n);
    CK(cudaMemcpy(aux.data(), d_aux, n * sizeof(float), cudaMemcpyDeviceToHost));
    printf(" aux=%.6e\n", checksum(aux));
    return 0;
}
