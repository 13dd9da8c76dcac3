// Inline-asm heavy kernel: tensor-core, async copy, mbarrier and cluster instructions as
// emitted by CUTLASS/Triton-style code (sm_90).
__global__ void __cluster_dims__(2,1,1) adv(const float* __restrict__ g, float* o, unsigned long long* bar_g) {
  __shared__ __align__(128) float s[1024];
  __shared__ unsigned long long mbar;
  unsigned sa = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x * 4]);
  unsigned ba = (unsigned)__cvta_generic_to_shared(&mbar);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(sa), "l"(g + threadIdx.x * 4));
  asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], 16, 8;" :: "r"(sa), "l"(g));
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_group 0;");
  asm volatile("cp.async.wait_all;");
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(ba), "r"(32));
  asm volatile("fence.mbarrier_init.release.cluster;");
  asm volatile("fence.proxy.async.shared::cta;");
  unsigned long long st;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(st) : "r"(ba));
  asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" :: "r"(ba), "r"(128));
  asm volatile("{\n\t.reg .pred P1;\nLAB_WAIT:\n\tmbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n\t@P1 bra DONE;\n\tbra LAB_WAIT;\nDONE:\n\t}" :: "r"(ba), "r"(0));
  unsigned a0, a1, a2, a3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(sa));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(a0), "=r"(a1) : "r"(sa));
  float d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
    : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(a0), "r"(a1), "f"(0.f), "f"(0.f), "f"(0.f), "f"(0.f));
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
    : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(a0), "r"(a1));
  asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" :: "r"(sa), "r"(a0), "r"(a1));
  asm volatile("wgmma.fence.sync.aligned;");
  asm volatile("wgmma.commit_group.sync.aligned;");
  asm volatile("wgmma.wait_group.sync.aligned 0;");
  asm volatile("barrier.cluster.arrive.release.aligned;");
  asm volatile("barrier.cluster.wait.acquire.aligned;");
  unsigned rank; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  unsigned remote; asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(sa), "r"(rank ^ 1));
  unsigned cr; asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(cr) : "r"(remote));
  unsigned el; asm volatile("{\n\t.reg .pred p;\n\telect.sync %0|p, -1;\n\t}" : "=r"(el));
  asm volatile("griddepcontrol.wait;");
  asm volatile("griddepcontrol.launch_dependents;");
  unsigned v4a, v4b, v4c, v4d;
  asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v4a), "=r"(v4b), "=r"(v4c), "=r"(v4d) : "l"(g));
  asm volatile("ld.global.L1::evict_last.u32 %0, [%1+4];" : "=r"(v4a) : "l"(g));
  asm volatile("st.global.L1::no_allocate.v2.f32 [%0+-8], {%1, %2};" :: "l"(o+4), "f"(d0), "f"(d1));
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v4b) : "l"(g));
  asm volatile("st.release.sys.global.u32 [%0], %1;" :: "l"(o), "r"(v4b));
  asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v4c) : "r"(sa));
  asm volatile("red.relaxed.gpu.global.add.f32 [%0], %1;" :: "l"(o), "f"(d2));
  asm volatile("atom.acq_rel.gpu.global.cas.b32 %0, [%1], %2, %3;" : "=r"(v4d) : "l"(o), "r"(1), "r"(2));
  asm volatile("prefetch.global.L2::evict_last [%0];" :: "l"(g));
  asm volatile("prefetch.global.L1 [%0];" :: "l"(g));
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(st));
  asm volatile("ld.global.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(d3) : "l"(g), "l"(st));
  asm volatile("setmaxnreg.inc.sync.aligned.u32 240;");
  asm volatile("{\n\t.reg .b32 t1, t2;\n\tshf.l.wrap.b32 t1, %1, %1, 3;\n\tlop3.b32 t2, t1, %1, 0x55, 0x96;\n\tprmt.b32 %0, t2, t1, 0x3210;\n\t}" : "=r"(v4a) : "r"(v4b));
  asm volatile("bfind.shiftamt.u32 %0, %1;" : "=r"(v4c) : "r"(v4a));
  asm volatile("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(v4c) : "r"(v4a), "r"(v4b), "r"(v4c));
  asm volatile("tanh.approx.f32 %0, %1;" : "=f"(d0) : "f"(d1));
  asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(d0) : "f"(d1));
  asm volatile("max.NaN.f32 %0, %1, %2;" : "=f"(d0) : "f"(d1), "f"(d2));
  asm volatile("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(*(unsigned short*)&st) : "f"(d1), "f"(d2));
  asm volatile("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(v4d) : "f"(d1), "f"(d2));
  asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(v4d) : "r"(v4a));
  asm volatile("bar.warp.sync -1;");
  asm volatile("barrier.sync.aligned 1, 64;");
  asm volatile("{ .reg .pred pp; setp.ne.u32 pp, %1, 0; bar.red.popc.u32 %0, 0, pp; }" : "=r"(v4c) : "r"(v4a));
  asm volatile("{ .reg .pred q; setp.ne.u32 q, %1, 0; bar.red.or.pred q, 0, !q; selp.u32 %0, 1, 0, q; }" : "=r"(v4b) : "r"(v4a));
  asm volatile("membar.gl;");
  asm volatile("fence.acq_rel.gpu;");
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];" :: "r"(sa), "l"(g), "r"(ba));
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 256;" :: "l"(o), "r"(sa));
  asm volatile("cp.async.bulk.commit_group;");
  asm volatile("cp.async.bulk.wait_group.read 0;");
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" :: "r"(sa), "l"(bar_g), "r"(0), "r"(1), "r"(ba));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(st));
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(v4a));
  asm volatile("mov.u32 %0, %%nctaid.y;" : "=r"(v4b));
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(v4c));
  o[threadIdx.x] = d0 + d1 + d2 + d3 + v4a + v4b + v4c + v4d + st + el + cr;
}
__global__ void wg(float* o, unsigned long long da, unsigned long long db) {
  float c[8] = {0};
  asm volatile("wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, 1, 1, 1, 0, 0;"
    : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]), "+f"(c[4]), "+f"(c[5]), "+f"(c[6]), "+f"(c[7]) : "l"(da), "l"(db));
  for (int i = 0; i < 8; i++) o[i * 128 + threadIdx.x] = c[i];
}
