// corpus/loops.cu -- loops with thread-dependent, triangular, uniform and data-dependent trip counts.
//
// geometry: fill_counts grid=256,1,1 block=256,1,1
// geometry: tid_trip grid=256,1,1 block=256,1,1
// geometry: triangular_matvec grid=2,1,1 block=256,1,1
// geometry: uniform_trip grid=256,1,1 block=256,1,1
// geometry: data_trip grid=256,1,1 block=256,1,1
// geometry: grid_stride_ragged grid=2,1,1 block=256,1,1
// geometry: collatz_steps grid=256,1,1 block=256,1,1
// assume: triangular_matvec n=512
// assume: uniform_trip m=8
// assume: grid_stride_ragged n=1000
//
// Patterns and why each expectation holds (the expectation sits on the loop-condition line):
//  - tid_trip: `j < (threadIdx.x & 7)`: lanes run 0..7 iterations: divergent, definite.
//  - triangular_matvec: y[r] = sum_{j<=r} L[r*n+j]*x[j], one thread per row r: lane r runs r+1
//    iterations: divergent, definite. L[r*n + j] has a row stride of n*4 = 2048 bytes between
//    lanes: uncoalesced, definite. x[j] is the same address for all lanes: broadcast, none.
//  - uniform_trip: `j < m` with a kernel parameter: uniform, no expectation.
//  - data_trip: `j < cnt[i]`: per-thread loaded trip count: divergent, possible.
//  - grid_stride_ragged: n = 1000 with 2*256 = 512 threads: every thread does iteration 0; the
//    second iteration (i + 512 < 1000) runs for ids 0..487 only, so warp 15 (ids 480..511) splits:
//    divergent, definite.
//  - collatz_steps: `while (v != 1)` on a loaded start value: divergent, possible.
// The loads in[(i + j) & 65535] inside tid_trip are consecutive across lanes for a given j, but
// in iteration j only the lanes with (tid & 7) > j are still active: the active lanes leave gaps
// (e.g. j = 4: 3 of every 8 lanes), so a request touches up to 2x the sectors its active bytes
// need: uncoalesced, definite (a consequence of the divergent loop; Nsight Compute reports the
// excess on this line).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void fill_counts(int* cnt, unsigned* start)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    cnt[i] = (i * 7) % 5;
    start[i] = (unsigned)(i % 1000) + 1u;
}

__global__ void tid_trip(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int j = 0; j < (int)(threadIdx.x & 7); ++j) { // expect: divergent-branch definite
        acc = acc * 0.5f + in[(i + j) & 65535]; // expect: uncoalesced-access definite
    }
    out[i] = acc;
}

__global__ void triangular_matvec(const float* L, const float* x, float* y, int n)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int j = 0; j <= r; ++j) { // expect: divergent-branch definite
        s += L[r * n + j] * x[j]; // expect: uncoalesced-access definite
    }
    y[r] = s;
}

__global__ void uniform_trip(const float* in, float* out, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = in[i];
    for (int j = 0; j < m; ++j) {
        acc = acc * 0.5f + in[(i + 256 * j) & 65535];
    }
    out[i] = acc;
}

__global__ void data_trip(const float* in, const int* cnt, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 1.0f;
    for (int j = 0; j < cnt[i]; ++j) { // expect: divergent-branch possible
        acc = acc * in[i] + 0.25f;
    }
    out[i] = acc;
}

__global__ void grid_stride_ragged(const float* in, float* out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) { // expect: divergent-branch definite
        out[i] = in[i] + 100.0f;
    }
}

__global__ void collatz_steps(const unsigned* start, int* steps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = start[i];
    int k = 0;
    while (v != 1u) { // expect: divergent-branch possible
        v = (v & 1u) ? 3u * v + 1u : v / 2u;
        ++k;
    }
    steps[i] = k;
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
    const int n = 65536;
    const int tn = 512;
    std::vector<float> hin(n), hL(tn * tn), hx(tn);
    for (int i = 0; i < n; ++i) hin[i] = 0.5f;          // spec: { constant = 0.5 }
    for (int i = 0; i < tn * tn; ++i) hL[i] = 1.0f;     // spec: { constant = 1.0 }
    for (int i = 0; i < tn; ++i) hx[i] = (float)i;      // spec: iota
    float *d_in, *d_L, *d_x, *d_y, *d_o[4];
    int *d_cnt, *d_steps;
    unsigned* d_start;
    CK(cudaMalloc(&d_in, n * sizeof(float)));
    CK(cudaMalloc(&d_L, tn * tn * sizeof(float)));
    CK(cudaMalloc(&d_x, tn * sizeof(float)));
    CK(cudaMalloc(&d_y, tn * sizeof(float)));
    CK(cudaMalloc(&d_cnt, n * sizeof(int)));
    CK(cudaMalloc(&d_steps, n * sizeof(int)));
    CK(cudaMalloc(&d_start, n * sizeof(unsigned)));
    for (int k = 0; k < 4; ++k) { CK(cudaMalloc(&d_o[k], n * sizeof(float))); CK(cudaMemset(d_o[k], 0, n * sizeof(float))); }
    CK(cudaMemcpy(d_in, hin.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_L, hL.data(), tn * tn * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_x, hx.data(), tn * sizeof(float), cudaMemcpyHostToDevice));

    fill_counts<<<256, 256>>>(d_cnt, d_start);
    tid_trip<<<256, 256>>>(d_in, d_o[0]);
    triangular_matvec<<<2, 256>>>(d_L, d_x, d_y, tn);
    uniform_trip<<<256, 256>>>(d_in, d_o[1], 8);
    data_trip<<<256, 256>>>(d_in, d_cnt, d_o[2]);
    grid_stride_ragged<<<2, 256>>>(d_in, d_o[3], 1000);
    collatz_steps<<<256, 256>>>(d_start, d_steps);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    printf("loops:");
    for (int k = 0; k < 4; ++k) {
        std::vector<float> o(n);
        CK(cudaMemcpy(o.data(), d_o[k], n * sizeof(float), cudaMemcpyDeviceToHost));
        printf(" out%d=%.6e", k, checksum(o));
    }
    std::vector<float> y(tn);
    std::vector<int> steps(n);
    CK(cudaMemcpy(y.data(), d_y, tn * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(steps.data(), d_steps, n * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int r = 0; r < tn; ++r) bad += y[r] != (float)(r * (r + 1) / 2);
    printf(" y=%.6e steps=%.6e mismatches=%d\n", checksum(y), checksum(steps), bad);
    return bad ? 1 : 0;
}
