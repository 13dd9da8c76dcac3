// Pattern 1 of issue 10, host side: arguments the host code passes as compile-time constants
// (a literal, a macro, a `const` integer, an enumerator) bind the kernel's integer parameters,
// with the launch as provenance; launches that pass different constants give a range, and a
// value computed at run time binds nothing.
#define THREADS 256
static const unsigned int PARTS = 240;
enum { NARROW = 96 };

// Each thread sums its column's partial results: 240 of them for 256 threads, so the warp of
// threads 224..255 splits on the first trip.
__global__ void merge_parts(unsigned int *out, const unsigned int *parts, unsigned int count) {
    unsigned int sum = 0;
    for (unsigned int i = threadIdx.x; i < count; i += THREADS) { // expect: divergent-branch definite
        sum += parts[blockIdx.x + i * 256]; // expect: uncoalesced-access definite
    }
    out[blockIdx.x * THREADS + threadIdx.x] = sum;
}

// Launched with 96 and with 240: each value is examined, and the launch with 240 splits a warp.
__global__ void head(float *out, int n) {
    if (threadIdx.x < n) { // expect: divergent-branch definite
        out[blockIdx.x * THREADS + threadIdx.x] *= 2.0f;
    }
}

// Launched with a size read at run time (and once with 1000): nothing is bound, the test stays
// a boundary check.
__global__ void scale(float *out, int n) {
    int i = blockIdx.x * THREADS + threadIdx.x;
    if (i < n) {
        out[i] *= 0.5f;
    }
}

void run(unsigned int *d_out, const unsigned int *d_parts, float *d_f, int size) {
    merge_parts<<<256, THREADS>>>(d_out, d_parts, PARTS);
    head<<<1, THREADS>>>(d_f, PARTS);
    head<<<1, THREADS>>>(d_f, NARROW);
    scale<<<1, THREADS>>>(d_f, size);
    scale<<<1, THREADS>>>(d_f, 1000);
}
