// A pointer kept in shared memory (HeCBench's quicksort: `__shared__ T *s, *sn;`, set by one
// thread to one of two shared buffers, then read by all): nvcc cannot tell the space of the
// accesses through it and emits generic `ld`/`st`. Every value stored to `src` and `dst` is a
// shared buffer's address, so the accesses through them are shared-memory accesses: measured
// for bank conflicts, not as global requests (before: `definite` uncoalesced and `possible`
// misaligned global accesses on lines 22-24, and a misaligned one on line 30).

__global__ void pingpong(const unsigned *in, unsigned *out, int flip) {
    __shared__ unsigned a[512], b[512];
    __shared__ unsigned *src, *dst;
    unsigned t = threadIdx.x;
    a[t] = in[blockIdx.x * 512 + t];
    a[t + 256] = in[blockIdx.x * 512 + t + 256];
    if (t == 0) { // expect: divergent-branch definite
        src = flip ? a : b;
        dst = flip ? b : a;
    }
    __syncthreads();
    unsigned *s = src, *d = dst;
    for (unsigned j = 1; j < 256; j <<= 1) {
        unsigned pos = 2 * t - (t & (j - 1));
        unsigned x = s[pos], y = s[pos + j]; // expect: bank-conflict definite
        d[pos] = x < y ? x : y; // expect: bank-conflict definite
        d[pos + j] = x < y ? y : x; // expect: bank-conflict definite
        __syncthreads();
        unsigned *w = s;
        s = d;
        d = w;
    }
    out[blockIdx.x * 256 + t] = s[t];
}

int main() {
    unsigned *a = 0, *b = 0;
    pingpong<<<64, 256>>>(a, b, 1);
    return 0;
}
