// A block-stride loop under a guard that is the same in every lane but reads loaded data and
// loop counters (`if (!skip[k] || j + 1 == iters)`): the guard lets the whole warp in or none
// of it, so only the loop's own test can split the warp, and with 1000 elements over 256
// threads it does (the last warp's lanes run 4 or 3 trips). Deciding the guard would only
// enumerate the outer loops it reads (100000 trips of `j` here, past the evaluation budget);
// the verdict reads the lane-varying part alone, as it reads any branch where it is reached.
__global__ void topics(float *out, const int *skip, const float *w, const int *ptr,
                       int iters, int n) {
    __shared__ float acc[1024];
    for (int i = blockIdx.x; i < 4096; i += gridDim.x) {
        int beg = ptr[i], end = ptr[i + 1];
        for (int j = 0; j < iters; ++j) {
            for (int k = beg; k < end; ++k) {
                int s = skip[k];
                if (!s || j + 1 == iters) {
                    for (int l = threadIdx.x; l < n; l += blockDim.x) // expect: divergent-branch definite
                        acc[l] += w[k * n + l];
                    __syncthreads();
                }
            }
        }
        for (int l = threadIdx.x; l < n; l += blockDim.x) // expect: divergent-branch definite
            out[i * n + l] = acc[l];
    }
}

int main(int argc, char **argv) {
    topics<<<64, 256>>>(0, 0, 0, 0, 100000, 1000);
    return 0;
}
