// A warp partitions its items around a pivot (the shape of cuda-samples' cdpAdvancedQuicksort):
// a ballot over the coalesced group, a retry when nobody is greater, one lane that bumps the
// shared offsets, then every lane writes its item.
//  * The ballot's result is the same for every lane that takes part, so the retry test
//    (`gt == 0`) does not diverge, even when the group is not the whole warp (its bits are
//    then packed lane by lane, a loop over uniform values).
//  * The leader test after the data-dependent retry diverges in every warp: lanes that reach
//    it are those that reached the retry, whatever the retry did.
//  * Branches only the leader can reach cannot diverge, whatever they test; neither can the
//    slow path of the square root only the leader takes (ptxas's IEEE `sqrt` branches).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void partition(const unsigned *in, unsigned *out, unsigned *counts, float *spread,
                          unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    if (i >= n)
        return;
    unsigned pivot = in[n / 2];
    unsigned x = in[i];
    cg::coalesced_group active = cg::coalesced_threads();
    unsigned greater = x > pivot;
    unsigned gt = active.ballot(greater);
    if (gt == 0) { // no finding: uniform, or one lane
        greater = x >= pivot;
        gt = active.ballot(greater);
    }
    unsigned lt = active.ballot(!greater);
    unsigned base = 0;
    if (lane == 0) { // expect: divergent-branch definite
        if (__popc(lt) > 0) // no finding: uniform, or one lane
            base = atomicAdd(&counts[0], __popc(lt));
        if (__popc(gt) > 0) // no finding: uniform, or one lane
            atomicAdd(&counts[1], __popc(gt));
    }
    base = active.shfl(base, 0);
    unsigned mine = greater ? gt : lt;
    unsigned below;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(below));
    out[base + __popc(mine & below)] = x; // expect: uncoalesced-access possible
    float v = (float)x;
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(__activemask(), v, o);
    if (lane == 0) // expect: divergent-branch definite
        spread[blockIdx.x] = sqrtf(v - 32.f * (float)pivot); // no finding: one lane
}

int main() {
    unsigned *a = 0, *b = 0, *c = 0;
    float *s = 0;
    partition<<<64, 256>>>(a, b, c, s, 64 * 256);
    return 0;
}
