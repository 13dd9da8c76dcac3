// corpus/grab_lbm.cu -- GRAB's lattice-Boltzmann case study (paper 001, §5 RQ2, Figure 9), written
// for this corpus: one D2Q9 BGK collide-and-stream step in three versions, basic -> v1 -> v2, each
// the fix `warpscope cache` names for the previous version's top root cause.
//
// geometry: lbm_basic grid=16,16,1 block=32,8,1
// geometry: lbm_v1 grid=16,16,1 block=32,8,1
// geometry: lbm_v2 grid=16,16,1 block=32,8,1
//
// A 512 x 128 lattice, one thread per node, the distributions stored as nine planes of PX x PY
// floats: node (x, y) of plane q is f[q * PLANE + (y + 1) * PX + x + 32], with a boundary row above
// and below and 32 boundary columns on each side (PX = 576: rows stay 128-byte aligned), so the
// upstream neighbour always exists. Each node pulls f_q from (x - cx(q), y - cy(q)): a warp (32
// nodes of one row) reads its own row and the rows above and below, which the block's other
// warps read too. rho, ux and uy are NX x NY arrays.
//  - lbm_basic (written without regard to the memory system): density and momentum accumulate
//    in global memory (rho[n] += ..., ux[n] += ..., uy[n] += ...), and as the pointers may alias
//    every use re-reads global memory: the pulled f_q three times in the first loop, twice in the
//    second, and rho[n], ux[n], uy[n] in every iteration of the second loop (GRAB Figure 9(a)).
//  - lbm_v1 keeps rho, ux, uy and each pulled value in registers inside each loop (Figure 9(b),
//    (c)): the second loop still pulls every f_q from global memory a second time.
//  - lbm_v2 keeps the nine pulled values of the first loop in registers and uses them in the
//    second, which no longer reads f_in (GRAB: the second loop's data overlapped the first's;
//    split and fused).
// All three write the same f_out and rho, ux, uy (v1 and v2 store those once).
// Every access is a contiguous 128-byte row segment per warp; the pulls with cx(q) = +-1 start
// 4 bytes off a sector boundary (5 sectors for 4): misaligned-access definite where they are.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define NX 512
#define NY 128
#define NODES (NX * NY)
#define PX (NX + 64)
#define PLANE (PX * (NY + 2))
#define Q 9
#define OMEGA 1.2f

// The D2Q9 weights: 4/9 at rest, 1/9 along the axes, 1/36 along the diagonals.
__device__ float weight(int q)
{
    return q == 0 ? 4.0f / 9.0f : (q < 5 ? 1.0f / 9.0f : 1.0f / 36.0f);
}

// The D2Q9 velocities (the loops are unrolled, so these fold to constants).
__device__ __forceinline__ int cx(int q)
{
    return (q == 1 || q == 5 || q == 8) ? 1 : ((q == 3 || q == 6 || q == 7) ? -1 : 0);
}

__device__ __forceinline__ int cy(int q)
{
    return (q == 2 || q == 5 || q == 6) ? 1 : ((q == 4 || q == 7 || q == 8) ? -1 : 0);
}

// Node (x, y)'s own place in plane q, and where it pulls f_q from: its upstream neighbour.
__device__ __forceinline__ int own(int x, int y, int q)
{
    return q * PLANE + (y + 1) * PX + x + 32;
}

__device__ __forceinline__ int upstream(int x, int y, int q)
{
    return q * PLANE + (y + 1 - cy(q)) * PX + x + 32 - cx(q);
}

__global__ void lbm_basic(const float* f_in, float* f_out, float* rho, float* ux, float* uy)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int n = y * NX + x;
    rho[n] = 0.0f;
    ux[n] = 0.0f;
    uy[n] = 0.0f;
#pragma unroll
    for (int q = 0; q < Q; ++q) {
        int src = upstream(x, y, q);
        rho[n] += f_in[src]; // expect: misaligned-access definite
        ux[n] += cx(q) * f_in[src]; // expect: misaligned-access definite
        uy[n] += cy(q) * f_in[src]; // expect: misaligned-access definite
    }
#pragma unroll
    for (int q = 0; q < Q; ++q) {
        int src = upstream(x, y, q);
        float cu = 3.0f * (cx(q) * ux[n] + cy(q) * uy[n]) / rho[n];
        float usq = 1.5f * (ux[n] * ux[n] + uy[n] * uy[n]) / (rho[n] * rho[n]);
        float feq = weight(q) * rho[n] * (1.0f + cu + 0.5f * cu * cu - usq);
        f_out[own(x, y, q)] = f_in[src] - OMEGA * (f_in[src] - feq); // expect: misaligned-access definite
    }
}

