#!/usr/bin/env python3
"""Turn latency_bench's raw lines into the latency table `warpscope model` reads
(validation/h100/model/latency.tsv; crates/model/src/latency.rs documents the classes).

    python3 scripts/h100/latency_table.py latency_raw.tsv latency_env.txt > latency.tsv

Most classes are one benchmark's cycles per link (latency_bench.cu says what each link is in
SASS; latency_sass_check.py checked it). Derived rows (stated in the third column): pairs are
halved or have their measured partner subtracted, and `bra` is a non-unrolled loop iteration
minus the counter's add and its setp (the loop's critical path is add -> setp -> bra).
"""
import sys


def main():
    raw, env = sys.argv[1], sys.argv[2]
    m = {}
    for line in open(raw):
        if line.startswith("#") or not line.strip():
            continue
        name, cyc, *_ = line.rstrip("\n").split("\t")
        m[name] = float(cyc)
    envtext = " ".join(l.strip() for l in open(env) if l.strip())
    setp = m["setp_selp"] / 2
    rows = [
        ("int_alu", m["int_add"], "IADD3 chain (two add.u32 per link, merged by ptxas; also sub, mov, selp, bit-field ops)"),
        ("int_logic", m["int_logic"], "lop3.b32 chain (LOP3; and, or, xor, not)"),
        ("int_shift", m["int_shift"], "shl.b32 chain by a run-time amount (SHF)"),
        ("int_minmax", m["int_minmax"], "max.s32 / min.s32 chain (VIMNMX)"),
        ("int_mul", m["int_mul"], "mul.lo.u32 chain (IMAD)"),
        ("int_mad", m["int_mad"], "mad.lo.u32 chain (IMAD)"),
        ("int_mul_wide", m["int_mul_wide"], "mul.wide.u32 chain (IMAD.WIDE.U32)"),
        ("int64_alu", m["int64_add"], "add.u64 chain (IADD3 + IADD3.X per link)"),
        ("int64_mul", m["int64_mul"], "mul.lo.u64 chain (4 SASS per link)"),
        ("int_div", m["int_div"], "div.u32 chain (y / x; ~18 SASS per link)"),
        ("int_rem", m["int_rem"], "rem.u32 chain (y % x; ~17 SASS per link)"),
        ("int_div_signed", m["int_div_s"], "div.s32 chain (y / x; ~24 SASS per link)"),
        ("int64_div", m["int64_div"], "div.u64 chain (y / x; a subroutine call per link)"),
        ("int_bit", max(m["int_bit"], m["int_brev"]), "max of popc.b32 and brev.b32 chains"),
        ("setp", setp, "setp.lt.u32 + selp.u32 pair / 2 (ISETP + SEL)"),
        ("fp32", m["fp32_add"], "add.f32 chain"),
        ("fp32_mul", m["fp32_mul"], "mul.f32 chain"),
        ("fp32_fma", m["fp32_fma"], "fma.rn.f32 chain"),
        ("fp32_minmax", m["fp32_minmax"], "max.f32 chain"),
        ("fp32_div", m["fp32_div"], "div.rn.f32 chain (y / x; ~13 SASS per link)"),
        ("fp32_div_approx", m["fp32_div_approx"], "div.approx.f32 chain (y / x)"),
        ("fp32_sqrt", m["fp32_sqrt"], "sqrt.rn.f32 chain (~13 SASS per link, fast path)"),
        ("fp32_rcp", m["fp32_rcp"], "rcp.rn.f32 chain (~13 SASS per link, fast path)"),
        ("sfu_rcp", m["sfu_rcp"], "rcp.approx.f32 chain"),
        ("sfu_sqrt", m["sfu_sqrt"], "sqrt.approx.f32 chain"),
        ("sfu_rsqrt", m["sfu_rsqrt"], "rsqrt.approx.f32 chain"),
        ("sfu_sincos", m["sfu_sin"], "sin.approx.f32 chain (cos the same unit)"),
        ("sfu_ex2", m["sfu_ex2"], "ex2.approx.f32 chain (ftz: " + f"{m['sfu_ex2_ftz']:.2f})"),
        ("sfu_lg2", m["sfu_lg2"], "lg2.approx.f32 chain"),
        ("sfu_tanh", m["sfu_tanh"], "tanh.approx.f32 chain"),
        ("fp64", m["fp64_add"], "add.f64 chain"),
        ("fp64_fma", m["fp64_fma"], "fma.rn.f64 chain"),
        ("fp64_div", m["fp64_div"], "div.rn.f64 chain (y / x; also rcp.rn.f64)"),
        ("fp64_sqrt", m["fp64_sqrt"], "sqrt.rn.f64 chain"),
        ("cvt", m["cvt_pair"] / 2, "cvt.rn.f32.s32 + cvt.rzi.s32.f32 pair / 2"),
        ("cvt_f64", m["cvt64_pair"] / 2, "cvt.f64.f32 + cvt.rn.f32.f64 pair / 2"),
        ("shfl", m["shfl"], "shfl.sync.bfly.b32 chain"),
        ("vote", max(m["vote"] - setp, 1.0), "setp + vote.sync.ballot pair minus setp"),
        ("ld_global", m["ld_global_l1"], "ld.global.u64 pointer chase, L1 hit (the model's global load)"),
        ("ld_global_l2", m["ld_global_l2"], "ld.global.cg.u64 pointer chase, L2 hit (reference)"),
        ("ld_global_dram", m["ld_global_dram"], "ld.global.cg.u64 pointer chase over 512 MiB (reference)"),
        ("st_global", max(m["st_ld_global"] - m["ld_global_l1"], 1.0), "st.global + ld.global same word pair minus ld_global"),
        ("ld_shared", m["ld_shared"], "ld.shared chase"),
        ("st_shared", max(m["st_ld_shared"] - m["ld_shared"], 1.0), "st.shared + ld.shared same word pair minus ld_shared"),
        ("ld_const", m["ld_const"], "ld.const chase (also ld.param)"),
        ("ld_local", m["ld_local"], "ld.local chase (st.local uses st_global)"),
        ("atom_global", m["atom_global"], "atom.global.add.u64 chain (also red.global)"),
        ("atom_shared", m["atom_shared"], "atom.shared.add.u32 chain"),
        ("bar", m["bar_sync"], "bar.sync, one warp per block"),
        ("bar_8w", m["bar_sync_8w"], "bar.sync, 8 warps per block (reference)"),
        ("bra", max(m["loop_iteration"] - m["int_add"] - setp, 1.0), "loop iteration minus int_alu and setp"),
        ("clock_mhz", m["clock_mhz"], "SM clock during a clock64 spin (MHz; not a latency)"),
    ]
    print("# warpscope model latency table: cycles per dependent instruction, measured on the H100")
    print("# by scripts/h100/latency_bench.sh (latency_bench.cu + latency_table.py).")
    print(f"# device: {envtext}")
    print("# class\tcycles\thow")
    for name, v, how in rows:
        print(f"{name}\t{v:.2f}\t{how}")


if __name__ == "__main__":
    main()
