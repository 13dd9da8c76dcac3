// A library header of our own for `header_fields.cu`. Its path holds `/include/`, as the
// toolkit's headers' paths do, so `check` treats it as library code: what is inlined from it is
// reported at the user's call, with the header's own line as the finding's origin. Like
// curand's `curandStateXORWOW`, the state is a 48-byte structure written field by field.
#pragma once

struct RngState {
    unsigned w[12];
};

__device__ __forceinline__ void rng_state_init(RngState *s, unsigned seed) {
    s->w[0] = seed;
    s->w[5] = seed ^ 0x9e3779b9u;
    s->w[10] = seed * 2654435761u;
}
