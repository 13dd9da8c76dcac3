// GPUCheck figure 11: gaussian's Fan1 and Fan2. The row-major accesses indexed by
// Size*xidx walk a column (lanes Size*4 bytes apart): non-coalescable. Size is a run-time value,
// so GPUCheck reports them as "unknown"; told Size = 64 (`assume`), they are definite. The
// early returns are boundary checks (GPUCheck excludes them); `if (yidx == 0)` diverges in the
// warp holding yidx 0. b_cuda[xidx + 1 + t] is contiguous but starts at a t-dependent offset.
//
// geometry: Fan1 grid=1,1,1 block=64,1,1
// geometry: Fan2 grid=4,4,1 block=16,16,1
// assume: Size=64
// assume: t=0..62

__global__ void Fan1(float* m_cuda, float* a_cuda, int Size, int t)
{
    int xidx = blockIdx.x * blockDim.x + threadIdx.x;
    if (xidx >= Size - 1 - t) return; // expect: divergent-branch definite
    int off = Size * (t + 1) + t;
    m_cuda[Size * xidx + off] = // expect: uncoalesced-access definite
        a_cuda[Size * xidx + off] / a_cuda[Size * t + t]; // expect: uncoalesced-access definite
}

__global__ void Fan2(float* m_cuda, float* a_cuda, float* b_cuda, int Size, int t)
{
    int xidx = blockIdx.x * blockDim.x + threadIdx.x;
    int yidx = blockIdx.y * blockDim.y + threadIdx.y;
    if (yidx >= Size - 1 - t || xidx >= Size - t) return; // expect: divergent-branch definite
    int off = Size * (t + 1);
    a_cuda[Size * xidx + yidx + off] -= // expect: uncoalesced-access definite
        m_cuda[Size * xidx + off] * a_cuda[Size * t + yidx + t]; // expect: uncoalesced-access definite
    if (yidx == 0) { // expect: divergent-branch definite
        b_cuda[xidx + 1 + t] -= m_cuda[Size * xidx + yidx + off] * b_cuda[t]; // expect: uncoalesced-access definite, misaligned-access definite
    }
}
