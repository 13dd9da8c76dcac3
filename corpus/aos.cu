// corpus/aos.cu -- array-of-structures versus structure-of-arrays global accesses.
//
// geometry: aos_init grid=256,1,1 block=256,1,1
// geometry: vec3_norm grid=256,1,1 block=256,1,1
// geometry: particle_weight grid=256,1,1 block=256,1,1
// geometry: particle_drift grid=256,1,1 block=256,1,1
// geometry: soa_weight grid=256,1,1 block=256,1,1
// assume: n=65536
//
// n = 65536 elements, 256 blocks * 256 threads: exact cover, the `i < n` guards are uniform.
// Patterns and why each expectation holds:
//  - Vec3 is 12 bytes (align 4, so nvcc cannot use vector loads). `Vec3 v = pts[i]` issues three
//    4-byte loads, each with a 12-byte stride between lanes: a warp spans 384 bytes = 12-13
//    sectors per load for 4 ideal: uncoalesced, definite (one entry for the three loads on the line).
//  - Particle is 24 bytes (streamcluster-like, GPUCheck figure 3). Reading only .weight touches
//    one 4-byte field per 24 bytes: 24-25 sectors for 4 ideal: uncoalesced, definite.
//  - particle_drift updates .x/.y (two loads, two stores, 24-byte stride): definite on both lines.
//  - aos_init writes all six fields of each particle: each store instruction is 24-byte strided
//    (uncoalesced, definite), although together they fill the lines.
//  - soa_weight is the structure-of-arrays fix: w[i] is coalesced, no expectation.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

struct Vec3 {
    float x, y, z;
};

struct Particle {
    float x, y, z;
    float weight;
    int cell;
    float charge;
};

static_assert(sizeof(Vec3) == 12, "Vec3 must be 12 bytes");
static_assert(sizeof(Particle) == 24, "Particle must be 24 bytes");

__global__ void aos_init(Particle* p, Vec3* pts, float* w, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float f = (float)(i % 1000) * 0.25f;
        p[i].x = f;                          // expect: uncoalesced-access definite
        p[i].y = f + 1.0f;                   // expect: uncoalesced-access definite
        p[i].z = f - 1.0f;                   // expect: uncoalesced-access definite
        p[i].weight = (float)(i % 13) * 0.5f; // expect: uncoalesced-access definite
        p[i].cell = i / 64;                  // expect: uncoalesced-access definite
        p[i].charge = (i & 1) ? 1.0f : -1.0f; // expect: uncoalesced-access definite
        pts[i].x = f;                        // expect: uncoalesced-access definite
        pts[i].y = 2.0f * f;                 // expect: uncoalesced-access definite
        pts[i].z = (float)(i % 5);           // expect: uncoalesced-access definite
        w[i] = (float)(i % 13) * 0.5f;
    }
}

__global__ void vec3_norm(const Vec3* pts, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Vec3 v = pts[i]; // expect: uncoalesced-access definite
        out[i] = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
    }
}

__global__ void particle_weight(const Particle* p, const float* dist, float* cost, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float wt = p[i].weight; // expect: uncoalesced-access definite
        cost[i] = dist[i] * wt;
    }
}

__global__ void particle_drift(Particle* p, float dt, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p[i].x = p[i].x + dt * p[i].charge; // expect: uncoalesced-access definite
        p[i].y = p[i].y - dt;               // expect: uncoalesced-access definite
    }
}

__global__ void soa_weight(const float* w, const float* dist, float* cost, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        cost[i] = dist[i] * w[i];
    }
}

static double checksum(const float* v, size_t len)
{
    double s = 0.0;
    for (size_t i = 0; i < len; ++i) s += (double)v[i] * (double)((i % 7) + 1);
    return s;
}

int main()
{
    const int n = 65536;
    Particle* d_p;
    Vec3* d_pts;
    float *d_w, *d_dist, *d_norm, *d_cost_aos, *d_cost_soa;
    CK(cudaMalloc(&d_p, n * sizeof(Particle)));
    CK(cudaMalloc(&d_pts, n * sizeof(Vec3)));
    CK(cudaMalloc(&d_w, n * sizeof(float)));
    CK(cudaMalloc(&d_dist, n * sizeof(float)));
    CK(cudaMalloc(&d_norm, n * sizeof(float)));
    CK(cudaMalloc(&d_cost_aos, n * sizeof(float)));
    CK(cudaMalloc(&d_cost_soa, n * sizeof(float)));
    std::vector<float> h_dist(n);
    for (int i = 0; i < n; ++i) h_dist[i] = (float)i;  // spec: iota
    CK(cudaMemcpy(d_dist, h_dist.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    aos_init<<<256, 256>>>(d_p, d_pts, d_w, n);
    vec3_norm<<<256, 256>>>(d_pts, d_norm, n);
    particle_weight<<<256, 256>>>(d_p, d_dist, d_cost_aos, n);
    particle_drift<<<256, 256>>>(d_p, 0.125f, n);
    soa_weight<<<256, 256>>>(d_w, d_dist, d_cost_soa, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<float> norm(n), ca(n), cs(n), pf(6 * n);
    CK(cudaMemcpy(norm.data(), d_norm, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ca.data(), d_cost_aos, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(cs.data(), d_cost_soa, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(pf.data(), d_p, n * sizeof(Particle), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += ca[i] != cs[i];
    printf("aos: norm=%.6e cost=%.6e particles=%.6e aos_vs_soa_mismatches=%d\n",
           checksum(norm.data(), n), checksum(ca.data(), n), checksum(pf.data(), 6 * n), bad);
    return bad ? 1 : 0;
}
