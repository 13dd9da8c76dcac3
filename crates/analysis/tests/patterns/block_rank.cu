// Block shapes a kernel's own indexing implies, and boundary checks one value of whose bound
// falls inside several warps at once. No `// geometry:` lines: the shapes must be inferred.
// The bodies hold an atomic so that ptxas keeps their branches (no predicated notes).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Reads %tid.y and %tid.z only inside cooperative groups' thread_rank(): its own index is
// threadIdx.x, which is the thread's whole index only in a 1-D block, so it is analysed in
// the 1-D default (256x1x1), not in guessed 2-D shapes. `threadIdx.x < 16` splits warp 0 of
// 8 (a 16x16 guess would split every warp, 32-wide rows none: `possible` before).
__global__ void ranked(float *out, float *sums, const float *in) {
    cg::thread_block b = cg::this_thread_block();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    b.sync();
    if (b.thread_rank() == 0) { // expect: divergent-branch definite
        sums[blockIdx.x] = v;
    }
    if (threadIdx.x < 16) { // expect: divergent-branch definite
        atomicAdd(&sums[threadIdx.x], v);
    }
    b.sync();
    out[i] = v;
}

// The lane's place in its warp tested against a run-time count: every warp holds lanes 0..31,
// so wherever `n` falls inside them all eight warps split: no edge of the data.
__global__ void lane_count(float *out, float *sums, const float *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if ((threadIdx.x & 31) < n) { // expect: divergent-branch possible
        atomicAdd(&sums[threadIdx.x], v);
    }
    __syncthreads();
    out[i] = v;
}

// Launched below in 32x4 blocks: each warp is one row of 32 columns, so one value of `w` that
// is no multiple of 32 splits all four warps of the last column of blocks.
__global__ void columns(float *out, float *sums, const float *in, int w) {
    int x = blockIdx.x * 32 + threadIdx.x;
    int i = (blockIdx.y * 4 + threadIdx.y) * 32 + threadIdx.x;
    float v = in[i];
    if (x < w) { // expect: divergent-branch possible
        atomicAdd(&sums[threadIdx.x], v);
    }
    __syncthreads();
    out[i] = v;
}

// The same kernel, never launched here: analysed in guessed 2-D shapes, where the column test
// meets several warps only because of the guess. It stays a boundary note.
__global__ void guessed_columns(float *out, float *sums, const float *in, int w) {
    int x = blockIdx.x * 32 + threadIdx.x;
    int i = (blockIdx.y * 4 + threadIdx.y) * 32 + threadIdx.x;
    float v = in[i];
    if (x < w) {
        atomicAdd(&sums[threadIdx.x], v);
    }
    __syncthreads();
    out[i] = v;
}

// A 1-D bound test: one value of `n` falls inside one warp of a block. A boundary note.
__global__ void edge(float *out, float *sums, const float *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if (i < n) {
        atomicAdd(&sums[threadIdx.x], v);
    }
    __syncthreads();
    out[i] = v;
}

void launch(float *out, float *sums, const float *in, int w, int h) {
    dim3 block(32, 4);
    dim3 grid((w + 31) / 32, (h + 3) / 4);
    columns<<<grid, block>>>(out, sums, in, w);
}
