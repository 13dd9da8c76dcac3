// Constant-memory tables read with a warp-uniform index (one constant-cache pass) and with
// indices that differ between the lanes of a warp (one serialized pass per distinct address).
#include <cstdint>

__constant__ uint32_t table[64];

__global__ void uniform_index(uint32_t *out, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = table[k & 63] + table[blockIdx.x & 63];
}

__global__ void lane_index(uint32_t *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = table[threadIdx.x & 63]; // expect: divergent-constant definite
}

__global__ void data_index(uint32_t *out, const uint8_t *in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = table[in[i] & 63]; // expect: divergent-constant possible
}

__global__ void eight_lane_groups(uint32_t *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = table[(threadIdx.x / 8) & 63]; // expect: divergent-constant definite
}

int main() {
    uint32_t *out;
    uint8_t *in;
    cudaMalloc(&out, 256 * 4);
    cudaMalloc(&in, 256);
    uniform_index<<<1, 256>>>(out, 3);
    lane_index<<<1, 256>>>(out);
    data_index<<<1, 256>>>(out, in);
    eight_lane_groups<<<1, 256>>>(out);
    cudaDeviceSynchronize();
    return 0;
}
