// corpus/nw.cu -- Needleman-Wunsch alignment scores, tiled along anti-diagonals of 16x16 tiles with
// a halo, in the shape of GPUCheck's nw case study (figure 13): the tile's north-west corner is
// loaded by `tx == 0`, the west halo column is a strided load, and each tile is swept along its
// anti-diagonals by a triangular set of threads.
//
// geometry: nw_init grid=259,1,1 block=256,1,1
// geometry: nw_upper grid=1..16,1,1 block=16,1,1
// geometry: nw_lower grid=1..15,1,1 block=16,1,1
// assume: cols=257 penalty=10 total=66049
// assume: nw_upper i=1..16
// assume: nw_lower i=1..15 block_width=16
// (sequences of length 256, 16 tiles per side; nw_upper(i) runs with grid i for i = 1..16 in
// increasing order, then nw_lower(i) with grid i for i = 15 down to 1)
//
// score and ref are (N+1) x (N+1) = 257 x 257 ints, row-major. Row 0 / column 0 of score hold the
// gap penalties; ref[r][c] = ((7r + 13c) % 21) - 10. The host recomputes the DP and compares.
// A block is 16 threads, i.e. one half-populated warp: "divergent" below means among those 16.
//  - nw_init: 259 * 256 = 66304 threads for 66049 cells: the last warp (ids 66048..66079) has one
//    lane in range: `if (i < total)` divergent, definite. The border ternaries compile to selp.
//  - `if (tx == 0)` north-west corner (GPUCheck line 94): divergent, definite.
//  - ref[index + cols*ty] / score[index + cols*ty]: 16 consecutive ints starting one int past a
//    tile boundary, rows 1028 bytes apart: the 64-byte run starts (8 + 4*ty) mod 32 bytes into a
//    sector, so for 14 of the 16 rows it spans 3 sectors instead of 2: misaligned, definite.
//  - score[index_w + cols*tx] (west halo column, GPUCheck line 98): lanes 1028 bytes apart:
//    uncoalesced, definite.
//  - score[index_n] (north halo row, line 100): 16 consecutive ints starting 4 bytes into a
//    sector: misaligned, definite.
//  - `if (tx <= m)` in both sweeps: a triangular set of lanes: divergent, definite. (The loop
//    bounds themselves are uniform.)
//  - the anti-diagonal update reads/writes temp[m - tx + 1][tx + 1] and neighbours: consecutive
//    lanes are 17 - 1 = 16 words apart, so the active lanes fall into two banks: up to 8-way bank
//    conflict, definite. ref_s[.][.] on the same line is 15 words apart (odd): conflict-free.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define BS 16

__device__ __forceinline__ int max3(int a, int b, int c)
{
    return max(a, max(b, c));
}

__global__ void nw_init(int* score, int* ref, int cols, int penalty, int total)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < total) { // expect: divergent-branch definite
        int r = i / cols, c = i % cols;
        score[i] = (r == 0) ? -c * penalty : ((c == 0) ? -r * penalty : 0);
        ref[i] = (7 * r + 13 * c) % 21 - 10;
    }
}

__global__ void nw_upper(int* score, const int* ref, int cols, int penalty, int i)
{
    __shared__ int temp[BS + 1][BS + 1];
    __shared__ int ref_s[BS][BS];
    int bx = blockIdx.x, tx = threadIdx.x;
    int b_x = bx, b_y = i - 1 - bx;
    int index = cols * BS * b_y + BS * b_x + tx + cols + 1;
    int index_n = cols * BS * b_y + BS * b_x + tx + 1;
    int index_w = cols * BS * b_y + BS * b_x + cols;
    int index_nw = cols * BS * b_y + BS * b_x;
    if (tx == 0) { // expect: divergent-branch definite
        temp[0][0] = score[index_nw];
    }
    for (int ty = 0; ty < BS; ++ty) {
        ref_s[ty][tx] = ref[index + cols * ty]; // expect: misaligned-access definite
    }
    __syncthreads();
    temp[tx + 1][0] = score[index_w + cols * tx]; // expect: uncoalesced-access definite
    __syncthreads();
    temp[0][tx + 1] = score[index_n]; // expect: misaligned-access definite
    __syncthreads();
    for (int m = 0; m < BS; ++m) {
        if (tx <= m) { // expect: divergent-branch definite
            int t_x = tx + 1, t_y = m - tx + 1;
            temp[t_y][t_x] = max3(temp[t_y - 1][t_x - 1] + ref_s[t_y - 1][t_x - 1], temp[t_y][t_x - 1] - penalty, temp[t_y - 1][t_x] - penalty); // expect: bank-conflict definite
        }
        __syncthreads();
    }
    for (int m = BS - 2; m >= 0; --m) {
        if (tx <= m) { // expect: divergent-branch definite
            int t_x = tx + BS - m, t_y = BS - tx;
            temp[t_y][t_x] = max3(temp[t_y - 1][t_x - 1] + ref_s[t_y - 1][t_x - 1], temp[t_y][t_x - 1] - penalty, temp[t_y - 1][t_x] - penalty); // expect: bank-conflict definite
        }
        __syncthreads();
    }
    for (int ty = 0; ty < BS; ++ty) {
        score[index + ty * cols] = temp[ty + 1][tx + 1]; // expect: misaligned-access definite
    }
}

