// Vectorised code tests whether a pointer is aligned before a wide access: `(uintptr_t)p % 16
// == 0`, which nvcc compiles to `and.b64 %rd, %rd, 15`. The low four bits of `base + 16*i`
// are those of `base` whatever `i` is (two's complement, at any width), so when each lane's
// pointer is a common base plus a multiple of 16 bytes, every lane gets the same answer even
// where `i` differs between lanes in ways nothing can tell (a gathered row, a loop's exit):
// the test is the same in the whole warp. A stride of 8 bytes per lane leaves every other
// lane's pointer off a 16-byte boundary, and that test splits the warp.
#include <stdint.h>

__global__ void gathered(float *__restrict__ out, const float *__restrict__ src,
                         const int *__restrict__ rows, int n) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int r = rows[g];
    const float *p = src + 4 * r;
    float v = 0.0f;
    if (reinterpret_cast<uintptr_t>(p) % 16 == 0) {
        float4 a = *reinterpret_cast<const float4 *>(p); // expect: uncoalesced-access possible
        v = a.x + a.y + a.z + a.w;
#pragma unroll 1
        for (int k = 0; k < n; k++) v = v * a.x + a.w;
    } else {
#pragma unroll 1
        for (int k = 0; k < n; k++) v = v * p[k & 3] + p[3]; // expect: uncoalesced-access possible
    }
    const float *q = src + 2 * threadIdx.x;
    if ((uintptr_t)q % 16 == 0) { // expect: divergent-branch possible
#pragma unroll 1
        for (int k = 0; k < n; k++) v = v * q[k] + 1.0f; // expect: uncoalesced-access definite
    }
    out[g] = v;
}

int main(int argc, char **argv) {
    gathered<<<64, 256>>>(0, 0, 0, argc * 100);
    return 0;
}
