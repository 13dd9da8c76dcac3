// Block-stride loops over a row's columns (`for (c = threadIdx.x; c < n; c += blockDim.x)`)
// nested in loops whose trips are the same in every lane (HeCBench's lda E-step: documents
// taken block by block, iterations, words read from a CSR index). Which lanes leave an inner
// loop depends on its own bound only: with 1000 columns and 256 threads the warp of threads
// 224..255 splits on the fourth trip, in every block and every trip of the outer loops.
// Enumerating the outer loops' trips (64 iterations, and the 500 blocks the first loop reads)
// spent the kernel's evaluation budget on the first loops and left the others boundary notes.
#define THREADS 256

// A data-dependent loop per lane (a digamma's recurrence), as lda's.
__device__ float digamma(float x) {
    float r = 0.f;
    for (; x < 7.f; ++x) // expect: divergent-branch possible
        r -= 1.f / x;
    return r + logf(x); // expect: divergent-branch possible
}

__global__ void rows(const int *ptr, const int *cols, const float *w, float *out, float *acc,
                     int nrows, int ncols, int iters) {
    for (int r = blockIdx.x; r < nrows; r += gridDim.x) {
        for (int c = threadIdx.x; c < ncols; c += blockDim.x) // expect: divergent-branch definite
            acc[c] = 0.f;
        for (int it = 0; it < iters; ++it) {
            for (int c = threadIdx.x; c < ncols; c += blockDim.x) // expect: divergent-branch definite
                out[r * ncols + c] = 0.f;
            __syncthreads();
            for (int k = ptr[r]; k < ptr[r + 1]; ++k) {
                const int col = cols[k];
                for (int c = threadIdx.x; c < ncols; c += blockDim.x) // expect: divergent-branch definite
                    out[r * ncols + c] += w[col * ncols + c] * expf(digamma(acc[c]));
                __syncthreads();
                for (int c = threadIdx.x; c < ncols; c += blockDim.x) // expect: divergent-branch definite
                    acc[c] += w[col * ncols + c] * out[r * ncols + c];
                __syncthreads();
            }
            for (int c = threadIdx.x; c < ncols; c += blockDim.x) // expect: divergent-branch definite
                out[r * ncols + c] *= 0.5f;
            __syncthreads();
        }
        for (int c = threadIdx.x; c < ncols; c += blockDim.x) // expect: divergent-branch definite
            acc[c] *= out[r * ncols + c];
    }
}

void run(const int *ptr, const int *cols, const float *w, float *out, float *acc) {
    rows<<<500, THREADS>>>(ptr, cols, w, out, acc, 500, 1000, 64);
}
