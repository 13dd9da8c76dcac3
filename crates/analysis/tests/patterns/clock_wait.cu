// A wait that polls a clock (`clock64()`, `%globaltimer`: the back-off of `cuda::barrier`'s
// wait in the CUDA headers, a timed spin): one instruction reads the clock for every active
// lane of a warp at once, so the lanes of a converged warp see the same value and leave the
// loop together (Nsight Compute counts no divergent branch in the CUDA sample simpleAWBarrier's
// barrier wait). The clock is no source of thread dependence: no finding on the loop.
__global__ void timed(float *out, const float *in, long long budget) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = in[i];
    long long start = clock64();
    while (clock64() - start < budget) {
        acc = acc * 0.5f + 1.0f;
    }
    out[i] = acc;
}

int main(int argc, char **argv) {
    timed<<<64, 256>>>(0, 0, argc * 1000LL);
    return 0;
}
