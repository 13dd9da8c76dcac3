//! ptxas on a module rewritten so that each PTX instruction's `.loc` names its own PTX line
//! ([`warpscope_sass::compile_by_ptx_line`]): every SASS instruction ptxas emits for the module's
//! code must come back under a PTX line that holds an instruction, and the PTX instructions that
//! lower to one known SASS instruction must be found there. Only ptxas is needed; without it the
//! test says SKIPPED where the harness does not capture it.

use std::io::Write;
use std::path::PathBuf;
use warpscope_sass::{Toolchain, compile, compile_by_ptx_line};

#[test]
fn sass_comes_back_under_the_ptx_line_it_was_made_from() {
    let Some(ptxas) = warpscope_frontend::toolchain::find_cuda_tool("ptxas") else {
        let _ = writeln!(
            std::io::stderr(),
            "\nSKIPPED warpscope-sass ptx_lines: ptxas not found (pip install \
             nvidia-cuda-nvcc==13.0.88)\n"
        );
        return;
    };
    let tools = Toolchain::ptxas_only(ptxas);
    let ptx = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/lowering.ptx"),
    )
    .expect("lowering.ptx");
    // instruction lines, read the simple way nvcc's output allows: inside a function body, a
    // statement that is not a directive, label, brace or comment
    let mut lines = Vec::new();
    let mut depth = 0;
    for (i, l) in ptx.lines().enumerate() {
        let t = l.trim();
        if t.starts_with('{') {
            depth += 1;
        }
        let statement = !(t.is_empty()
            || t.starts_with('.')
            || t.starts_with("//")
            || t.starts_with('{')
            || t.starts_with('}')
            || t.ends_with(':'));
        if depth > 0 && statement {
            lines.push(i as u32 + 1);
        }
        if t.starts_with('}') {
            depth -= 1;
        }
    }
    let by_line = compile_by_ptx_line(&tools, &ptx, &lines, "sm_90").expect("ptxas");
    let plain = compile(&tools, &ptx, "sm_90").expect("ptxas");
    // the same code: as many instructions per function as the unmodified module's
    for f in &plain.functions {
        let n = by_line
            .functions
            .get(&f.name)
            .map_or(0, |l| l.values().map(Vec::len).sum::<usize>());
        let padding = f
            .instructions
            .iter()
            .filter(|i| i.opcode == "NOP" || i.source.is_none())
            .count();
        assert!(
            n + padding >= f.instructions.len() && n <= f.instructions.len(),
            "{}: {n} attributed of {} ({padding} padding)",
            f.name,
            f.instructions.len()
        );
    }
    // every attributed line starts an instruction
    for (f, l) in &by_line.functions {
        for line in l.keys() {
            assert!(
                lines.contains(line),
                "{f}: SASS at PTX line {line}, no instruction"
            );
        }
    }
    // each `ld.global` line holds an LDG, each `st.global` line an STG
    let mut seen = 0;
    for (i, l) in ptx.lines().enumerate() {
        let t = l.trim_start();
        let want = if t.starts_with("ld.global") {
            "LDG"
        } else if t.starts_with("st.global") {
            "STG"
        } else {
            continue;
        };
        let line = i as u32 + 1;
        let found = by_line.functions.values().any(|f| {
            f.get(&line)
                .is_some_and(|ops| ops.iter().any(|o| o == want))
        });
        assert!(found, "line {line} `{}`: no {want}", t.trim());
        seen += 1;
    }
    assert!(seen > 4, "the module has global loads and stores");
}
