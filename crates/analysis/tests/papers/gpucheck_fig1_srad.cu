// GPUCheck (Lloyd, Ali, Amaral) figures 1 and 2: srad's diffusion coefficient clamped with
// branches (figure 1) versus min/max (figure 2). The coefficient depends on loaded pixels, so
// the clamp branches may diverge (GPUCheck reports them; the class is "unknown"); the fix has
// no branch at all.
//
// geometry: srad_fig1 grid=16,16,1 block=16,16,1
// geometry: srad_fig2 grid=16,16,1 block=16,16,1
// assume: cols=256
#define BS 16

__global__ void srad_fig1(const float* qsqr_img, float* out, int cols, float q0sqr)
{
    __shared__ float temp_result[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * BS + tx, y = blockIdx.y * BS + ty;
    float qsqr = qsqr_img[y * cols + x];
    float den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
    float c = 1.0f / (1.0f + den);
    if (c < 0) { temp_result[ty][tx] = 0; } // expect: divergent-branch possible
    else if (c > 1) { temp_result[ty][tx] = 1; } // expect: divergent-branch possible
    else { temp_result[ty][tx] = c; }
    __syncthreads();
    out[y * cols + x] = temp_result[ty][tx];
}

__global__ void srad_fig2(const float* qsqr_img, float* out, int cols, float q0sqr)
{
    __shared__ float temp_result[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * BS + tx, y = blockIdx.y * BS + ty;
    float qsqr = qsqr_img[y * cols + x];
    float den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
    float c = fminf(fmaxf(1.0f / (1.0f + den), 0.0f), 1.0f);
    temp_result[ty][tx] = c;
    __syncthreads();
    out[y * cols + x] = temp_result[ty][tx];
}
