// Benchmark shape for `warpscope check`'s evaluation budget (docs/performance.md, "The hard
// limit bounds the enumeration", 2026-11-28): several kernels, each with shared-memory tiles
// filled by loops whose start and stride depend on the thread (`for (d = tx; d < DIM; d +=
// W)`), unrolled dot products over the tiles and a block-wide reduction. Each kernel's sites
// simulate thread-dependent loops, so the kernels spend their budgets; the module is checked
// with defaults (no geometry). Written for this benchmark; no application's code.
#define DIM 96
#define PTS 2048

template <int W, int H>
__global__ void tiled_best(const float *__restrict a, const float *__restrict b,
                           float *__restrict best, int *__restrict where) {
  __shared__ float ta[W * (DIM + 1)];
  __shared__ float tb[H * DIM];
  __shared__ float part[W * H];
  int tx = threadIdx.x, ty = threadIdx.y;
  int base = W * blockIdx.x;
  if (ty < W)
    for (int d = tx; d < DIM; d += W)
      for (int j = ty; j < W; j += H)
        ta[j * (DIM + 1) + d] = a[(base + j) * DIM + d];
  __syncthreads();
  float top = 0.0f;
  int at = -1;
  for (int p = 0; p < PTS; p += H) {
    for (int d = tx; d < DIM; d += W)
      tb[ty * DIM + d] = b[(p + ty) * DIM + d];
    __syncthreads();
    float s = 0.0f;
#pragma unroll 8
    for (int d = 0; d < DIM; d++)
      s += ta[tx * (DIM + 1) + d] * tb[ty * DIM + d];
    part[tx + W * ty] = s;
    __syncthreads();
    if (ty == 0)
      for (int i = 0; i < H; i++)
        if (part[tx + W * i] > top) {
          top = part[tx + W * i];
          at = p + i;
        }
    __syncthreads();
  }
  if (ty == 0) {
    best[base + tx] = top;
    where[base + tx] = at;
  }
}

template __global__ void tiled_best<16, 8>(const float *, const float *, float *, int *);
template __global__ void tiled_best<16, 16>(const float *, const float *, float *, int *);
template __global__ void tiled_best<32, 4>(const float *, const float *, float *, int *);
template __global__ void tiled_best<32, 8>(const float *, const float *, float *, int *);
template __global__ void tiled_best<32, 16>(const float *, const float *, float *, int *);
template __global__ void tiled_best<32, 32>(const float *, const float *, float *, int *);
