// corpus/block2d.cu -- 2-D thread blocks whose x-extent is smaller than a warp (several rows per
// warp), over a row-major matrix: coalesced-looking-but-not versus truly coalesced.
//
// geometry: rows8_f32 grid=128,8,1 block=8,32,1
// geometry: rows16_f32 grid=64,16,1 block=16,16,1
// geometry: cols8_f32 grid=128,8,1 block=8,32,1
// geometry: rows8_u16 grid=128,8,1 block=8,32,1
// geometry: pitch16_f32 grid=62,16,1 block=16,8,1
// geometry: linear16_f32 grid=1024,1,1 block=16,16,1
//
// Matrices are W=1024 columns by H=256 rows (row-major) unless stated; every grid covers its
// matrix exactly, so there are no guards. Linear thread id = threadIdx.y*blockDim.x + threadIdx.x,
// so a warp of an 8-wide block holds 4 rows of 8 lanes, of a 16-wide block 2 rows of 16 lanes.
// Coalescing is judged in 32-byte sectors (what L2/DRAM move and what Nsight Compute counts).
//  - rows8_f32 (8x32, float): a warp touches 4 rows x 32 bytes. Each 32-byte piece is one whole
//    aligned sector (x0 = 8*blockIdx.x), so 4 sectors for 128 bytes = the ideal, although the
//    warp touches 4 different 128-byte lines. No expectation; a checker that assumes rows of 32
//    lanes, or counts 128-byte lines, will flag it (false positive).
//  - rows16_f32 (16x16, float): 2 rows x 64 bytes, 4 aligned sectors = ideal. No expectation.
//  - cols8_f32 (8x32): reads in[x*H + y] (the matrix seen column-major): lanes along x are
//    H*4 = 1024 bytes apart; the 4 rows give runs of 4 floats (16 bytes): 8 sectors for 128 bytes:
//    uncoalesced, definite. Its store out[y*W + x] is like rows8_f32: no expectation.
//  - rows8_u16 (8x32, 2-byte elements): looks exactly like rows8_f32 but each row piece is only
//    16 bytes, half a sector: 4 sectors for 64 bytes (ideal 2): uncoalesced, definite, on both the
//    load and the store.
//  - pitch16_f32 (16x8): rows of a 992-wide matrix stored with a pitch of 1001 floats (4004 bytes,
//    not a multiple of 32). Row y starts 4*y mod 32 bytes into a sector, so at most one of the two
//    rows of a warp is aligned: 5 or 6 sectors for 4 ideal, dense runs: misaligned, definite.
//    The store to the unpitched output (992*4 bytes per row, a multiple of 32) is aligned.
//  - linear16_f32 (16x16): indexes by the linear thread id, blockIdx.x*256 + ty*16 + tx: each warp
//    reads 128 contiguous aligned bytes: coalesced, no expectation.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define W 1024
#define H 256
#define PW 992
#define PITCH 1001
#define PH 128

__global__ void rows8_f32(const float* in, float* out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * W + x] = in[y * W + x] * 2.0f;
}

__global__ void rows16_f32(const float* in, float* out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * W + x] = in[y * W + x] + 3.0f;
}

__global__ void cols8_f32(const float* in, float* out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    float v = in[x * H + y]; // expect: uncoalesced-access definite
    out[y * W + x] = v;
}

__global__ void rows8_u16(const unsigned short* in, unsigned short* out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned short v = in[y * W + x]; // expect: uncoalesced-access definite
    out[y * W + x] = (unsigned short)(v ^ 0x5a5a); // expect: uncoalesced-access definite
}

__global__ void pitch16_f32(const float* in, float* out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    float v = in[y * PITCH + x]; // expect: misaligned-access definite
    out[y * PW + x] = v * 0.25f;
}

__global__ void linear16_f32(const float* in, float* out)
{
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int i = blockIdx.x * (blockDim.x * blockDim.y) + t;
    out[i] = in[i] - 1.0f;
}

template <typename T>
static double checksum(const std::vector<T>& v)
{
    double s = 0.0;
    for (size_t i = 0; i < v.size(); ++i) s += (double)v[i] * (double)((i % 7) + 1);
    return s;
}

int main()
{
    const int n = W * H;              // 262144
    const int np = PITCH * PH;        // 128128
    std::vector<float> hin(n);
    std::vector<unsigned short> hin16(n);
    for (int i = 0; i < n; ++i) { hin[i] = (float)i; hin16[i] = (unsigned short)i; }  // spec: iota (u16 wraps)
    float *d_in, *d_a, *d_b, *d_c, *d_p, *d_l;
    unsigned short *d_in16, *d_o16;
    CK(cudaMalloc(&d_in, n * sizeof(float)));
    CK(cudaMalloc(&d_a, n * sizeof(float)));
    CK(cudaMalloc(&d_b, n * sizeof(float)));
    CK(cudaMalloc(&d_c, n * sizeof(float)));
    CK(cudaMalloc(&d_p, PW * PH * sizeof(float)));
    CK(cudaMalloc(&d_l, n * sizeof(float)));
    CK(cudaMalloc(&d_in16, n * sizeof(unsigned short)));
    CK(cudaMalloc(&d_o16, n * sizeof(unsigned short)));
    CK(cudaMemcpy(d_in, hin.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_in16, hin16.data(), n * sizeof(unsigned short), cudaMemcpyHostToDevice));

    rows8_f32<<<dim3(W / 8, H / 32), dim3(8, 32)>>>(d_in, d_a);
    rows16_f32<<<dim3(W / 16, H / 16), dim3(16, 16)>>>(d_in, d_b);
    cols8_f32<<<dim3(W / 8, H / 32), dim3(8, 32)>>>(d_in, d_c);
    rows8_u16<<<dim3(W / 8, H / 32), dim3(8, 32)>>>(d_in16, d_o16);
    pitch16_f32<<<dim3(PW / 16, PH / 8), dim3(16, 8)>>>(d_in, d_p);   // reads the first 128128 floats
    linear16_f32<<<dim3(n / 256), dim3(16, 16)>>>(d_in, d_l);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<float> a(n), b(n), c(n), p(PW * PH), l(n);
    std::vector<unsigned short> o16(n);
    CK(cudaMemcpy(a.data(), d_a, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b.data(), d_b, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(c.data(), d_c, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(p.data(), d_p, PW * PH * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(l.data(), d_l, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(o16.data(), d_o16, n * sizeof(unsigned short), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        bad += a[i] != (float)i * 2.0f;
        bad += b[i] != (float)i + 3.0f;
        bad += l[i] != (float)i - 1.0f;
        bad += o16[i] != (unsigned short)((unsigned short)i ^ 0x5a5a);
        int y = i / W, x = i % W;
        bad += c[i] != (float)(x * H + y);
    }
    for (int y = 0; y < PH; ++y)
        for (int x = 0; x < PW; ++x) bad += p[y * PW + x] != (float)(y * PITCH + x) * 0.25f;
    (void)np;
    printf("block2d: a=%.6e b=%.6e c=%.6e u16=%.6e pitch=%.6e lin=%.6e mismatches=%d\n",
           checksum(a), checksum(b), checksum(c), checksum(o16), checksum(p), checksum(l), bad);
    return bad ? 1 : 0;
}
