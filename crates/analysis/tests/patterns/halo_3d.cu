// A stencil over a 3-D grid of 3-D blocks (16x4x4) whose size the host computes at run time,
// with a halo guard on every axis (`k >= 4`, `j >= 4`), as HeCBench's hypterm writes it. With
// the grid unknown, the blocks that stand for it were all at z = 0 and y <= 1 (or 37 in y only
// with x = 1): no lane of theirs passes `k >= 4`, so the accesses were measured nowhere and
// nothing was reported, though the i +/- 1 neighbours of 8-byte elements are 8 bytes off every
// sector. Blocks inside the grid on every axis are sampled too now. The padded reading of the
// row pitch `N` is evaluated in the sampled block, so the j +/- 1 neighbours (whole rows away,
// aligned with a padded pitch) are no finding.
#define max(x, y) ((x) > (y) ? (x) : (y))

__global__ void x_neighbours(double *out, const double *in, int M, int N) {
    int i = max((int)(blockIdx.x * blockDim.x), 0) + (int)threadIdx.x;
    int j = max((int)(blockIdx.y * blockDim.y), 0) + (int)threadIdx.y;
    int k = max((int)(blockIdx.z * blockDim.z), 0) + (int)threadIdx.z;
    if (i >= 4 & j >= 4 & k >= 4 & i <= N - 5 & j <= N - 5 & k <= N - 5)
        out[k * M * N + j * N + i] = in[k * M * N + j * N + i + 1] - in[k * M * N + j * N + i - 1]; // expect: misaligned-access possible
}

__global__ void y_neighbours(double *out, const double *in, int M, int N) {
    int i = max((int)(blockIdx.x * blockDim.x), 0) + (int)threadIdx.x;
    int j = max((int)(blockIdx.y * blockDim.y), 0) + (int)threadIdx.y;
    int k = max((int)(blockIdx.z * blockDim.z), 0) + (int)threadIdx.z;
    if (i >= 4 & j >= 4 & k >= 4 & i <= N - 5 & j <= N - 5 & k <= N - 5)
        out[k * M * N + j * N + i] = in[k * M * N + (j + 1) * N + i] - in[k * M * N + (j - 1) * N + i];
}

int main(int argc, char **argv) {
    int n = argc > 1 ? 264 : 128;
    dim3 block(16, 4, 4);
    dim3 grid((n + 15) / 16, (n + 3) / 4, (n + 3) / 4);
    x_neighbours<<<grid, block>>>(0, 0, n, n);
    y_neighbours<<<grid, block>>>(0, 0, n, n);
    return 0;
}
