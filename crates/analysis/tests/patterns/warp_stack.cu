// A warp-synchronous tree walk (the shape of HeCBench's Barnes-Hut force kernel): each warp
// keeps one stack in shared memory, indexed by its warp index `threadIdx.x / 32`, and every
// lane reads the same top of stack, so the walk's loop and its tests on the node taken from
// that stack are the same for the whole warp, and so is the `__all_sync` vote that decides
// whether to open a cell. None of them diverges; only the lane that pushes the root does.
// (Before: the walk's loop, the child test and the vote's branch were `possible` data
// branches, and the load of the top of stack a `possible` scattered access.)
#define DEPTH 16

__global__ void walk(const int *child, const float *size, const float4 *body, float *out,
                     int nbodies, int root) {
    __shared__ int stack[8 * DEPTH];
    int warp = threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    int base = warp * DEPTH;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = body[i];
    float acc = 0.f;
    if (lane == 0) // expect: divergent-branch definite
        stack[base] = root;
    __syncwarp();
    int top = base;
    while (top >= base) {
        int node = stack[top];
        top--;
        for (int c = 0; c < 8; c++) {
            int n = child[8 * node + c];
            if (n < 0)
                continue;
            float4 p = body[n];
            float dx = p.x - me.x, dy = p.y - me.y;
            float d2 = dx * dx + dy * dy + 1e-3f;
            if (n < nbodies || __all_sync(0xffffffff, d2 > size[n])) {
                acc += p.w * rsqrtf(d2) / d2;
            } else if (top < base + DEPTH - 1) {
                top++;
                stack[top] = n; // every lane writes the same word
            }
            __syncwarp();
        }
    }
    out[i] = acc;
}

int main() {
    int *c = 0;
    float *s = 0, *o = 0;
    float4 *b = 0;
    walk<<<64, 256>>>(c, s, b, o, 1000, 0);
    return 0;
}
