// A stencil marching along z, reduced from the control structure of cuda-samples' FDTD3d
// (BSD-3-Clause, validation/realworld/src; two rewrites of the loop with a sliding window or
// scalar planes did not reproduce the fault, so the structure is kept): values ahead and behind are
// kept in registers that shift by one each step, and nvcc unrolls the loop by 9, renaming the
// shifted registers from step to step. Each index then reads, at the loop's back edge,
// another loop-carried register of the same loop. Building those one at a time, with the
// other half-built, cut the cycle with an unknown: the output index became opaque and every
// access in the loop a `possible` "addresses depend on loaded data". Built with their atoms
// first, each index is `x + k*stride` again: consecutive lanes, consecutive elements, and what
// is left is the R-float (16-byte) offset every row starts at, a definite misalignment.
#define R 4
#define BX 32
#define BY 8

__global__ void march(float *out, const float *in, int dimx, int dimy, int dimz) {
    __shared__ float tile[BY + 2 * R][BX + 2 * R];
    const int gx = blockIdx.x * blockDim.x + threadIdx.x;
    const int gy = blockIdx.y * blockDim.y + threadIdx.y;
    const int tx = threadIdx.x + R;
    const int ty = threadIdx.y + R;
    const int stride_y = dimx + 2 * R;
    const int stride_z = stride_y * (dimy + 2 * R);
    int in_idx = R * stride_y + R + gy * stride_y + gx;
    int out_idx = 0;
    const bool validr = gx < dimx + R && gy < dimy + R;
    const bool validw = gx < dimx && gy < dimy;
    float behind[R];
    float ahead[R];
    float cur;
    for (int i = R - 2; i >= 0; i--) {
        if (validr)
            behind[i] = in[in_idx];
        in_idx += stride_z;
    }
    if (validr)
        cur = in[in_idx];
    out_idx = in_idx;
    in_idx += stride_z;
    for (int i = 0; i < R; i++) {
        if (validr)
            ahead[i] = in[in_idx];
        in_idx += stride_z;
    }
#pragma unroll 9
    for (int z = 0; z < dimz; z++) {
        for (int i = R - 1; i > 0; i--)
            behind[i] = behind[i - 1];
        behind[0] = cur;
        cur = ahead[0];
#pragma unroll 4
        for (int i = 0; i < R - 1; i++)
            ahead[i] = ahead[i + 1];
        if (validr)
            ahead[R - 1] = in[in_idx];
        in_idx += stride_z;
        out_idx += stride_z;
        __syncthreads();
        if (threadIdx.y < R) {
            tile[threadIdx.y][tx] = in[out_idx - R * stride_y];
            tile[threadIdx.y + BY + R][tx] = in[out_idx + BY * stride_y];
        }
        if (threadIdx.x < R) {
            tile[ty][threadIdx.x] = in[out_idx - R];
            tile[ty][threadIdx.x + BX + R] = in[out_idx + BX];
        }
        tile[ty][tx] = cur;
        __syncthreads();
        float v = cur;
        for (int i = 1; i <= R; i++)
            v += 0.1f * (ahead[i - 1] + behind[i - 1] + tile[ty - i][tx] + tile[ty + i][tx] +
                         tile[ty][tx - i] + tile[ty][tx + i]);
        if (validw)
            out[out_idx] = v;
    }
}

int main() {
    float *a = 0, *b = 0;
    march<<<dim3(8, 32), dim3(BX, BY)>>>(a, b, 256, 256, 100);
    return 0;
}
