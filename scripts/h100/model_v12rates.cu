// Machine facts for the twelfth version of `warpscope model`'s H100 estimate (docs/accuracy.md,
// "Twelfth version"), measured by scripts/h100/model_v12rates.py on an H200 (the same GH100 SM).
// Written to measure the latency / dependency bound from our own micro-benchmarks:
//
// Each kernel runs K dependent chains per thread (K = 1 unless named k2/k4), 32 links per chain
// and source iteration (inline PTX, so ptxas keeps one SASS instruction per link; the SASS is
// checked and written next to the timings), at 1, 2, 4, 8 and 16 warps per scheduler. At one
// warp per scheduler the time per link is the SASS opcode's dependent latency; at 16 it is the
// throughput of dependent chains of that opcode (to compare with the independent chains' pipe
// rates of model_v9rates.tsv and h100_machine.tsv); in between, how latency and throughput
// combine. Opcodes: IMAD, IMAD.HI, IMAD.WIDE (with a LOP3 joining its halves), the integer add (IADD3 or VIADD, as ptxas
// chooses; a Fibonacci pair of adds), LOP3, SHF, FFMA, FADD, DFMA, MUFU.EX2; two-pipe chains IMAD->LOP3 and
// IMAD.HI->LOP3 alternating; and IMAD->LOP3 with 2 and 4 independent chains per thread.
#define KARGS const unsigned *ua, float *out, int iters, float p, float q, unsigned z, unsigned w, double dp, double dq

#define L4(A) A A A A
#define L32(A) L4(A) L4(A) L4(A) L4(A) L4(A) L4(A) L4(A) L4(A)
#define L16(A) L4(A) L4(A) L4(A) L4(A)

#define IMAD_(x) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(z), "r"(w));
#define HI_(x) asm volatile("mul.hi.u32 %0, %0, %1;" : "+r"(x) : "r"(w));
// a Fibonacci pair: each add reads the previous one (an add of a loop constant would be folded)
#define ADD_(x) asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(y)); asm volatile("add.u32 %0, %0, %1;" : "+r"(y) : "r"(x));
#define LOP_(x) asm volatile("lop3.b32 %0, %0, %1, %2, 0x6a;" : "+r"(x) : "r"(z), "r"(w));
#define SHF_(x) asm volatile("shf.r.wrap.b32 %0, %0, %0, %1;" : "+r"(x) : "r"(z));
#define WIDE_(d) asm volatile("{.reg .u32 l, h; mov.b64 {l, h}, %0; xor.b32 l, l, h; mul.wide.u32 %0, l, %1;}" : "+l"(d) : "r"(w));
#define FFMA_(f) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(f) : "f"(p), "f"(q));
#define FADD_(f) asm volatile("add.f32 %0, %0, %1;" : "+f"(f) : "f"(q));
#define DFMA_(g) asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(g) : "d"(dp), "d"(dq));
#define EX2_(f) asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(f));

#define UOUT(x) if ((unsigned)(x) == 123456u) out[0] = (float)(x);

#define DEPU(NAME, OP) extern "C" __global__ void NAME(KARGS) { \
    unsigned x = ua[threadIdx.x] | 1u; \
    for (int k = 0; k < iters; ++k) { L32(OP(x)) } UOUT(x) }
#define DEPU2(NAME, A, B) extern "C" __global__ void NAME(KARGS) { \
    unsigned x = ua[threadIdx.x] | 1u; \
    for (int k = 0; k < iters; ++k) { L16(A(x) B(x)) } UOUT(x) }

DEPU(v12_dep_imad, IMAD_)
DEPU(v12_dep_imadhi, HI_)
extern "C" __global__ void v12_dep_add(KARGS) {
    unsigned x = ua[threadIdx.x] | 1u, y = z;
    for (int k = 0; k < iters; ++k) { L16(ADD_(x)) } UOUT(x ^ y) }
DEPU(v12_dep_lop, LOP_)
DEPU(v12_dep_shf, SHF_)
DEPU2(v12_dep_imad_lop, IMAD_, LOP_)
DEPU2(v12_dep_imadhi_lop, HI_, LOP_)

extern "C" __global__ void v12_dep_imadwide(KARGS) {
    unsigned long long d = ua[threadIdx.x] | 1u;
    for (int k = 0; k < iters; ++k) { L32(WIDE_(d)) }
    if (d == 123456u) out[0] = (float)d; }
extern "C" __global__ void v12_dep_ffma(KARGS) {
    float f = (float)ua[threadIdx.x] * 1e-9f;
    for (int k = 0; k < iters; ++k) { L32(FFMA_(f)) }
    if (f == 123456.f) out[0] = f; }
extern "C" __global__ void v12_dep_fadd(KARGS) {
    float f = (float)ua[threadIdx.x] * 1e-9f;
    for (int k = 0; k < iters; ++k) { L32(FADD_(f)) }
    if (f == 123456.f) out[0] = f; }
extern "C" __global__ void v12_dep_dfma(KARGS) {
    double g = (double)ua[threadIdx.x] * 1e-9;
    for (int k = 0; k < iters; ++k) { L32(DFMA_(g)) }
    if (g == 123456.0) out[0] = (float)g; }
extern "C" __global__ void v12_dep_ex2(KARGS) {
    float f = (float)ua[threadIdx.x] * 1e-9f;
    for (int k = 0; k < iters; ++k) { L32(EX2_(f)) }
    if (f == 123456.f) out[0] = f; }

extern "C" __global__ void v12_k2_imad_lop(KARGS) {
    unsigned x = ua[threadIdx.x] | 1u, y = x * 3u;
    for (int k = 0; k < iters; ++k) { L16(IMAD_(x) IMAD_(y) LOP_(x) LOP_(y)) }
    UOUT(x ^ y) }
extern "C" __global__ void v12_k4_imad_lop(KARGS) {
    unsigned x = ua[threadIdx.x] | 1u, y = x * 3u, s = x * 5u, t = x * 7u;
    for (int k = 0; k < iters; ++k) { L16(IMAD_(x) IMAD_(y) IMAD_(s) IMAD_(t) LOP_(x) LOP_(y) LOP_(s) LOP_(t)) }
    UOUT(x ^ y ^ s ^ t) }
