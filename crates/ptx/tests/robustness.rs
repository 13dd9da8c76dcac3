//! Pathological inputs: no panics, no stack overflow, and no super-linear blow-up.

use std::time::{Duration, Instant};

use warpscope_ptx::{ErrorKind, parse, render_errors};

const HEADER: &str = ".version 8.5\n.target sm_90\n.address_size 64\n";

fn timed(name: &str, src: &str) -> (usize, Duration) {
    let t = Instant::now();
    let (_, errors) = parse(src);
    let dt = t.elapsed();
    // Generous bound (debug build, shared CI machine); quadratic behaviour would take minutes.
    assert!(dt < Duration::from_secs(20), "{name}: {dt:?}");
    (errors.len(), dt)
}

#[test]
fn many_inline_asm_registers() {
    let n = 20_000;
    let names: Vec<String> = (0..n).map(|i| format!("t{i}")).collect();
    let mut body = format!(".reg .b32 {};\n", names.join(", "));
    for i in 0..n {
        body.push_str(&format!("add.s32 t{i}, t{}, 1;\n", (i * 7) % n));
    }
    let src = format!("{HEADER}.entry k() {{\n{{\n{body}}}\n}}\n");
    let (errors, _) = timed("inline asm registers", &src);
    assert_eq!(errors, 0);
}

#[test]
fn huge_vector_and_list_operands() {
    let regs = vec!["%r1"; 100_000].join(", ");
    let src = format!(
        "{HEADER}.entry k() {{\nmov.b32 {{{regs}}}, %r2;\ncall.uni ({regs}), f, ({regs});\n}}\n"
    );
    let (errors, _) = timed("vectors", &src);
    assert_eq!(errors, 0);
}

#[test]
fn many_errors_are_capped_and_render() {
    let body = "frob %r1;\n".repeat(50_000);
    let src = format!("{HEADER}.entry k() {{\n{body}}}\n");
    let (m, errors) = parse(&src);
    assert_eq!(m.functions().count(), 1);
    assert!(errors.len() <= warpscope_ptx::parser::MAX_ERRORS);
    assert!(
        errors
            .iter()
            .all(|e| e.kind == ErrorKind::UnknownInstruction)
    );
    let text = render_errors("many.ptx", &src, &errors[..10]);
    assert!(text.contains("unknown instruction 'frob'"));
}

#[test]
fn junk_runs() {
    for junk in [
        "@", "[", "(", "{", "}", ")", "]", ".", "%", "\"", "/*", "0f", "-", "!", "|", ";", ":",
        "\u{0}", "é",
    ] {
        let src = format!(
            "{HEADER}.entry k() {{\n{}\n}}\n{}",
            junk.repeat(200_000),
            junk.repeat(1000)
        );
        timed(junk, &src);
    }
}

#[test]
fn long_modifier_chains_and_tokens() {
    let src = format!(
        "{HEADER}.entry k() {{\nld{} %r1, [%r2];\nmov.u32 %r1, {};\n}}\n",
        ".global".repeat(10_000),
        "9".repeat(100_000)
    );
    let (errors, _) = timed("modifiers", &src);
    assert!(errors >= 2);
    let ident = format!("{HEADER}.entry {}() {{ ret; }}\n", "a".repeat(1_000_000));
    let (errors, _) = timed("long identifier", &ident);
    assert_eq!(errors, 0);
}

#[test]
fn no_header_and_empty_inputs() {
    for src in [
        "",
        " ",
        "\n\n",
        "//",
        "/**/",
        ".version",
        ".version 8.5",
        "}",
        "{",
        ".entry",
        ".entry k",
        ".entry k(",
        ".entry k()",
        ".entry k() {",
    ] {
        let (_m, _errors) = parse(src);
    }
}
