// corpus/srad.cu -- speckle-reducing anisotropic diffusion step in the style of GPUCheck's srad
// case study (figures 1 and 2): a diffusion coefficient clamped to [0, 1] with if/else-if/else,
// versus the fminf/fmaxf fix, followed by the update step.
//
// geometry: fill_image grid=256,1,1 block=256,1,1
// geometry: srad_coeff_branchy grid=16,16,1 block=16,16,1
// geometry: srad_coeff_minmax grid=16,16,1 block=16,16,1
// geometry: srad_update grid=16,16,1 block=16,16,1
// assume: rows=256 cols=256 q0sqr=0.05 lambda=0.5
//
// A 256x256 image, 16x16 blocks (a warp = two 16-pixel rows, 64 aligned bytes each).
// fill_image writes J[i] = 1 + ((i*37 + 11) % 101) * 0.01 (strictly positive).
//  - West/east neighbours J[y*cols + xw], J[y*cols + xe] with xw = max(x-1, 0), xe = min(x+1,
//    cols-1): for interior blocks the runs are shifted by one float: misaligned, definite. North/
//    south neighbours and the centre are aligned rows: coalesced.
//  - srad_coeff_branchy keeps GPUCheck's three-way clamp on the data-dependent coefficient c,
//    each arm storing to temp_result[ty][tx]. nvcc -O3 keeps both tests as real `@p bra` (checked
//    in the PTX: it does not sink the three stores into one selp here): `if (c < 0)` and
//    `else if (c > 1)` are divergent, possible (c depends on the loaded pixels).
//  - srad_coeff_minmax is the fix (GPUCheck figure 2): c = fminf(fmaxf(c, 0), 1) compiles to
//    max.f32/min.f32, no branch, and the single store runs with the full warp.
//  - The divisions are inline div.rn.f32 in the PTX (no branches).
//  - srad_update reads C at the centre, south and east neighbours: the east read C[y*cols + xe]
//    is misaligned, definite, like the J reads.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define BS 16

__global__ void fill_image(float* J)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    J[i] = 1.0f + (float)((i * 37 + 11) % 101) * 0.01f;
}

__device__ __forceinline__ float coeff_raw(const float* J, int x, int y, int rows, int cols, float q0sqr)
{
    int yn = max(y - 1, 0), ys = min(y + 1, rows - 1);
    int xw = max(x - 1, 0), xe = min(x + 1, cols - 1);
    float jc = J[y * cols + x];
    float dN = J[yn * cols + x] - jc;
    float dS = J[ys * cols + x] - jc;
    float dW = J[y * cols + xw] - jc; // expect: misaligned-access definite
    float dE = J[y * cols + xe] - jc; // expect: misaligned-access definite
    float g2 = (dN * dN + dS * dS + dW * dW + dE * dE) / (jc * jc);
    float l = (dN + dS + dW + dE) / jc;
    float num = 0.5f * g2 - 0.0625f * (l * l);
    float den = 1.0f + 0.25f * l;
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    return 1.0f / (1.0f + den);
}

__global__ void srad_coeff_branchy(const float* J, float* C, int rows, int cols, float q0sqr)
{
    __shared__ float temp_result[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * BS + tx, y = blockIdx.y * BS + ty;
    float c = coeff_raw(J, x, y, rows, cols, q0sqr);
    if (c < 0.0f) { // expect: divergent-branch possible
        temp_result[ty][tx] = 0.0f;
    } else if (c > 1.0f) { // expect: divergent-branch possible
        temp_result[ty][tx] = 1.0f;
    } else {
        temp_result[ty][tx] = c;
    }
    __syncthreads();
    C[y * cols + x] = temp_result[ty][tx];
}

__global__ void srad_coeff_minmax(const float* J, float* C, int rows, int cols, float q0sqr)
{
    __shared__ float temp_result[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * BS + tx, y = blockIdx.y * BS + ty;
    float c = coeff_raw(J, x, y, rows, cols, q0sqr);
    temp_result[ty][tx] = fminf(fmaxf(c, 0.0f), 1.0f);
    __syncthreads();
    C[y * cols + x] = temp_result[ty][tx];
}

__global__ void srad_update(const float* J, const float* C, float* Jout, int rows, int cols, float lambda)
{
    int x = blockIdx.x * BS + threadIdx.x, y = blockIdx.y * BS + threadIdx.y;
    int yn = max(y - 1, 0), ys = min(y + 1, rows - 1);
    int xw = max(x - 1, 0), xe = min(x + 1, cols - 1);
    float jc = J[y * cols + x];
    float dN = J[yn * cols + x] - jc;
    float dS = J[ys * cols + x] - jc;
    float dW = J[y * cols + xw] - jc; // expect: misaligned-access definite
    float dE = J[y * cols + xe] - jc; // expect: misaligned-access definite
    float cC = C[y * cols + x];
    float cS = C[ys * cols + x];
    float cE = C[y * cols + xe]; // expect: misaligned-access definite
    float div = cC * dN + cS * dS + cC * dW + cE * dE;
    Jout[y * cols + x] = jc + 0.25f * lambda * div;
}

static double checksum(const std::vector<float>& v)
{
    double s = 0.0;
    for (size_t i = 0; i < v.size(); ++i) s += (double)v[i] * (double)((i % 7) + 1);
    return s;
}

int main()
{
    const int rows = 256, cols = 256, n = rows * cols;
    const float q0sqr = 0.05f, lambda = 0.5f;
    float *d_J, *d_C1, *d_C2, *d_Jout;
    CK(cudaMalloc(&d_J, n * sizeof(float)));
    CK(cudaMalloc(&d_C1, n * sizeof(float)));
    CK(cudaMalloc(&d_C2, n * sizeof(float)));
    CK(cudaMalloc(&d_Jout, n * sizeof(float)));
    fill_image<<<n / 256, 256>>>(d_J);
    dim3 grid(cols / BS, rows / BS), block(BS, BS);
    srad_coeff_branchy<<<grid, block>>>(d_J, d_C1, rows, cols, q0sqr);
    srad_coeff_minmax<<<grid, block>>>(d_J, d_C2, rows, cols, q0sqr);
    srad_update<<<grid, block>>>(d_J, d_C2, d_Jout, rows, cols, lambda);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> c1(n), c2(n), jo(n);
    CK(cudaMemcpy(c1.data(), d_C1, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(c2.data(), d_C2, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(jo.data(), d_Jout, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0, lo = 0, hi = 0;
    for (int i = 0; i < n; ++i) {
        bad += c1[i] != c2[i];
        lo += c2[i] == 0.0f;
        hi += c2[i] == 1.0f;
    }
    printf("srad: C=%.6e Jout=%.6e clamped_low=%d clamped_high=%d branchy_vs_minmax_mismatches=%d\n",
           checksum(c2), checksum(jo), lo, hi, bad);
    return bad ? 1 : 0;
}
