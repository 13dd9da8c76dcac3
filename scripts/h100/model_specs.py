#!/usr/bin/env python3
"""Write the launch specs of corpus/liang.cu: the corpus one (small: every corpus test runs it)
and the H100 validation one of `warpscope model` (2x the threads and longer loops, so each
kernel runs long enough on the GPU to time).

    python3 scripts/h100/model_specs.py      # writes corpus/liang.toml and validation/h100/model/liang_h100.toml
"""
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def spec(n, work, maxit, width, nw_lo, nw_span, module, title):
    g = n // 256
    out = [f"# {title}", f'module = "{module}"', ""]
    bufs = [
        ("field", "f32", 8 * n, None), ("mc_out", "f32", n, "liang_mc_out.bin"),
        ("cre", "f32", n, None), ("cim", "f32", n, None), ("val", "f32", width * n, None),
        ("x", "f32", n, None), ("y", "f32", n, "liang_ell_y.bin"), ("la", "i32", n, None),
        ("lb", "i32", n, None), ("score", "i32", n, "liang_nw_score.bin"),
        ("iters", "i32", n, "liang_escape_iters.bin"), ("len", "i32", n, None),
        ("col", "i32", width * n, None),
    ]
    for name, ty, ln, save in bufs:
        out += [f"[buffer.{name}]", f'type = "{ty}"', f"len = {ln}", 'init = "zeros"']
        if save:
            out.append(f'save = "{save}"')
        out.append("")

    def launch(k, grid, args):
        out.extend([
            "[[launch]]", f'kernel = "{k}"', f"grid = [{grid}, 1, 1]", "block = [256, 1, 1]",
            "shared_bytes = 0", f"args = [ {', '.join(args)} ]", "",
        ])

    b = lambda s: f'{{ buffer = "{s}" }}'
    u = lambda v: f"{{ u32 = {v} }}"
    i = lambda v: f"{{ i32 = {v} }}"
    f = lambda v: f"{{ f32 = {v} }}"
    launch("liang_fill_f32", 8 * g, [b("field"), u(1), f(0.0), f(1.0)])
    launch("liang_fill_i32", g, [b("la"), u(2), i(nw_lo), i(nw_span)])
    launch("liang_fill_i32", g, [b("lb"), u(3), i(nw_lo), i(nw_span)])
    launch("liang_fill_f32", g, [b("cre"), u(4), f(-2.0), f(0.5)])
    launch("liang_fill_f32", g, [b("cim"), u(5), f(-1.25), f(1.25)])
    launch("liang_fill_i32", g, [b("len"), u(6), i(0), i(width + 1)])
    launch("liang_fill_i32", width * g, [b("col"), u(7), i(0), i(n)])
    launch("liang_fill_f32", width * g, [b("val"), u(8), f(-1.0), f(1.0)])
    launch("liang_fill_f32", g, [b("x"), u(9), f(-1.0), f(1.0)])
    launch("liang_mc", g, [b("field"), b("mc_out"), i(n), f(0.5), i(work)])
    launch("liang_nw", g, [b("la"), b("lb"), b("score")])
    launch("liang_escape", g, [b("cre"), b("cim"), b("iters"), i(maxit)])
    launch("liang_ell", g, [b("len"), b("col"), b("val"), b("x"), b("y"), i(n), i(width)])
    return "\n".join(out)


def main():
    with open(os.path.join(ROOT, "corpus", "liang.toml"), "w") as fh:
        fh.write(spec(65536, 4, 64, 16, 4, 8, "liang.ptx",
                      "Launch spec for liang.cu (mirrors main()); written by scripts/h100/model_specs.py."))
    with open(os.path.join(ROOT, "validation", "h100", "model", "liang_h100.toml"), "w") as fh:
        fh.write(spec(131072, 8, 256, 32, 4, 16, "../../../corpus/liang.ptx",
                      "H100 validation spec of `warpscope model` (docs/accuracy.md); written by scripts/h100/model_specs.py."))


if __name__ == "__main__":
    main()
