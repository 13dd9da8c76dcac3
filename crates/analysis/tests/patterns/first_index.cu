// `if (gid == 0)` with the grid known only at run time (HeCBench's is): the test reads no
// size, so it is undecided only because the block index is, and the first block, which every
// launch has, splits its first warp (lane 0 against the rest): a `definite` divergent-branch
// (the first block's warps), not a boundary note.
__global__ void head(const float *in, float *out, int n) {
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[gid];
    if (gid == 0) { // expect: divergent-branch definite
        for (int k = 1; k < 64; k++)
            v = v * 0.5f + in[k];
    }
    out[gid] = v;
}

int main(int argc, char **argv) {
    float *in = 0, *out = 0;
    int size = 4096 * argc; // known only at run time
    head<<<size / 256, 256>>>(in, out, size);
    return 0;
}
