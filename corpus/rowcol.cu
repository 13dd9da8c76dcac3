// corpus/rowcol.cu -- row-major versus column-major walks over a 512x512 row-major matrix.
//
// geometry: row_sums grid=2,1,1 block=256,1,1
// geometry: col_sums grid=2,1,1 block=256,1,1
// geometry: row_sums_fixed grid=2,1,1 block=256,1,1
// geometry: scale_rows grid=512,1,1 block=256,1,1
// assume: w=512
// assume: h=512
//
// One thread per row (row_sums) or per column (col_sums): 2 blocks of 256 threads = 512.
// Patterns and why each expectation holds:
//  - row_sums: thread r walks its row, m[r*w + j]. At each j the lanes of a warp are w*4 = 2048
//    bytes apart: 32 sectors per request for 4 ideal: uncoalesced, definite (w=512 assumed).
//    The loop trip count w is uniform: no divergence.
//  - row_sums_fixed: same walk with a compile-time width: definite without any assumption.
//  - col_sums: thread c walks its column, m[j*w + c]: lanes adjacent, coalesced, no expectation.
//  - scale_rows: one block per row, threads stride along the row (j = threadIdx.x; j < w;
//    j += blockDim.x): coalesced; 512/256 = 2 iterations for every thread, uniform.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define FIXED_W 512

__global__ void row_sums(const float* m, float* out, int w, int h)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= h) return;
    float s = 0.0f;
    for (int j = 0; j < w; ++j) {
        s += m[r * w + j]; // expect: uncoalesced-access definite
    }
    out[r] = s;
}

__global__ void row_sums_fixed(const float* m, float* out)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int j = 0; j < FIXED_W; ++j) {
        s += m[r * FIXED_W + j]; // expect: uncoalesced-access definite
    }
    out[r] = s;
}

__global__ void col_sums(const float* m, float* out, int w, int h)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= w) return;
    float s = 0.0f;
    for (int j = 0; j < h; ++j) {
        s += m[j * w + c];
    }
    out[c] = s;
}

__global__ void scale_rows(float* m, const float* rowscale, int w)
{
    int r = blockIdx.x;
    float f = rowscale[r];
    for (int j = threadIdx.x; j < w; j += blockDim.x) {
        m[r * w + j] *= f;
    }
}

static double checksum(const std::vector<float>& v)
{
    double s = 0.0;
    for (size_t i = 0; i < v.size(); ++i) s += (double)v[i] * (double)((i % 7) + 1);
    return s;
}

int main()
{
    const int w = 512, h = 512;
    std::vector<float> hm(w * h), hs(h);
    // spec: { constant = 0.5 } for m; iota for rowscale. Sums of 0.5 are exact.
    for (int i = 0; i < w * h; ++i) hm[i] = 0.5f;
    for (int i = 0; i < h; ++i) hs[i] = (float)i;
    float *d_m, *d_rs, *d_cs, *d_rf, *d_scale;
    CK(cudaMalloc(&d_m, w * h * sizeof(float)));
    CK(cudaMalloc(&d_rs, h * sizeof(float)));
    CK(cudaMalloc(&d_cs, w * sizeof(float)));
    CK(cudaMalloc(&d_rf, h * sizeof(float)));
    CK(cudaMalloc(&d_scale, h * sizeof(float)));
    CK(cudaMemcpy(d_m, hm.data(), w * h * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_scale, hs.data(), h * sizeof(float), cudaMemcpyHostToDevice));

    scale_rows<<<512, 256>>>(d_m, d_scale, w);       // row r becomes 0.5 * r
    row_sums<<<2, 256>>>(d_m, d_rs, w, h);
    col_sums<<<2, 256>>>(d_m, d_cs, w, h);
    row_sums_fixed<<<2, 256>>>(d_m, d_rf);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<float> rs(h), cs(w), rf(h);
    CK(cudaMemcpy(rs.data(), d_rs, h * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(cs.data(), d_cs, w * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(rf.data(), d_rf, h * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int r = 0; r < h; ++r) bad += rs[r] != 0.5f * r * w || rf[r] != rs[r];
    for (int c = 0; c < w; ++c) bad += cs[c] != 0.5f * (h * (h - 1) / 2);
    printf("rowcol: rows=%.6e cols=%.6e rows_fixed=%.6e mismatches=%d\n",
           checksum(rs), checksum(cs), checksum(rf), bad);
    return bad ? 1 : 0;
}
