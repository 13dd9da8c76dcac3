// Pattern 5 of issue 10: a boundary check against an unknown bound diverges in at most the
// last warp: it is a `note` of kind `boundary` (JSON, SARIF), counted but not listed in text.
__global__ void saxpy(float *y, const float *x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}
