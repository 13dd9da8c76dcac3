// Pattern 4 of issue 10: an unknown row pitch `n` multiplying a 4-byte stride is not, by
// itself, a reason to call an access misaligned: real code pads its pitches. What does point
// at misalignment (a constant odd offset) is still reported.
__global__ void row_sum(float *out, const float *a, int n, int rows) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < rows; k++) {
        s += a[i + k * n];
    }
    out[i] = s;
}

__global__ void shifted(float *out, const float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i + 1]; // expect: misaligned-access definite
}
