// Pattern 1 of issue 10: 2-D blocks given by no flag. A kernel that reads threadIdx.y is
// analysed in the block its launch site builds (`dim3 threads(BS, BS)`), in the block its
// shared tile `[ty][tx]` implies, or else in a few common shapes, never as 256x1x1 alone.
// No `// geometry:` lines: the shapes must be inferred.
#define BS 16
#define TILE 32

// Launched below with dim3(BS, BS): the corner test splits the warp holding row BS-1 (when
// the loop it guards runs: nvcc folds `w < 1` into the branch, so `possible`).
__global__ void corner_launch(float *out, float *sums, const float *in, int w) {
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * BS + tx, y = blockIdx.y * BS + ty;
    float v = in[y * w + x];
    if (ty == BS - 1 && tx == BS - 1) { // expect: divergent-branch possible
        for (int k = 0; k < w; k++) {
            sums[k] += v;
        }
    }
    out[y * w + x] = v;
}

// Not launched in this file: the tile [TILE][TILE] indexed [ty][tx] says 32x32. Blocks
// overlap by two columns, so rows start 120 bytes apart: misaligned.
__global__ void halo_tile(float *out, const float *in, int w) {
    __shared__ float tile[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * (TILE - 2) + tx, y = blockIdx.y * (TILE - 2) + ty;
    tile[ty][tx] = in[y * w + x]; // expect: misaligned-access possible
    __syncthreads();
    if (tx > 0 && tx < TILE - 1 && ty > 0 && ty < TILE - 1) { // expect: divergent-branch definite
        out[y * w + x] = tile[ty][tx - 1] + tile[ty][tx + 1] + tile[ty - 1][tx] + tile[ty + 1][tx]; // expect: misaligned-access possible
    }
}

// Neither launched here nor tiled: analysed in each common shape. `tx < 16` splits the rows
// of 32-wide blocks only; `ty == 0 && tx < 8` splits the first warp of every shape.
__global__ void left_half(float *out, int w) {
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * blockDim.x + tx, y = blockIdx.y * blockDim.y + ty;
    if (tx < 16) { // expect: divergent-branch possible
        out[y * w + x] = 1.0f;
    }
    if (ty == 0 && tx < 8) { // expect: divergent-branch definite
        out[y * w + x] = 2.0f;
    }
}

void launch(float *out, const float *in, int w, int h) {
    dim3 threads(BS, BS);
    dim3 grid(w / BS, h / BS);
    corner_launch<<<grid, threads>>>(out, out + w * h, in, w);
}
