// A butterfly reduction over the whole warp (`__shfl_xor_sync` with lane masks 16, 8, 4, 2, 1,
// and `cg::reduce` over a `tiled_partition<32>`, which compiles to the same) leaves every lane
// holding the same total: lanes `l` and `l ^ m` add the same two values at each step, and IEEE
// addition commutes exactly. A branch on the total, or a division of it (ptxas's slow path),
// cannot split the warp. A `__shfl_down_sync` reduction leaves the total in lane 0 only: the
// other lanes hold partial sums, and a branch on them may diverge.
__global__ void sums(float *out, const float *in, float n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    float s = v;
    for (int m = 16; m > 0; m >>= 1) s += __shfl_xor_sync(0xffffffff, s, m);
    float mean = s / n;
    float acc = v;
    if (s > 0.0f) {
        for (int k = 0; k < 64; k++) acc = acc * mean + k;
    }
    float t = v;
    for (int m = 16; m > 0; m >>= 1) t += __shfl_down_sync(0xffffffff, t, m);
    if (t > 0.0f) { // expect: divergent-branch possible
        for (int k = 0; k < 64; k++) acc = acc * t + k;
    }
    out[i] = acc;
}

int main() {
    sums<<<64, 256>>>(0, 0, 3.0f);
    return 0;
}
