// Pattern 2 of issue 10: a thread-dependent condition joined with a uniform unknown. nvcc folds
// the loop's entry guard into the branch (`or.pred %p, %odd, %iters_lt_1`): the warp splits
// whenever the loop runs at all. Whether it runs is the launch's business: `possible`, saying
// which unknown could keep the warp together.
__global__ void odd_lanes_loop(float *out, const float *in, int iters) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    if (threadIdx.x & 1) { // expect: divergent-branch possible
        for (int k = 0; k < iters; k++) {
            acc += in[k];
        }
    }
    out[i] = acc;
}

// An optional output: callers pass NULL for `sums` on some launches (cuda-samples' shfl_scan
// does on its second), and then no lane stores. Only the pointer keeps the last lane's store
// from splitting its warp: `possible`, not `definite`.
__global__ void optional_sums(int *data, int *sums) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = data[i] + 1;
    data[i] = v;
    if (sums != 0 && threadIdx.x == blockDim.x - 1) { // expect: divergent-branch possible
        sums[blockIdx.x] = v;
    }
}
