// corpus/transpose.cu -- matrix transpose: naive, 32x32 shared tile, and the padded [32][33] tile.
//
// geometry: transpose_naive grid=16,16,1 block=32,8,1
// geometry: transpose_tiled grid=16,16,1 block=32,8,1
// geometry: transpose_padded grid=16,16,1 block=32,8,1
//
// A 512x512 float matrix (row-major), 32x32 tiles, each 32x8 block moves one tile with 4 rows
// per thread (j = 0, 8, 16, 24). A warp is one 32-lane row of the block (threadIdx.y fixed).
//  - naive: the read in[(y+j)*N + x] is a full aligned 128-byte row: coalesced. The write
//    out[x*N + (y+j)] puts consecutive lanes N*4 = 2048 bytes apart: 32 sectors per request:
//    uncoalesced, definite.
//  - tiled: both global accesses walk rows (coalesced). The tile is written row-wise,
//    tile[ty+j][tx] (32 consecutive words, conflict-free), and read column-wise, tile[tx][ty+j]:
//    lanes are 32 words apart, all in one bank: a 32-way bank conflict, definite.
//  - padded: tile[32][33] shifts each row by one bank, so the column read hits 32 distinct banks:
//    no expectation (the classic fix).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define N 512
#define TILE 32
#define ROWS 8

__global__ void transpose_naive(const float* in, float* out)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        out[x * N + (y + j)] = in[(y + j) * N + x]; // expect: uncoalesced-access definite
    }
}

__global__ void transpose_tiled(const float* in, float* out)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        out[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j]; // expect: bank-conflict definite
    }
}

__global__ void transpose_padded(const float* in, float* out)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        out[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}

int main()
{
    const int n = N * N;
    std::vector<float> hin(n);
    for (int i = 0; i < n; ++i) hin[i] = (float)i;  // spec: iota
    float *d_in, *d_o[3];
    CK(cudaMalloc(&d_in, n * sizeof(float)));
    for (int k = 0; k < 3; ++k) CK(cudaMalloc(&d_o[k], n * sizeof(float)));
    CK(cudaMemcpy(d_in, hin.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    dim3 grid(N / TILE, N / TILE), block(TILE, ROWS);
    transpose_naive<<<grid, block>>>(d_in, d_o[0]);
    transpose_tiled<<<grid, block>>>(d_in, d_o[1]);
    transpose_padded<<<grid, block>>>(d_in, d_o[2]);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    int bad = 0;
    double cs = 0.0;
    for (int k = 0; k < 3; ++k) {
        std::vector<float> o(n);
        CK(cudaMemcpy(o.data(), d_o[k], n * sizeof(float), cudaMemcpyDeviceToHost));
        for (int r = 0; r < N; ++r)
            for (int c = 0; c < N; ++c) bad += o[r * N + c] != hin[c * N + r];
        if (k == 0) for (int i = 0; i < n; ++i) cs += (double)o[i] * ((i % 7) + 1);
    }
    printf("transpose: out=%.6e mismatches=%d\n", cs, bad);
    return bad ? 1 : 0;
}
