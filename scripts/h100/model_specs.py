#!/usr/bin/env python3
"""Write the launch specs of corpus/liang.cu and corpus/liang_heldout{,2,3,4,5,6}.cu: the corpus ones (small:
every corpus test runs them) and the H100 validation ones of `warpscope model` (more threads and
longer loops, so each kernel runs long enough on the GPU to time).

    python3 scripts/h100/model_specs.py      # writes corpus/liang{,_heldout,_heldout2,_heldout3,_heldout4,_heldout5,_heldout6,_heldout7}.toml and
                                             # validation/h100/model/liang{,_heldout,_heldout2,_heldout3,_heldout4,_heldout5,_heldout6,_heldout7}_h100.toml
"""
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


class Spec:
    """A launch spec being written: its buffers (all zero-initialised, some saved) and launches."""

    def __init__(self, title, module, bufs):
        self.out = [f"# {title}", f'module = "{module}"', ""]
        for name, ty, ln, save in bufs:
            self.out += [f"[buffer.{name}]", f'type = "{ty}"', f"len = {ln}", 'init = "zeros"']
            if save:
                self.out.append(f'save = "{save}"')
            self.out.append("")

    def launch(self, k, grid, block, args):
        self.out.extend([
            "[[launch]]", f'kernel = "{k}"', f"grid = [{grid}, 1, 1]", f"block = [{block}, 1, 1]",
            "shared_bytes = 0", f"args = [ {', '.join(args)} ]", "",
        ])

    def text(self):
        return "\n".join(self.out)


def b(s):
    return f'{{ buffer = "{s}" }}'


def u(v):
    return f"{{ u32 = {v} }}"


def i(v):
    return f"{{ i32 = {v} }}"


def f(v):
    return f"{{ f32 = {v} }}"


def spec(n, work, maxit, width, nw_lo, nw_span, module, title):
    g = n // 256
    bufs = [
        ("field", "f32", 8 * n, None), ("mc_out", "f32", n, "liang_mc_out.bin"),
        ("cre", "f32", n, None), ("cim", "f32", n, None), ("val", "f32", width * n, None),
        ("x", "f32", n, None), ("y", "f32", n, "liang_ell_y.bin"), ("la", "i32", n, None),
        ("lb", "i32", n, None), ("score", "i32", n, "liang_nw_score.bin"),
        ("iters", "i32", n, "liang_escape_iters.bin"), ("len", "i32", n, None),
        ("col", "i32", width * n, None),
    ]
    sp = Spec(title, module, bufs)
    sp.launch("liang_fill_f32", 8 * g, 256, [b("field"), u(1), f(0.0), f(1.0)])
    sp.launch("liang_fill_i32", g, 256, [b("la"), u(2), i(nw_lo), i(nw_span)])
    sp.launch("liang_fill_i32", g, 256, [b("lb"), u(3), i(nw_lo), i(nw_span)])
    sp.launch("liang_fill_f32", g, 256, [b("cre"), u(4), f(-2.0), f(0.5)])
    sp.launch("liang_fill_f32", g, 256, [b("cim"), u(5), f(-1.25), f(1.25)])
    sp.launch("liang_fill_i32", g, 256, [b("len"), u(6), i(0), i(width + 1)])
    sp.launch("liang_fill_i32", width * g, 256, [b("col"), u(7), i(0), i(n)])
    sp.launch("liang_fill_f32", width * g, 256, [b("val"), u(8), f(-1.0), f(1.0)])
    sp.launch("liang_fill_f32", g, 256, [b("x"), u(9), f(-1.0), f(1.0)])
    sp.launch("liang_mc", g, 256, [b("field"), b("mc_out"), i(n), f(0.5), i(work)])
    sp.launch("liang_nw", g, 256, [b("la"), b("lb"), b("score")])
    sp.launch("liang_escape", g, 256, [b("cre"), b("cim"), b("iters"), i(maxit)])
    sp.launch("liang_ell", g, 256, [b("len"), b("col"), b("val"), b("x"), b("y"), i(n), i(width)])
    return sp.text()


