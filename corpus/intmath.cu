// corpus/intmath.cu -- integer-heavy kernels: division/remainder by runtime and constant divisors,
// min/max/abs/select, bit operations (popc, clz, brev, byte_perm, funnel shift, umulhi), and a
// de-interleaving gather whose index comes from i % 3 and i / 3.
//
// geometry: int_divmod grid=256,1,1 block=256,1,1
// geometry: bit_mix grid=256,1,1 block=256,1,1
// geometry: deinterleave3 grid=768,1,1 block=256,1,1
// assume: d=7
// assume: third=65536
//
// n = 65536 for the first two kernels (input a[i] = i, iota, as int/unsigned).
//  - int_divmod: a / d and a % d with d = 7 passed at run time (div.s32 / rem.s32), a / 10 and
//    a % 10 by a constant (mul.hi sequences), signed values (a - 30000) so negative quotients and
//    remainders occur, min/max/abs and a ternary select (selp). All accesses coalesced, no branches.
//  - bit_mix: __popc, __clz, __brev, __byte_perm, __funnelshift_l, __umulhi, rotates and
//    xor-shift hashing: branch-free, coalesced.
//  - deinterleave3: out[i] = in[(i % 3) * third + i / 3] turns an array of three planes back into
//    interleaved order. Within a warp the lanes split by i % 3 into three runs of 10-11 consecutive
//    floats (40-44 bytes), each run in a different plane: at least 6 sectors for 128 bytes (ideal
//    4): uncoalesced, definite. The store out[i] is coalesced.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void int_divmod(const int* a, int* q, int* r, int* misc, int d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = a[i] - 30000;
    int qd = v / d;
    int rd = v % d;
    int q10 = v / 10;
    int r10 = v % 10;
    q[i] = qd * 100 + q10;
    r[i] = rd * 16 + r10;
    int lo = min(v, rd * 1000);
    int hi = max(v, q10);
    misc[i] = (abs(v) > 20000 ? lo : hi) + (int)((unsigned)i % 13u);
}

__global__ void bit_mix(const unsigned* a, unsigned* out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = a[i] * 2654435761u;
    x ^= x >> 15;
    x = __funnelshift_l(x, x, 7);
    unsigned p = (unsigned)__popc(x);
    unsigned z = (unsigned)__clz(x | 1u);
    unsigned b = __brev(x);
    unsigned m = __umulhi(x, 0x9e3779b9u);
    unsigned s = __byte_perm(x, b, 0x5140);
    out[i] = (s ^ m) + (p << 8) + z;
}

__global__ void deinterleave3(const float* in, float* out, int third)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[(i % 3) * third + i / 3]; // expect: uncoalesced-access definite
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
    const int n = 65536, third = 65536, n3 = 3 * third;
    std::vector<int> ha(n);
    std::vector<float> hin(n3);
    for (int i = 0; i < n; ++i) ha[i] = i;            // spec: iota (also read as u32 by bit_mix)
    for (int i = 0; i < n3; ++i) hin[i] = (float)i;   // spec: iota
    int *d_a, *d_q, *d_r, *d_misc;
    unsigned* d_bits;
    float *d_in, *d_out;
    CK(cudaMalloc(&d_a, n * sizeof(int)));
    CK(cudaMalloc(&d_q, n * sizeof(int)));
    CK(cudaMalloc(&d_r, n * sizeof(int)));
    CK(cudaMalloc(&d_misc, n * sizeof(int)));
    CK(cudaMalloc(&d_bits, n * sizeof(unsigned)));
    CK(cudaMalloc(&d_in, n3 * sizeof(float)));
    CK(cudaMalloc(&d_out, n3 * sizeof(float)));
    CK(cudaMemcpy(d_a, ha.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_in, hin.data(), n3 * sizeof(float), cudaMemcpyHostToDevice));
    int_divmod<<<256, 256>>>(d_a, d_q, d_r, d_misc, 7);
    bit_mix<<<256, 256>>>((const unsigned*)d_a, d_bits);
    deinterleave3<<<768, 256>>>(d_in, d_out, third);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<int> q(n), r(n), misc(n);
    std::vector<unsigned> bits(n);
    std::vector<float> out(n3);
    CK(cudaMemcpy(q.data(), d_q, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(r.data(), d_r, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(misc.data(), d_misc, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(bits.data(), d_bits, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(out.data(), d_out, n3 * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        int v = i - 30000;
        bad += q[i] != (v / 7) * 100 + v / 10;
        bad += r[i] != (v % 7) * 16 + v % 10;
        int lo = v < (v % 7) * 1000 ? v : (v % 7) * 1000;
        int hi = v > v / 10 ? v : v / 10;
        bad += misc[i] != ((v < 0 ? -v : v) > 20000 ? lo : hi) + (int)((unsigned)i % 13u);
    }
    for (int i = 0; i < n3; ++i) bad += out[i] != (float)((i % 3) * third + i / 3);
    printf("intmath: q=%.6e r=%.6e misc=%.6e bits=%.6e deinterleave=%.6e mismatches=%d\n",
           checksum(q), checksum(r), checksum(misc), checksum(bits), checksum(out), bad);
    return bad ? 1 : 0;
}
