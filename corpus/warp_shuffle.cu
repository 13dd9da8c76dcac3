// corpus/warp_shuffle.cu -- warp-level primitives: shuffles, votes, __activemask, __syncwarp.
//
// geometry: fill_signed grid=256,1,1 block=256,1,1
// geometry: warp_sum_down grid=256,1,1 block=256,1,1
// geometry: warp_allreduce_xor grid=256,1,1 block=256,1,1
// geometry: warp_votes grid=256,1,1 block=256,1,1
// geometry: aggregated_count grid=256,1,1 block=256,1,1
// geometry: syncwarp_exchange grid=256,1,1 block=256,1,1
//
// n = 65536. fill_signed writes in[i] = ((i * 37 + 11) % 101) - 50 (integers, signs mixed within
// every warp), so shuffle sums are exact.
//  - warp_sum_down: 5 x __shfl_down_sync, then `if (lane == 0)` stores the warp total: lane 0
//    alone: divergent, definite.
//  - warp_allreduce_xor: butterfly with __shfl_xor_sync (every lane gets the sum) and a 16-wide
//    sub-warp broadcast __shfl_sync(.., 0, 16): no branches, no expectations.
//  - warp_votes: __ballot_sync, __any_sync, __all_sync, __popc: branch-free, no expectations.
//  - aggregated_count: warp-aggregated atomic inside a data-dependent branch: `if (v > 0)` is
//    divergent, possible; in it, m = __activemask() (the lanes that took the branch together),
//    the leader lane does one atomicAdd of __popc(m): `if (lane == leader)` depends on m, so
//    divergent, possible. The total is independent of how the hardware groups the lanes, so the
//    result is deterministic. __syncwarp(m) orders the leader's write of the warp's slot.
//  - syncwarp_exchange: per-warp shared staging with __syncwarp() between write and read of the
//    neighbour lane (t ^ 1): conflict-free, no divergence.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define FULL 0xffffffffu

__global__ void fill_signed(float* in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    in[i] = (float)((i * 37 + 11) % 101 - 50);
}

__global__ void warp_sum_down(const float* in, float* warp_sums)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    float v = in[i];
    for (int off = 16; off > 0; off >>= 1) {
        v += __shfl_down_sync(FULL, v, off);
    }
    if (lane == 0) { // expect: divergent-branch definite
        warp_sums[i / 32] = v;
    }
}

__global__ void warp_allreduce_xor(const float* in, float* out, float* halves)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    for (int m = 16; m > 0; m >>= 1) {
        v += __shfl_xor_sync(FULL, v, m);
    }
    out[i] = v;
    halves[i] = __shfl_sync(FULL, in[i], 0, 16);
}

__global__ void warp_votes(const float* in, unsigned* ballots, int* flags)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool pos = in[i] > 0.0f;
    unsigned b = __ballot_sync(FULL, pos);
    int any_big = __any_sync(FULL, in[i] > 45.0f);
    int all_pos = __all_sync(FULL, pos);
    ballots[i] = b;
    flags[i] = __popc(b) * 4 + any_big * 2 + all_pos;
}

__global__ void aggregated_count(const float* in, int* counter, int* warp_slot)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    float v = in[i];
    if (v > 0.0f) { // expect: divergent-branch possible
        unsigned m = __activemask();
        int leader = __ffs(m) - 1;
        if (lane == leader) { // expect: divergent-branch possible
            atomicAdd(counter, __popc(m));
            atomicOr(&warp_slot[i / 32], 1);
        }
        __syncwarp(m);
    }
}

__global__ void syncwarp_exchange(const float* in, float* out)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = in[i] * 2.0f;
    __syncwarp();
    float nb = s[t ^ 1];
    __syncwarp();
    s[t] = nb + in[i];
    __syncwarp();
    out[i] = s[t] - s[(t & ~31) + ((t + 1) & 31)];
}

int main()
{
    const int n = 65536;
    float *d_in, *d_ws, *d_all, *d_half, *d_ex;
    unsigned* d_ballots;
    int *d_flags, *d_counter, *d_slot;
    CK(cudaMalloc(&d_in, n * sizeof(float)));
    CK(cudaMalloc(&d_ws, n / 32 * sizeof(float)));
    CK(cudaMalloc(&d_all, n * sizeof(float)));
    CK(cudaMalloc(&d_half, n * sizeof(float)));
    CK(cudaMalloc(&d_ex, n * sizeof(float)));
    CK(cudaMalloc(&d_ballots, n * sizeof(unsigned)));
    CK(cudaMalloc(&d_flags, n * sizeof(int)));
    CK(cudaMalloc(&d_counter, sizeof(int)));
    CK(cudaMalloc(&d_slot, n / 32 * sizeof(int)));
    CK(cudaMemset(d_counter, 0, sizeof(int)));
    CK(cudaMemset(d_slot, 0, n / 32 * sizeof(int)));

    fill_signed<<<256, 256>>>(d_in);
    warp_sum_down<<<256, 256>>>(d_in, d_ws);
    warp_allreduce_xor<<<256, 256>>>(d_in, d_all, d_half);
    warp_votes<<<256, 256>>>(d_in, d_ballots, d_flags);
    aggregated_count<<<256, 256>>>(d_in, d_counter, d_slot);
    syncwarp_exchange<<<256, 256>>>(d_in, d_ex);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<float> in(n), ws(n / 32), all(n), half(n), ex(n);
    std::vector<unsigned> ballots(n);
    std::vector<int> flags(n), slot(n / 32);
    int counter = 0;
    CK(cudaMemcpy(in.data(), d_in, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ws.data(), d_ws, n / 32 * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(all.data(), d_all, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(half.data(), d_half, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ex.data(), d_ex, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ballots.data(), d_ballots, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(flags.data(), d_flags, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(slot.data(), d_slot, n / 32 * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&counter, d_counter, sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0, positives = 0;
    double cs = 0.0;
    for (int w = 0; w < n / 32; ++w) {
        float s = 0.0f;
        unsigned b = 0;
        int any_big = 0, all_pos = 1;
        for (int l = 0; l < 32; ++l) {
            float v = in[w * 32 + l];
            s += v;
            if (v > 0.0f) { b |= 1u << l; ++positives; } else { all_pos = 0; }
            if (v > 45.0f) any_big = 1;
        }
        bad += ws[w] != s;
        bad += slot[w] != (b ? 1 : 0);
        for (int l = 0; l < 32; ++l) {
            int i = w * 32 + l;
            bad += all[i] != s;
            bad += half[i] != in[w * 32 + (l & 16)];
            bad += ballots[i] != b;
            bad += flags[i] != __builtin_popcount(b) * 4 + any_big * 2 + all_pos;
            int nbr = w * 32 + ((l + 1) & 31);
            float mine = in[i ^ 1] * 2.0f + in[i];
            float other = in[nbr ^ 1] * 2.0f + in[nbr];
            bad += ex[i] != mine - other;
        }
        cs += (double)s * ((w % 7) + 1);
    }
    bad += counter != positives;
    printf("warp_shuffle: warp_sums=%.6e positives=%d mismatches=%d\n", cs, counter, bad);
    return bad ? 1 : 0;
}
