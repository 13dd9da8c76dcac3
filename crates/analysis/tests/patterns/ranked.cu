// Pattern 4 of issue 10, second half: what remains is ranked and worded so a user can tell a
// likely problem from a caveat. Reports list what the analysis proved, then what points at a
// problem without proof (addresses from loaded data), then caveats: findings that rest only on
// a guess about a value it was not told (here the unknown pitch `w`, which moves the start of
// the halo rows), saying so.
#define R 4
__global__ void ranked(float *out, const float *in, const int *idx, int w) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float halo = in[(blockIdx.y + R) * (w + 2 * R) + i + R]; // expect: misaligned-access possible
    float gathered = in[idx[i]]; // expect: uncoalesced-access possible
    out[2 * i] = halo + gathered; // expect: uncoalesced-access definite
}

// Sizes read at run time: no launch tells the analysis `w`.
int main(int argc, char **argv) {
    float *f = 0;
    int *k = 0;
    ranked<<<dim3(64, 8), 256>>>(f, f, k, argc << 10);
    return 0;
}
