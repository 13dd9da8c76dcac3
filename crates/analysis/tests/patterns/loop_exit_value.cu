// A value read after a loop whose lanes leave on different trips (HeCBench's asmooth: a
// radius grown until a per-pixel sum passes a threshold, then used as the bound of the next
// loops). In every trip the radius is the same in all lanes, but each lane keeps the one of
// the trip it left on: after the loop it differs between lanes, and a loop bounded by it runs
// a different number of trips per lane. A value the loop never changes (`scale`) keeps its
// one value after the loop, whoever leaves when.
__global__ void grow(const float *img, float *out, int n, int max_rad, float threshold, int scale) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.f;
    int q = 1;
    int s = q;
    int w = scale;
    while (sum < threshold && q < max_rad) { // expect: divergent-branch possible
        s = q;
        sum = 0.f;
        for (int k = -s; k <= s; k++)
            sum += img[i + k]; // expect: misaligned-access definite
        w = scale;
        q++;
    }
    float acc = 0.f;
    for (int k = 0; k < 2 * s + 1; k++) // expect: divergent-branch possible
        acc += img[i + k]; // expect: uncoalesced-access possible, misaligned-access possible
    for (int k = 0; k < w; k++)
        acc += 1.f;
    out[i] = acc;
}

int main(int argc, char **argv) {
    float *img = 0, *out = 0;
    grow<<<64, 256>>>(img, out, 4096, 8, 0.5f * argc, 4 * argc);
    return 0;
}
