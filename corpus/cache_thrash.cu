// corpus/cache_thrash.cu -- cache interference: column-block sums over a matrix whose row pitch is a
// large power of two (every row segment a warp touches maps to the same cache sets), versus the
// same walk with a padded pitch. All accesses are coalesced; the difference is only in the cache
// behaviour (L1/L2 set conflicts, hit rate), which a dynamic profile or the emulator's cache model
// should expose. No expectations of the four static rules in this file.
//
// geometry: fill_tall grid=2056,1,1 block=256,1,1
// geometry: colsum_pow2_pitch grid=64,1,1 block=128,1,1
// geometry: colsum_padded_pitch grid=64,1,1 block=128,1,1
// geometry: reuse_window grid=64,1,1 block=128,1,1
//
// The matrix has 64 rows of 8192 useful floats. colsum_pow2_pitch stores rows 8192 floats
// (32 KiB) apart, colsum_padded_pitch 8224 floats (32 KiB + 128 B) apart; both buffers hold
// 64 * 8224 floats. Each thread sums one column over the 64 rows: warp requests are 128
// contiguous aligned bytes (coalesced) but, with the power-of-two pitch, the 64 lines of a warp's
// walk all fall into the same L1 set group. reuse_window re-reads a window of 4 rows 16 times:
// good temporal locality (a cache model should report hits).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define NROWS 64
#define NCOLS 8192
#define PITCH_POW2 8192
#define PITCH_PAD 8224

__global__ void fill_tall(float* m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    m[i] = (float)(i % 9) - 4.0f;
}

__global__ void colsum_pow2_pitch(const float* m, float* out)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int r = 0; r < NROWS; ++r) {
        s += m[r * PITCH_POW2 + c];
    }
    out[c] = s;
}

__global__ void colsum_padded_pitch(const float* m, float* out)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int r = 0; r < NROWS; ++r) {
        s += m[r * PITCH_PAD + c];
    }
    out[c] = s;
}

__global__ void reuse_window(const float* m, float* out)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int rep = 0; rep < 16; ++rep) {
        for (int r = 0; r < 4; ++r) {
            s += m[r * PITCH_PAD + c] * (float)(rep + 1);
        }
    }
    out[c] = s;
}

static double checksum(const std::vector<float>& v)
{
    double s = 0.0;
    for (size_t i = 0; i < v.size(); ++i) s += (double)v[i] * (double)((i % 7) + 1);
    return s;
}

int main()
{
    const int total = NROWS * PITCH_PAD;   // 526336 = 2056 * 256
    float *d_m, *d_a, *d_b, *d_c;
    CK(cudaMalloc(&d_m, total * sizeof(float)));
    CK(cudaMalloc(&d_a, NCOLS * sizeof(float)));
    CK(cudaMalloc(&d_b, NCOLS * sizeof(float)));
    CK(cudaMalloc(&d_c, NCOLS * sizeof(float)));
    fill_tall<<<total / 256, 256>>>(d_m);
    colsum_pow2_pitch<<<NCOLS / 128, 128>>>(d_m, d_a);
    colsum_padded_pitch<<<NCOLS / 128, 128>>>(d_m, d_b);
    reuse_window<<<NCOLS / 128, 128>>>(d_m, d_c);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> a(NCOLS), b(NCOLS), c(NCOLS);
    CK(cudaMemcpy(a.data(), d_a, NCOLS * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b.data(), d_b, NCOLS * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(c.data(), d_c, NCOLS * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int col = 0; col < NCOLS; ++col) {
        float sa = 0.0f, sb = 0.0f;
        for (int r = 0; r < NROWS; ++r) {
            sa += (float)((r * PITCH_POW2 + col) % 9) - 4.0f;
            sb += (float)((r * PITCH_PAD + col) % 9) - 4.0f;
        }
        bad += a[col] != sa || b[col] != sb;
    }
    printf("cache_thrash: pow2=%.6e padded=%.6e reuse=%.6e mismatches=%d\n", checksum(a), checksum(b), checksum(c), bad);
    return bad ? 1 : 0;
}
