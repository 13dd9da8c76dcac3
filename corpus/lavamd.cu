// corpus/lavamd.cu -- lavaMD-style particle interactions between neighbouring boxes, in the shape of
// GPUCheck's lavaMD case study (figure 12): a box holds NPAR = 100 particles but the kernel runs
// 128 threads, so every per-particle loop `while (wtx < NPAR)` leaves warp 3 partly idle; the fix
// sizes the boxes to the block (128 particles per box, 128 threads).
//
// geometry: lava_fill grid=64,1,1 block=128,1,1
// geometry: lavamd_100 grid=64,1,1 block=128,1,1
// geometry: lavamd_128 grid=64,1,1 block=128,1,1
// assume: alpha=0.5
//
// 64 boxes on a ring. Box b's neighbour list is b, b+1, b-1, (b+2 if b%3 > 0), (b-2 if b%3 > 1):
// nn = 3 + b % 3 (loaded from box_nn[b]: data, but block-uniform). Particles are float4
// (v = |r|^2, x, y, z) plus a charge; lava_fill writes both layouts (100 and 128 per box).
//  - lavamd_100: `while (wtx < NPAR)` with wtx = threadIdx.x + k*128: the first trip runs for
//    threads 0..99, so warp 3 (96..127) splits 4/28: divergent, definite (three such loops: the
//    shared copy of the neighbour box, the home-particle loop and the force write-back).
//    The neighbour loop `for (k = 0; k < nn; ++k)` is block-uniform: no expectation. The inner
//    loop over the 100 shared particles is uniform.
//  - lavamd_128: the same code with NPAR = 128 = blockDim.x: every loop is uniform: no
//    expectations.
//  - float4 loads rv[first + wtx] are 16-byte vectors, contiguous, and box starts are 1600 (or
//    2048) bytes apart, a multiple of 32: coalesced. The charges are 4-byte floats, so a 100-particle
//    box is 400 bytes and every odd box starts 16 bytes into a sector: qv[first + wtx] (and the
//    fill's qv100 store) touch 5 sectors per full warp instead of 4: misaligned, definite (the
//    alignment problem the paper says nvprof reported and GPUCheck missed). With 128 particles a
//    box is 512 bytes: aligned. rB[j] in shared memory is read by all lanes at
//    the same j: broadcast, no bank conflict.
// Math: __expf (ex2.approx), fmaf-contracted arithmetic.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define NBOX 64
#define NTHREADS 128
#define NPAR_A 100
#define NPAR_B 128
#define MAXNN 5

__device__ __forceinline__ int wrap_box(int b)
{
    return (b + NBOX) % NBOX;
}

__global__ void lava_fill(float4* rv100, float* qv100, float4* rv128, float* qv128, int* box_nn, int* box_list)
{
    int b = blockIdx.x, t = threadIdx.x;
    int g = b * NTHREADS + t;
    float x = (float)((g * 37) % 101) * 0.01f;
    float y = (float)((g * 53) % 97) * 0.01f;
    float z = (float)((g * 71) % 89) * 0.01f;
    float4 r = make_float4(x * x + y * y + z * z, x, y, z);
    float q = (float)(g % 7 + 1) * 0.125f;
    rv128[g] = r;
    qv128[g] = q;
    if (t < NPAR_A) { // expect: divergent-branch definite
        rv100[b * NPAR_A + t] = r;
        qv100[b * NPAR_A + t] = q; // expect: misaligned-access definite
    }
    if (t == 0) { // expect: divergent-branch definite
        int nn = 3 + b % 3;
        box_nn[b] = nn;
        box_list[b * MAXNN + 0] = b;
        box_list[b * MAXNN + 1] = wrap_box(b + 1);
        box_list[b * MAXNN + 2] = wrap_box(b - 1);
        box_list[b * MAXNN + 3] = wrap_box(b + 2);
        box_list[b * MAXNN + 4] = wrap_box(b - 2);
    }
}

