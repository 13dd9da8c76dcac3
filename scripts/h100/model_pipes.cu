// Throughput of the integer ALU and MUFU pipes on the H100, for the H100 estimate of
// `warpscope model` (docs/accuracy.md): independent chains (8 per thread, 4 links per chain and
// iteration), operands read per thread at run time so that ptxas cannot fold them, two different
// operations alternating so that it cannot merge links. scripts/h100/model_pipes.py times them
// and counts the SASS of each kernel's loop (cuobjdump) to turn the time into warp instructions
// per clock per SM of each opcode.
#define CHAINS(OP) OP(x0) OP(x1) OP(x2) OP(x3) OP(x4) OP(x5) OP(x6) OP(x7)
#define INIT(T, a)                                                                            \
    T x0 = a[threadIdx.x], x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3, x4 = x0 + 4, x5 = x0 + 5,       \
      x6 = x0 + 6, x7 = x0 + 7;

// IADD3 and LOP3 alternating (both on the integer ALU pipe)
extern "C" __global__ void wp_add_xor(const unsigned *a, unsigned *out, int iters, unsigned y,
                                      unsigned z) {
    INIT(unsigned, a)
#define ADDXOR(x) x = x + y; x = x ^ z;
    for (int k = 0; k < iters; ++k) {
        CHAINS(ADDXOR) CHAINS(ADDXOR)
    }
    unsigned s = x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7;
    if (s == 123456u) out[0] = s;
}

// LOP3 and SHF alternating (both on the integer ALU pipe)
extern "C" __global__ void wp_xor_shift(const unsigned *a, unsigned *out, int iters, unsigned y,
                                        unsigned z) {
    INIT(unsigned, a)
#define XORSH(x) x = x ^ y; x = x >> (z & 7u);
    for (int k = 0; k < iters; ++k) {
        CHAINS(XORSH) CHAINS(XORSH)
    }
    unsigned s = x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7;
    if (s == 123456u) out[0] = s;
}

// SHF (shift by a run-time amount) and an add alternating
extern "C" __global__ void wp_shift_add(const unsigned *a, unsigned *out, int iters, unsigned y,
                                        unsigned z) {
    INIT(unsigned, a)
#define SHADD(x) x = x >> (z & 7u); x = x + y;
    for (int k = 0; k < iters; ++k) {
        CHAINS(SHADD) CHAINS(SHADD)
    }
    unsigned s = x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7;
    if (s == 123456u) out[0] = s;
}

// compare and select (ISETP + SEL, or what ptxas makes of it) and IADD3
extern "C" __global__ void wp_setp_sel(const unsigned *a, unsigned *out, int iters, unsigned y,
                                       unsigned z) {
    INIT(unsigned, a)
#define SETSEL(x) x = (x > y) ? x - z : x + y;
    for (int k = 0; k < iters; ++k) {
        CHAINS(SETSEL) CHAINS(SETSEL)
    }
    unsigned s = x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7;
    if (s == 123456u) out[0] = s;
}

// __sinf: FMUL.RZ + MUFU.SIN
extern "C" __global__ void wp_sin(const float *a, float *out, int iters, float y, float z) {
    INIT(float, a)
#define SIN(x) x = __sinf(x);
    for (int k = 0; k < iters; ++k) {
        CHAINS(SIN) CHAINS(SIN)
    }
    float s = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 + y + z;
    if (s == 123456.0f) out[0] = s;
}

// rsqrt.approx: MUFU.RSQ
extern "C" __global__ void wp_rsq(const float *a, float *out, int iters, float y, float z) {
    INIT(float, a)
#define RSQ(x) asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(x));
    for (int k = 0; k < iters; ++k) {
        CHAINS(RSQ) CHAINS(RSQ)
    }
    float s = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 + y + z;
    if (s == 123456.0f) out[0] = s;
}
