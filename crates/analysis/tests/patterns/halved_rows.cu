#include <cuda_fp16.h>
// Rows of a length `n` counted in pairs or quads: `blockIdx.x * n / 2` over `half2` (as
// FasterTransformer-style layer norms index them), `n / 4` over floats. The row pitch is a
// quotient of a row index times a padded length, so it is padded too: no finding, where each
// was "may start mid-sector" before (the quotient was a symbol of unknown residue). A shift by
// one element still is misaligned, and half a lone parameter is an offset, not a row: a bitonic
// sort's partner `a[i + n / 2]` stays reported (n = 2, 4, ... there).
__global__ void rows_of_pairs(__half2 *out, const __half2 *in, const __half2 *bias, int n) {
    int bid = blockIdx.x, tid = threadIdx.x;
    int id = bid * n / 2 + tid;
    out[id] = __hadd2(in[id], bias[tid]);
}

__global__ void rows_of_quads(float *out, const float *in, int n) {
    int id = blockIdx.x * n / 4 + threadIdx.x;
    out[id] = in[id] * 2.0f;
}

__global__ void rows_shifted(float *out, const float *in, int n) {
    int id = blockIdx.x * n / 2 + threadIdx.x + 1;
    out[id] = in[id] * 2.0f; // expect: misaligned-access possible
}

__global__ void half_offset(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] += a[i + n / 2]; // expect: misaligned-access possible
}

int main(int argc, char **argv) {
    int n = argc > 1 ? 1024 : 2048;
    rows_of_pairs<<<4096, n / 2>>>(0, 0, 0, n);
    rows_of_quads<<<4096, n / 4>>>(0, 0, n);
    rows_shifted<<<4096, n / 2>>>(0, 0, n);
    half_offset<<<4096, 256>>>(0, n);
    return 0;
}
