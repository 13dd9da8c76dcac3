// GPUCheck figure 3 (streamcluster): the weight of an array of 24-byte Point structures is
// read with a 24-byte stride (non-coalescable, figure 4 left); the structure-of-arrays fix reads
// p_weight[tid] contiguously. d_dist is a (non-inlined) device function, as in the paper,
// analysed in the context of each call; its coord_d[i*num + p1] rows start at an unknown
// offset (num is not known), so they may be misaligned.
//
// geometry: compute_cost_aos grid=64,1,1 block=256,1,1
// geometry: compute_cost_soa grid=64,1,1 block=256,1,1
// assume: dim=4
struct Point {
    float coord[4];
    float weight;
    int assign;
};

__device__ __noinline__ float d_dist(int p1, int p2, int num, int dim, const float* coord_d)
{
    float d = 0.0f;
    for (int i = 0; i < dim; i++) {
        float t = coord_d[i * num + p1] - coord_d[i * num + p2]; // `num` is a pitch: padded, not misaligned
        d += t * t;
    }
    return d;
}

__global__ void compute_cost_aos(int num, int dim, long x, const Point* p, const float* coord_d, float* cost)
{
    const int tid = blockDim.x * blockIdx.x + threadIdx.x;
    float x_cost = d_dist(tid, x, num, dim, coord_d) * p[tid].weight; // expect: uncoalesced-access definite
    cost[tid] = x_cost;
}

__global__ void compute_cost_soa(int num, int dim, long x, const float* p_weight, const float* coord_d, float* cost)
{
    const int tid = blockDim.x * blockIdx.x + threadIdx.x;
    float x_cost = d_dist(tid, x, num, dim, coord_d) * p_weight[tid];
    cost[tid] = x_cost;
}