def heldout(n, cap, rounds, width, pair_rounds, module, title):
    """corpus/liang_heldout.cu (mirrors its main() at the corpus size)."""
    g = n // 256
    bufs = [
        ("start", "u32", n, None), ("steps", "u32", n, "ho_collatz_steps.bin"),
        ("key", "u32", n, None), ("len", "u32", n, None), ("cls_warp", "u32", n, None),
        ("cls_thread", "u32", n, None), ("inp", "f32", n, None),
        ("out", "f32", n, "ho_switch_out.bin"), ("val", "f32", width * n, None),
        ("w", "f32", 32, None), ("y", "f32", n, "ho_walk_y.bin"),
        ("pw", "f32", n, "ho_pair_warp.bin"), ("pt", "f32", n, "ho_pair_thread.bin"),
    ]
    sp = Spec(title, module, bufs)
    sp.launch("ho_fill_u32", g, 256, [b("start"), u(11), u(1), u(65535), u(1)])
    sp.launch("ho_fill_u32", g, 256, [b("key"), u(12), u(0), u(8), u(1)])
    sp.launch("ho_fill_u32", g, 256, [b("len"), u(13), u(0), u(width + 1), u(1)])
    sp.launch("ho_fill_u32", g, 256, [b("cls_warp"), u(14), u(0), u(2), u(32)])
    sp.launch("ho_fill_u32", g, 256, [b("cls_thread"), u(15), u(0), u(2), u(1)])
    sp.launch("ho_fill_f32", g, 256, [b("inp"), u(16), f(-1.0), f(1.0)])
    sp.launch("ho_fill_f32", width * g, 256, [b("val"), u(17), f(-1.0), f(1.0)])
    sp.launch("ho_fill_f32", 1, 32, [b("w"), u(18), f(0.0), f(1.0)])
    sp.launch("ho_collatz", n // 128, 128, [b("start"), b("steps"), i(cap)])
    sp.launch("ho_switch", g, 256, [b("key"), b("inp"), b("out"), i(rounds)])
    sp.launch("ho_walk", n // 512, 512, [b("len"), b("val"), b("w"), b("y"), i(n), i(width)])
    sp.launch("ho_pair", g, 256, [b("cls_warp"), b("inp"), b("pw"), i(pair_rounds)])
    sp.launch("ho_pair", g, 256, [b("cls_thread"), b("inp"), b("pt"), i(pair_rounds)])
    return sp.text()


def heldout2(n, maxit, rounds, steps, wave_blocks, wave_len, module, title):
    """corpus/liang_heldout2.cu (mirrors its main() at the corpus size)."""
    g = n // 256
    wn = wave_blocks * wave_len
    bufs = [
        ("cnt", "u32", n, None), ("lcnt", "u32", n, None),
        ("lout", "u32", n, "h2_local_out.bin"), ("query", "u32", wn, None),
        ("ref", "u32", wn, None), ("a", "f32", n, None), ("inp", "f32", n, None),
        ("sout", "f32", n, "h2_shfl_out.bin"), ("root", "f64", n, "h2_newton_root.bin"),
        ("steps", "i32", n, "h2_newton_steps.bin"), ("best", "i32", wave_blocks, "h2_wave_best.bin"),
    ]
    sp = Spec(title, module, bufs)
    sp.launch("h2_fill_u32", g, 256, [b("cnt"), u(21), u(0), u(1 << 20)])
    sp.launch("h2_fill_u32", g, 256, [b("lcnt"), u(22), u(0), u(1 << 20)])
    sp.launch("h2_fill_u32", wn // 256, 256, [b("query"), u(23), u(0), u(4)])
    sp.launch("h2_fill_u32", wn // 256, 256, [b("ref"), u(24), u(0), u(4)])
    sp.launch("h2_fill_f32", g, 256, [b("a"), u(25), f(0.0), f(1000000.0)])
    sp.launch("h2_fill_f32", g, 256, [b("inp"), u(26), f(-1.0), f(1.0)])
    sp.launch("h2_newton", g, 256, [b("a"), b("root"), b("steps"), i(maxit)])
    sp.launch("h2_shfl", g, 256, [b("cnt"), b("inp"), b("sout"), i(rounds)])
    sp.launch("h2_local", n // 128, 128, [b("lcnt"), b("lout"), i(steps)])
    sp.launch("h2_wave", wave_blocks, wave_len, [b("query"), b("ref"), b("best")])
    return sp.text()


def heldout3(n, maxpairs, maxlen, tiles, maxsteps, module, title):
    """corpus/liang_heldout3.cu (mirrors its main() at the corpus size)."""
    g = n // 256
    table, maxv = 2048, 15
    bufs = [
        ("cnt", "u32", n, None), ("len", "u32", n, None), ("seed", "u32", n, None),
        ("table", "u32", table, None), ("iso", "u32", n, None), ("radius", "u32", n, None),
        ("gout", "u32", n, "h3_gcd_out.bin"), ("steps", "i32", n, "h3_gcd_steps.bin"),
        ("y", "f32", n, "h3_rows_y.bin"), ("vx", "f32", maxv * n, "h3_emit_vx.bin"),
        ("nv", "i32", n, "h3_emit_nv.bin"), ("found", "i32", n, "h3_tiles_found.bin"),
        ("iout", "u32", n, "h3_mixed_i.bin"), ("fout", "f32", n, "h3_mixed_f.bin"),
    ]
    sp = Spec(title, module, bufs)
    sp.launch("h3_fill_u32", g, 256, [b("cnt"), u(31), u(0), u(1 << 20)])
    sp.launch("h3_fill_u32", g, 256, [b("len"), u(32), u(0), u(1 << 20)])
    sp.launch("h3_fill_u32", g, 256, [b("seed"), u(33), u(0), u(1 << 30)])
    sp.launch("h3_fill_u32", table // 256, 256, [b("table"), u(34), u(0x3f000000), u(0x00800000)])
    sp.launch("h3_fill_u32", g, 256, [b("iso"), u(35), u(0x3e800000), u(0x00800000)])
    sp.launch("h3_fill_u32", g, 256, [b("radius"), u(36), u(0x3d800000), u(0x01800000)])
    sp.launch("h3_gcd", g, 256, [b("cnt"), b("gout"), b("steps"), i(maxpairs)])
    sp.launch("h3_rows", g, 256, [b("len"), b("table"), b("y"), i(maxlen)])
    sp.launch("h3_emit", g, 256, [b("iso"), b("vx"), b("nv"), i(n)])
    sp.launch("h3_tiles", g, 256, [b("seed"), b("radius"), b("found"), i(tiles)])
    sp.launch("h3_mixed", g, 256, [b("cnt"), b("iout"), b("fout"), i(maxsteps)])
    return sp.text()


def heldout4(n, width, mandel_cap, reject_cap, chain_steps, qlen_span, align_n, module, title):
    """corpus/liang_heldout4.cu (mirrors its main() at the corpus size). The H100 spec draws the
    alignment's query lengths from a narrower span (4 to 12 rows) and runs it on `align_n`
    threads only: its threads' basic-block vectors are nearly all distinct, and Greedy-Max's
    search over 262144 distinct vectors did not finish in 8 minutes here."""
    g = n // 256
    table, nodes = 4096, 2048
    bufs = [
        ("cap", "u32", n, None), ("keys", "u32", n, None), ("table", "u32", table, None),
        ("seed", "u32", n, None), ("qlen", "u32", n, None), ("qseed", "u32", n, None),
        ("start", "u32", n, None), ("next", "u32", nodes, None), ("val", "u32", nodes, None),
        ("iters", "i32", n, "h4_mandel_iters.bin"), ("mag", "f32", n, "h4_mandel_mag.bin"),
        ("pos", "i32", n, "h4_bsearch_pos.bin"), ("span", "u32", n, "h4_bsearch_span.bin"),
        ("rout", "f32", n, "h4_reject_out.bin"), ("tries", "i32", n, "h4_reject_tries.bin"),
        ("best", "i32", n, "h4_align_best.bin"), ("csum", "f32", n, "h4_chain_sum.bin"),
    ]
    sp = Spec(title, module, bufs)
    sp.launch("h4_fill_sorted", table // 256, 256, [b("table"), u(20)])
    sp.launch("h4_fill_next", nodes // 256, 256, [b("next"), u(nodes)])
    sp.launch("h4_fill_u32", g, 256, [b("cap"), u(41), u(0), u(1 << 20)])
    sp.launch("h4_fill_u32", g, 256, [b("keys"), u(42), u(0), u(0xfffffff0)])
    sp.launch("h4_fill_u32", g, 256, [b("seed"), u(43), u(0), u(1 << 30)])
    sp.launch("h4_fill_u32", g, 256, [b("qlen"), u(44), u(0), u(qlen_span)])
    sp.launch("h4_fill_u32", g, 256, [b("qseed"), u(45), u(0), u(1 << 30)])
    sp.launch("h4_fill_u32", g, 256, [b("start"), u(46), u(0), u(1 << 30)])
    sp.launch("h4_fill_u32", nodes // 256, 256, [b("val"), u(47), u(0x3f000000), u(0x00800000)])
    sp.launch("h4_mandel", g, 256, [b("cap"), b("iters"), b("mag"), i(width), i(n // width), i(mandel_cap)])
    sp.launch("h4_bsearch", g, 256, [b("keys"), b("table"), b("pos"), b("span")])
    sp.launch("h4_reject", g, 256, [b("seed"), b("rout"), b("tries"), i(reject_cap)])
    sp.launch("h4_align", align_n // 256, 256, [b("qlen"), b("qseed"), b("best")])
    sp.launch("h4_chain", g, 256, [b("start"), b("next"), b("val"), b("csum"), i(chain_steps)])
    return sp.text()


def heldout5(n, prime_cap, maxsteps, maxdeg, module, title):
    """corpus/liang_heldout5.cu (mirrors its main() at the corpus size)."""
    g = n // 256
    bufs = [
        ("seed", "u32", n, None), ("root", "f32", n, "h5_bisect_root.bin"), ("steps", "i32", n, "h5_bisect_steps.bin"),
        ("factor", "u32", n, "h5_prime_factor.bin"), ("pos", "f32", n, "h5_bounce_pos.bin"),
        ("hits", "i32", n, "h5_bounce_hits.bin"), ("score", "u32", n, "h5_digits_score.bin"),
        ("out", "f32", n, "h5_horner_out.bin"),
    ]
    sp = Spec(title, module, bufs)
    sp.launch("h5_fill_u32", g, 256, [b("seed"), u(51)])
    sp.launch("h5_bisect", g, 256, [b("seed"), b("root"), b("steps")])
    sp.launch("h5_prime", g, 256, [b("seed"), b("factor"), i(prime_cap)])
    sp.launch("h5_bounce", g, 256, [b("seed"), b("pos"), b("hits"), i(maxsteps)])
    sp.launch("h5_digits", g, 256, [b("seed"), b("score")])
    sp.launch("h5_horner", g, 256, [b("seed"), b("out"), i(maxdeg)])
    return sp.text()


def heldout6(n, walk_cap, words, orbits, fsm_cap, nsph, bounces, module, title):
    """corpus/liang_heldout6.cu (mirrors its main() at the corpus size)."""
    g = n // 256
    bufs = [
        ("seed", "u32", n, None), ("steps", "i32", n, "h6_walk_steps.bin"), ("bits", "f32", n, "h6_bits_out.bin"),
        ("kep", "f32", n, "h6_kepler_out.bin"), ("fsm", "u32", n, "h6_fsm_out.bin"),
        ("shade", "f32", n, "h6_spheres_out.bin"), ("sph", "f32", 4 * nsph, None),
    ]
    sp = Spec(title, module, bufs)
    sp.launch("h6_fill_u32", g, 256, [b("seed"), u(61)])
    sp.launch("h6_fill_spheres", 1, nsph, [b("sph"), u(1000)])
    sp.launch("h6_walk", g, 256, [b("seed"), b("steps"), i(walk_cap)])
    sp.launch("h6_bits", g, 256, [b("seed"), b("bits"), i(words)])
    sp.launch("h6_kepler", g, 256, [b("seed"), b("kep"), i(orbits)])
    sp.launch("h6_fsm", g, 256, [b("seed"), b("fsm"), i(fsm_cap)])
    sp.launch("h6_spheres", g, 256, [b("seed"), b("sph"), b("shade"), i(nsph), i(bounces)])
    return sp.text()


# the seventh held-out set at the validation size (262144 threads): chosen from the v7 estimates
# before any timing so that each kernel runs tens of microseconds (docs/accuracy.md)
H7 = {"maxwords": 16, "bases": 3, "lfsr_cap": 512, "pend_cap": 384, "halton_cap": 32}


def heldout7(n, maxwords, bases, lfsr_cap, pend_cap, halton_cap, module, title):
    """corpus/liang_heldout7.cu (mirrors its main() at the corpus size)."""
    g = n // 256
    bufs = [
        ("seed", "u32", n, None), ("crc", "u32", n, "h7_crc_out.bin"), ("pw", "u32", n, "h7_modpow_out.bin"),
        ("lf", "u32", n, "h7_lfsr_out.bin"), ("pend", "f32", n, "h7_pendulum_out.bin"),
        ("hal", "f32", n, "h7_halton_out.bin"),
    ]
    sp = Spec(title, module, bufs)
    sp.launch("h7_fill_u32", g, 256, [b("seed"), u(71)])
    sp.launch("h7_crc", g, 256, [b("seed"), b("crc"), i(maxwords)])
    sp.launch("h7_modpow", g, 256, [b("seed"), b("pw"), i(bases)])
    sp.launch("h7_lfsr", g, 256, [b("seed"), b("lf"), i(lfsr_cap)])
    sp.launch("h7_pendulum", g, 256, [b("seed"), b("pend"), i(pend_cap)])
    sp.launch("h7_halton", g, 256, [b("seed"), b("hal"), i(halton_cap)])
    return sp.text()


# the eighth held-out set at the validation size (262144 threads): chosen from the v8 estimates
# before any timing so that each kernel runs tens of microseconds (docs/accuracy.md)
H8 = {"maxrounds": 40, "values": 3, "logistic_cap": 512, "lorenz_cap": 384, "maxwords": 32}


def heldout8(n, maxrounds, values, logistic_cap, lorenz_cap, maxwords, module, title):
    """corpus/liang_heldout8.cu (mirrors its main() at the corpus size)."""
    g = n // 256
    bufs = [
        ("seed", "u32", n, None), ("cc", "u32", n, "h8_chacha_out.bin"), ("sq", "u64", n, "h8_isqrt_out.bin"),
        ("lg", "u32", n, "h8_logistic_out.bin"), ("lz", "f32", n, "h8_lorenz_out.bin"),
        ("dg", "u32", n, "h8_digits_out.bin"),
    ]
    sp = Spec(title, module, bufs)
    sp.launch("h8_fill_u32", g, 256, [b("seed"), u(83)])
    sp.launch("h8_chacha", g, 256, [b("seed"), b("cc"), i(maxrounds)])
    sp.launch("h8_isqrt", g, 256, [b("seed"), b("sq"), i(values)])
    sp.launch("h8_logistic", g, 256, [b("seed"), b("lg"), i(logistic_cap)])
    sp.launch("h8_lorenz", g, 256, [b("seed"), b("lz"), i(lorenz_cap)])
    sp.launch("h8_digits", g, 256, [b("seed"), b("dg"), i(maxwords)])
    return sp.text()


# the ninth held-out set at the validation size (262144 threads): chosen from the v9 estimates
# before any timing so that each kernel runs tens of microseconds (docs/accuracy.md)
H9 = {"kahan_terms": 1024, "fib_steps": 512, "newton_vals": 10, "splitmix_cap": 160}


def heldout9(n, kahan_terms, fib_steps, newton_vals, splitmix_cap, module, title):
    """corpus/liang_heldout9.cu (mirrors its main() at the corpus size)."""
    g = n // 256
    bufs = [
        ("seed", "u32", n, None), ("kh", "f32", n, "h9_kahan_out.bin"), ("fb", "u64", n, "h9_fib64_out.bin"),
        ("dn", "f64", n, "h9_dnewton_out.bin"), ("sm", "u64", n, "h9_splitmix_out.bin"),
    ]
    sp = Spec(title, module, bufs)
    sp.launch("h9_fill_u32", g, 256, [b("seed"), u(97)])
    sp.launch("h9_kahan", g, 256, [b("seed"), b("kh"), i(kahan_terms)])
    sp.launch("h9_fib64", g, 256, [b("seed"), b("fb"), i(fib_steps)])
    sp.launch("h9_dnewton", g, 256, [b("seed"), b("dn"), i(newton_vals)])
    sp.launch("h9_splitmix", g, 256, [b("seed"), b("sm"), i(splitmix_cap)])
    return sp.text()


# the tenth held-out set at the validation size (262144 threads): chosen from the v12 estimates
# before any timing so that each kernel is estimated at 30-60 microseconds (docs/accuracy.md)
H10 = {"setbits_words": 16, "cbrt_values": 8, "halley_deg": 24, "halley_cap": 32, "polar_samples": 64}


def heldout10(n, setbits_words, cbrt_values, halley_deg, halley_cap, polar_samples, module, title):
    """corpus/liang_heldout10.cu (mirrors its main() at the corpus size)."""
    g = n // 256
    bufs = [
        ("seed", "u32", n, None), ("sb", "u32", n, "h10_setbits_out.bin"), ("cb", "u64", n, "h10_cbrt64_out.bin"),
        ("hl", "f32", n, "h10_halley_out.bin"), ("pl", "f32", n, "h10_polar_out.bin"),
    ]
    sp = Spec(title, module, bufs)
    sp.launch("h10_fill_u32", g, 256, [b("seed"), u(101)])
    sp.launch("h10_setbits", g, 256, [b("seed"), b("sb"), i(setbits_words)])
    sp.launch("h10_cbrt64", g, 256, [b("seed"), b("cb"), i(cbrt_values)])
    sp.launch("h10_halley", g, 256, [b("seed"), b("hl"), i(halley_deg), i(halley_cap)])
    sp.launch("h10_polar", g, 256, [b("seed"), b("pl"), i(polar_samples)])
    return sp.text()


H11 = {"cheb_maxdeg": 24, "cheb_points": 14, "udiv_pairs": 32, "montexp_minbits": 16, "montexp_spread": 24,
       "cordic_angles": 8}


def heldout11(n, cheb_maxdeg, cheb_points, udiv_pairs, montexp_minbits, montexp_spread, cordic_angles, module, title):
    """corpus/liang_heldout11.cu (mirrors its main() at the corpus size)."""
    g = n // 256
    bufs = [
        ("seed", "u32", n, None), ("ch", "f64", n, "h11_cheb_out.bin"), ("ud", "u32", n, "h11_udiv_out.bin"),
        ("me", "u64", n, "h11_montexp_out.bin"), ("co", "i32", n, "h11_cordic_out.bin"),
    ]
    sp = Spec(title, module, bufs)
    sp.launch("h11_fill_u32", g, 256, [b("seed"), u(202)])
    sp.launch("h11_cheb", g, 256, [b("seed"), b("ch"), i(cheb_maxdeg), i(cheb_points)])
    sp.launch("h11_udiv", g, 256, [b("seed"), b("ud"), i(udiv_pairs)])
    sp.launch("h11_montexp", g, 256, [b("seed"), b("me"), i(montexp_minbits), i(montexp_spread)])
    sp.launch("h11_cordic", g, 256, [b("seed"), b("co"), i(cordic_angles)])
    return sp.text()


H12 = {"strhash_minlen": 128, "strhash_spread": 192, "bounce_min": 4, "bounce_spread": 12, "stein_pairs": 10,
       "rk4_minsteps": 16, "rk4_spread": 32, "rk4_runs": 2, "gray_minsteps": 32, "gray_spread": 128}


def heldout12(n, strhash_minlen, strhash_spread, bounce_min, bounce_spread, stein_pairs, rk4_minsteps, rk4_spread,
              rk4_runs, gray_minsteps, gray_spread, module, title):
    """corpus/liang_heldout12.cu (mirrors its main() at the corpus size)."""
    g = n // 256
    bufs = [
        ("seed", "u32", n, None), ("sh", "u32", n, "h12_strhash_out.bin"), ("bo", "f32", n, "h12_bounce_out.bin"),
        ("st", "u32", n, "h12_stein_out.bin"), ("rk", "f32", n, "h12_rk4_out.bin"),
        ("gw", "u32", n, "h12_graywalk_out.bin"),
    ]
    sp = Spec(title, module, bufs)
    sp.launch("h12_fill_u32", g, 256, [b("seed"), u(303)])
    sp.launch("h12_strhash", g, 256, [b("seed"), b("sh"), i(strhash_minlen), i(strhash_spread)])
    sp.launch("h12_bounce", g, 256, [b("seed"), b("bo"), i(bounce_min), i(bounce_spread)])
    sp.launch("h12_stein", g, 256, [b("seed"), b("st"), i(stein_pairs)])
    sp.launch("h12_rk4", g, 256, [b("seed"), b("rk"), i(rk4_minsteps), i(rk4_spread), i(rk4_runs)])
    sp.launch("h12_graywalk", g, 256, [b("seed"), b("gw"), i(gray_minsteps), i(gray_spread)])
    return sp.text()


def main():
    with open(os.path.join(ROOT, "corpus", "liang.toml"), "w") as fh:
        fh.write(spec(65536, 4, 64, 16, 4, 8, "liang.ptx",
                      "Launch spec for liang.cu (mirrors main()); written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "validation", "h100", "model", "liang_h100.toml"), "w") as fh:
        fh.write(spec(131072, 8, 256, 32, 4, 16, "../../../corpus/liang.ptx",
                      "H100 validation spec of `warpscope model` (docs/accuracy.md); written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "corpus", "liang_heldout.toml"), "w") as fh:
        fh.write(heldout(16384, 512, 24, 24, 48, "liang_heldout.ptx",
                         "Launch spec for liang_heldout.cu (mirrors main()); written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "validation", "h100", "model", "liang_heldout_h100.toml"), "w") as fh:
        fh.write(heldout(262144, 1024, 64, 32, 128, "../../../corpus/liang_heldout.ptx",
                         "H100 validation spec of the held-out kernels of `warpscope model` (docs/accuracy.md); "
                         "written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "corpus", "liang_heldout2.toml"), "w") as fh:
        fh.write(heldout2(16384, 48, 16, 32, 16, 64, "liang_heldout2.ptx",
                          "Launch spec for liang_heldout2.cu (mirrors main()); written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "validation", "h100", "model", "liang_heldout2_h100.toml"), "w") as fh:
        fh.write(heldout2(262144, 48, 64, 64, 2048, 128, "../../../corpus/liang_heldout2.ptx",
                          "H100 validation spec of the second held-out kernels of `warpscope model` (docs/accuracy.md); "
                          "written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "corpus", "liang_heldout3.toml"), "w") as fh:
        fh.write(heldout3(16384, 2, 16, 1, 16, "liang_heldout3.ptx",
                          "Launch spec for liang_heldout3.cu (mirrors main()); written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "validation", "h100", "model", "liang_heldout3_h100.toml"), "w") as fh:
        fh.write(heldout3(262144, 8, 96, 2, 96, "../../../corpus/liang_heldout3.ptx",
                          "H100 validation spec of the third held-out kernels of `warpscope model` (docs/accuracy.md); "
                          "written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "corpus", "liang_heldout4.toml"), "w") as fh:
        fh.write(heldout4(16384, 128, 64, 48, 32, 1 << 20, 16384, "liang_heldout4.ptx",
                          "Launch spec for liang_heldout4.cu (mirrors main()); written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "validation", "h100", "model", "liang_heldout4_h100.toml"), "w") as fh:
        fh.write(heldout4(262144, 512, 128, 48, 32, 9, 32768, "../../../corpus/liang_heldout4.ptx",
                          "H100 validation spec of the fourth held-out kernels of `warpscope model` (docs/accuracy.md); "
                          "written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "corpus", "liang_heldout5.toml"), "w") as fh:
        fh.write(heldout5(16384, 256, 64, 16, "liang_heldout5.ptx",
                          "Launch spec for liang_heldout5.cu (mirrors main()); written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "validation", "h100", "model", "liang_heldout5_h100.toml"), "w") as fh:
        fh.write(heldout5(262144, 1024, 512, 16, "../../../corpus/liang_heldout5.ptx",
                          "H100 validation spec of the fifth held-out kernels of `warpscope model` (docs/accuracy.md); "
                          "written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "corpus", "liang_heldout6.toml"), "w") as fh:
        fh.write(heldout6(16384, 512, 16, 12, 384, 24, 4, "liang_heldout6.ptx",
                          "Launch spec for liang_heldout6.cu (mirrors main()); written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "validation", "h100", "model", "liang_heldout6_h100.toml"), "w") as fh:
        fh.write(heldout6(262144, 512, 16, 32, 384, 24, 4, "../../../corpus/liang_heldout6.ptx",
                          "H100 validation spec of the sixth held-out kernels of `warpscope model` (docs/accuracy.md); "
                          "written by scripts/h100/model_specs.py."))

    with open(os.path.join(ROOT, "corpus", "liang_heldout7.toml"), "w") as fh:
        fh.write(heldout7(16384, 32, 4, 256, 256, 64, "liang_heldout7.ptx",
                          "Launch spec for liang_heldout7.cu (mirrors main()); written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "validation", "h100", "model", "liang_heldout7_h100.toml"), "w") as fh:
        fh.write(heldout7(262144, H7["maxwords"], H7["bases"], H7["lfsr_cap"], H7["pend_cap"], H7["halton_cap"],
                          "../../../corpus/liang_heldout7.ptx",
                          "H100 validation spec of the seventh held-out kernels of `warpscope model` (docs/accuracy.md); "
                          "written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "corpus", "liang_heldout8.toml"), "w") as fh:
        fh.write(heldout8(16384, 16, 4, 256, 256, 8, "liang_heldout8.ptx",
                          "Launch spec for liang_heldout8.cu (mirrors main()); written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "validation", "h100", "model", "liang_heldout8_h100.toml"), "w") as fh:
        fh.write(heldout8(262144, H8["maxrounds"], H8["values"], H8["logistic_cap"], H8["lorenz_cap"], H8["maxwords"],
                          "../../../corpus/liang_heldout8.ptx",
                          "H100 validation spec of the eighth held-out kernels of `warpscope model` (docs/accuracy.md); "
                          "written by scripts/h100/model_specs.py."))

    with open(os.path.join(ROOT, "corpus", "liang_heldout9.toml"), "w") as fh:
        fh.write(heldout9(16384, 256, 128, 4, 128, "liang_heldout9.ptx",
                          "Launch spec for liang_heldout9.cu (mirrors main()); written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "validation", "h100", "model", "liang_heldout9_h100.toml"), "w") as fh:
        fh.write(heldout9(262144, H9["kahan_terms"], H9["fib_steps"], H9["newton_vals"], H9["splitmix_cap"],
                          "../../../corpus/liang_heldout9.ptx",
                          "H100 validation spec of the ninth held-out kernels of `warpscope model` (docs/accuracy.md); "
                          "written by scripts/h100/model_specs.py."))


    with open(os.path.join(ROOT, "corpus", "liang_heldout10.toml"), "w") as fh:
        fh.write(heldout10(16384, 8, 4, 12, 16, 8, "liang_heldout10.ptx",
                           "Launch spec for liang_heldout10.cu (mirrors main()); written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "validation", "h100", "model", "liang_heldout10_h100.toml"), "w") as fh:
        fh.write(heldout10(262144, H10["setbits_words"], H10["cbrt_values"], H10["halley_deg"], H10["halley_cap"],
                           H10["polar_samples"], "../../../corpus/liang_heldout10.ptx",
                           "H100 validation spec of the tenth held-out kernels of `warpscope model` (docs/accuracy.md); "
                           "written by scripts/h100/model_specs.py."))

    with open(os.path.join(ROOT, "corpus", "liang_heldout11.toml"), "w") as fh:
        fh.write(heldout11(16384, 16, 2, 8, 8, 16, 4, "liang_heldout11.ptx",
                           "Launch spec for liang_heldout11.cu (mirrors main()); written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "validation", "h100", "model", "liang_heldout11_h100.toml"), "w") as fh:
        fh.write(heldout11(262144, H11["cheb_maxdeg"], H11["cheb_points"], H11["udiv_pairs"], H11["montexp_minbits"],
                           H11["montexp_spread"], H11["cordic_angles"], "../../../corpus/liang_heldout11.ptx",
                           "H100 validation spec of the eleventh held-out kernels of `warpscope model` (docs/accuracy.md); "
                           "written by scripts/h100/model_specs.py."))

    with open(os.path.join(ROOT, "corpus", "liang_heldout12.toml"), "w") as fh:
        fh.write(heldout12(16384, 8, 16, 2, 6, 4, 4, 8, 2, 8, 16, "liang_heldout12.ptx",
                           "Launch spec for liang_heldout12.cu (mirrors main()); written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "validation", "h100", "model", "liang_heldout12_h100.toml"), "w") as fh:
        fh.write(heldout12(262144, H12["strhash_minlen"], H12["strhash_spread"], H12["bounce_min"], H12["bounce_spread"],
                           H12["stein_pairs"], H12["rk4_minsteps"], H12["rk4_spread"], H12["rk4_runs"],
                           H12["gray_minsteps"], H12["gray_spread"], "../../../corpus/liang_heldout12.ptx",
                           "H100 validation spec of the twelfth held-out kernels of `warpscope model` (docs/accuracy.md); "
                           "written by scripts/h100/model_specs.py."))


if __name__ == "__main__":
    main()
