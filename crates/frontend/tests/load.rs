//! Loading: name errors are reported together with file:line:col, and `.cu` inputs compile
//! through nvcc when it is installed (CI installs it; elsewhere the test says it skipped).

use std::path::{Path, PathBuf};
use warpscope_frontend::{
    CompileOptions, InputKind, ModuleError, PtxSource, find_compiler, load_module, lower_source,
};

fn ptx(name: &str, text: &str) -> PtxSource {
    PtxSource {
        input: PathBuf::from(name),
        display_name: name.to_string(),
        text: text.to_string(),
        kind: InputKind::Ptx,
    }
}

fn rendered(text: &str) -> String {
    match lower_source(ptx("bad.ptx", text)) {
        Err(ModuleError::Invalid {
            rendered, count, ..
        }) => format!("{count} error(s)\n{rendered}"),
        Err(e) => panic!("unexpected error kind: {e}"),
        Ok(_) => panic!("expected errors"),
    }
}

const HEADER: &str = ".version 9.0\n.target sm_90\n.address_size 64\n";

#[test]
fn undeclared_names_are_all_reported() {
    let text = format!(
        "{HEADER}.visible .entry k(.param .u64 k_p)\n{{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r1, %r7;\n\
         \tld.param.u64 %rd1, [k_q];\n\tbra.uni nowhere;\nhere:\nhere:\n\tret;\n}}\n"
    );
    insta::assert_snapshot!(rendered(&text));
}

#[test]
fn syntax_errors_stop_before_lowering() {
    let text = format!("{HEADER}.visible .entry k()\n{{\n\tfrobnicate.u32 %r1;\n\tret\n}}\n");
    let out = rendered(&text);
    assert!(out.contains("bad.ptx:6:2"), "{out}");
    assert!(
        out.contains("2 error(s)"),
        "both errors are reported: {out}"
    );
}

#[test]
fn duplicate_definitions_are_errors() {
    let text = format!(
        "{HEADER}.visible .entry k()\n{{\n\tret;\n}}\n.visible .entry k()\n{{\n\tret;\n}}\n"
    );
    insta::assert_snapshot!(rendered(&text));
}

#[test]
fn missing_file_is_a_read_error() {
    let err = load_module(Path::new("/nonexistent/k.ptx"), &CompileOptions::default())
        .expect_err("must fail");
    assert!(
        err.to_string().contains("cannot read /nonexistent/k.ptx"),
        "{err}"
    );
}

#[test]
fn cuda_input_compiles_with_nvcc() {
    let compiler = match find_compiler(None) {
        Ok(c) => c,
        Err(e) => {
            if std::env::var_os("CI").is_some() {
                panic!("CI must install nvcc (.ci/run does): {e}");
            }
            eprintln!("SKIPPED cuda_input_compiles_with_nvcc: no CUDA compiler found ({e})");
            return;
        }
    };
    let cu = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/loops.cu");
    let loaded = load_module(&cu, &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{compiler:?} failed: {e}"));
    assert!(loaded.module.kernels().count() >= 1);
    // The source map reads the .cu back so reports can quote it.
    let (idx, _) = loaded.module.files[0].clone();
    let file = loaded.source_map.file(idx).expect(".file entry");
    assert!(file.text().is_some(), "source {} not found", file.name);
    // Lines carried by .loc point into that file.
    let f = loaded.module.kernels().next().unwrap().1;
    let line = f.insts.values().find_map(|i| i.loc).unwrap().line;
    assert!(loaded.source_map.line(idx, line).is_some());
}

#[test]
fn missing_explicit_compiler_is_reported() {
    let opts = CompileOptions {
        compiler: Some(PathBuf::from("/nonexistent/nvcc")),
        ..Default::default()
    };
    let cu = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/loops.cu");
    let err = load_module(&cu, &opts).expect_err("must fail");
    assert!(err.to_string().contains("/nonexistent/nvcc"), "{err}");
}

#[test]
fn cuda_input_compiles_with_clang() {
    let clang = ["clang-19", "clang"].iter().find_map(|n| {
        std::env::var_os("PATH").and_then(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join(n))
                .find(|c| c.is_file())
        })
    });
    let Some(clang) = clang else {
        eprintln!("SKIPPED cuda_input_compiles_with_clang: no clang on PATH");
        return;
    };
    let opts = CompileOptions {
        compiler: Some(clang.clone()),
        ..Default::default()
    };
    let cu = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/strided.cu");
    match load_module(&cu, &opts) {
        Ok(loaded) => assert!(loaded.module.kernels().count() >= 1),
        // clang without any CUDA installation cannot compile CUDA at all; that is the
        // environment, not warpscope.
        Err(e) if e.to_string().contains("cannot find CUDA installation") => {
            eprintln!("SKIPPED cuda_input_compiles_with_clang: {clang:?} finds no CUDA: {e}");
        }
        Err(e) => panic!("{clang:?} failed: {e}"),
    }
}
