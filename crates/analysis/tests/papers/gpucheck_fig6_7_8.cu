// GPUCheck figures 6, 7 and 8.
//  - figure 6: b is assigned 1 or 0 under a thread-dependent branch, so b is thread dependent
//    where it is used after the join (control dependence), although each assignment is a
//    constant. `c % 2` splits every warp: the branch is totally divergent (nvcc keeps the branch
//    because the two sides do different memory work). Each side runs on every other lane, so its
//    accesses leave holes in the request (Nsight Compute's excessive sectors): uncoalesced.
//    Arr[b] touches two words: coalesced.
//  - figure 7: readBounded clamps tx at 256; its ACF is
//    (tx > 256)*(a + 4*256) + (tx <= 256)*(a + 4*tx), so neighbouring lanes are 4 bytes apart:
//    coalesced; with 256 threads per block the clamp never splits a warp.
//  - figure 8: a parallel memcpy; ACF(srcaddr) = [src] + [i] + tx: coalesced; its loop exit
//    compares with an unknown size (a boundary check, not reported).
//
// geometry: fig6 grid=1,1,1 block=256,1,1
// geometry: fig7 grid=1,1,1 block=256,1,1
// geometry: fig8 grid=1,1,1 block=256,1,1

__global__ void fig6(int* Arr, const float* x, const float* z, float* y, float* w)
{
    int a = threadIdx.x;
    int c = a % 2;
    int b;
    if (c) { // expect: divergent-branch definite
        b = 1;
        y[a] = x[a] * 3.0f + 1.0f; // expect: uncoalesced-access definite
    } else {
        b = 0;
        y[a] = z[a] * 0.5f; // expect: uncoalesced-access definite
        w[a] = z[a] - x[a]; // expect: uncoalesced-access definite
    }
    Arr[a] = 0;
    Arr[b] = 0;
}

__device__ __forceinline__ int readBounded(const int* a)
{
    int tx = threadIdx.x;
    if (tx > 256)
        tx = 256;
    const int* addr = a + tx;
    return *addr;
}

__global__ void fig7(const int* a, int* out)
{
    out[threadIdx.x] = readBounded(a);
}

__device__ __forceinline__ void my_memcpy(char* tgt, const char* src, unsigned long sz)
{
    int tx = threadIdx.x;
    int dim = blockDim.x;
    for (int i = 0; i + tx < sz; i += dim) {
        char* tgtaddr = tgt + i + tx;
        const char* srcaddr = src + i + tx;
        *tgtaddr = *srcaddr;
    }
}

__global__ void fig8(char* tgt, const char* src, unsigned long sz)
{
    my_memcpy(tgt, src, sz);
}
