// Pointers passed inside a structure by value (HeCBench's d3q19-bgk passes its lattice arrays
// as fields of one `lbm_vars`): each field nvcc converts to a global address is a pointer,
// aligned as allocations are, like a pointer parameter. Read as an integer of unknown
// alignment, every dense access through one "may start mid-sector".
struct Fields {
    int n;
    const double *in;
    double *out;
    float *half;
};

__global__ void scale(Fields f, int shift) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < f.n) {
        f.out[i] = 2.0 * f.in[i];
        f.half[i] = (float)f.in[i + 1]; // expect: misaligned-access definite
    }
}

void launch(Fields f) {
    scale<<<(f.n + 255) / 256, 256>>>(f, 1);
}
