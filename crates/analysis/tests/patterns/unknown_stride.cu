// Lanes a multiple of an unknown apart: `a[i * n]` with `n` a parameter nobody gave. PTX fixes
// the addresses once `n` is known, and every value of `n` but 0 and ±1 leaves gaps in each warp
// request (lanes 8 bytes or more apart for 4-byte elements), whatever the warp's start: the
// access is uncoalesced, `definite` on that stated assumption alone.
__global__ void column_read(float *out, const float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i * n]; // expect: uncoalesced-access definite
}

// An array of records of unknown length, one field read per lane: the same.
__global__ void record_field(double *out, const double *a, int fields) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i * fields + 2]; // expect: uncoalesced-access definite
}

// The unknown multiplies a uniform loop counter, not the lane: rows are read densely, nothing
// to report.
__global__ void row_walk(float *out, const float *a, int n, int rows) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < rows; k++) {
        s += a[i + k * n];
    }
    out[i] = s;
}

// Half-warps a row of `n` apart: dense when `n` is 16, so the unknown alone decides, and the
// access stays `possible`.
__global__ void half_rows(float *out, const float *a, int n) {
    int t = threadIdx.x;
    out[blockIdx.x * 32 + t] = a[blockIdx.x * 2 * n + (t / 16) * n + t % 16]; // expect: uncoalesced-access possible
}

// A naive transpose with no block given: analysed in the common 2-D shapes, where what the
// verdict assumes differs (in 16x16 blocks two rows of a warp are dense when `height` is 2 as
// well); each shape's assumption is stated with its shape.
__global__ void transpose_naive(float *out, const float *in, int width, int height) {
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    out[y + height * x] = in[x + width * y]; // expect: uncoalesced-access definite
}
