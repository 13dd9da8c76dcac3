// corpus/liang_heldout6.cu -- a sixth set of divergent kernels held out from the design of
// `warpscope model`'s H100 throughput estimate (docs/accuracy.md, "sixth held-out test"): written
// after the estimate's sixth version (ptxas's folding of float negations, the pipes of fp32
// compares and selects, measured); its estimates were committed before any of these kernels ran
// on a GPU. Unlike the fifth set's (3-6 us), each kernel runs tens of microseconds on the H100 at
// the validation size (262144 threads), so that launch and tail costs are a small part of its
// time. Kinds not in corpus/liang*.cu before:
//
// geometry: h6_fill_u32 grid=64,1,1 block=256,1,1
// geometry: h6_fill_spheres grid=1,1,1 block=24,1,1
// geometry: h6_walk grid=64,1,1 block=256,1,1
// geometry: h6_bits grid=64,1,1 block=256,1,1
// geometry: h6_kepler grid=64,1,1 block=256,1,1
// geometry: h6_fsm grid=64,1,1 block=256,1,1
// geometry: h6_spheres grid=64,1,1 block=256,1,1
// assume: n=16384
//
//  - h6_walk: a first-passage random walk: a +-1 walk driven by a per-thread LCG until it leaves a
//    per-thread band (4 to 19 either side) or runs out of steps: integer, a trip count that grows
//    with the square of the band.
//  - h6_bits: for each of 16 hashed words per thread, a loop over its set bits (lowest first, by
//    find-first-set), each bit's position weighting an fp32 accumulation: trip counts are
//    population counts (bit-manipulation and conversion instructions).
//  - h6_kepler: Kepler's equation E - e sin E = M solved by Newton's method with the fast sine and
//    cosine (MUFU) for 12 mean anomalies per thread, each until the step is below a per-thread
//    tolerance or 12 steps: the eccentricity (0 to 0.95, per thread) sets the trip counts.
//  - h6_fsm: a four-state machine fed with 2-bit symbols from a per-thread LCG, a switch on the
//    state per symbol, until the accepting state or a cap: the path decides the length.
//  - h6_spheres: a ray per thread against 24 spheres read from a small table (the same entry for
//    every lane: broadcast loads), a hit test per sphere with a square root on hits only, then a
//    reflected ray, for up to 4 bounces while something is hit.
// The fill kernels are straight-line (no branch).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__host__ __device__ inline unsigned h6mix(unsigned x)
{
    x ^= x >> 17;
    x *= 0xed5ad4bbu;
    x ^= x >> 11;
    x *= 0xac4c1b51u;
    x ^= x >> 15;
    return x;
}

__global__ void h6_fill_u32(unsigned* a, unsigned seed)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = h6mix(i * 2246822519u ^ seed);
}

__global__ void h6_walk(const unsigned* seed, int* steps, int cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    int band = 4 + (int)(s & 15u);
    unsigned r = s | 1u;
    int p = 0, k = 0;
    while (p < band && p > -band && k < cap) { // expect: divergent-branch possible
        r = r * 1103515245u + 12345u;
        p += (r & 0x10000u) ? 1 : -1;
        ++k;
    }
    steps[i] = k * 64 + p;
}

__global__ void h6_bits(const unsigned* seed, float* out, int words)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    float acc = 0.0f;
    for (int w = 0; w < words; ++w) {
        unsigned m = h6mix(s + (unsigned)w * 0x9e3779b9u);
        while (m != 0u) { // expect: divergent-branch possible
            int b = __ffs(m) - 1;
            acc = acc * 0.999f + (float)b * 0.125f;
            m &= m - 1u;
        }
    }
    out[i] = acc;
}

__global__ void h6_kepler(const unsigned* seed, float* out, int orbits)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    float e = (float)(s & 1023u) * (0.95f / 1024.0f);
    float tol = __int_as_float((127 - 8 - (int)((s >> 10) & 7u)) << 23);
    float sum = 0.0f;
    for (int o = 0; o < orbits; ++o) {
        float m = (float)((s >> 13) + (unsigned)o * 977u & 4095u) * (6.2831853f / 4096.0f);
        float E = m;
        for (int k = 0; k < 12; ++k) { // uniform bound: lanes leave it by the break below
            float f = E - e * __sinf(E) - m;
            float d = __fdividef(f, 1.0f - e * __cosf(E));
            E -= d;
            if (fabsf(d) < tol) { // expect: divergent-branch possible
                break;
            }
        }
        sum += E;
    }
    out[i] = sum;
}

