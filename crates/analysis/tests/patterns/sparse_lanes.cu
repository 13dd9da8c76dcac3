// Accesses with gaps that a condition on loaded data guards: which lanes run them depends on
// the data, but the lanes that may are spread so that any few of them running together touch
// more sectors than their bytes need. The access is uncoalesced `definite`, on the stated
// assumption that at least that many lanes of a warp run it.

// Records of 40 bytes, one field written where a lane's fitness improved: lanes a sector or
// more apart, so any two that run it leave a gap.
struct Particle {
    float pos[8];
    float best;
    float fit;
};
__global__ void update_best(Particle *p, const float *fitness, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && fitness[i] < p[i].fit) { // expect: uncoalesced-access definite
        p[i].best = fitness[i]; // expect: uncoalesced-access definite
    }
}

// Triples of floats (12 bytes apart), one written where a flag is set: a sector holds at most
// three lanes' elements, so any four lanes leave a gap.
__global__ void clear_flagged(float *xyz, const int *flag, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && flag[i] != 0) {
        xyz[3 * i + 1] = 0.0f; // expect: uncoalesced-access definite
    }
}

// The same flag over a dense array: the lanes that run it leave holes only where the data
// switches lanes off, so no number of lanes makes a gap certain: a `possible` caveat only.
__global__ void clear_dense(float *x, const int *flag, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && flag[i] != 0) {
        x[i] = 0.0f; // expect: uncoalesced-access possible
    }
}

// Lanes a multiple of `n + 1` apart (a square matrix's diagonal, `n` known only at run time):
// every value of `n` but -2, -1 and 0 leaves gaps.
__global__ void diagonal(float *out, const float *m, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = m[i * n + i]; // expect: uncoalesced-access definite
}

int main(int argc, char **argv) {
    int n = argc > 1 ? argc << 12 : 1 << 14;
    update_best<<<64, 256>>>(0, 0, n);
    clear_flagged<<<64, 256>>>(0, 0, n);
    clear_dense<<<64, 256>>>(0, 0, n);
    diagonal<<<64, 256>>>(0, 0, n);
    return 0;
}
