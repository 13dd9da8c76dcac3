// corpus/histogram.cu -- 256-bin histograms with global atomics and with shared-memory atomics.
//
// geometry: fill_samples grid=4096,1,1 block=256,1,1
// geometry: hist_global grid=4096,1,1 block=256,1,1
// geometry: hist_shared grid=256,1,1 block=256,1,1
// assume: n=1048576
//
// n = 1048576 samples; fill_samples writes data[i] = (i * 2654435761) >> 20 (a multiplicative
// hash; bins are its low 8 bits). Integer atomics make the results independent of execution
// order, so the histograms can be compared bit for bit.
//  - hist_global: atomicAdd(&hist[bin], 1) straight to global memory: the bins of a warp are data
//    dependent and scattered: uncoalesced, possible (it is also heavily contended).
//  - hist_shared: per-block shared histogram. Zeroing sh[t] and the final merge
//    atomicAdd(&hist[t], sh[t]) are contiguous per warp (no conflict, coalesced). The sample loop
//    is a grid-stride loop with a uniform 16 iterations (65536 threads, 1048576 samples).
//    atomicAdd(&sh[bin], 1u) with data-dependent bins: bank-conflict, possible.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define NBINS 256

__global__ void fill_samples(unsigned* data)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    data[i] = (i * 2654435761u) >> 20;
}

__global__ void hist_global(const unsigned* data, unsigned* hist, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned bin = data[i] & (NBINS - 1);
        atomicAdd(&hist[bin], 1u); // expect: uncoalesced-access possible
    }
}

__global__ void hist_shared(const unsigned* data, unsigned* hist, int n)
{
    __shared__ unsigned sh[NBINS];
    int t = threadIdx.x;
    sh[t] = 0u;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) {
        unsigned bin = data[i] & (NBINS - 1);
        atomicAdd(&sh[bin], 1u); // expect: bank-conflict possible
    }
    __syncthreads();
    atomicAdd(&hist[t], sh[t]);
}

int main()
{
    const int n = 1048576;
    unsigned *d_data, *d_h1, *d_h2;
    CK(cudaMalloc(&d_data, n * sizeof(unsigned)));
    CK(cudaMalloc(&d_h1, NBINS * sizeof(unsigned)));
    CK(cudaMalloc(&d_h2, NBINS * sizeof(unsigned)));
    CK(cudaMemset(d_h1, 0, NBINS * sizeof(unsigned)));
    CK(cudaMemset(d_h2, 0, NBINS * sizeof(unsigned)));
    fill_samples<<<4096, 256>>>(d_data);
    hist_global<<<4096, 256>>>(d_data, d_h1, n);
    hist_shared<<<256, 256>>>(d_data, d_h2, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<unsigned> h1(NBINS), h2(NBINS), ref(NBINS, 0u);
    CK(cudaMemcpy(h1.data(), d_h1, NBINS * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h2.data(), d_h2, NBINS * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < (unsigned)n; ++i) ref[((i * 2654435761u) >> 20) & (NBINS - 1)]++;
    int bad = 0;
    double cs = 0.0;
    for (int b = 0; b < NBINS; ++b) {
        bad += h1[b] != ref[b];
        bad += h2[b] != ref[b];
        cs += (double)h1[b] * (b + 1);
    }
    printf("histogram: weighted=%.6e mismatches=%d\n", cs, bad);
    return bad ? 1 : 0;
}
