// A reduction per label inside each warp (cooperative groups' `labeled_partition`, as
// cuda-samples' warpAggregatedAtomicsCG uses it): `match.any.sync` groups the lanes by key,
// and `cg::reduce` over the group is one `redux.sync` whose member mask is the lane's group.
// Lanes with different keys reach it together with different masks, which ptxas serialises
// (`WARPSYNC.EXCLUSIVE`) and Nsight Compute counts as a divergent branch, on every line of
// the inline chain from `reduce.h` down to the call. The finding is shown at the call below
// and names every call site; a `shfl` over the same group is not serialised and not
// reported, and neither is a reduction over a whole tile (a mask every lane shares).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void bucket_max(const int *key, const int *val, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    cg::coalesced_group active = cg::coalesced_threads();
    int k = key[i];
    auto group = cg::labeled_partition(active, k);
    int m = cg::reduce(group, val[i], cg::greater<int>());
    int first = group.shfl(m, 0);
    out[i] = first;
}

__global__ void tile_max(const int *val, int *out) {
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = cg::reduce(tile, val[i], cg::greater<int>());
}

int main() {
    int *k = 0, *v = 0, *o = 0;
    bucket_max<<<64, 256>>>(k, v, o, 64 * 256);
    tile_max<<<64, 256>>>(v, o);
    return 0;
}
