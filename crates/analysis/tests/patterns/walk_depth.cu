// A depth-first walk (HeCBench's nqueen): each lane keeps its own depth, which goes up or down
// with its own data on every trip of the loop. Read on one side of a data-dependent branch,
// the depth holds what the lanes did on the previous trip, on either side of that branch: it
// differs across lanes, and so does `depth == n` below. Before, only uses after the branch's
// join counted as merging the lanes' paths, and this test was no finding.
__global__ void walk(const unsigned *masks, unsigned long long *count, int n, int start) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned used = masks[idx];
    char col[16];
    for (int i = 0; i < 16; i++)
        col[i] = -1;
    int depth = start;
    unsigned long long found = 0, nodes = 0;
    do {
        col[depth]++;
        if (col[depth] == n) { // expect: divergent-branch possible
            col[depth] = -1;
        } else if (!(used & (1u << col[depth]))) { // expect: divergent-branch possible
            ++nodes;
            used |= 1u << col[depth];
            depth++;
            if (depth == n) { // expect: divergent-branch possible
                ++found;
            } else
                continue;
        } else
            continue;
        depth--;
        used &= ~(1u << col[depth]);
    } while (depth >= start); // expect: divergent-branch possible
    count[idx] = (found << 32) | nodes;
}

int main(int argc, char **argv) {
    unsigned *m = 0;
    unsigned long long *c = 0;
    walk<<<64, 128>>>(m, c, 8 + argc, argc);
    return 0;
}
