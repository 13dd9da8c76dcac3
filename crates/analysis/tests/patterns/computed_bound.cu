// Tests of the thread index within the block against a bound the kernel computes (HeCBench's
// convolution1D, chacha20 and zoom): half a run-time mask width (the halo a tile loads from its
// neighbours), a tile's extent rounded from a float scale ratio. Nothing makes such a bound a
// multiple of 32, and the warp it falls in splits in every block: a `possible`
// divergent-branch, not a boundary note. A size the host passes whole (`tid < n`) and a power
// of two (`tid < 1 << k`) stay boundary notes: programs choose those as multiples of the warp.
#define TILE 256

__global__ void halo(const float *in, float *out, int width, int mask_width) {
    __shared__ float tile[TILE + 64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n = mask_width / 2;
    int left = (blockIdx.x - 1) * blockDim.x + threadIdx.x;
    if (threadIdx.x >= blockDim.x - n) // expect: divergent-branch possible
        tile[threadIdx.x - (blockDim.x - n)] = left < 0 ? 0.f : in[left];
    tile[n + threadIdx.x] = in[i];
    int right = (blockIdx.x + 1) * blockDim.x + threadIdx.x;
    if (threadIdx.x < n) // expect: divergent-branch possible
        tile[threadIdx.x + blockDim.x + n] = right >= width ? 0.f : in[right];
    __syncthreads();
    float s = 0.f;
    for (int j = 0; j < mask_width; j++)
        s += tile[threadIdx.x + j];
    out[i] = s;
}

__global__ void stage(const float *in, float *out, int in_w, int out_w, int n, int k) {
    extern __shared__ float staged[];
    float ratio = (float)in_w / out_w;
    int start = floorf(blockIdx.x * blockDim.x * ratio);
    int end = ceilf((blockIdx.x + 1) * blockDim.x * ratio);
    for (int j = threadIdx.x; j < end - start; j += blockDim.x) // expect: divergent-branch possible
        staged[j] = in[start + j]; // expect: misaligned-access possible
    __syncthreads();
    if (threadIdx.x < n)
        out[blockIdx.x * blockDim.x + threadIdx.x] = staged[threadIdx.x];
    if (threadIdx.x < (1 << k))
        out[threadIdx.x] = staged[0];
}

int main(int argc, char **argv) {
    float *in = 0, *out = 0;
    int size = 4096 * argc; // known only at run time
    halo<<<size / TILE, TILE>>>(in, out, size, 2 * argc + 1);
    stage<<<64, TILE, 4 * TILE * sizeof(float)>>>(in, out, size, size / 3, argc, argc + 4);
    return 0;
}