__global__ void lbm_v1(const float* f_in, float* f_out, float* rho, float* ux, float* uy)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int n = y * NX + x;
    float r = 0.0f, mx = 0.0f, my = 0.0f;
#pragma unroll
    for (int q = 0; q < Q; ++q) {
        float fq = f_in[upstream(x, y, q)]; // expect: misaligned-access definite
        r += fq;
        mx += cx(q) * fq;
        my += cy(q) * fq;
    }
    rho[n] = r;
    ux[n] = mx;
    uy[n] = my;
    float usq = 1.5f * (mx * mx + my * my) / (r * r);
#pragma unroll
    for (int q = 0; q < Q; ++q) {
        float fq = f_in[upstream(x, y, q)]; // expect: misaligned-access definite
        float cu = 3.0f * (cx(q) * mx + cy(q) * my) / r;
        float feq = weight(q) * r * (1.0f + cu + 0.5f * cu * cu - usq);
        f_out[own(x, y, q)] = fq - OMEGA * (fq - feq);
    }
}

__global__ void lbm_v2(const float* f_in, float* f_out, float* rho, float* ux, float* uy)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int n = y * NX + x;
    float f[Q];
    float r = 0.0f, mx = 0.0f, my = 0.0f;
#pragma unroll
    for (int q = 0; q < Q; ++q) {
        f[q] = f_in[upstream(x, y, q)]; // expect: misaligned-access definite
        r += f[q];
        mx += cx(q) * f[q];
        my += cy(q) * f[q];
    }
    rho[n] = r;
    ux[n] = mx;
    uy[n] = my;
    float usq = 1.5f * (mx * mx + my * my) / (r * r);
#pragma unroll
    for (int q = 0; q < Q; ++q) {
        float cu = 3.0f * (cx(q) * mx + cy(q) * my) / r;
        float feq = weight(q) * r * (1.0f + cu + 0.5f * cu * cu - usq);
        f_out[own(x, y, q)] = f[q] - OMEGA * (f[q] - feq);
    }
}

static double checksum(const std::vector<float>& v)
{
    double s = 0.0;
    for (size_t i = 0; i < v.size(); ++i) s += v[i] * (double)((i % 13) + 1);
    return s;
}

int main()
{
    std::vector<float> f((size_t)Q * PLANE);
    unsigned s = 7;
    for (size_t i = 0; i < f.size(); ++i) {
        s = s * 1664525u + 1013904223u;
        f[i] = 0.02f + 0.1f * (float)(s >> 8) / 16777216.0f;
    }
    float *d_f, *d_o[3], *d_rho, *d_ux, *d_uy;
    CK(cudaMalloc(&d_f, f.size() * sizeof(float)));
    for (int v = 0; v < 3; ++v) {
        CK(cudaMalloc(&d_o[v], f.size() * sizeof(float)));
        CK(cudaMemset(d_o[v], 0, f.size() * sizeof(float)));
    }
    CK(cudaMalloc(&d_rho, NODES * sizeof(float)));
    CK(cudaMalloc(&d_ux, NODES * sizeof(float)));
    CK(cudaMalloc(&d_uy, NODES * sizeof(float)));
    CK(cudaMemcpy(d_f, f.data(), f.size() * sizeof(float), cudaMemcpyHostToDevice));
    dim3 grid(NX / 32, NY / 8), block(32, 8);
    lbm_basic<<<grid, block>>>(d_f, d_o[0], d_rho, d_ux, d_uy);
    lbm_v1<<<grid, block>>>(d_f, d_o[1], d_rho, d_ux, d_uy);
    lbm_v2<<<grid, block>>>(d_f, d_o[2], d_rho, d_ux, d_uy);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> o[3];
    double worst = 0.0;
    for (int v = 0; v < 3; ++v) {
        o[v].resize(f.size());
        CK(cudaMemcpy(o[v].data(), d_o[v], f.size() * sizeof(float), cudaMemcpyDeviceToHost));
    }
    for (size_t i = 0; i < f.size(); ++i) {
        for (int v = 1; v < 3; ++v) {
            double d = o[v][i] - o[0][i];
            if (d < 0) d = -d;
            if (d > worst) worst = d;
        }
    }
    printf("grab_lbm: basic=%.6e v1=%.6e v2=%.6e max|diff|=%.3e\n", checksum(o[0]), checksum(o[1]),
           checksum(o[2]), worst);
    return worst < 1e-5 ? 0 : 1;
}
