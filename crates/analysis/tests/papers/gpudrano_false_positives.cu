// GPUDrano's false-positive classes: an index divided and multiplied back by the same constant
// ((tid/4)*4 + tid%4 is tid), a non-linear index whose neighbours differ by at most one, and
// __mul24. GPUDrano's abstraction sets these to ⊤ and reports them; per-lane evaluation sees
// consecutive addresses: coalesced, no expectation.
//
// geometry: div_mul_back grid=64,1,1 block=256,1,1
// assume: w=4 w2=4
// assume: n=16384
// geometry: cond_assign grid=64,1,1 block=256,1,1
// geometry: mul24_index grid=64,1,1 block=256,1,1

__global__ void div_mul_back(const float* in, float* out, int w, int w2)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    // nvcc -O3 folds (tid/4)*4 + tid%4, and (tid/w)*w + tid%w too, back to tid; with the
    // multiplier a second parameter (equal to w at run time) the division survives.
    int idx = (tid / w) * w2 + tid % w;
    out[idx] = in[idx] * 2.0f;
}

__global__ void cond_assign(const float* in, float* out, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int idx = tid < n ? tid : n - 1;
    out[tid] = in[idx];
}

__global__ void mul24_index(const float* in, float* out)
{
    int tid = __mul24(blockIdx.x, blockDim.x) + threadIdx.x;
    out[tid] = in[tid] + 1.0f;
}
