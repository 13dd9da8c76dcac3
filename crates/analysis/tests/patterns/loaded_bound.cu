// A bound on the thread index that the block loads at run time (the CUDA sample eigenvalues'
// `if (tid < offset_mult_lambda)`, a count its block computed): the lanes it keeps are a
// prefix of each warp and the others a suffix, never scattered lanes, so the request of those
// it keeps has no holes. Only a mask that data scatters over the lanes (`if (keep[i])`) may
// leave holes: that stays a possible uncoalesced access.
__global__ void split_copy(const float *in, float *lo, float *hi, const unsigned *counts,
                           const int *keep) {
    __shared__ unsigned count;
    if (threadIdx.x == 0) count = counts[blockIdx.x]; // expect: divergent-branch definite
    __syncthreads();
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < count) { // expect: divergent-branch possible (data)
        lo[i] = in[i];
    } else {
        hi[i] = 2.0f * in[i];
    }
    if (keep[i]) { // expect: divergent-branch possible (data)
        lo[i + 4096] = in[i]; // expect: uncoalesced-access possible
    }
}

void launch(const float *in, float *lo, float *hi, const unsigned *counts, const int *keep) {
    split_copy<<<64, 256>>>(in, lo, hi, counts, keep);
}
