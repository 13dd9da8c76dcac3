// A grid-stride loop (`for (i = gid; i < n; i += stride)`) that nvcc unrolls by 4 behind a
// remainder loop of `((n - gid - 1) / stride + 1) & 3` iterations. That trip count differs
// between lanes only in the one warp of the grid where a multiple of the stride falls among
// its global indices; read as shared by the warp (like a boundary check), the lanes leave the
// remainder loop together and the main loop's index stays `gid + k*stride`: consecutive lanes,
// consecutive elements, nothing to report. Read per lane, the index was opaque and every
// access here a `possible` "addresses depend on loaded data" (HeCBench bh's integration
// kernel, the third real-world set).
__global__ void integrate(float4 *pos, float2 *vel, const float4 *acc, int n, float dt) {
    int stride = blockDim.x * gridDim.x;
    for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += stride) {
        float4 a = acc[i];
        float2 v = vel[i];
        float4 p = pos[i];
        p.x += (v.x + a.x * dt) * dt;
        p.y += (v.y + a.y * dt) * dt;
        p.z += a.z * dt * dt;
        pos[i] = p;
        v.x += a.x * dt;
        v.y += a.y * dt;
        vel[i] = v;
    }
}
