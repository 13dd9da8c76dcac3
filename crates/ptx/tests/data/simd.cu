__global__ void simd(unsigned* o, const unsigned* a) {
  unsigned x = a[threadIdx.x], y = a[threadIdx.x + 1];
  o[threadIdx.x] = __vabsdiffu4(x, y) + __vadd4(x, y) + __vsub2(x, y) + __vcmpgeu4(x, y) + __vmaxs2(x, y) + __sad(x, y, 3) + __vavgu2(x,y) + __byte_perm(x, y, 0x5410) + __funnelshift_l(x, y, 3) + __umulhi(x, y) + __mul24(x,y) + __usad(x,y,1) + __fns(x, 0, 3);
  o[1] = __float_as_uint(__fmaf_rn(__uint_as_float(x), 2.f, 1.f));
  float f = __uint_as_float(y); o[2] = __float_as_uint(__frsqrt_rn(f) + __fsqrt_rd(f) + __frcp_ru(f) + __fdiv_rz(f, 3.f) + fmaxf(f, -f) + __saturatef(f) + truncf(f) + floorf(f) + ceilf(f) + rintf(f) + roundf(f) + exp2f(f) + log2f(f) + tanhf(f) + erff(f));
  double d = f; o[3] = (unsigned)(rsqrt(d) + __drcp_rn(d) + __dsqrt_rz(d) + fma(d, d, 1.0) + trunc(d) + __dadd_rd(d, 1.0));
  o[4] = __brevll(x) + __popcll(y) + __clzll(x) + __ffs(y) + __ffsll(x);
  long long q = (long long)x * y; o[5] = (unsigned)(q / (y + 1)) + (unsigned)(q % 7) + (unsigned)__mulhi((int)x, (int)y) + (unsigned)__mul64hi(q, q);
}
