// A flat index split into a row and a column (HeCBench's heat, pso and ne shapes).
//  * `shifted`: `i + (j - 1) * n` with `i = idx % n`, `j = idx / n` is `idx - n` (nvcc computes
//    the remainder as `idx - j * n`); the lanes are consecutive whatever `n` is: no finding.
//  * `modulus`: `t[i % 30]` over 32 consecutive `i` stays within 30 consecutive elements in
//    every block, whatever the grid: at most the 4 sectors its 128 bytes need, no finding.
//  * `columns`: a test on the column `x = idx % w` against a small constant splits the first
//    block's first warp (lanes 0-1 against 2-31) for any `w` above 2: a possible divergent
//    branch. A test on the row `y = idx / w` is warp-uniform whenever `w` is a multiple of 32,
//    and so is the bound `idx < w * h`: boundary checks, still notes.
//  * `guarded_column`: the column test behind a data-dependent early return (HeCBench's ne:
//    `if (isnan(p[idx].z)) return;`): the lanes it may stop are taken to reach the test, a
//    possible divergent branch still. (Its store is a possible uncoalesced access: the lanes
//    the early return stops may leave holes.)
//  * `scaled`: `idx * per < total` reads two sizes; each takes every value tried on its own
//    (both equal, it would be `idx < 1`, splitting lane 0 from the rest): a boundary check.
__global__ void shifted(const unsigned n, const double *u, double *v) {
    int idx = blockDim.x * blockIdx.x + threadIdx.x;
    if (idx < n * n) {
        int i = idx % n, j = idx / n;
        v[i + j * n] = (j > 0) ? u[i + (j - 1) * n] : 0.0;
    }
}

__global__ void modulus(float *o, const float *t, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = t[i % 30];
}

__global__ void columns(const float *p, float *o, int w, int h) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= w * h) return;
    int x = idx % w, y = idx / w;
    float v = 0.f;
    if (x > 1) { // expect: divergent-branch possible
        float s = p[idx - 1]; // expect: misaligned-access definite
        for (int k = 0; k < 16; k++)
            s = s * 0.5f + o[k];
        v += s;
    }
    if (y > 1) {
        float s = p[idx - w];
        for (int k = 0; k < 16; k++)
            s = s * 0.5f + o[k + 16];
        v += s;
    }
    o[idx] = v;
}

__global__ void scaled(const float *p, float *o, int per, int total) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx * per < total) {
        float s = p[idx];
        for (int k = 0; k < 16; k++)
            s = s * 0.5f + o[k];
        o[idx + 64] = s;
    }
}

__global__ void guarded_column(const float *p, float *o, int w) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (isnan(p[idx])) return; // expect: divergent-branch possible (data)
    int x = idx % w;
    float v = 0.f;
    if (x > 1) { // expect: divergent-branch possible
        for (int k = 0; k < 16; k++)
            v = v * 0.5f + o[k + 32];
    }
    o[idx] = v; // expect: uncoalesced-access possible (lanes the early return stops)
}
