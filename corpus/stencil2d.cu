// corpus/stencil2d.cu -- 5-point 2-D stencil (Jacobi step) on a 256x256 grid, naive and with a
// shared-memory tile plus halo.
//
// geometry: fill_grid grid=256,1,1 block=256,1,1
// geometry: stencil5_naive grid=16,16,1 block=16,16,1
// geometry: stencil5_shared grid=16,16,1 block=16,16,1
// assume: w=256
// assume: h=256
//
// 16x16 blocks: a warp holds rows ty and ty+1, 16 lanes each (64 bytes per row, aligned at
// x0 = 16*blockIdx.x). fill_grid writes in[i] = i % 17 - 8 (float); boundary cells of `out` stay untouched.
//  - `if (x > 0 && x < w-1 && y > 0 && y < h-1)`: in the blocks at the left/right edge the lanes
//    x = 0 / x = 255 fail while their warp-mates pass: divergent, definite.
//  - naive loads: centre in[y*w+x] and up/down in[(y±1)*w+x] are 2 aligned 64-byte runs (4 sectors):
//    coalesced. Left in[y*w+x-1] and right in[y*w+x+1] are the same runs shifted by 4 bytes: each
//    run spans 3 sectors, 6 for 4 ideal, dense: misaligned, definite.
//  - shared version: halo loads under `tx == 0`, `tx == 15` (lanes 0/15 of each 16-lane row) and
//    `ty == 0` (row 0 is half of warp 0) / `ty == 15` (half of warp 7): divergent, definite.
//    The tile is float[18][18]: one warp's two rows are 18 words apart, so the two 16-word runs
//    overlap in 2 banks: a 2-way bank conflict on every full-warp tile access (centre store and
//    the five stencil reads): definite. The halo column accesses (2 lanes, 18 words apart) and
//    the halo row accesses (16 consecutive words) are conflict-free.
//    The halo column loads in[y*w + x -/+ 1] run with 2 active lanes (tx == 0 or 15 in rows ty and
//    ty+1), one float in each of two rows: 2 sectors for 8 useful bytes (ideal 1): uncoalesced,
//    definite (Nsight Compute reports 50% excessive sectors there). The halo row loads (16
//    contiguous lanes) are aligned.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define B 16

__global__ void fill_grid(float* in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    in[i] = (float)(i % 17 - 8);
}

__global__ void stencil5_naive(const float* in, float* out, int w, int h)
{
    int x = blockIdx.x * B + threadIdx.x;
    int y = blockIdx.y * B + threadIdx.y;
    if (x > 0 && x < w - 1 && y > 0 && y < h - 1) { // expect: divergent-branch definite
        float c = in[y * w + x];
        float l = in[y * w + x - 1]; // expect: misaligned-access definite
        float r = in[y * w + x + 1]; // expect: misaligned-access definite
        float u = in[(y - 1) * w + x];
        float d = in[(y + 1) * w + x];
        out[y * w + x] = 0.5f * c + 0.125f * (l + r + u + d);
    }
}

__global__ void stencil5_shared(const float* in, float* out, int w, int h)
{
    __shared__ float tile[B + 2][B + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * B + tx;
    int y = blockIdx.y * B + ty;
    tile[ty + 1][tx + 1] = in[y * w + x]; // expect: bank-conflict definite
    if (tx == 0 && x > 0) { // expect: divergent-branch definite
        tile[ty + 1][0] = in[y * w + x - 1]; // expect: uncoalesced-access definite
    }
    if (tx == B - 1 && x < w - 1) { // expect: divergent-branch definite
        tile[ty + 1][B + 1] = in[y * w + x + 1]; // expect: uncoalesced-access definite
    }
    if (ty == 0 && y > 0) { // expect: divergent-branch definite
        tile[0][tx + 1] = in[(y - 1) * w + x];
    }
    if (ty == B - 1 && y < h - 1) { // expect: divergent-branch definite
        tile[B + 1][tx + 1] = in[(y + 1) * w + x];
    }
    __syncthreads();
    if (x > 0 && x < w - 1 && y > 0 && y < h - 1) { // expect: divergent-branch definite
        float c = tile[ty + 1][tx + 1]; // expect: bank-conflict definite
        float l = tile[ty + 1][tx]; // expect: bank-conflict definite
        float r = tile[ty + 1][tx + 2]; // expect: bank-conflict definite
        float u = tile[ty][tx + 1]; // expect: bank-conflict definite
        float d = tile[ty + 2][tx + 1]; // expect: bank-conflict definite
        out[y * w + x] = 0.5f * c + 0.125f * (l + r + u + d);
    }
}

int main()
{
    const int w = 256, h = 256, n = w * h;
    float *d_in, *d_a, *d_b;
    CK(cudaMalloc(&d_in, n * sizeof(float)));
    CK(cudaMalloc(&d_a, n * sizeof(float)));
    CK(cudaMalloc(&d_b, n * sizeof(float)));
    CK(cudaMemset(d_a, 0, n * sizeof(float)));
    CK(cudaMemset(d_b, 0, n * sizeof(float)));
    fill_grid<<<n / 256, 256>>>(d_in);
    dim3 grid(w / B, h / B), block(B, B);
    stencil5_naive<<<grid, block>>>(d_in, d_a, w, h);
    stencil5_shared<<<grid, block>>>(d_in, d_b, w, h);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> a(n), b(n);
    CK(cudaMemcpy(a.data(), d_a, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b.data(), d_b, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    double cs = 0.0;
    for (int i = 0; i < n; ++i) {
        bad += a[i] != b[i];
        cs += (double)a[i] * ((i % 7) + 1);
    }
    printf("stencil2d: out=%.6e naive_vs_shared_mismatches=%d\n", cs, bad);
    return bad ? 1 : 0;
}
