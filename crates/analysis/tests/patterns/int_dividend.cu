// IEEE division of an integer converted to float (cuda-samples' newdelete and
// cdpBezierTessellation, HeCBench's bilateral). ptxas's `FCHK` sends a zero dividend to the
// division's slow subroutine, so lanes whose integer is zero branch away from the others.
//  * `phase`: `threadIdx.x / (float)blockDim.x` is zero in each block's first lane: may diverge.
//  * `param`: the global index `blockIdx.x * blockDim.x + threadIdx.x` is zero in the first
//    block's first lane: may diverge.
//  * `spatial`: `-(d*d) / s` with `d = k - i` (a window offset) is zero where `k == i`: may
//    diverge.
//  * `shifted`: `(float)(i + 1) / n` is zero only for `i == -1`, and `(float)blockIdx.x / n` is
//    the same in every lane: no finding.
// (Branches of the SASS, not of the source: no `expect:` comment; the test lists their lines,
// marked `slow path` here.)

__global__ void phase(float *out) {
    out[threadIdx.x] = threadIdx.x / (float)blockDim.x; // slow path
}

__global__ void param(float *out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n)
        out[idx] = (float)idx / (float)(n - 1); // slow path
}

__global__ void spatial(const float *in, float *out, int w, float s) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.f;
    for (int k = i - 2; k <= i + 2; k++) {
        int kk = k < 0 ? -k : k;
        int d = kk - i;
        float v = in[kk]; // expect: misaligned-access definite
        acc += v * __expf(-(float)(d * d) / s); // slow path
    }
    out[i] = acc;
}

__global__ void shifted(float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = (float)(i + 1) / n + (float)blockIdx.x / n;
}

int main() {
    float *a = 0, *b = 0;
    phase<<<4, 256>>>(a);
    param<<<4, 256>>>(a, 1024);
    spatial<<<4, 256>>>(a, b, 1024, 2.f);
    shifted<<<4, 256>>>(a, 1024);
    return 0;
}
