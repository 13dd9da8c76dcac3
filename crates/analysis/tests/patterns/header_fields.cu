// Library code inlined at one call, whose accesses sit on several lines of the library's header
// (curand_init's stores of `curandStateXORWOW`, each field on a line of `curand_kernel.h`):
// every one is reported at the call (line 11), and each header line is a finding of its own,
// with that line as its origin, since a profiler counts each line apart. Folding them into one
// finding, as findings on one line are, left all but the first header line unreported.
#include "include/rng_state.h"

__global__ void init_states(RngState *states, unsigned seed) {
    unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
    // three stores 48 bytes apart per lane, one per header line
    rng_state_init(&states[id], seed + id);
}

int main() {
    RngState *states = nullptr;
    init_states<<<64, 256>>>(states, 7u);
    return 0;
}
