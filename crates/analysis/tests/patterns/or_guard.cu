// Pattern 2 of issue 10: a thread-dependent condition joined with a uniform unknown. nvcc folds
// the loop's entry guard into the branch (`or.pred %p, %odd, %iters_lt_1`): the warp splits
// whenever the loop runs at all.
__global__ void odd_lanes_loop(float *out, const float *in, int iters) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    if (threadIdx.x & 1) { // expect: divergent-branch definite
        for (int k = 0; k < iters; k++) {
            acc += in[k];
        }
    }
    out[i] = acc;
}
