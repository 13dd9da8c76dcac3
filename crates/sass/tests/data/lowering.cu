// Branches on which ptxas 13.0.88 (sm_90, -O3) and a size rule read off PTX disagree or
// agree, for the `--sass` tests (crates/cli/tests/check_sass.rs, crates/sass/tests/tools.rs).

// A 7-instruction body with two stores: short enough that the PTX rule expects ptxas to
// predicate it, but ptxas keeps a branch around it (line 9).
__global__ void stores_kept(const float *a, float *out, float *out2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i];
  if (v > 0.5f) {
    out[i] = v * 2.0f;
    out2[i] = v + 1.0f;
  }
  out[i + n] = v;
}

// Ten loads and five multiply-adds: too long for the PTX rule, yet ptxas predicates the body
// (line 21): no branch in the SASS.
__global__ void long_predicated(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = a[i];
  if (threadIdx.x & 1) {
    s = s * a[i + 1] + a[i + 2];
    s = s * a[i + 3] + a[i + 4];
    s = s * a[i + 5] + a[i + 6];
    s = s * a[i + 7] + a[i + 8];
    s = s * a[i + 9] + a[i + 10];
  }
  out[i] = s;
}

// The last statement under a thread test: a predicated exit either way (line 37).
__global__ void tail_exit(const int *keys, int *out, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = keys[blockIdx.x * 256 + t];
  __syncthreads();
  if (t & 1) {
    out[blockIdx.x * 256 + t] = s[t ^ 1];
    out[n + blockIdx.x * 256 + t] = s[t];
  }
}

// A lane test inside a loop (line 55) on the same line as the unrolled loop's lane-uniform
// trip-count branches: ptxas predicates the lane test (`@!P1 LDG`) and keeps only a uniform
// branch on the line, which must not be taken for the lane test's (reduced from HeCBench's
// sosfil).
__global__ void shared_line(const float *x_in, const float *sos, int n_samples, int load_size) {
  __shared__ float s_out[64], s_sos[64 * 6];
  int tx = threadIdx.x, ty = blockIdx.x;
  for (int i = 0; i < 6; i++) s_sos[tx * 6 + i] = sos[tx * 6 + i];
  s_out[tx] = 0.f; float zi = 0.f;
  __syncthreads();
  for (int n = 0; n < load_size; n++) {
    float x_n;
    if (tx == 0) {
      x_n = x_in[ty * n_samples + n];
    } else {
      x_n = s_out[tx - 1];
    }
    float temp = s_sos[tx * 6] * x_n + zi;
    zi = s_sos[tx * 6 + 1] * x_n - s_sos[tx * 6 + 4] * temp;
    s_out[tx] = temp;
    __syncthreads();
  }
}

// A merge path's binary search (reduced from HeCBench's `merge`): ptxas keeps no branch at
// either test (lines 82 and 83) but places the loop's branches, one per side, at the updates
// (lines 86 and 88): a profiler counts the divergence there.
__global__ void moved_search(const int *a, const int *b, int *out) {
  __shared__ int sa[257], sb[257];
  int t = threadIdx.x;
  sa[t] = a[blockIdx.x * 256 + t];
  sb[t] = b[blockIdx.x * 256 + t];
  __syncthreads();
  int offset = t >> 1;
  unsigned x = offset + 1;
  const int *bm1 = sb + t;
  const int *bs = bm1 + 1;
  while (true) {
    offset = (offset + 1) >> 1;
    if (sa[x] > bm1[~x]) {
      if (sa[x - 1] <= bs[~x]) {
        break;
      }
      x -= offset;
    } else {
      x += offset;
    }
  }
  out[blockIdx.x * 256 + t] = sa[x] + sb[t - x];
}
