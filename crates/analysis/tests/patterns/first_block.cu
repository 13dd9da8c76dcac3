// Halo tests on the global thread index, joined to checks against run-time sizes (HeCBench's
// tsa and laplace3d shapes).
//  * `halo`: `g = blockIdx.x * blockDim.x + threadIdx.x - 3` reads three cells left of the
//    block; `g < 0 || g >= n` sends the first block's first three lanes to the zero-fill path
//    whatever `n` is (when `n` is above a warp). The first block's first warp diverges: a
//    `definite` divergent branch (assuming `n` lets that warp through), not a boundary note.
//  * `edges`: `gx == 0 || gx == nx - 1 || z == 0 || z == nz - 1` picks the Dirichlet faces of a
//    3-D grid walked plane by plane. In the first block, lane 0 is on the face `gx == 0` while
//    the others are not, on every interior plane: divergent there.
//  * `inside`: `g >= 0 && g < n` with `g` the plain global index: a boundary check (it splits at
//    most the last warp, only when `n` is not a multiple of 32), still a note.
#define R 3

__global__ void halo(const float *in, float *out, int n) {
    int g = blockIdx.x * blockDim.x + threadIdx.x - R;
    float v;
    if (g < 0 || g >= n) { // expect: divergent-branch definite
        v = 0.f;
        for (int k = 0; k < 8; k++)
            v = v * 0.5f + out[k];
    } else {
        v = in[g]; // expect: misaligned-access definite
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void edges(float *u, int nx, int ny, int nz) {
    int gx = blockIdx.x * 32 + threadIdx.x;
    int gy = blockIdx.y * 8 + threadIdx.y;
    for (int z = 0; z < nz; z++) {
        int i = gx + gy * nx + z * nx * ny;
        if (gx == 0 || gx == nx - 1 || z == 0 || z == nz - 1) { // expect: divergent-branch definite
            float s = u[i];
            for (int k = 0; k < 4; k++)
                s = s * 0.25f + 1.f;
            u[i] = s;
        } else {
            u[i] = 0.5f * (u[i - 1] + u[i + 1]); // expect: misaligned-access definite
        }
    }
}

__global__ void inside(const float *in, float *out, int n) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= 0 && g < n) {
        float s = in[g];
        for (int k = 0; k < 8; k++)
            s = s * 0.5f + in[k];
        out[g] = s;
    }
}

int main(int argc, char **argv) {
    float *a = 0, *b = 0;
    int n = 1000 * argc; // known only at run time
    halo<<<(n + 255) / 256, 256>>>(a, b, n);
    edges<<<dim3(n / 32, n / 8), dim3(32, 8)>>>(a, n, n, n);
    inside<<<(n + 255) / 256, 256>>>(a, b, n);
    return 0;
}
