// A shuffle every lane of the warp takes part in (member mask 0xffffffff) gives each lane some
// lane's value. `__shfl_sync(0xffffffff, v, src)` with one 32-lane segment (width 32, the
// default) and the same `src` in every lane reads lane `src & 31` everywhere: a broadcast of
// the leader's value, the same in every lane whatever `v` was. So is any shuffle of a value
// that is already the same in every lane. A loop or branch on such a value cannot split the
// warp. A broadcast within segments of 16 lanes (`width` 16) gives the two half-warps their
// own leaders' values, and a source lane that differs between lanes reads different values:
// those stay lane-varying.
__global__ void broadcast(float *out, const float *in, const int *counts) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int mine = counts[i];
    float v = in[i];
    float acc = v;
    // The leader's count, in every lane.
    int n = __shfl_sync(0xffffffff, mine, 0);
    for (int k = 0; k < n; k++) acc = acc * v + k;
    // A lane chosen by the block: the same in every lane of the warp.
    int m = __shfl_sync(0xffffffff, mine, blockIdx.x & 31);
    if (m > 4) {
        for (int k = 0; k < 64; k++) acc = acc * v + m;
    }
    // A uniform value shuffled down is still that value.
    int s = __shfl_down_sync(0xffffffff, (int)blockIdx.x * 3, 1);
    for (int k = 0; k < s; k++) acc = acc * 0.5f + v;
    // Two leaders, one per half-warp.
    int h = __shfl_sync(0xffffffff, mine, 0, 16);
    for (int k = 0; k < h; k++) acc = acc * v - k; // expect: divergent-branch possible
    // Each lane reads its neighbour.
    int r = __shfl_sync(0xffffffff, mine, lane + 1);
    for (int k = 0; k < r; k++) acc = acc * v + 1.0f; // expect: divergent-branch possible
    out[i] = acc;
}

int main() {
    broadcast<<<64, 256>>>(0, 0, 0);
    return 0;
}
