// A branch on whether a loaded value is NaN or infinite (`isnan`, `isinf`, `isfinite`, and
// the tests `sin`, `cos` and `lroundf` make of their argument first) compares the value with
// an infinity, or tests it unordered: the outcome is the same for every finite value, so lanes
// split only where the data holds NaNs or infinities beside finite values. Such a branch stays
// a `possible` divergent branch but is ranked a caveat, saying what it rests on; a test that
// finite data splits (`v > 0.5f`) stays a likely finding.
#include <math.h>

__global__ void special(float *out, const float *in, const double *d) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    double w = d[i];
    float acc = 0.0f;
    if (isnan(v)) { // expect: divergent-branch possible
        for (int k = 0; k < 64; k++) acc = acc * 0.5f + (float)(w * k);
    }
    if (!isinf(w)) { // expect: divergent-branch possible
        for (int k = 0; k < 64; k++) acc = acc * 0.25f + k;
    }
    if (v > 0.5f) { // expect: divergent-branch possible
        for (int k = 0; k < 64; k++) acc = acc * v + k;
    }
    out[i] = acc;
}

int main() {
    special<<<64, 256>>>(0, 0, 0);
    return 0;
}
