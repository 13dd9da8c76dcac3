// Block shapes a kernel's own indexing implies. No `// geometry:` lines: the shapes must be
// inferred.
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

// Reads %tid.y in its own index: 2-D, analysed in the common shapes (no launch here). The
// row test splits the first warp of the 32-wide shapes and two rows of every warp of 16x16.
__global__ void rows(float *out, float *sums, const float *in, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    float v = in[y * w + x];
    if (threadIdx.y == 0 && threadIdx.x < 8) { // expect: divergent-branch definite
        atomicAdd(&sums[threadIdx.x], v);
    }
    __syncthreads();
    out[y * w + x] = v;
}
