// Pattern 4 of issue 10, other shapes of an unknown scalar in an index: butterflies and merge
// networks select the low bits of a thread index with a power-of-two mask `stride - 1`, FFT-like
// kernels shift the block index by `log2n`, and `__mul24` wraps its operands in 24-bit
// truncations. Read as real code uses them (a large power of two, a shift of at least 5, the
// parameter itself) none of them makes an access uncoalesced or misaligned; nothing else here
// points that way, so nothing is reported. An `if`/`else` on loaded data joins again: the
// accesses after the join run in every lane.
__global__ void butterfly(float *out, const float *in, int stride) {
    int pos = blockIdx.x * blockDim.x + threadIdx.x;
    int lo = pos & (stride - 1);
    int i0 = ((pos - lo) << 1) + lo;
    int i1 = i0 + stride;
    float a = in[i0];
    float b = in[i1];
    out[i0] = a + b;
    out[i1] = a - b;
}

__global__ void sample_ranks(unsigned *ranks, const unsigned *keys, unsigned stride, unsigned n) {
    unsigned pos = blockIdx.x * blockDim.x + threadIdx.x;
    if (pos >= n)
        return;
    unsigned segs = stride >> 7;
    unsigned i = pos & (segs - 1);
    unsigned seg = (pos - i) * 2;
    ranks[seg / 2 + i] = keys[seg + i];
}

__global__ void shifted_blocks(float *out, const float *in, int log2n) {
    int base = blockIdx.x << log2n;
    int n = 1 << log2n;
    for (int pos = threadIdx.x; pos < n; pos += blockDim.x)
        out[base + pos] = 2.0f * in[base + pos];
}

__global__ void rows_mul24(float *out, const float *in, int n) {
    int row = __mul24(blockIdx.y, blockDim.y) + threadIdx.y;
    int col = __mul24(blockIdx.x, blockDim.x) + threadIdx.x;
    out[__mul24(row, n) + col] = in[__mul24(row, n) + col] + 1.0f;
}

__global__ void joined(float *out, const float *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i];
        float z;
        if (v > 0.5f) { // expect: divergent-branch possible
            z = __logf(-__logf(v));
            z = z * (1.1f + z * (2.2f + z * (3.3f + z * (4.4f + z * 5.5f))));
        } else {
            z = __expf(v * v);
            z = z * (0.1f + z * (0.2f + z * (0.3f + z * (0.4f + z * 0.5f))));
        }
        out[i] = z;
    }
}

// What does point at a problem is still reported: an odd constant offset, and lanes a
// multiple of the mask apart.
__global__ void butterfly_shifted(float *out, const float *in, int stride) {
    int pos = blockIdx.x * blockDim.x + threadIdx.x;
    int lo = pos & (stride - 1);
    out[pos] = in[((pos - lo) << 1) + lo + 1]; // expect: misaligned-access possible
}

// The sizes are read at run time, so no launch tells the analysis the parameters (what these
// kernels test is the reading of unknown ones).
int main(int argc, char **argv) {
    float *f = 0;
    unsigned *u = 0;
    int k = argc;
    butterfly<<<64, 256>>>(f, f, k << 10);
    sample_ranks<<<16, 256>>>(u, u, k << 14, k << 12);
    shifted_blocks<<<64, 256>>>(f, f, k + 10);
    rows_mul24<<<dim3(8, 8), dim3(32, 8)>>>(f, f, k << 8);
    joined<<<64, 256>>>(f, f, k << 14);
    butterfly_shifted<<<64, 256>>>(f, f, k << 10);
    return 0;
}
