// Branches ptxas adds that the PTX does not show. An IEEE-rounded division or square root
// (`a / b`, `sqrtf` without -use_fast_math: `div.rn.f32`, `sqrt.rn.f32`) becomes a fast path and
// a branch to a slow subroutine for zero, denormal or infinite operands; when some lanes' operand
// is zero and others' is not, that branch diverges (the H100 counts it on PolyBench's
// correlation and covariance). `check` reports it as a `possible` divergent branch of kind
// `slow-path` when the dividend (or radicand) is a sum or difference of lane-varying values:
// a difference cancels where its terms are equal, a sum stays zero where every term is. (They
// are branches of the SASS, not of the source, so they carry no `expect:` comment, which the
// corpus scoring reads as a source branch: the test lists their lines, marked `slow path` here.)
//
// The second half: loops that every lane advances by one stride of at least a warp (grid- and
// block-stride loops), which nvcc unrolls by four. Their tests against the unknown bound
// (`i + 4*stride < n`, the remainder dispatch) are boundary checks like the loop's guard.

// A column mean (PolyBench's mean kernel): the sum starts at zero.
__global__ void column_mean(float *mean, const float *data, int n) {
    int j = blockIdx.x * 256 + threadIdx.x;
    float s = 0.0f;
    for (int i = 0; i < n; i++) {
        s += data[i * 4096 + j];
    }
    mean[j] = s / 3214212.0f; // slow path
}

// Centring: `data - mean` is zero where a value equals its column's mean.
__global__ void centre(float *out, const float *data, const float *mean, const float *sd) {
    int i = blockIdx.x * 256 + threadIdx.x;
    out[i] = (data[i] - mean[threadIdx.x]) / sd[threadIdx.x]; // slow path
}

// A root of a sum of squares scaled by a constant.
__global__ void column_rms(float *out, const float *data) {
    int j = blockIdx.x * 256 + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < 64; k++) {
        float v = data[k * 4096 + j];
        s += v * v;
    }
    out[j] = sqrtf(s / 64.0f); // slow path
}

// Not reported: a product of loads (zero only where the data holds a zero), a lane-uniform
// dividend, and approximate division (no slow path).
__global__ void quiet(float *out, const float *a, const float *b, float x, float y) {
    int i = blockIdx.x * 256 + threadIdx.x;
    out[i] = a[i] * b[i] / b[i + 4096];
    out[i + 4096] = a[i] * ((x - y) / y);
    out[i + 8192] = __fdividef(a[i] - b[i], b[i]);
}

// Products added once (HeCBench's rsbench `c_div` and thomas): `a*c + b*d` and `x - y*z`
// compile to a multiply and a fused multiply-add, zero only where rounded products cancel
// exactly: not reported. A sum of products accumulated over a loop of unknown trip count
// (bilateral's `res += I * w`) starts at zero and stays zero where every product is: reported.
__global__ void products(float *out, const float *a, const float *b, const float *c, int n) {
    int i = blockIdx.x * 256 + threadIdx.x;
    out[i] = (a[i] * c[i] + b[i] * c[i + 4096]) / c[i + 8192];
    out[i + 4096] = (a[i] - b[i] * c[i]) / c[i + 4096];
    float acc = 0.0f;
    for (int k = 0; k < n; k++)
        acc += a[k * 4096 + i] * b[k * 4096 + i];
    out[i + 8192] = acc / 7.0f; // slow path
}

// A grid-stride loop (cuda-samples' fastWalshTransform `modulateKernel`, alignedTypes): nvcc
// unrolls it by four; every branch it makes of it is a boundary check (a note).
// (The body computes without memory: the unrolled loads' reading is another matter.)
__global__ void grid_stride(float *d_A, int n) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int threads = blockDim.x * gridDim.x;
    float acc = 0.0f;
    for (int pos = tid; pos < n; pos += threads) {
        acc = acc * 0.5f + (float)pos;
    }
    d_A[tid] = acc;
}

// A triangular loop (step 1, start per lane): lanes run different trip counts wherever the loop
// runs, not only at an edge; it stays a `possible` divergent branch.
__global__ void triangle(float *out, const float *in, int n) {
    int j = blockIdx.x * 256 + threadIdx.x;
    float s = 0.0f;
    for (int k = j + 1; k < n; k++) { // expect: divergent-branch possible
        s = s * 0.5f + (float)k;
    }
    out[j] = s;
}

// A root of a sum of squares plus a lane-uniform term (a softening `eps`, as in HeCBench's
// haccmk and lulesh): the term keeps it from zero, not reported (it was before 2026-11-29; no
// such root took the slow path on the real-world sets).
__global__ void softened(float *out, const float *data, float eps) {
    int j = blockIdx.x * 256 + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < 64; k++) {
        float v = data[k * 4096 + j];
        s += v * v;
    }
    out[j] = sqrtf(s + eps);
}

// Sizes read at run time: no launch tells the analysis `n` (the loops test unknown bounds).
int main(int argc, char **argv) {
    float *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr;
    int n = argc;
    column_mean<<<16, 256>>>(a, b, n * 100);
    centre<<<16, 256>>>(a, b, c, d);
    column_rms<<<16, 256>>>(a, b);
    quiet<<<16, 256>>>(a, b, c, 1.0f, 2.0f);
    products<<<16, 256>>>(a, b, c, d, n * 3);
    grid_stride<<<16, 256>>>(a, n * 5000);
    triangle<<<16, 256>>>(a, b, n << 12);
    softened<<<16, 256>>>(a, b, 1e-6f);
    return 0;
}
