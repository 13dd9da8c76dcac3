// An unrolled column loop (`for (; col + 3*blockDim.x < d; col += 4*blockDim.x)`) with
// data-dependent diamonds between its header and its latch (the `||` tests on a shared label),
// and a remainder loop after it that tests where the first left the column. nvcc writes
// `%r14 = col + 2*blockDim.x` at the top of the body and `col' = %r14 + 2*blockDim.x` at the
// latch. The remainder loop's test asked for `col'`, whose `%r14` merges through the body's
// conditions, which read `col` at the header, whose loop variable was built there and then:
// its update asked for `%r14` at the latch again, a cycle cut only by an unknown, and the four
// dense reads were `possible` uncoalesced accesses "on loaded data" (HeCBench's accuracy,
// main.cu 80-83). A header's own loop variables now wait until the value asked for is built,
// as those of enclosing headers already did. The remainder loop's own test stays `possible`:
// where a thread-dependent loop leaves its variable is not followed.
__global__ void rank(const float *x, const int *labels, int *out, int n, int d) {
    __shared__ float s_pred;
    __shared__ int s_label;
    int count = 0;
    for (int row = blockIdx.x; row < n; row += gridDim.x) {
        if (threadIdx.x == 0) { // expect: divergent-branch definite
            s_label = labels[row];
            s_pred = x[row * d + s_label];
        }
        __syncthreads();
        const int label = s_label;
        const float pred = s_pred;
        int ngt = 0;
        const float *r = x + row * d;
        int col = threadIdx.x;
        for (; col + 3 * blockDim.x < d; col += 4 * blockDim.x) { // expect: divergent-branch definite
            float p0 = r[col];
            float p1 = r[col + blockDim.x];
            float p2 = r[col + 2 * blockDim.x];
            float p3 = r[col + 3 * blockDim.x];
            ngt += (p0 > pred || (p0 == pred && col <= label)); // expect: divergent-branch possible
            ngt += (p1 > pred || (p1 == pred && col + blockDim.x <= label));
            ngt += (p2 > pred || (p2 == pred && col + 2 * blockDim.x <= label)); // expect: divergent-branch possible
            ngt += (p3 > pred || (p3 == pred && col + 3 * blockDim.x <= label)); // expect: divergent-branch possible
        }
        for (; col < d; col += blockDim.x) // expect: divergent-branch possible
            ngt += col & 1;
        if (ngt > 4)
            ++count;
        __syncthreads();
    }
    if (count > 0) // expect: divergent-branch possible
        atomicAdd(out, count);
}

int main() {
    rank<<<1024, 256>>>(0, 0, 0, 8192, 1000);
    return 0;
}
