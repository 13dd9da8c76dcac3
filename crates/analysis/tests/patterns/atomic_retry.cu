// Column sums through shared memory (the shape of HeCBench's stddev). The H100 has no
// floating-point add on shared memory: ptxas turns `atomicAdd(float *shared, v)` into a
// compare-and-swap loop, and lanes whose swap loses to another update go round again while
// the others wait, a divergent branch the PTX does not show. One lane per warp doing the
// update (after a warp reduction) cannot split its warp, and an integer add is one native
// instruction: neither is reported.
#define COLS 32

__global__ void column_sums(const float *data, float *sums, unsigned *counts, int rows) {
    __shared__ float acc[COLS];
    __shared__ unsigned seen[COLS];
    int col = threadIdx.x % COLS;
    if (threadIdx.x < COLS) { // the first warp, whole
        acc[threadIdx.x] = 0.f;
        seen[threadIdx.x] = 0;
    }
    __syncthreads();
    float v = 0.f;
    for (int r = threadIdx.x / COLS; r < rows; r += blockDim.x / COLS)
        v += data[r * COLS + col];
    atomicAdd(&acc[col], v); // a branch of the SASS: the test below looks for it
    atomicAdd(&seen[col], 1u);
    float w = v;
    for (int o = 16; o > 0; o >>= 1)
        w += __shfl_down_sync(0xffffffff, w, o);
    if ((threadIdx.x & 31) == 0) // expect: divergent-branch definite
        atomicAdd(&acc[0], w);
    __syncthreads();
    if (threadIdx.x < COLS) { // the first warp, whole
        atomicAdd(&sums[threadIdx.x], acc[threadIdx.x]);
        counts[threadIdx.x] = seen[threadIdx.x];
    }
}

int main() {
    float *d = 0, *s = 0;
    unsigned *c = 0;
    column_sums<<<64, 256>>>(d, s, c, 4096);
    return 0;
}
