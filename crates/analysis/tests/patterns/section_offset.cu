// Sections of a structure of arrays a parameter long: `stats[k*n + i]`. An integer parameter
// scaled by two elements or more in the uniform part of a dense index is the length of the
// sections (nobody starts a range at twice a position), which real code makes a multiple of
// the block it launches over, as it pads pitches: read that way the accesses are aligned, and
// the parameter alone is no reason to report them. `1*n` may as well be a start position
// (`a[offset + i]`, a partition of a sort): it stays `possible`.
__global__ void zero_sections(int n, float *stats) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    stats[0 * n + i] = 0.0f;
    stats[1 * n + i] = 0.0f; // expect: misaligned-access possible
    stats[2 * n + i] = 0.0f;
    stats[3 * n + i] = 0.0f;
}

// The same with 8-byte elements.
__global__ void three_fields(const double *u, double *out, int offset) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    double s = u[id];
    s += u[id + 2 * offset];
    out[id] = s;
}

// An offset loaded from memory is data, not a size: where the warp starts is unknown.
__global__ void loaded_offset(const int *start, float *a) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    a[start[blockIdx.x] + i] = 0.0f; // expect: misaligned-access possible
}

// A constant offset of one element is misaligned whatever the sizes: still reported.
__global__ void shifted_section(int n, const float *in, float *out) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    out[i] = in[2 * n + i + 1]; // expect: misaligned-access definite
}
