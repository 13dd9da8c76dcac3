// GPUCheck figure 13 (nw): the halo set-up. `if (tx == 0)` makes one lane of warp 0 load the
// corner: divergent. The west column is read with lanes `cols` floats apart: non-coalescable
// (GPUCheck and nvprof both report it; with cols = 2049 assumed, definite). The north row is
// contiguous but starts at an arbitrary column offset (misaligned for this index_n).
//
// geometry: nw_halo grid=1,1,1 block=16,1,1
// assume: cols=2049
#define BLOCK_SIZE 16

__global__ void nw_halo(const int* matrix_cuda, int* out, int cols, int index_nw, int index_w, int index_n)
{
    __shared__ int temp[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
    int tx = threadIdx.x;
    if (tx == 0) // expect: divergent-branch definite
        temp[tx][0] = matrix_cuda[index_nw];
    __syncthreads();
    temp[tx + 1][0] = matrix_cuda[index_w + cols * tx]; // expect: uncoalesced-access definite
    __syncthreads();
    temp[0][tx + 1] = matrix_cuda[index_n + tx]; // expect: misaligned-access possible
    __syncthreads();
    out[tx] = temp[tx + 1][0] + temp[0][tx + 1];
}
