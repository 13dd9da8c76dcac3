// Pattern 3 of issue 10: branches on values each lane loads (tree keys, particle weights) may
// diverge; GPUCheck reports them as possible, with the load as the reason.
struct Node { int key; int left; int right; };

__global__ void tree_search(int *found, const Node *tree, const int *keys, int root) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int key = keys[i];
    int n = root;
    while (n >= 0) { // expect: divergent-branch possible
        int k = tree[n].key; // expect: uncoalesced-access possible
        if (k == key) { // expect: divergent-branch possible
            break;
        }
        n = key < k ? tree[n].left : tree[n].right; // expect: uncoalesced-access possible
    }
    found[i] = n;
}

__global__ void resample(float *out, const float *weights, const float *cdf, float u, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float w = weights[i];
    float v = 0.0f;
    if (w > u) { // expect: divergent-branch possible
        v = cdf[0] * w;
    }
    out[i] = v;
}
