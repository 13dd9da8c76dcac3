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

// A halo stencil (rows of `nx + 2*R` elements, the inner grid starting R rows and R columns
// in, as FDTD codes lay out their planes): with the pitch read as padded the rows start 16
// bytes into a sector, but for odd `nx` they would not, and callers often pass a pointer
// already offset to align the inner grid. A padded reading is a guess: `possible`, never
// `definite`.
#define R 4
__global__ void plane_halo(float *out, const float *in, int nx) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int pitch = nx + 2 * R;
    out[blockIdx.y * nx + i] = in[(blockIdx.y + R) * pitch + i + R]; // expect: misaligned-access possible
}

__global__ void tile_halo(float *out, const float *in, int nx) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int pitch = nx + 2 * R;
    out[y * nx + x] = in[(y + R) * pitch + x + R]; // expect: misaligned-access possible
}