__global__ void nw_lower(int* score, const int* ref, int cols, int penalty, int i, int block_width)
{
    __shared__ int temp[BS + 1][BS + 1];
    __shared__ int ref_s[BS][BS];
    int bx = blockIdx.x, tx = threadIdx.x;
    int b_x = bx + block_width - i, b_y = block_width - 1 - bx;
    int index = cols * BS * b_y + BS * b_x + tx + cols + 1;
    int index_n = cols * BS * b_y + BS * b_x + tx + 1;
    int index_w = cols * BS * b_y + BS * b_x + cols;
    int index_nw = cols * BS * b_y + BS * b_x;
    if (tx == 0) { // expect: divergent-branch definite
        temp[0][0] = score[index_nw];
    }
    for (int ty = 0; ty < BS; ++ty) {
        ref_s[ty][tx] = ref[index + cols * ty]; // expect: misaligned-access definite
    }
    __syncthreads();
    temp[tx + 1][0] = score[index_w + cols * tx]; // expect: uncoalesced-access definite
    __syncthreads();
    temp[0][tx + 1] = score[index_n]; // expect: misaligned-access definite
    __syncthreads();
    for (int m = 0; m < BS; ++m) {
        if (tx <= m) { // expect: divergent-branch definite
            int t_x = tx + 1, t_y = m - tx + 1;
            temp[t_y][t_x] = max3(temp[t_y - 1][t_x - 1] + ref_s[t_y - 1][t_x - 1], temp[t_y][t_x - 1] - penalty, temp[t_y - 1][t_x] - penalty); // expect: bank-conflict definite
        }
        __syncthreads();
    }
    for (int m = BS - 2; m >= 0; --m) {
        if (tx <= m) { // expect: divergent-branch definite
            int t_x = tx + BS - m, t_y = BS - tx;
            temp[t_y][t_x] = max3(temp[t_y - 1][t_x - 1] + ref_s[t_y - 1][t_x - 1], temp[t_y][t_x - 1] - penalty, temp[t_y - 1][t_x] - penalty); // expect: bank-conflict definite
        }
        __syncthreads();
    }
    for (int ty = 0; ty < BS; ++ty) {
        score[index + ty * cols] = temp[ty + 1][tx + 1]; // expect: misaligned-access definite
    }
}

int main()
{
    const int N = 256, cols = N + 1, total = cols * cols, penalty = 10, bw = N / BS;
    int *d_score, *d_ref;
    CK(cudaMalloc(&d_score, total * sizeof(int)));
    CK(cudaMalloc(&d_ref, total * sizeof(int)));
    nw_init<<<(total + 255) / 256, 256>>>(d_score, d_ref, cols, penalty, total);
    for (int i = 1; i <= bw; ++i) nw_upper<<<i, BS>>>(d_score, d_ref, cols, penalty, i);
    for (int i = bw - 1; i >= 1; --i) nw_lower<<<i, BS>>>(d_score, d_ref, cols, penalty, i, bw);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<int> score(total);
    CK(cudaMemcpy(score.data(), d_score, total * sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> h(total);
    for (int r = 0; r < cols; ++r)
        for (int c = 0; c < cols; ++c) {
            if (r == 0) h[c] = -c * penalty;
            else if (c == 0) h[r * cols] = -r * penalty;
            else {
                int refv = (7 * r + 13 * c) % 21 - 10;
                h[r * cols + c] = std::max(h[(r - 1) * cols + c - 1] + refv,
                                           std::max(h[r * cols + c - 1] - penalty, h[(r - 1) * cols + c] - penalty));
            }
        }
    int bad = 0;
    double cs = 0.0;
    for (int k = 0; k < total; ++k) { bad += score[k] != h[k]; cs += (double)score[k] * ((k % 7) + 1); }
    printf("nw: score=%.6e final=%d mismatches=%d\n", cs, score[total - 1], bad);
    return bad ? 1 : 0;
}
