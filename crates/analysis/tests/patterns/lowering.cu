// How ptxas lowers a thread-dependent branch decides whether the hardware executes a divergent
// branch there (Nsight Compute's "Divergent Branches"). The lanes split in every kernel below;
// only `long_body` keeps a real branch. The real-world set's SASS shows the
// other lowerings: `if (tid == 0) { out[b] = s; }` at a kernel's end and `if (i >= n) return;`
// become a predicated `EXIT`, and short bodies like `if (tid < s) a[tid] += a[tid + s];` are
// predicated (if-converted). `check` reports those as notes of kind `exit` / `predicated`.

__global__ void exit_store(float *out, const float *in) {
    __shared__ float s[256];
    s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) { // expect: divergent-branch definite
        out[blockIdx.x] = s[0] + s[255];
    }
}

__global__ void guarded_return(float *out, const float *in) {
    int i = blockIdx.x * 256 + threadIdx.x;
    if (threadIdx.x % 3 == 1) return; // expect: divergent-branch definite
    out[i] = in[i] * 2.0f; // expect: uncoalesced-access definite
}

__global__ void short_body(float *out, const float *in) {
    __shared__ float s[256];
    s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    if (threadIdx.x < 16) { // expect: divergent-branch definite
        s[threadIdx.x] += s[threadIdx.x + 16];
    }
    __syncthreads();
    out[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x];
}

__global__ void long_body(float *out, const float *in, const float *w) {
    int i = blockIdx.x * 256 + threadIdx.x;
    float v = in[i];
    if (threadIdx.x % 2) { // expect: divergent-branch definite
        v = v * w[0] + w[1];
        v = v * w[2] + w[3];
        v = v * w[4] + w[5];
        v = v * w[6] + w[7];
        v = v * w[8] + w[9];
    }
    out[i] = v;
}

__global__ void reduce_tail(unsigned *out, const unsigned *in) {
    __shared__ unsigned s[256];
    s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    for (unsigned stride = 128; stride > 0; stride >>= 1) {
        __syncthreads();
        if (threadIdx.x < stride) { // expect: divergent-branch definite
            s[threadIdx.x] += s[threadIdx.x + stride];
        }
    }
    // nvcc merges this test with the last `threadIdx.x < 1` above: one predicated exit at line 52.
    if (threadIdx.x == 0) {
        out[blockIdx.x] = s[0];
    }
}

__global__ void per_warp(float *out, const float *in) {
    __shared__ float s[8];
    float v = in[blockIdx.x * 256 + threadIdx.x];
    if (threadIdx.x % warpSize == 0) { // expect: divergent-branch definite
        s[threadIdx.x / warpSize] = v;
    }
    __syncthreads();
    out[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x % 8];
}

// A load from local memory keeps the branch (the second real-world set: every such body did;
// ptxas 13.0.88 keeps a BRA here, nvdisasm shows).
__global__ void local_load(float *out, const float *in, const int *idx) {
    float buf[16];
    int i = blockIdx.x * 256 + threadIdx.x;
    for (int k = 0; k < 16; k++) buf[k] = in[i + k * 4096];
    float v = 0.0f;
    if (threadIdx.x % 2) { // expect: divergent-branch definite
        v = buf[idx[i] & 15]; // expect: uncoalesced-access definite
    }
    out[i] = v;
}

int main() {
    float *a = nullptr, *b = nullptr, *w = nullptr;
    exit_store<<<64, 256>>>(a, b);
    guarded_return<<<64, 256>>>(a, b);
    short_body<<<64, 256>>>(a, b);
    long_body<<<64, 256>>>(a, b, w);
    reduce_tail<<<64, 256>>>((unsigned *)a, (const unsigned *)b);
    per_warp<<<64, 256>>>(a, b);
    local_load<<<64, 256>>>(a, b, (const int *)w);
    return 0;
}