__global__ void h6_fsm(const unsigned* seed, unsigned* out, int cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned r = seed[i] | 1u;
    int state = 0, k = 0;
    unsigned acc = 0u;
    while (state != 3 && k < cap) { // expect: divergent-branch possible
        r = r * 1664525u + 1013904223u;
        unsigned sym = r >> 30;
        switch (state) { // expect: divergent-branch possible
        case 0:
            state = sym == 0u ? 1 : 0;
            acc += sym;
            break;
        case 1:
            if (sym == 1u) { // nvcc selects (no branch in the PTX)
                state = 2;
            } else if (sym == 2u) { // nvcc selects (no branch in the PTX)
                state = 0;
            }
            acc = acc * 3u + sym;
            break;
        default:
            state = sym == 3u ? 3 : (sym == 0u ? 1 : 2);
            acc ^= sym << (k & 15);
            break;
        }
        ++k;
    }
    out[i] = acc + (unsigned)k;
}

// the sphere table of h6_spheres: centre (x, y, z) and squared radius, hashed
__global__ void h6_fill_spheres(float4* sph, unsigned seed)
{
    unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned h = h6mix(seed + k);
    sph[k] = make_float4((float)(h & 255u) * (1.0f / 64.0f) - 2.0f, (float)((h >> 8) & 255u) * (1.0f / 64.0f) - 2.0f,
                         2.0f + (float)((h >> 16) & 255u) * (1.0f / 32.0f), 0.25f + (float)(h >> 28) * 0.125f);
}

__global__ void h6_spheres(const unsigned* seed, const float4* sph, float* out, int nsph, int bounces)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed[i];
    float ox = 0.0f, oy = 0.0f, oz = 0.0f;
    float dx = (float)(s & 1023u) * (1.0f / 512.0f) - 1.0f;
    float dy = (float)((s >> 10) & 1023u) * (1.0f / 512.0f) - 1.0f;
    float dz = 1.0f;
    float inv = rsqrtf(dx * dx + dy * dy + dz * dz);
    dx *= inv;
    dy *= inv;
    dz *= inv;
    float shade = 0.0f;
    for (int b = 0; b < bounces; ++b) { // uniform bound: lanes leave it by the break below
        float best = 1e30f;
        int hit = -1;
        for (int k = 0; k < nsph; ++k) {
            float4 c = sph[k];
            float px = c.x - ox, py = c.y - oy, pz = c.z - oz;
            float t = px * dx + py * dy + pz * dz;
            float disc = t * t - (px * px + py * py + pz * pz) + c.w;
            if (disc > 0.0f) { // expect: divergent-branch possible
                float th = t - sqrtf(disc); // expect: divergent-branch possible (ptxas's slow path for tiny disc)
                if (th > 1e-3f && th < best) { // nvcc selects (no branch in the PTX)
                    best = th;
                    hit = k;
                }
            }
        }
        if (hit < 0) { // expect: divergent-branch possible
            break;
        }
        float4 c = sph[hit]; // expect: uncoalesced-access possible
        ox += best * dx;
        oy += best * dy;
        oz += best * dz;
        float nx = ox - c.x, ny = oy - c.y, nz = oz - c.z;
        float ni = rsqrtf(nx * nx + ny * ny + nz * nz);
        nx *= ni;
        ny *= ni;
        nz *= ni;
        float dn = 2.0f * (dx * nx + dy * ny + dz * nz);
        dx -= dn * nx;
        dy -= dn * ny;
        dz -= dn * nz;
        shade = shade * 0.5f + fabsf(dn);
    }
    out[i] = shade;
}

int main()
{
    const int n = 16384, T = 256, G = n / T, NS = 24;
    unsigned *seed, *steps, *fsm;
    float *bits, *kep, *shade;
    float4* sph;
    CK(cudaMalloc(&seed, n * sizeof(unsigned)));
    CK(cudaMalloc(&steps, n * sizeof(unsigned)));
    CK(cudaMalloc(&fsm, n * sizeof(unsigned)));
    CK(cudaMalloc(&bits, n * sizeof(float)));
    CK(cudaMalloc(&kep, n * sizeof(float)));
    CK(cudaMalloc(&shade, n * sizeof(float)));
    CK(cudaMalloc(&sph, NS * sizeof(float4)));
    h6_fill_u32<<<G, T>>>(seed, 61u);
    h6_fill_spheres<<<1, NS>>>(sph, 1000u);
    h6_walk<<<G, T>>>(seed, (int*)steps, 512);
    h6_bits<<<G, T>>>(seed, bits, 16);
    h6_kepler<<<G, T>>>(seed, kep, 12);
    h6_fsm<<<G, T>>>(seed, fsm, 384);
    h6_spheres<<<G, T>>>(seed, sph, shade, NS, 4);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<int> h(n);
    CK(cudaMemcpy(h.data(), steps, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int k = 0; k < n; ++k) sum += h[k];
    printf("steps %lld\n", sum);
    return 0;
}