__global__ void lavamd_100(const float4* rv, const float* qv, const int* box_nn, const int* box_list, float4* fv, float alpha)
{
    __shared__ float4 rB[NPAR_A];
    __shared__ float qB[NPAR_A];
    int home = blockIdx.x;
    int first_home = home * NPAR_A;
    float a2 = 2.0f * alpha * alpha;
    int nn = box_nn[home];
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int k = 0; k < nn; ++k) {
        int first = box_list[home * MAXNN + k] * NPAR_A;
        int wtx = threadIdx.x;
        while (wtx < NPAR_A) { // expect: divergent-branch definite
            rB[wtx] = rv[first + wtx];
            qB[wtx] = qv[first + wtx]; // expect: misaligned-access definite
            wtx += NTHREADS;
        }
        __syncthreads();
        wtx = threadIdx.x;
        while (wtx < NPAR_A) { // expect: divergent-branch definite
            float4 rA = rv[first_home + wtx];
            float4 f = acc;
            for (int j = 0; j < NPAR_A; ++j) {
                float r2 = rA.x * rB[j].x + rA.y * rB[j].y + rA.z * rB[j].z;
                float u2 = a2 * (rA.w + rB[j].w - 2.0f * r2);
                float vij = __expf(-u2);
                float fs = 2.0f * vij;
                f.w += qB[j] * vij;
                f.x += qB[j] * fs * (rA.x - rB[j].x);
                f.y += qB[j] * fs * (rA.y - rB[j].y);
                f.z += qB[j] * fs * (rA.z - rB[j].z);
            }
            acc = f;
            wtx += NTHREADS;
        }
        __syncthreads();
    }
    int wtx = threadIdx.x;
    while (wtx < NPAR_A) { // expect: divergent-branch definite
        fv[first_home + wtx] = acc;
        wtx += NTHREADS;
    }
}

__global__ void lavamd_128(const float4* rv, const float* qv, const int* box_nn, const int* box_list, float4* fv, float alpha)
{
    __shared__ float4 rB[NPAR_B];
    __shared__ float qB[NPAR_B];
    int home = blockIdx.x;
    int first_home = home * NPAR_B;
    float a2 = 2.0f * alpha * alpha;
    int nn = box_nn[home];
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int k = 0; k < nn; ++k) {
        int first = box_list[home * MAXNN + k] * NPAR_B;
        int wtx = threadIdx.x;
        while (wtx < NPAR_B) {
            rB[wtx] = rv[first + wtx];
            qB[wtx] = qv[first + wtx];
            wtx += NTHREADS;
        }
        __syncthreads();
        wtx = threadIdx.x;
        while (wtx < NPAR_B) {
            float4 rA = rv[first_home + wtx];
            float4 f = acc;
            for (int j = 0; j < NPAR_B; ++j) {
                float r2 = rA.x * rB[j].x + rA.y * rB[j].y + rA.z * rB[j].z;
                float u2 = a2 * (rA.w + rB[j].w - 2.0f * r2);
                float vij = __expf(-u2);
                float fs = 2.0f * vij;
                f.w += qB[j] * vij;
                f.x += qB[j] * fs * (rA.x - rB[j].x);
                f.y += qB[j] * fs * (rA.y - rB[j].y);
                f.z += qB[j] * fs * (rA.z - rB[j].z);
            }
            acc = f;
            wtx += NTHREADS;
        }
        __syncthreads();
    }
    int wtx = threadIdx.x;
    while (wtx < NPAR_B) {
        fv[first_home + wtx] = acc;
        wtx += NTHREADS;
    }
}

int main()
{
    float4 *d_rv100, *d_rv128, *d_f100, *d_f128;
    float *d_qv100, *d_qv128;
    int *d_nn, *d_list;
    CK(cudaMalloc(&d_rv100, NBOX * NPAR_A * sizeof(float4)));
    CK(cudaMalloc(&d_rv128, NBOX * NPAR_B * sizeof(float4)));
    CK(cudaMalloc(&d_f100, NBOX * NPAR_A * sizeof(float4)));
    CK(cudaMalloc(&d_f128, NBOX * NPAR_B * sizeof(float4)));
    CK(cudaMalloc(&d_qv100, NBOX * NPAR_A * sizeof(float)));
    CK(cudaMalloc(&d_qv128, NBOX * NPAR_B * sizeof(float)));
    CK(cudaMalloc(&d_nn, NBOX * sizeof(int)));
    CK(cudaMalloc(&d_list, NBOX * MAXNN * sizeof(int)));
    lava_fill<<<NBOX, NTHREADS>>>(d_rv100, d_qv100, d_rv128, d_qv128, d_nn, d_list);
    lavamd_100<<<NBOX, NTHREADS>>>(d_rv100, d_qv100, d_nn, d_list, d_f100, 0.5f);
    lavamd_128<<<NBOX, NTHREADS>>>(d_rv128, d_qv128, d_nn, d_list, d_f128, 0.5f);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> f100(NBOX * NPAR_A * 4), f128(NBOX * NPAR_B * 4);
    CK(cudaMemcpy(f100.data(), d_f100, f100.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(f128.data(), d_f128, f128.size() * sizeof(float), cudaMemcpyDeviceToHost));
    double c1 = 0.0, c2 = 0.0;
    for (size_t i = 0; i < f100.size(); ++i) c1 += (double)f100[i] * ((i % 7) + 1);
    for (size_t i = 0; i < f128.size(); ++i) c2 += (double)f128[i] * ((i % 7) + 1);
    printf("lavamd: f100=%.6e f128=%.6e\n", c1, c2);
    return 0;
}
