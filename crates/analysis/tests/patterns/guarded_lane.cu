// Two shapes of real stencil and solver code (HeCBench's tsa, cuda-samples' jacobiCudaGraphs).
//  * `pair`: a lane test on the thread index alone (`kx < 15`: the last column of the tile
//    has no right neighbour) joined to boundary checks against the run-time width. In every
//    block whose columns lie inside the image the boundary checks let the whole warp through
//    and the lane test splits it: a divergent branch wherever the checks pass (`definite`,
//    assuming the image is wider than a warp), not a boundary note.
//  * `gather`: the first eight lanes copy a strided slice. Each lane has one element to copy,
//    so the copy loop nvcc unrolls by four (entered only when a lane has four or more) never
//    runs, and its data-dependent-looking exit test never diverges: no finding there.
#define W 16
#define ROWS 8
#define N 512

__global__ void pair(float *img, int width, int height) {
    __shared__ float tile[W][W];
    int kx = threadIdx.x, ky = threadIdx.y;
    int px = blockIdx.x * (W - 2) + kx - 1;
    int py = blockIdx.y * (W - 2) + ky - 1;
    tile[ky][kx] = (px >= 0 && px < width && py >= 0 && py < height) ? img[py * width + px] : 0.f; // expect: misaligned-access possible
    __syncthreads();
    if (px >= 0 && px < width - 1 && kx < W - 1) { // expect: divergent-branch definite
        float r = tile[ky][kx + 1], l = tile[ky][kx];
        for (int s = 0; s < 4; s++) {
            float t = 0.5f * (r + l);
            l = t * l + 1.f;
            r = t * r + 2.f;
        }
        tile[ky][kx + 1] = r;
        tile[ky][kx] = l;
    }
    __syncthreads();
    if (px >= 0 && px < width && py >= 0 && py < height)
        img[py * width + px] = tile[ky][kx]; // expect: misaligned-access possible
}

__global__ void gather(const double *b, double *out) {
    __shared__ double slice[ROWS + 1];
    if (threadIdx.x < ROWS) { // expect: divergent-branch definite
        int k = threadIdx.x;
        for (int i = k + blockIdx.x * ROWS; k < ROWS && i < N; k += ROWS, i += ROWS)
            slice[i % (ROWS + 1)] = b[i];
    }
    __syncthreads();
    if (threadIdx.x == 0) // expect: divergent-branch definite
        out[blockIdx.x] = slice[0] + slice[ROWS];
}

int main(int argc, char **argv) {
    float *img = 0;
    double *b = 0, *o = 0;
    dim3 block(W, W);
    dim3 grid(64, 64);
    int size = 900 * argc; // known only at run time
    pair<<<grid, block>>>(img, size, size);
    gather<<<N / ROWS + 2, 256>>>(b, o);
    return 0;
}
