// `sinf`, `cosf`, `sincosf` and `tanf` reduce their argument cheaply while |x| < 105615 and
// take a long slow path (Payne-Hanek reduction) beyond; their double versions do so while
// |x| < 2^31. Each first compares the argument's magnitude with that constant, and the test
// comes out the same for every value below it: lanes split only where the data holds values
// that large beside smaller ones. The branches of a call (the infinity test, the magnitude
// test, the quadrant selections ptxas predicates) stay a `possible` divergent branch on loaded
// data, ranked a caveat that says what it rests on. A magnitude compared with a huge constant
// in the kernel's own code is the same test; a value compared with one (no magnitude) is not:
// it splits ordinary positive and negative values alike and stays a likely finding. (`cos`
// reads its polynomial's coefficients from a table by quadrant: a data-dependent address,
// a likely finding of its own on the line.)
#include <math.h>

__global__ void waves(float *out, const float *in, const double *d) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    float acc = sinf(v) + (float)cos(d[i]); // expect: divergent-branch possible, uncoalesced-access possible
    if (fabsf(v) > 1.0e6f) { // expect: divergent-branch possible
        for (int k = 0; k < 64; k++) acc = acc * 0.5f + k;
    }
    if (v > 1.0e6f) { // expect: divergent-branch possible
        for (int k = 0; k < 64; k++) acc = acc * 0.25f + k;
    }
    out[i] = acc;
}

int main() {
    waves<<<64, 256>>>(0, 0, 0);
    return 0;
}
