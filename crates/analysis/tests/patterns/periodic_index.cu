// Indices taken modulo a size nobody gave (HeCBench's d3q19-bgk, upsample and ising shapes).
//  * `periodic`: a lattice with periodic boundaries, `(x + nx) % nx` in each dimension, over
//    grid-stride loops. The lanes of a warp hold consecutive `x` below `nx`: the remainder
//    keeps them consecutive, so the unshifted reads and the write are coalesced (no finding);
//    the neighbour one element over in x (`x + 1`, 8-byte elements) starts 8 bytes into a
//    sector: a possible misaligned access.
//  * `edge`: the same lattice's boundary flags, set where the global `x + x0` is 0 or
//    `width - 1`: at most one lane of a warp stores, which cannot touch more sectors than its
//    bytes need.
//  * `planes`: a flat index split into plane, row and column by sizes nobody gave
//    (`(i / w) % h`, `i % w`) and put back together is the flat index again: coalesced, no
//    finding; the output, two elements per input along the row, is a possible uncoalesced
//    access (lanes 8 bytes apart).
struct Box {
    int x0, nx, ny, nz;
};

#define IDX(x, y, z, b) \
    (((x) + (b).nx) % (b).nx + (((y) + (b).ny) % (b).ny + (((z) + (b).nz) % (b).nz) * (b).ny) * (b).nx)

__global__ void periodic(const double *in, double *out, double *east, Box b) {
    for (int z = blockIdx.z; z < b.nz; z += gridDim.z) {
        for (int y = blockIdx.y; y < b.ny; y += gridDim.y) {
            for (int x = threadIdx.x + blockIdx.x * blockDim.x; x < b.nx; x += blockDim.x * gridDim.x) {
                double c = in[IDX(x, y, z, b)];
                double n = in[IDX(x, y + 1, z, b)];
                double u = in[IDX(x, y, z - 1, b)];
                out[IDX(x, y, z, b)] = c + n + u;
                east[IDX(x, y, z, b)] = in[IDX(x + 1, y, z, b)]; // expect: misaligned-access possible
            }
        }
    }
}

__global__ void edge(char *flags, int *dir, Box b, int width) {
    for (int y = blockIdx.y; y < b.ny; y += gridDim.y) {
        for (int x = threadIdx.x + blockIdx.x * blockDim.x; x < b.nx; x += blockDim.x * gridDim.x) {
            if (x + b.x0 == 0) {
                flags[IDX(x, y, 0, b)] = 1;
                dir[IDX(x, y, 0, b)] = 2;
            } else if (x + b.x0 == width - 1) {
                flags[IDX(x, y, 0, b)] = 3;
                dir[IDX(x, y, 0, b)] = 4;
            }
        }
    }
}

__global__ void planes(const float *in, float *out, long h, long w, long n) {
    long i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long p = i / (h * w), row = (i / w) % h, col = i % w;
    in += p * h * w + row * w + col;
    out += p * 4 * h * w + 2 * row * 2 * w + 2 * col;
    float v = in[0];
    out[0] = v; // expect: uncoalesced-access possible
}

void launch(const double *in, double *out, double *east, char *flags, int *dir, const float *fi,
            float *fo, Box b, int w, int n) {
    periodic<<<dim3(1, b.ny, b.nz), 64>>>(in, out, east, b);
    edge<<<dim3(1, b.ny), 64>>>(flags, dir, b, b.nx);
    planes<<<(n + 255) / 256, 256>>>(fi, fo, w, w, n);
}
